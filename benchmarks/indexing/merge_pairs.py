"""Precision and recall of automatic merges on labelled name pairs, after `index --method fast`.

Run against a Neo4j of its own (the graph is wiped, so --reset is required):
  .venv/bin/python benchmarks/indexing/merge_pairs.py --reset FILE_OR_FOLDER ... \
      --pairs benchmarks/data/merge-pairs/git-manual.json
  .venv/bin/python benchmarks/indexing/merge_pairs.py --reset FILE_OR_FOLDER ... --candidates 60
The inputs are indexed alone (as benchmarks/indexing/technical_terms.py does: fast extraction, fake
embeddings). A labelled pair is two names and whether they name one thing (`same`), judged by
hand from the text; the pair is merged when both names end in one entity (a name's entities are
those of its normalised name and those it was merged into). Printed: merged pairs right and
wrong, same pairs left apart, precision and recall, and pairs whose names the graph no longer
holds. With --candidates, the pairs to label instead: every recorded merge, then pairs the
resolution might take for one thing (names equal but for case, hyphens, spaces or leading
dashes; a name whose words open or close a longer one's), a seeded sample.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.indexing.technical_terms import files
from benchmarks.indexing.technical_terms import report as report_terms
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import load_settings

_LOOSE = re.compile(r"[^a-z0-9]+")


def entities_by_name(store: Store) -> dict[str, set[str]]:
    """Each normalised name -> the entities it ends in (its own, or those it was merged into)."""
    found: dict[str, set[str]] = defaultdict(set)
    for entity in store.read("indexing/entities/list_entities", skip=0, limit=10_000_000):
        found[normalize_name(entity["name"])].add(str(entity["id"]))
    for merge in store.read("indexing/merges/list_merges"):
        if not merge["undone"]:
            found[normalize_name(merge["from_name"])].add(str(merge["into_id"]))
    return found


def score(pairs: list[dict[str, Any]], ends: dict[str, set[str]]) -> dict[str, list[Any]]:
    """The pairs by outcome: right and wrong merges, missed and rightly apart, absent."""
    outcome: dict[str, list[Any]] = defaultdict(list)
    for pair in pairs:
        a, b = ends.get(normalize_name(pair["a"])), ends.get(normalize_name(pair["b"]))
        if not a or not b:
            outcome["absent"].append(pair)
            continue
        merged = bool(a & b)
        key = {(True, True): "right merge", (True, False): "wrong merge",
               (False, True): "missed", (False, False): "rightly apart"}[merged, pair["same"]]
        outcome[key].append(pair)
    return outcome


def report(outcome: dict[str, list[Any]]) -> None:
    """Counts, precision and recall, and the pairs that went wrong."""
    right, wrong, missed = (len(outcome[k]) for k in ("right merge", "wrong merge", "missed"))
    counts = ", ".join(f"{k} {len(outcome[k])}" for k in
                       ("right merge", "wrong merge", "missed", "rightly apart", "absent"))
    print(f"labelled pairs: {counts}")
    precision = f"{100 * right / (right + wrong):.0f} %" if right + wrong else "no merge"
    recall = f"{100 * right / (right + missed):.0f} %" if right + missed else "no same pair"
    print(f"precision {precision} ({right} of {right + wrong} merges); "
          f"recall {recall} ({right} of {right + missed} same pairs)")
    for key in ("wrong merge", "missed", "absent"):
        for pair in outcome[key]:
            print(f"  {key}: {pair['a']!r} / {pair['b']!r}: {pair.get('note', '')}")


def candidates(store: Store, count: int) -> list[dict[str, Any]]:
    """Pairs worth labelling: every recorded merge, then a seeded sample of look-alikes."""
    merges = [{"a": m["from_name"], "b": m["into_name"], "same": None, "note": "merged"}
              for m in store.read("indexing/merges/list_merges")]
    names = sorted({str(e["name"]) for e in
                    store.read("indexing/entities/list_entities", skip=0, limit=10_000_000)})
    by_loose: dict[str, list[str]] = defaultdict(list)
    by_edge: dict[str, list[str]] = defaultdict(list)
    for name in names:
        loose = _LOOSE.sub(" ", name.lower()).strip()
        by_loose[loose].append(name)
        words = loose.split()
        if len(words) > 1:
            by_edge[words[0]].append(name)
            by_edge[words[-1]].append(name)
    looks = [(group[0], other) for group in by_loose.values() for other in group[1:]]
    looks += [(name, full) for name in names for full in by_edge.get(name.lower(), [])
              if normalize_name(full) != normalize_name(name)]
    sample = random.Random(0).sample(looks, min(count, len(looks)))
    return merges + [{"a": a, "b": b, "same": None, "note": ""} for a, b in sorted(sample)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", type=Path, nargs="+")
    parser.add_argument("--reset", action="store_true", required=True,
                        help="wipe the graph first (required: it is this run's own)")
    parser.add_argument("--pairs", type=Path, help="the labelled pairs (JSON list)")
    parser.add_argument("--candidates", type=int, help="print this many pairs to label")
    parser.add_argument("--terms", action="store_true",
                        help="print benchmarks/indexing/technical_terms.py's figures of the"
                        " same graph")
    args = parser.parse_args()
    settings = load_settings(extraction={"method": "fast"})
    with tempfile.TemporaryDirectory() as cache:
        tuned = settings.model_copy(update={"cache_dir": Path(cache)})
        with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
            rag.store.run_autocommit("database/delete_all")
            rag.index(files(args.inputs))
            if args.terms:
                report_terms(rag.store, files(args.inputs), 3, 30, 20)
            if args.candidates:
                print(json.dumps(candidates(rag.store, args.candidates), indent=1))
            if args.pairs:
                pairs = json.loads(args.pairs.read_text(encoding="utf-8"))
                report(score(pairs, entities_by_name(rag.store)))


if __name__ == "__main__":
    main()
