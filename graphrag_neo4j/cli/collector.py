"""How the command line's process runs Python's garbage collector: seldom, and not at exit."""

from __future__ import annotations

import gc

# A run allocates millions of short-lived objects (parses, rows, messages) beside a large heap
# of models and classes that live until exit. Python's default starts a young collection every
# 700 allocations and a full one after 100 of them; on the book's cold index that is ~850
# collections and 0.6 s, against ~60 and 0.16 s at these thresholds.
YOUNG_ALLOCATIONS = 10_000
OLDER_EVERY = 10


def collect_seldom() -> None:
    """Collect cycles less often than Python's default does (memory of cycles: a few MB)."""
    gc.set_threshold(YOUNG_ALLOCATIONS, OLDER_EVERY, OLDER_EVERY)


def skip_final_collection() -> None:
    """Spare the interpreter's last collection, which walks every object the command loaded
    (spaCy's model, LangChain's classes: up to a second of a short command's wall time) only
    to free memory the process hands back on exit anyway. Nothing is lost: what the engine
    opens it closes itself, and atexit hooks (log handlers, temporary folders) still run."""
    gc.freeze()
