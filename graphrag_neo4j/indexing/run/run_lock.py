"""One index run at a time over the same input documents: an overlapping one waits, and says so.

Two runs given the same documents (the same command started twice, say) both found them not
yet indexed, and both wrote them: two overlapping fast runs of 8 documents wrote 477 entities,
1,728 relations and 9 duplicate name keys where the same runs in sequence wrote 464, 1,419 and
4. The run now holds a lock named after its input for its whole length, so the second run
starts when the first is done and finds its documents indexed, as it would in sequence. Runs
over other documents (the shards of `index --shard I/N`) have other names and go on at once;
the batch lock (`Store.exclusive("graph")`) still makes their writes take turns. Runs over
inputs that only partly overlap are not serialised by this.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.indexing.run.warning_digest import TELL_NOW

logger = logging.getLogger(__name__)
RUN_LOCK_PREFIX = "index-run:"
# Taking a free lock takes well under this; past it, another run over the same input holds it.
WAIT_NOTICE_S = 3.0


def run_lock_name(documents: Sequence[Document]) -> str:
    """The lock of a run over these documents: the same for the same ids, in any order."""
    ids = "\n".join(sorted(d.id for d in documents))
    return RUN_LOCK_PREFIX + hashlib.sha256(ids.encode("utf-8", "surrogatepass")).hexdigest()


@contextmanager
def one_run_per_input(store: Store, documents: Sequence[Document]) -> Iterator[None]:
    """Hold the run lock of `documents` for the block; one line if another run holds it."""
    if not documents:
        yield
        return
    notice = threading.Timer(WAIT_NOTICE_S, logger.warning, (
        "Another index run over these same %d documents is under way: this run waits for it "
        "to finish, then indexes only what it left undone.", len(documents)),
        {"extra": TELL_NOW})
    notice.daemon = True
    notice.start()
    try:
        with store.exclusive(run_lock_name(documents)):
            notice.cancel()
            yield
    finally:
        notice.cancel()
