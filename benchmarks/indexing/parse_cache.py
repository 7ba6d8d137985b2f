"""Fast extraction of the book with the parse cache: no cache (the floor), cold, then warm.

Run: .venv/bin/python benchmarks/indexing/parse_cache.py [--book PATH]
No Neo4j: the book's chunks through `extract_fast` with no cache, a cold cache and a warm one
(alternating, in one process), each with its seconds and the entity mentions it extracted
(the same count shows the cached parse extracts what a fresh one does).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.settings import load_settings

BOOK = Path(__file__).resolve().parents[3] / "shared" / "data" / "christmas_carol" / "book.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=BOOK)
    args = parser.parse_args()
    settings = load_settings()
    text = args.book.read_text(encoding="utf-8")
    chunks = chunk_document(Document("book", "book", str(args.book), text), settings.chunking)
    nlp, fast = load_pipeline(), settings.extraction.fast
    with tempfile.TemporaryDirectory() as tmp:
        for label in ("no cache", "cold cache", "warm cache", "no cache", "warm cache"):
            cache = None if label == "no cache" else ParseCache(Path(tmp), fast)
            started = time.perf_counter()
            out = extract_fast(lambda: nlp, chunks, fast, cache=cache)
            seconds = time.perf_counter() - started
            mentions = sum(len(e.entities) for e in out)
            print(f"{label}: {len(chunks)} chunks, {seconds:.2f} s, {mentions} entity mentions")
            if cache is not None:
                cache.close()


if __name__ == "__main__":
    main()
