"""Whether a chunk's vector sees all of a chunk longer than the offline embedder's window.

  .venv/bin/python benchmarks/llm/long_chunks.py [--per-doc 4 10]
MuSiQue's passages (../shared/data/musique/corpus.jsonl), shuffled with a fixed seed, are
joined N at a time into documents as long as a chunk ("title: text" paragraphs; 10 passages
make about 1,170 word pieces, the default 1,200-token chunk); each document gets one vector per
`embedding.long_texts` mode of the offline MiniLM: `truncate` (its first 256 word pieces, what
sentence-transformers does) and `windows` (the mean of its tokens over consecutive windows).
The 50 dev questions then rank the documents by cosine similarity, as naive search ranks
chunks; Recall@1/3/5 counts the documents holding the question's supporting passages. No Neo4j.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.settings import LongTexts

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "musique"
KS = (1, 3, 5)
MODES: tuple[LongTexts, ...] = ("truncate", "windows")


def documents(per_doc: int) -> tuple[list[str], dict[str, int]]:
    """The joined documents and, per passage id, the document holding it."""
    passages = [json.loads(line) for line in (DATA / "corpus.jsonl").open(encoding="utf-8")]
    random.Random(0).shuffle(passages)
    groups = [passages[i : i + per_doc] for i in range(0, len(passages), per_doc)]
    where = {p["id"]: index for index, group in enumerate(groups) for p in group}
    texts = ["\n\n".join(f"{p.get('title', '')}: {p['text']}" for p in group) for group in groups]
    return texts, where


def word_pieces(embedder: MiniLMEmbeddings, text: str) -> int:
    """The text's length in the model's word pieces, every window counted."""
    encoding = embedder._load()[1].encode(text, add_special_tokens=False)
    return len(encoding.ids) + sum(len(part.ids) for part in encoding.overflowing)


def recalls(similarity: np.ndarray, golds: list[set[int]]) -> dict[int, float]:
    """Mean Recall@k (%) of the documents ranked by similarity, per question."""
    order = np.argsort(-similarity, axis=1)
    return {k: 100 * float(np.mean([len(gold & set(order[i, :k].tolist())) / len(gold)
                                    for i, gold in enumerate(golds)])) for k in KS}


def main() -> None:
    """Print Recall@k and embedding seconds per document size and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-doc", type=int, nargs="*", default=[4, 10])
    args = parser.parse_args()
    questions = json.loads((DATA / "questions_dev.json").read_text(encoding="utf-8"))
    table = Table(title="Documents ranked by their vector, MuSiQue dev questions")
    for column in ("passages per document", "documents", "mean word pieces", "mode",
                   *(f"Recall@{k}" for k in KS), "embedding s"):
        table.add_column(column, justify="right")
    for per_doc in args.per_doc:
        texts, where = documents(per_doc)
        golds = [{where[p] for p in q["supporting_passage_ids"]} for q in questions]
        for mode in MODES:
            embedder = MiniLMEmbeddings(long_texts=mode)
            asked = np.array(embedder.embed_documents([q["question"] for q in questions]))
            started = time.perf_counter()
            vectors = np.array(embedder.embed_documents(texts))
            seconds = time.perf_counter() - started
            pieces = np.mean([word_pieces(embedder, t) for t in texts])
            found = recalls(asked @ vectors.T, golds)
            table.add_row(str(per_doc), str(len(texts)), f"{pieces:,.0f}", mode,
                          *(f"{found[k]:.1f}" for k in KS), f"{seconds:.1f}")
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
