"""Single-hop questions made from 2Wiki passages, for `eval retrieval` beside MuSiQue's.

2Wiki ships no questions here. Each question is a sampled passage's first sentence with the
passage's title replaced by "this" ("Which one: this is a 1983 Turkish film directed by ..."),
its gold the passage itself: a graph method must not push the passage a question describes
below passages about the entities it names. Fixed seed, so every run asks the same questions:
  .venv/bin/python benchmarks/query/described_passages.py OUT.json [--count 100] [--among N]
                                                      [--sentence 2]
then, on a graph holding 2Wiki (benchmarks/query/ppr_latency.py builds one):
  graphrag-neo4j eval retrieval --questions OUT.json --method naive,local,ppr
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from benchmarks.scale.scale import SOURCES

SEED = 55
MIN_WORDS = 8


def described(record: dict[str, str], sentence: int = 1) -> dict[str, object] | None:
    """The question describing one passage by its `sentence`-th sentence, or None when the
    passage has no such sentence of MIN_WORDS words (the first must name the title)."""
    sentences = re.split(r"(?<=[.!?])\s+", record["text"].strip())
    title = re.sub(r"\s*\(.*\)$", "", record["title"]).strip()
    if len(sentences) < sentence or len(sentences[sentence - 1].split()) < MIN_WORDS:
        return None
    chosen = sentences[sentence - 1]
    if sentence == 1 and title.lower() not in chosen.lower():
        return None
    description = re.sub(re.escape(title), "this", chosen, flags=re.IGNORECASE).rstrip(".")
    return {"id": record["id"], "question": f"Which one: {description}?", "answer": title,
            "supporting_passage_ids": [record["id"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--sentence", type=int, default=1,
                        help="Describe by this sentence (2: harder, it rarely names the title).")
    parser.add_argument("--among", type=int, default=None,
                        help="Sample the corpus's first N passages only (a graph of N).")
    args = parser.parse_args()
    with SOURCES[0].open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines][: args.among]
    questions = []
    for record in random.Random(SEED).sample(records, len(records)):
        question = described(record, args.sentence)
        if question is not None:
            questions.append(question)
        if len(questions) == args.count:
            break
    args.out.write_text(json.dumps(questions, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"{len(questions)} questions written to {args.out}")


if __name__ == "__main__":
    main()
