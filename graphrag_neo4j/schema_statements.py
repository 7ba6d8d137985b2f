"""Which statements of the schema file still have work to do, given the names the graph has."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

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
