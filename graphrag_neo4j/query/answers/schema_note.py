"""The note an answer carries when the graph's schema is older than this release's."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_neo4j.query.base import Note

# Enough names to say what is missing without a long line.
NAMES_SHOWN = 3


def schema_lag_note(pending: Sequence[str], workspace: str) -> Note:
    """How to bring the graph's indexes up to date, naming what `init-db` would change."""
    shown = ", ".join(pending[:NAMES_SHOWN])
    more = f" and {len(pending) - NAMES_SHOWN} more" if len(pending) > NAMES_SHOWN else ""
    option = f" --workspace {workspace}" if workspace else ""
    return Note.info(
        f"This graph's indexes are older than this release's ({shown}{more} to create or"
        f" drop): run `graphrag-neo4j init-db{option}` to update them; until then some"
        " lookups read every passage instead of an index."
    )
