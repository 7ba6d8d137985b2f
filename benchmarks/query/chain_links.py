"""How well each graph links the passages a multi-hop question chains: the share of its
supporting passages' pairs that name a common entity, and of questions whose supporting
passages are all linked, workspace beside workspace (the same questions, one run).

  .venv/bin/python benchmarks/query/chain_links.py --workspaces mtrip mfast \
      --questions ../shared/data/musique/questions_dev.json

The questions file is `eval retrieval`'s (`supporting_passage_ids` per question). Entities
count as hops' bridges do: named entities (not concepts) named by at most
`search.hops.bridge_max_passages` passages. A pair no entity links can only be reached by
similarity or an LLM step, never by one hop of the graph.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.engine import GraphRAG


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspaces", nargs="+", required=True)
    parser.add_argument("--questions", type=Path, required=True)
    return parser.parse_args()


def supporting_passages(path: Path) -> list[list[str]]:
    """Each question's supporting passage ids (questions with fewer than two are skipped)."""
    questions = json.loads(path.read_text(encoding="utf-8"))
    found = [list(dict.fromkeys(q.get("supporting_passage_ids") or ())) for q in questions]
    return [ids for ids in found if len(ids) >= 2]


def linked_figures(rag: GraphRAG, questions: list[list[str]]) -> dict[str, float]:
    """Pairs linked and questions whose passages each share an entity with another of them."""
    pairs = sorted({pair for ids in questions for pair in itertools.combinations(ids, 2)})
    rows = rag.store.read(
        "bench/documents_sharing_entities", pairs=[list(pair) for pair in pairs],
        concept_type=rag.settings.extraction.fast.concept_type,
        max_passages=rag.settings.search.hops.bridge_max_passages,
    )
    linked = {frozenset((row["first"], row["second"])) for row in rows if row["shared"] > 0}
    chained = sum(
        all(any(frozenset((a, b)) in linked for b in ids if b != a) for a in ids)
        for ids in questions
    )
    return {"pairs": len(pairs), "linked": len(linked), "questions": len(questions),
            "chained": chained}


def main() -> None:
    args = _arguments()
    questions = supporting_passages(args.questions)
    table = Table(title=f"Supporting passages linked by a shared entity ({args.questions.name})")
    for column in ("workspace", "pairs linked", "%", "questions all linked", "%"):
        table.add_column(column, justify="left" if column == "workspace" else "right")
    for workspace in args.workspaces:
        rag = GraphRAG(workspace=workspace)
        try:
            got = linked_figures(rag, questions)
        finally:
            rag.close()
        table.add_row(
            workspace, f"{got['linked']:,} / {got['pairs']:,}",
            f"{100 * got['linked'] / max(got['pairs'], 1):.1f}",
            f"{got['chained']:,} / {got['questions']:,}",
            f"{100 * got['chained'] / max(got['questions'], 1):.1f}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
