"""Peak memory of `index --method fast`: the indexing process and its forked spaCy workers,
sampled from /proc over the whole run, on the book and on a large text made from the shared data.

Run against a Neo4j of its own (the graph is wiped, so --reset is required):
  .venv/bin/python benchmarks/scale/memory.py --reset [--text-mb 20] [--text-from 2wiki]
      [--only book big]
`book` is sample/a_christmas_carol.txt; `big` is one plain-text file of about --text-mb MB made
by concatenating the texts of ../shared/data (the book, Operation Dulce, the passages of every
JSONL corpus) over and over, or with --text-from 2wiki the 2Wiki passages as paragraphs of one
prose text (repeated past its 2.6 MB), written to a temporary folder. Each input is indexed by
the CLI in a process of its own with a fresh cache folder (nothing parsed or embedded before).

Per input: seconds, the peak RSS of the indexing process alone, the peak of the sum of RSS over
the process and its children (forked workers share the parent's pages copy-on-write, so this
sum counts shared pages more than once), the peak of the sum of PSS (shared pages split between
the processes that map them: the honest total), and RSS at each quarter of the run, which shows
whether memory grows with the input. Targets: book < 800 MB, a 20 MB text < 1.5 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.indexing.run.batch_failure import log_path
from graphrag_neo4j.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
BOOK = ROOT / "sample" / "a_christmas_carol.txt"
SAMPLE_SECONDS = 0.25
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
console = Console(width=200)


@dataclass
class Peaks:
    """What the sampler saw of one run."""

    seconds: float = 0.0
    main_rss_mb: float = 0.0
    tree_rss_mb: float = 0.0
    tree_pss_mb: float = 0.0
    processes: int = 0
    timeline_mb: list[float] = field(default_factory=list)  # tree PSS per sample


def _children(pid: int) -> list[int]:
    """Every live descendant of `pid`, read from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", encoding="utf-8") as statm:
            return int(statm.read().split()[1]) * PAGE_KB
    except (OSError, IndexError, ValueError):
        return 0


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return 0
    return 0


def sample_run(command: list[str], env: dict[str, str], log: Path) -> Peaks:
    """Run `command`, sampling its process tree's memory until it exits."""
    peaks = Peaks()
    started = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        while process.poll() is None:
            tree = [process.pid, *_children(process.pid)]
            main = _rss_kb(process.pid) / 1024
            rss = sum(_rss_kb(pid) for pid in tree) / 1024
            pss = sum(_pss_kb(pid) for pid in tree) / 1024
            peaks.main_rss_mb = max(peaks.main_rss_mb, main)
            peaks.tree_rss_mb = max(peaks.tree_rss_mb, rss)
            peaks.tree_pss_mb = max(peaks.tree_pss_mb, pss)
            peaks.processes = max(peaks.processes, len(tree))
            peaks.timeline_mb.append(pss)
            time.sleep(SAMPLE_SECONDS)
    peaks.seconds = time.perf_counter() - started
    if process.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
        # The temporary folder holding the CLI's error log goes when the benchmark ends.
        errors = log_path(Path(env["GRAPHRAG_CACHE_DIR"]))
        if errors.is_file():
            console.print(errors.read_text(encoding="utf-8", errors="replace")[-6000:])
        raise SystemExit(f"index failed (exit {process.returncode}): {' / '.join(tail)}")
    return peaks


def big_text(folder: Path, megabytes: float, source: str = "mixed") -> Path:
    """One plain-text file of about `megabytes` MB, repeated as needed: the 2Wiki passages as
    paragraphs of prose (`source` "2wiki"), or the shared data's texts one after the other."""
    if source == "2wiki":
        texts = [_paragraphs(DATA / "2wiki" / "corpus.jsonl")]
    else:
        texts = [BOOK.read_text(encoding="utf-8"),
                 (DATA / "operation_dulce" / "Operation_Dulce_v2_1_1.md").read_text("utf-8")]
        texts += [_paragraphs(DATA / corpus / "corpus.jsonl")
                  for corpus in ("musique", "2wiki", "biomed")]
    path, target, written = folder / f"big-{source}-{megabytes:g}mb.txt", int(megabytes * 2**20), 0
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            for text in texts:
                piece = text.encode("utf-8")[: target - written].decode("utf-8", "ignore")
                out.write(piece + "\n\n")
                written += len(piece.encode("utf-8")) + 2
                if written >= target:
                    break
    return path


def _paragraphs(corpus: Path) -> str:
    """The passages of a JSONL corpus as one text, a paragraph each."""
    with corpus.open(encoding="utf-8") as lines:
        return "\n\n".join(json.loads(line)["text"] for line in lines if line.strip())


def quarters(timeline: list[float]) -> str:
    """The sampled PSS at 25/50/75/100 % of the run."""
    if not timeline:
        return ""
    picks = [timeline[min(len(timeline) - 1, len(timeline) * q // 4)] for q in (1, 2, 3, 4)]
    return " / ".join(f"{mb:,.0f}" for mb in picks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reset", action="store_true", help="wipe the graph (required)")
    parser.add_argument("--text-mb", type=float, default=20.0)
    parser.add_argument("--text-from", choices=["mixed", "2wiki"], default="mixed",
                        help="the large text: the shared data's texts, or 2Wiki's passages")
    parser.add_argument("--only", nargs="*", default=["book", "big"])
    args = parser.parse_args()
    if not args.reset:
        raise SystemExit("Each input wipes the graph: pass --reset, with GRAPHRAG_NEO4J__* "
                         "pointing at a server of the benchmark's own.")
    settings = load_settings()
    table = Table(title="index --method fast: peak memory (MB), sampled every 0.25 s")
    for column in ("input", "MB in", "seconds", "main RSS", "tree RSS", "tree PSS", "processes",
                   "PSS at 25/50/75/100 %"):
        table.add_column(column, justify="left" if column == "input" else "right")
    with tempfile.TemporaryDirectory() as folder:
        inputs = {"book": BOOK, "big": None}
        for name in args.only:
            path = inputs[name] or big_text(Path(folder), args.text_mb, args.text_from)
            with Store(settings.neo4j) as store:
                store.run_autocommit("database/delete_all")
            env = {**os.environ, "GRAPHRAG_CACHE_DIR": str(Path(folder) / f"cache-{name}")}
            command = [sys.executable, "-m", "graphrag_neo4j", "index", str(path),
                       "--method", "fast"]
            console.print(f"[dim]{name}: {' '.join(command[1:])}[/dim]")
            peaks = sample_run(command, env, Path(folder) / f"{name}.log")
            table.add_row(name, f"{path.stat().st_size / 2**20:.1f}", f"{peaks.seconds:.0f}",
                          f"{peaks.main_rss_mb:,.0f}", f"{peaks.tree_rss_mb:,.0f}",
                          f"{peaks.tree_pss_mb:,.0f}", str(peaks.processes),
                          quarters(peaks.timeline_mb))
    console.print(table)


if __name__ == "__main__":
    main()
