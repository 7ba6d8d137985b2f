"""What `index --method fast` makes of a technical text: the identifiers of its inline code
that became entities, descriptions with an empty enumeration, and the merges to judge by hand.

Run against a Neo4j of its own (the graph is wiped, so --reset is required):
  .venv/bin/python benchmarks/indexing/technical_terms.py --reset FILE_OR_FOLDER ... [--min-count 3]
      [--merges 30] [--show-missing 20]
The inputs are indexed alone, in a fresh cache folder, with fake embeddings (fast extraction's
graph does not read the vectors). Markdown (or text) is read as the loader reads it; an HTML
corpus is converted first (benchmarks/data/git-manual holds one, see its build.py).

An identifier is what one inline code span holds when it is a single word with a letter and no
brackets (`gc.auto`, `--aggressive`, `pg_dump`): counted over the input's text, those found
`--min-count` times or more are expected among the graph's entity names (compared by
`normalize_name`). An empty enumeration is a bracket or a run of commas holding no word, the
hole a masked code span left: "( , , , and )". Merges: a sample of `--merges` recorded merges
(all when fewer), each with the reason it was made, for precision judged by hand.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from collections import Counter
from pathlib import Path

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.settings import load_settings

CODE_SPAN = re.compile(r"`([^`\n]+)`")
IDENTIFIER = re.compile(r"[^\s\[\](){}<>=|$`'\"]*[A-Za-z][^\s\[\](){}<>=|$`'\"]*")
# Brackets holding only commas, "and"/"or" and spaces, or two commas with nothing between.
EMPTY_ENUMERATION = re.compile(r"\(\s*(?:(?:,|\band\b|\bor\b)\s*)+\)|,\s*,|(?<!\w)\(\s*\)")


def inline_identifiers(paths: list[Path]) -> Counter[str]:
    """Each identifier of the inputs' inline code, by how many times it is found."""
    found: Counter[str] = Counter()
    for path in paths:
        for code in CODE_SPAN.findall(path.read_text(encoding="utf-8", errors="replace")):
            if IDENTIFIER.fullmatch(code.strip()):
                found[code.strip()] += 1
    return found


def files(inputs: list[Path]) -> list[Path]:
    """The files named, and those of the folders named, in a stable order."""
    out: list[Path] = []
    for path in inputs:
        out.extend(sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path])
    return out


def report(store: Store, paths: list[Path], min_count: int, merges: int, missing: int) -> None:
    """Print the figures of the graph in `store`, indexed from `paths`."""
    entities = store.read("indexing/entities/list_entities", skip=0, limit=1_000_000)
    names = {normalize_name(e["name"]): e for e in entities}
    wanted = {name: n for name, n in inline_identifiers(paths).items() if n >= min_count}
    hit = {name for name in wanted if normalize_name(name) in names}
    share = 100 * len(hit) / max(1, len(wanted))
    print(f"entities {len(entities):,}; identifiers in inline code {min_count}+ times: "
          f"{len(wanted):,}, of them entities {len(hit):,} ({share:.1f} %)")
    types = Counter(names[normalize_name(name)]["type"] for name in hit)
    print("their types: " + ", ".join(f"{t} {n}" for t, n in types.most_common()))
    lost = sorted(set(wanted) - hit, key=lambda name: -wanted[name])[:missing]
    print("not entities, most frequent first: " + ", ".join(f"{n} ({wanted[n]})" for n in lost))
    holes = [e for e in entities if EMPTY_ENUMERATION.search(e["description"] or "")]
    print(f"descriptions with an empty enumeration: {len(holes)}")
    for entity in holes[:5]:
        print(f"  {entity['name']}: {entity['description'][:160]!r}")
    recorded = store.read("indexing/merges/list_merges")
    sample = recorded if len(recorded) <= merges else random.Random(0).sample(recorded, merges)
    print(f"merges: {len(recorded)} recorded, {len(sample)} shown")
    for merge in sample:
        print(f"  [{merge['decided_by']}] {merge['from_name']!r} -> {merge['into_name']!r}: "
              f"{merge['reason']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", type=Path, nargs="+")
    parser.add_argument("--reset", action="store_true", required=True,
                        help="wipe the graph first (required: it is this run's own)")
    parser.add_argument("--min-count", type=int, default=3)
    parser.add_argument("--merges", type=int, default=30)
    parser.add_argument("--show-missing", type=int, default=20)
    args = parser.parse_args()
    paths = files(args.inputs)
    settings = load_settings(extraction={"method": "fast"})
    with tempfile.TemporaryDirectory() as cache:
        tuned = settings.model_copy(update={"cache_dir": Path(cache)})
        with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=FakeEmbeddings()) as rag:
            rag.store.run_autocommit("database/delete_all")
            rag.index(paths)
            report(rag.store, paths, args.min_count, args.merges, args.show_missing)


if __name__ == "__main__":
    main()
