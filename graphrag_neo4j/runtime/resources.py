"""Loads the shipped Cypher statements (and picks the schema ones still to run) and prompt
templates by name; makes private folders.

Everything the engine writes for itself (caches, models, the local server's home and its
password) may hold a user's data or secrets, so it is created user-only (0700 / 0600).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Collection, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path

from graphrag_neo4j.runtime.errors import ConfigError

_NAME = re.compile(r"^[a-z0-9_/]+$")
_REPO_ROOT = Path(__file__).resolve().parents[2]


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


def load_prompt(name: str, overrides_dir: Path | None = None) -> str:
    """The text of prompts/NAME.txt, taken from `overrides_dir` when the user has one there."""
    file_name = f"{_checked(name)}.txt"
    if overrides_dir is not None and (overrides_dir / file_name).is_file():
        return (overrides_dir / file_name).read_text(encoding="utf-8")
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


def all_cypher_names() -> list[str]:
    """Every statement name under cypher/, including sub-folders (for EXPLAIN tests)."""
    root = cypher_dir()
    return sorted(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.cypher"))


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
