"""The offline embedders side by side on translations: is each translation nearest its source?

Run: .venv/bin/python benchmarks/llm/multilingual.py
benchmarks/data/parallel_sentences.json holds ten English sentences with their Chinese, Russian
and Japanese translations. For each embedder (MiniLM, the default offline one; the Universal
Sentence Encoder of `provider = "offline-multilingual"`) and each language: how many of the ten
translations have their own English source as nearest English sentence, and the reverse; the
mean cosine of a sentence with its translation beside that with the other nine; and seconds to
embed the 40 sentences once (after a warm-up), beside each other in the same run.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings
from rich.console import Console
from rich.table import Table

from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.offline.multilingual import MultilingualEmbeddings

DATA = Path(__file__).parents[1] / "data" / "parallel_sentences.json"
LANGUAGES = ("zh", "ru", "ja")


def _vectors(embedder: Embeddings, texts: list[str]) -> np.ndarray:
    return np.array(embedder.embed_documents(texts))


def _row(name: str, embedder: Embeddings, data: dict[str, list[str]]) -> list[str]:
    english = _vectors(embedder, data["en"])
    cells = []
    for code in LANGUAGES:
        other = _vectors(embedder, data[code])
        scores = other @ english.T
        right = np.arange(len(english))
        to_source = int((scores.argmax(axis=1) == right).sum())
        from_source = int((scores.argmax(axis=0) == right).sum())
        own = float(np.diag(scores).mean())
        rest = float((scores.sum() - np.trace(scores)) / (scores.size - len(right)))
        cells.append(f"{to_source}/10, {from_source}/10 ({own:.2f} vs {rest:.2f})")
    every = [text for code in ("en", *LANGUAGES) for text in data[code]]
    started = time.perf_counter()
    embedder.embed_documents(every)
    return [name, *cells, f"{time.perf_counter() - started:.2f}"]


def main() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    table = Table(title="Translation -> its English source nearest, and the reverse "
                        "(mean cosine: own translation vs the others)")
    for column in ("embedder", *LANGUAGES, "s for 40 sentences"):
        table.add_column(column)
    embedders = {"MiniLM (offline, 384 d)": MiniLMEmbeddings(),
                 "USE multilingual v3 (offline-multilingual, 512 d)": MultilingualEmbeddings()}
    for name, embedder in embedders.items():
        embedder.embed_documents(["warm up"])
        table.add_row(*_row(name, embedder, data))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
