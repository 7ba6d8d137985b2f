"""The graphs of the second structured question set, built small and the same way each time.

`2wiki`: the first 150 2Wiki passages, fast extraction; `biomed`: the first 60 biomedical
passages, fast extraction; `dulce`: Microsoft GraphRAG's Operation Dulce index, imported.
Each build wipes the graph first (run it against a Neo4j of its own), so a build by hand
asks for --reset:
  .venv/bin/python benchmarks/query/rewrite_graphs.py --reset {2wiki,biomed,dulce}
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from benchmarks.corpora import CORPORA, DATA, limited
from graphrag_neo4j.engine import GraphRAG

TWO_WIKI_DOCS, BIOMED_DOCS = 150, 60


def _fast(name: str, docs: int) -> Callable[[GraphRAG], None]:
    def build(rag: GraphRAG) -> None:
        corpus = next(corpus for corpus in CORPORA if corpus.name == name)
        with tempfile.TemporaryDirectory() as folder:
            rag.index(limited(corpus, Path(folder), docs), method="fast")

    return build


def _dulce(rag: GraphRAG) -> None:
    rag.import_msgraphrag(DATA / "operation_dulce" / "msgraphrag_output")


GRAPHS: dict[str, Callable[[GraphRAG], None]] = {
    "2wiki": _fast("2wiki", TWO_WIKI_DOCS),
    "biomed": _fast("biomed", BIOMED_DOCS),
    "dulce": _dulce,
}


def build_graph(rag: GraphRAG, name: str) -> None:
    """Wipe the graph and build the named one into it."""
    build = GRAPHS[name]  # an unknown name fails before anything is wiped
    rag.store.run_autocommit("database/delete_all")
    asyncio.run(rag.aensure_schema())
    build(rag)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", choices=sorted(GRAPHS))
    parser.add_argument("--reset", action="store_true", required=True,
                        help="required: the build wipes the graph first")
    return parser.parse_args()


if __name__ == "__main__":
    name = _arguments().graph
    with GraphRAG(console=Console(stderr=True)) as engine:
        build_graph(engine, name)
