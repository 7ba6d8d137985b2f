"""Each Cypher rewrite left out in turn, on structured questions the rewrites were not written for.

The questions (benchmarks/data/rewrite_questions.json) are about three graphs that
benchmarks/query/rewrite_graphs.py builds (2Wiki and biomedical passages with fast extraction, the
Operation Dulce import); each carries hand-written gold Cypher, and the gold answer is its rows,
read at run time (and checked against the `gold` stored beside it). Per question the cypher
method builds its context with every rewrite (the baseline of the same run), then once with each
rewrite left out. A question is right when the rows of the query that answered hold the gold
answer (the gold count, or at least half of the gold names: benchmarks/query/text2cypher.py's rule);
a fallback to local search counts as wrong. The answer call is not made: it reads those rows and
no rewrite changes it, and on the shared CPU it would cost most of the run.
Run against a Neo4j of its own (each graph wipes the last; the LLM response cache makes a
re-run cost only the calls a left-out rewrite changes):
    .venv/bin/python -m benchmarks.query.cypher_rewrites [--graphs 2wiki,dulce,biomed] [--limit N]
        [--per-question out.jsonl] [--baseline-only]
    .venv/bin/python -m benchmarks.query.cypher_rewrites --report out.jsonl   (the table again)
The table before the pruning (nine rewrites) is this script at commit 295e074; the list now
holds the four that turned an answer right there. Each graph build reads a schema whose samples
can differ from the last build's, so the generate prompt (and the model's query) can differ
between runs: compare lists within one run, as the table does.
Per rewrite it prints the questions it turned from wrong to right (and right to wrong), the
errors it prevented (a refused or failing query the run without it met and the run with it
did not), and the seconds of each run beside the baseline's (which pays the calls the runs
after it find in the cache: a ratio well under 1 is the cache, not the rewrite).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.query.rewrite_graphs import GRAPHS, build_graph
from benchmarks.query.text2cypher import gold_values, is_right
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.cypher.rewrites.registry import REWRITES, without
from graphrag_neo4j.query.cypher.search import CYPHER, RESULTS, CypherSearch

QUESTIONS = Path(__file__).resolve().parents[1] / "data" / "rewrite_questions.json"
ALL = "all rewrites"
ERRORS = ("refused", "failed")


@dataclass
class Run:
    """One question under one list of rewrites."""

    right: bool
    errors: int  # attempts refused or failed
    fallback: bool
    seconds: float
    queries: list[str] = field(default_factory=list)


def ask(rag: GraphRAG, method: CypherSearch, question: dict[str, Any], gold: list[str]) -> Run:
    """The method's context for the question, judged by the rows that answered."""
    started = time.perf_counter()
    query = make_query(rag.settings, question["question"], response_type="Single Sentence")
    context = asyncio.run(method.build_context(query))
    seconds = time.perf_counter() - started
    record = context.sources[CYPHER][0]
    fallback = RESULTS not in context.sources
    right = not fallback and is_right(question["kind"], gold, context.text)
    return Run(right, sum(a["status"] in ERRORS for a in record["attempts"]), fallback, seconds,
               [a["query"] for a in record["attempts"]])


def main() -> None:
    """Build each graph, ask its questions under every list, print the per-rewrite table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--graphs", default=",".join(GRAPHS))
    parser.add_argument("--limit", type=int, default=0, help="first N questions of each graph")
    parser.add_argument("--per-question", type=Path, help="write one JSON line per run")
    parser.add_argument("--report", type=Path,
                        help="only print the table of an earlier run's --per-question file")
    parser.add_argument("--baseline-only", action="store_true",
                        help="only the run with every rewrite (the accuracy, no table)")
    args = parser.parse_args()
    if args.report:
        report(read_runs(args.report))
        return
    lists = {ALL: REWRITES}
    if not args.baseline_only:
        lists |= {rewrite.name: without([rewrite.name]) for rewrite in REWRITES}
    runs: dict[str, dict[str, Run]] = {name: {} for name in lists}
    out = args.per_question.open("w", encoding="utf-8") if args.per_question else None
    with GraphRAG(console=Console(stderr=True, quiet=True)) as rag:
        method = rag.query_method("cypher")
        assert isinstance(method, CypherSearch)
        for graph in args.graphs.split(","):
            build_graph(rag, graph)
            questions = [q for q in json.loads(QUESTIONS.read_text()) if q["graph"] == graph]
            for question in questions[: args.limit or None]:
                gold = gold_values(rag, question["gold_cypher"])
                if question.get("gold") is not None and sorted(gold) != sorted(question["gold"]):
                    print(f"{question['id']}: the gold rows differ from the stored gold answer")
                for name, rewrites in lists.items():
                    method.rewrites = rewrites
                    run = runs[name][question["id"]] = ask(rag, method, question, gold)
                    if out:
                        out.write(json.dumps({"id": question["id"], "left_out": name,
                                              **run.__dict__}) + "\n")
                        out.flush()
                base = runs[ALL][question["id"]]
                print(f"{question['id']:<4} {'right' if base.right else 'wrong':<5}"
                      f" {base.seconds:6.1f} s  {base.queries[-1][:100]!r}", flush=True)
    report(runs)


def read_runs(path: Path) -> dict[str, dict[str, Run]]:
    """The runs of a --per-question file, by list and question."""
    runs: dict[str, dict[str, Run]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        qid, name = row.pop("id"), row.pop("left_out")
        runs.setdefault(name, {})[qid] = Run(**row)
    return runs


def report(runs: dict[str, dict[str, Run]]) -> None:
    """Accuracy with every rewrite, and per rewrite what leaving it out changed."""
    base = runs[ALL]
    total = len(base)
    right = sum(run.right for run in base.values())
    seconds = sum(run.seconds for run in base.values())
    print(f"\n{total} questions; with every rewrite: {right}/{total} right,"
          f" {sum(r.errors > 0 for r in base.values())} met an error,"
          f" {sum(r.fallback for r in base.values())} fell back to local; {seconds:.0f} s")
    print(f"{'rewrite':<16} {'queries changed':>15} {'wrong->right':>12} {'right->wrong':>12}"
          f" {'errors prevented':>16} {'accuracy without':>16} {'seconds vs baseline':>20}")
    for name, by_id in runs.items():
        if name == ALL:
            continue
        gains: Counter[str] = Counter()
        for qid, run in by_id.items():
            with_it = base[qid]
            gains["fixed"] += with_it.right and not run.right
            gains["broke"] += run.right and not with_it.right
            gains["prevented"] += run.errors > 0 and with_it.errors == 0
            gains["changed"] += run.queries != with_it.queries
        own = sum(run.seconds for run in by_id.values())
        print(f"{name:<16} {gains['changed']:>15} {gains['fixed']:>12} {gains['broke']:>12}"
              f" {gains['prevented']:>16}"
              f" {sum(r.right for r in by_id.values()):>13}/{total}"
              f" {own / max(seconds, 1e-9):>19.2f}x")


if __name__ == "__main__":
    main()
