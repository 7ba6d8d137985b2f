"""Loads the shipped Cypher statements (and picks the schema ones still to run) and prompt
templates by name; makes private folders.

Everything the engine writes for itself (caches, models, the local server's home and its
password) may hold a user's data or secrets, so it is created user-only (0700 / 0600).
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Collection, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path

from graphrag_neo4j.runtime.errors import ConfigError

# A name is lower-case segments joined by `/` (a file in a sub-folder): never `..`, a leading
# or trailing `/`, an empty segment or anything else that could leave the folder.
_NAME = re.compile(r"^[a-z0-9_]+(?:/[a-z0-9_]+)*$")
_REPO_ROOT = Path(__file__).resolve().parents[2]
logger = logging.getLogger(__name__)

# Prompts were flat files (prompts/hops_answer.txt) before they had rooms of their own. A
# prompts folder that `graphrag-neo4j init` of an older release wrote holds those flat names:
# each is still read in place of its new name, with a deprecation line. Old name -> new name.
MOVED_PROMPTS: dict[str, str] = {
    "extract_graph": "indexing/extract_graph",
    "glean_graph": "indexing/glean_graph",
    "resolve_entities": "indexing/resolve_entities",
    "summarize_descriptions": "indexing/summarize_descriptions",
    "community_report": "communities/report",
    "community_report_retry": "communities/report_retry",
    "judge_pairwise": "evaluation/judge_pairwise",
    "probe_extraction": "cli/probe_extraction",
    "probe_reading": "cli/probe_reading",
    "hops_answer": "query/answers/hops",
    "local_answer": "query/answers/local",
    "naive_answer": "query/answers/naive",
    "ppr_answer": "query/answers/ppr",
    "cypher_answer": "query/cypher/answer",
    "cypher_examples": "query/cypher/examples",
    "cypher_found_nothing": "query/cypher/found_nothing",
    "cypher_generate": "query/cypher/generate",
    "cypher_repair": "query/cypher/repair",
    "cypher_unknown_names": "query/cypher/unknown_names",
    "drift_followup": "query/drift/followup",
    "drift_hyde": "query/drift/hyde",
    "drift_primer": "query/drift/primer",
    "drift_reduce": "query/drift/reduce",
    "global_map": "query/global_search/map",
    "global_rate": "query/global_search/rate",
    "global_reduce": "query/global_search/reduce",
    "hops_follow_up": "query/hops/follow_up",
    "hops_ner": "query/hops/ner",
    "hops_rerank": "query/hops/rerank",
}
_OLD_PROMPT_NAME = {new: old for old, new in MOVED_PROMPTS.items()}
_WARNED_OLD_OVERRIDES: set[Path] = set()


def _resource_dir(kind: str) -> Path:
    """The folder of `kind` inside the wheel, or the repo folder in an editable install."""
    packaged = Path(str(files("graphrag_neo4j") / kind))
    return packaged if packaged.is_dir() else _REPO_ROOT / kind


def cypher_dir() -> Path:
    """Folder holding every `.cypher` file the engine runs."""
    return _resource_dir("cypher")


def prompts_dir() -> Path:
    """Folder holding the default prompt templates."""
    return _resource_dir("prompts")


def _checked(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"invalid resource name {name!r}")
    return name


@cache
def load_cypher(name: str) -> str:
    """The text of cypher/NAME.cypher."""
    path = cypher_dir() / f"{_checked(name)}.cypher"
    if not path.is_file():
        raise FileNotFoundError(f"no Cypher statement named {name!r} in {cypher_dir()}")
    return path.read_text(encoding="utf-8")


def _override(name: str, overrides_dir: Path) -> Path | None:
    """The user's copy of prompt NAME: OVERRIDES/NAME.txt, else the file of its old flat name
    (MOVED_PROMPTS; a deprecation line the first time), else None."""
    path = overrides_dir / f"{name}.txt"
    if path.is_file():
        return path
    old = _OLD_PROMPT_NAME.get(name)
    flat = overrides_dir / f"{old}.txt" if old else None
    if flat is None or not flat.is_file():
        return None
    if flat not in _WARNED_OLD_OVERRIDES:
        _WARNED_OLD_OVERRIDES.add(flat)
        logger.warning("Prompt override %s has an old name: move it to %s.", flat, path)
    return flat


def load_prompt(name: str, overrides_dir: Path | None = None) -> str:
    """The text of prompts/NAME.txt, taken from `overrides_dir` when the user has one there."""
    file_name = f"{_checked(name)}.txt"
    override = _override(name, overrides_dir) if overrides_dir is not None else None
    if override is not None:
        return override.read_text(encoding="utf-8")
    path = prompts_dir() / file_name
    if not path.is_file():
        raise ConfigError(
            f"Prompt {name!r} is missing from {prompts_dir()}; reinstall the package."
        )
    return path.read_text(encoding="utf-8")


def split_statements(script: str) -> list[str]:
    """Statements of a multi-statement file, split on `;` at line ends, comments dropped."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("//")]
    parts = re.split(r";\s*$", "\n".join(lines), flags=re.MULTILINE)
    return [part.strip() for part in parts if part.strip()]


# `CREATE [VECTOR|FULLTEXT|...] INDEX|CONSTRAINT name IF NOT EXISTS` and `DROP INDEX|CONSTRAINT
# name IF EXISTS`: idempotent statements naming the one object they create or drop.
_CREATES = re.compile(r"^\s*CREATE\s+(?:\w+\s+)?(?:INDEX|CONSTRAINT)\s+(\w+)\s+IF\s+NOT\s+EXISTS",
                      flags=re.IGNORECASE)
_DROPS = re.compile(r"^\s*DROP\s+(?:INDEX|CONSTRAINT)\s+(\w+)\s+IF\s+EXISTS",
                    flags=re.IGNORECASE)


def statements_to_run(statements: Sequence[str], existing: Collection[str]) -> list[str]:
    """The statements that would change something: a create of a name the graph lacks, a drop
    of one it has, and any statement of another form. Each would be a no-op otherwise, yet
    costs a round trip and a schema transaction (on every run's start)."""
    kept = []
    for statement in statements:
        created, dropped = _CREATES.match(statement), _DROPS.match(statement)
        if created and created.group(1) in existing:
            continue
        if dropped and dropped.group(1) not in existing:
            continue
        kept.append(statement)
    return kept


def schema_changes(statements: Sequence[str], existing: Collection[str]) -> list[str]:
    """The names `statements_to_run` would create or drop, in the statements' order: none when
    the graph already holds what the statements make."""
    names = []
    for statement in statements_to_run(statements, existing):
        found = _CREATES.match(statement) or _DROPS.match(statement)
        if found:
            names.append(found.group(1))
    return names


def _names_under(root: Path, suffix: str) -> list[str]:
    return sorted(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob(f"*{suffix}"))


def all_prompt_names() -> list[str]:
    """Every prompt name under prompts/, including sub-folders (`query/hops/follow_up`)."""
    return _names_under(prompts_dir(), ".txt")


def all_cypher_names() -> list[str]:
    """Every statement name under cypher/, including sub-folders (for EXPLAIN tests)."""
    return _names_under(cypher_dir(), ".cypher")


PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) user-only; an existing folder is narrowed too."""
    path.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(PRIVATE_DIR_MODE)
    return path


def append_private(path: Path, text: str) -> None:
    """Append `text` to a user-only file in one write, so records that processes append at
    the same time never interleave (O_APPEND: each write lands whole at the end)."""
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE_MODE)
    try:
        if os.fstat(fd).st_mode & 0o077:  # a log made before logs were private
            os.fchmod(fd, PRIVATE_FILE_MODE)
        data = memoryview(text.encode("utf-8", "backslashreplace"))
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)


def write_private(path: Path, text: str) -> None:
    """Write a user-only file atomically (a reader never sees it half-written or readable)."""
    private_dir(path.parent)
    # A temporary name of its own (mkstemp: user-only, never shared by two writers, threads
    # of one process included), then renamed over the target in one step.
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        Path(temp).replace(path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
