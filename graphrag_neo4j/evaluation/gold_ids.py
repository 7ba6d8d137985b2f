"""A question set's gold passage references matched to the graph's documents: by document id,
or by the source file (name or path) the document was indexed from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.console import Console

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.evaluation.retrieval import EvalQuestion
from graphrag_neo4j.runtime.errors import InputError

# References shown when some match nothing: enough to recognise the kind of id.
SHOWN_REFS = 3


@dataclass(frozen=True)
class GoldMatch:
    """Each reference's document id where exactly one document answers to it; those matched
    only through their source; those no document answers to, and those several do."""

    document_of: dict[str, str]
    by_source: int = 0
    unmatched: list[str] = field(default_factory=list)
    ambiguous: dict[str, int] = field(default_factory=dict)


def questions_in_graph(
    store: Store, items: Sequence[EvalQuestion], questions_file: Path, console: Console,
    refuse: bool = True,
) -> list[EvalQuestion]:
    """The questions with their gold references as the graph's document ids, and a note for
    each kind of reference that is not one; with `refuse` (recall), the questions none of
    whose references names a document are left out, and a run with none left is refused."""
    match = match_gold(store, gold_references(items))
    kept, refused = questions_with_gold(items, match) if refuse \
        else (with_document_ids(items, match), [])
    for note in match_notes(match, refused):
        console.print(note, style="yellow")
    if refuse:
        require_some_gold(kept, match, questions_file)
    return kept


def gold_references(items: Sequence[EvalQuestion]) -> list[str]:
    """Every gold reference of the questions, once, in order."""
    return list(dict.fromkeys(ref for item in items for ref in item.gold))


def match_gold(store: Store, refs: Sequence[str]) -> GoldMatch:
    """Look every reference up in the graph: its document id, else its unique source."""
    if not refs:
        return GoldMatch({})
    rows = store.read("evaluation/gold_documents", refs=list(refs))
    document_of: dict[str, str] = {}
    by_source, unmatched, ambiguous = 0, [], {}
    for row in rows:
        ref, sources = str(row["ref"]), list(row["by_source"])
        if row["by_id"] is not None:
            document_of[ref] = str(row["by_id"])
        elif len(sources) == 1:
            document_of[ref], by_source = str(sources[0]), by_source + 1
        elif sources:
            ambiguous[ref] = len(sources)
        else:
            unmatched.append(ref)
    return GoldMatch(document_of, by_source, unmatched, ambiguous)


def with_document_ids(items: Sequence[EvalQuestion], match: GoldMatch) -> list[EvalQuestion]:
    """The questions with each matched reference replaced by its document id; one matching
    nothing stays as given, so it counts as a passage no method found."""
    return [replace(item, gold=[match.document_of.get(ref, ref) for ref in item.gold])
            for item in items]


def questions_with_gold(
    items: Sequence[EvalQuestion], match: GoldMatch
) -> tuple[list[EvalQuestion], list[str]]:
    """The questions at least one of whose gold references names a document, and the ids of
    those refused because none does (they would score 0 whatever a method ranks)."""
    kept, refused = [], []
    for item in items:
        if any(ref in match.document_of for ref in item.gold):
            kept.append(item)
        else:
            refused.append(item.id)
    return with_document_ids(kept, match), refused


def match_notes(match: GoldMatch, refused: Sequence[str] = ()) -> list[str]:
    """One sentence per thing a user should know about the matching, none when every
    reference was a document id."""
    notes = []
    if match.by_source:
        notes.append(f"{match.by_source} gold reference(s) matched a document by its source"
                     " file, not its id.")
    if match.unmatched:
        notes.append(f"{len(match.unmatched)} gold reference(s) name no document of the graph"
                     f" ({_shown(match.unmatched)}): they count as passages not found.")
    if match.ambiguous:
        notes.append(f"{len(match.ambiguous)} gold reference(s) name several documents"
                     f" ({_shown(list(match.ambiguous))}): give a path or a document id;"
                     " they count as passages not found.")
    if refused:
        notes.append(f"{len(refused)} question(s) left out, none of their gold references"
                     f" naming a document of the graph ({_shown(list(refused))}).")
    return notes


def require_some_gold(kept: Sequence[EvalQuestion], match: GoldMatch, questions: Path) -> None:
    """Refuse a run where no question has a gold passage in the graph: it would print 0."""
    if kept:
        return
    shown = _shown(match.unmatched or list(match.ambiguous))
    example = f" ({shown})" if shown else ""
    raise InputError(
        f"No gold reference in {questions} names a document of the graph{example}: give"
        " document ids (`graphrag-neo4j documents`), source file names or paths, or index the"
        " corpus the questions were written for."
    )


def _shown(refs: Sequence[str]) -> str:
    more = f", ... {len(refs) - SHOWN_REFS} more" if len(refs) > SHOWN_REFS else ""
    return ", ".join(repr(ref) for ref in refs[:SHOWN_REFS]) + more
