"""What `graphrag-neo4j delete` costs on a fast graph, beside a baseline source tree, in one run.

Run against a Neo4j of its own (the graph is wiped, so --reset is required):
  git -C /work/main archive main | tar -x -C /tmp/baseline     # the code to compare with
  .venv/bin/python benchmarks/indexing/delete_cost.py --reset benchmarks/data/git-manual/pages \
      --baseline-src /tmp/baseline [--document git-tag.html]
The folder is indexed with `--method fast` and its communities built (lazy reports, the
configured embedder); then the CLI's `delete` of one document (its default re-clustering
included) runs once with the baseline's package and once with this tree's, each in a process
of its own whose LLM raises on any call and without the embedding cache (a summary embedded
by an earlier run would cost nothing), and the document is indexed again in between so both
start from the whole graph. Printed: the seconds of each, the LLM calls (must be 0), the
community summaries each re-embedded, and the issue's target (15 s).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TARGET_SECONDS = 15.0
_TABLE_ROW = re.compile(
    r"│\s*(extractive summaries written|of those written, vectors kept[^│]*"
    r"|top communities kept[^│]*|time: [^│]+?)\s*│\s*([^│]+?)\s*│"
)


def _measure(document_id: str) -> None:
    """In a child process: the CLI's `delete`, timed, with an LLM that refuses every call."""
    from graphrag_neo4j.cli import app
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.llm.testing import FakeChatModel

    fake = FakeChatModel(rules=[])
    original = GraphRAG.__init__

    def with_fake_llm(self: GraphRAG, *args: object, **kwargs: object) -> None:
        kwargs["llm"] = kwargs.get("llm") or fake
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    GraphRAG.__init__ = with_fake_llm  # type: ignore[method-assign]
    sys.argv = ["graphrag-neo4j", "delete", document_id]
    started = time.perf_counter()
    try:
        app.main()
    except SystemExit as exit_:
        if exit_.code:
            raise
    seconds = time.perf_counter() - started
    print("RESULT " + json.dumps({"seconds": seconds, "llm_calls": len(fake.calls)}))


def _run_delete(src: Path, document_id: str) -> dict[str, Any]:
    """One timed delete in a child process importing the package from `src`."""
    # No embedding cache: a summary embedded by an earlier run would cost nothing here.
    env = {**os.environ, "PYTHONPATH": str(src), "GRAPHRAG_EMBEDDING__CACHE": "false"}
    done = subprocess.run([sys.executable, __file__, "--measure", document_id], env=env,
                          capture_output=True, text=True, check=True)
    found: dict[str, Any] = {}
    for line in (done.stdout + done.stderr).splitlines():  # the CLI's tables go to stderr
        if line.startswith("RESULT "):
            found |= json.loads(line[len("RESULT "):])
        for name, value in _TABLE_ROW.findall(line):
            found[name.strip()] = value
    return found


def _index(folder: Path) -> None:
    """Index the folder with fast extraction (unchanged documents are skipped) and cluster."""
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.llm.testing import FakeChatModel
    from graphrag_neo4j.settings import load_settings

    settings = load_settings(extraction={"method": "fast"})
    with GraphRAG(settings, llm=FakeChatModel(rules=[])) as rag:
        rag.index([folder])
        rag.build_communities(reports="lazy")


def _document_id(source_name: str) -> str:
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.settings import load_settings

    with Store.connect(load_settings().neo4j) as store:
        rows = store.read("indexing/documents/list_documents", skip=0, limit=100_000)
    return next(str(r["id"]) for r in rows if str(r["source"]).endswith(source_name))


def _wipe() -> None:
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.settings import load_settings

    with Store.connect(load_settings().neo4j) as store:
        store.run_autocommit("database/delete_all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?")
    parser.add_argument("--reset", action="store_true",
                        help="wipe the graph first (required: it is this run's own)")
    parser.add_argument("--baseline-src", type=Path,
                        help="a source tree holding the graphrag_neo4j package to compare with")
    parser.add_argument("--document", default="git-tag.html",
                        help="the file name of the document to delete")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        _measure(args.measure)
        return
    if not (args.reset and args.folder and args.baseline_src):
        parser.error("give the folder, --reset and --baseline-src")
    _wipe()
    _index(args.folder)
    this_tree = Path(__file__).resolve().parents[2]
    results = {}
    for label, src in (("baseline", args.baseline_src.resolve()), ("this tree", this_tree)):
        results[label] = _run_delete(src, _document_id(args.document))
        _index(args.folder)  # the document back, so the next delete starts from the same graph
    print(f"delete of {args.document} (target: under {TARGET_SECONDS:.0f} s, no LLM call)")
    for label, found in results.items():
        details = ", ".join(f"{k} {v}" for k, v in found.items()
                            if k not in ("seconds", "llm_calls"))
        print(f"  {label}: {float(found['seconds']):.1f} s, {found['llm_calls']} LLM calls;"
              f" {details}")
    ratio = float(results["this tree"]["seconds"]) / float(results["baseline"]["seconds"])
    print(f"  this tree / baseline: {ratio:.2f}")


if __name__ == "__main__":
    main()
