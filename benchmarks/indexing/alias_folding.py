"""Alias folding per batch against the size of the run's input (synthetic names, no Neo4j).

  .venv/bin/python -m benchmarks.indexing.alias_folding [--sizes 1000 4000 8000] [--batch 256]
      [--one-document]

Each input chunk names six people from a few thousand surnames (full names, bare surnames,
companies, places), one document a chunk (or, with `--one-document`, every chunk in one long
document, as a big text file is); one batch of `--batch` chunks is resolved and folded
against the whole input, as a fast run folds each batch. Per size: milliseconds for the batch,
beside the smallest size, and the run's total at that rate. Linear growth per batch means a
quadratic run; flat means the run grows with its input.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.indexing.records import ChunkExtraction, EntityMention
from graphrag_neo4j.indexing.resolution.aliases import AliasScope, fold_aliases
from graphrag_neo4j.indexing.resolution.decisions import Resolution, surface_merges
from graphrag_neo4j.indexing.resolution.grouping import group_mentions


def synthetic_input(chunks: int, seed: int = 0) -> list[ChunkExtraction]:
    """Chunks of six person mentions each, names drawn so that many recur across chunks."""
    draw = random.Random(seed)
    out = []
    for n in range(chunks):
        mentions = []
        for _ in range(6):
            first, last = f"first{draw.randrange(300)}", f"last{draw.randrange(2000)}"
            name = draw.choice([f"{first} {last}", last, f"{last} corp",
                                f"place{draw.randrange(5000)}"])
            mentions.append(EntityMention(f"c{n}", name.title(), "person", ""))
        out.append(ChunkExtraction(f"c{n}", mentions))
    return out


def batch_ms(chunks: int, batch: int, one_document: bool = False) -> float:
    """Milliseconds to fold one batch against an input of `chunks` chunks."""
    everything = synthetic_input(chunks)
    documents = {x.chunk_id: "d" if one_document else f"d-{x.chunk_id}" for x in everything}
    scope = AliasScope.of(everything, documents)
    grouping = group_mentions([m for x in everything[:batch] for m in x.entities], [])
    resolution = Resolution(grouping.protos, grouping.assignment, surface_merges(grouping))
    started = time.perf_counter()
    fold_aliases(resolution, scope, ["person"], ["person"])
    return 1000 * (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 4000, 8000])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--one-document", action="store_true",
                        help="every chunk in one document, as a long text file")
    args = parser.parse_args()
    where = "one document" if args.one_document else "a document a chunk"
    table = Table(title=f"Alias folding of one {args.batch}-chunk batch ({where})")
    for column in ("input chunks", "ms per batch", "x the smallest", "run total s"):
        table.add_column(column, justify="right")
    floor = None
    for size in sorted(args.sizes):
        ms = batch_ms(size, args.batch, args.one_document)
        floor = floor or ms
        table.add_row(f"{size:,}", f"{ms:,.0f}", f"{ms / floor:.2f}x",
                      f"{ms * size / args.batch / 1000:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
