"""Structured questions (counting, listing, path): `cypher` beside `local` with the offline model.

Each question of benchmarks/data/structured_questions.json carries a hand-written gold Cypher
query; its rows, read from the graph at run time, are the gold answer. An answer is right when
it states the gold count (counting) or names at least half of the gold names (listing, path).
Index the graph the questions are about first (`graph`: `book` is
`graphrag-neo4j index sample/a_christmas_carol.txt --method fast`, `musique` is
`graphrag-neo4j index --triplets ../shared/data/musique/corpus.jsonl`), then run:
    .venv/bin/python benchmarks/query/text2cypher.py --graph book --limit 6
The offline 1.5B model is slow: --limit measures the first N questions. Also reported: how
often the guard refused a generated query, the repair ran, and cypher fell back to local;
and whether the graph is the same after the run, by a hash of every node and relationship
with its labels, type and properties (benchmarks/query/fingerprint.py), not only by counts.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path

from benchmarks.query.fingerprint import graph_fingerprint
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.query.cypher.guard import Refusal, check_plan

QUESTIONS = Path(__file__).resolve().parents[1] / "data" / "structured_questions.json"


def gold_values(rag: GraphRAG, query: str) -> list[str]:
    """The gold answer: every value of the gold query's rows (the query is guarded too)."""
    checked = check_plan(rag.store, query, [])
    if isinstance(checked, Refusal):
        raise SystemExit(f"gold query refused ({checked.reason}): {query}")
    rows = rag.store.read_generated(checked.statement, timeout_s=30, max_rows=200)
    return [str(value) for row in rows for value in row.values() if value is not None]


def is_right(kind: str, gold: list[str], text: str) -> bool:
    """A count must appear as a number; at least half of the gold names must be named."""
    if not gold:
        return False
    if kind == "count":
        return re.search(rf"(?<![\d.]){re.escape(gold[0])}(?![\d])", text) is not None
    found = sum(name.lower() in text.lower() for name in gold)
    return found >= max(1, (len(gold) + 1) // 2)


def main() -> None:
    """Ask every selected question with each method and print accuracy and guard counts."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--graph", default="book")
    parser.add_argument("--limit", type=int, default=0, help="first N questions (0 = all)")
    parser.add_argument("--ids", default="", help="only these question ids (comma-separated)")
    parser.add_argument("--methods", default="cypher,local")
    parser.add_argument("--per-question", type=Path, help="write one JSON line per answer")
    args = parser.parse_args()
    questions = [q for q in json.loads(QUESTIONS.read_text()) if q["graph"] == args.graph]
    if args.ids:
        questions = [q for q in questions if q["id"] in args.ids.split(",")]
    questions = questions[: args.limit or None]
    methods = args.methods.split(",")
    right: Counter[str] = Counter()
    seconds: dict[str, float] = dict.fromkeys(methods, 0.0)
    fates: Counter[str] = Counter()
    lines = []
    with GraphRAG() as rag:
        before = graph_fingerprint(rag.store)
        print(f"graph before: {before}", flush=True)
        for question in questions:
            gold = gold_values(rag, question["gold_cypher"])
            for method in methods:
                started = time.perf_counter()
                answer = rag.query(question["question"], method, response_type="Single Sentence")
                seconds[method] += time.perf_counter() - started
                ok = is_right(question["kind"], gold, answer.text)
                right[method] += ok
                for record in answer.sources.get("Cypher", []):
                    fates.update(a["status"] for a in record["attempts"])
                    fates["repaired"] += record["repaired"]
                    first = record["attempts"][0]["status"]
                    fates["repaired after it ran"] += record["repaired"] and first == "ran"
                    fates["repaired after unknown names"] += (
                        record["repaired"] and first == "unknown")
                    fates["fallback to local"] += "Results" not in answer.sources
                lines.append({"id": question["id"], "method": method, "right": ok,
                              "gold": gold[:10], "answer": answer.text,
                              "cypher": answer.sources.get("Cypher", [])})
                print(f"{question['id']:<6} {method:<7} {'right' if ok else 'wrong':<6}"
                      f" {answer.text[:90]!r}", flush=True)
        after = graph_fingerprint(rag.store)
    if args.per_question:
        args.per_question.write_text("".join(json.dumps(line) + "\n" for line in lines))
    total = len(questions)
    print(f"\n{total} {args.graph} questions; graph after the run: {after}"
          f" ({'unchanged' if after == before else 'CHANGED'})")
    for method in methods:
        print(f"{method:<7} accuracy {right[method]}/{total} = {right[method] / max(total, 1):.0%}"
              f"   {seconds[method] / max(total, 1):6.1f} s per question"
              f" ({seconds[method] / max(seconds[methods[-1]], 1e-9):.2f}x {methods[-1]})")
    print("cypher attempts: " + ", ".join(f"{k} {v}" for k, v in sorted(fates.items())))


if __name__ == "__main__":
    main()
