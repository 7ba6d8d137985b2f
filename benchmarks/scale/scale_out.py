"""`index --ray` on a two-node Ray cluster against one in-process run, side by side.

  .venv/bin/python benchmarks/scale/scale_out.py --reset [--only SECTION ...] [--passages N]
      [--kinds KIND ...] [--sizes A B] [--equality CORPUS ...] [--equality-passages N]
      [--fault-passages N]

Needs the test Neo4j (the GRAPHRAG_NEO4J__* variables, as for the tests; every run wipes the
graph, hence --reset); starts and stops its own Ray cluster (scripts/ray-cluster.sh: a head and
a worker node, 1 CPU each, on 127.0.0.1). Every run is a process of its own with an empty
cache folder (only model files shared), so nothing owes to an earlier run's parses. A run
asked for twice (same kind, corpus and size) runs once: `--only memory speed equality` with
`--sizes 2000 6119 --equality 2wiki` times, weighs and compares the same 6,119-passage runs.
The sections run in the order given; the graph of the last run is left in Neo4j. Prints:
- equality: the book and 2Wiki (fast) and MuSiQue (--triplets), as `--equality` names, their
  first `--equality-passages` records (default all), on the cluster against one in-process
  run: entity names and types, relations with weights and chunks, merges, counts
  (communities included), as one digest each;
- speed: 2Wiki fast (`--passages`) words/s in process under `taskset -c 0`, on a local Ray
  under `taskset -c 0` (Ray's cost on one core), and on the two-node cluster (`--kinds`
  chooses among the three; the first is the baseline);
- memory: each Ray worker's peak RSS at two sizes of 2Wiki (`--sizes`);
- fault (2Wiki, `--fault-passages`): the worker node killed by pid mid-run, and the driver
  killed once a batch is written and started again; both runs complete with the same digest;
- projection (with speed): 100,000 and 1,000,000 passages on N nodes of 8 CPUs, computed from
  the speed section's measured figures (the two-node run's map CPU-seconds per word, its
  driver-only stages' seconds per word, the one writer's rows/s), naming the bottleneck.
Timing figures mean something only on otherwise idle cores: every timed row shows the load
average the machine had while it ran (besides this benchmark's own, at most 2).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.table import Table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
BOOK = ROOT / "sample" / "a_christmas_carol.txt"
WIKI = DATA / "2wiki" / "corpus.jsonl"
MUSIQUE = DATA / "musique" / "corpus.jsonl"
CLUSTER = ROOT / "scripts" / "ray-cluster.sh"
KINDS = ("in-process", "ray-local", "ray-cluster")
CORPORA = ("book", "2wiki", "musique")
# Run pinned to the first core: the single-core baseline and Ray's cost on one node.
PINNED = ("in-process", "ray-local")
# Ray's titles of worker processes that run tasks (its agents have others).
WORKER_TITLES = ("ray::IDLE", "ray::count_terms", "ray::weigh_statements",
                 "ray::extract_chunks", "ray::placed_triplets")
WRITE_STAGE = "write graph"
# Stages that stay in the driver under --ray (resolution and the writes); the rest is mapped.
DRIVER_STAGES = ("resolve entities", WRITE_STAGE)
CLUSTER_CPUS = 2  # scripts/ray-cluster.sh: two nodes of 1 CPU
PROJECTED_PASSAGES = (100_000, 1_000_000)
PROJECTED_NODES = (1, 4, 16)
NODE_CPUS = 8
console = Console(width=160)


@dataclass
class Run:
    """One index run: what it read, how long it took, what it wrote, what it held."""

    kind: str
    corpus: str
    words: int = 0
    seconds: float = 0.0
    digest: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    driver_rss_mb: float = 0.0
    worker_rss_mb: float = 0.0  # the largest peak of the run's Ray worker processes
    worker_peaks_mb: list[float] = field(default_factory=list)  # each worker's, largest first
    stages: dict[str, float] = field(default_factory=dict)  # seconds per stage of the summary
    load: float = 0.0  # the machine's highest 1-minute load average seen during the run
    passages: int = 0
    error: str = ""

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds else 0.0

    @property
    def write_rate(self) -> float:
        """Entities and relations written per second of the one writer's "write graph" stage."""
        seconds = self.stages.get(WRITE_STAGE, 0.0)
        rows = self.counts.get("entities", 0) + self.counts.get("relations", 0)
        return rows / seconds if seconds else 0.0


def corpus_paths(corpus: str, passages: int, folder: Path) -> tuple[list[Path], bool]:
    """The files of a corpus (2Wiki and MuSiQue: their first `passages` records); whether they
    are a triplet corpus."""
    if corpus == "book":
        return [BOOK], False
    source = WIKI if corpus.startswith("2wiki") else MUSIQUE
    out = folder / f"{corpus}-{passages}.jsonl"
    with source.open(encoding="utf-8") as lines, out.open("w", encoding="utf-8") as sink:
        for number, line in enumerate(lines):
            if number >= passages:
                break
            sink.write(line)
    return [out], corpus == "musique"


def graph_digest(rag: Any) -> tuple[str, dict[str, int]]:
    """One digest of what the runs must agree on, and the graph's counts."""
    store = rag.store
    parts = {
        "entities": sorted((e["name"], e["type"]) for e in
                           store.read("indexing/entities/list_entities", skip=0, limit=10_000_000)),
        "relations": sorted((r["source"], r["predicate"], r["target"], r["weight"],
                             sorted(r["chunk_ids"]))
                            for r in store.read("interop/export_relations")),
        "merges": sorted((m["from_name"], m["into_name"], m["decided_by"], m["reason"])
                         for m in store.read("indexing/merges/list_merges")),
        "counts": rag.counts(),
    }
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16], parts["counts"]


def one_run(kind: str, corpus: str, passages: int, folder: Path, resume: bool = False) -> Run:
    """Index one corpus in this process, as `kind` says, and build its communities; on an
    empty graph, or (`resume`) on what a killed run of the same command wrote."""
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.settings import load_settings

    run = Run(kind, corpus)
    paths, triplets = corpus_paths(corpus, passages, folder)
    settings = load_settings(extraction={"method": "fast"})
    execution = settings.execution.model_copy(update={
        "ray": kind != "in-process",
        "ray_address": os.environ.get("RAY_ADDRESS") if kind == "ray-cluster" else None})
    settings = settings.model_copy(update={"execution": execution})
    if kind == "ray-local":
        os.environ.pop("RAY_ADDRESS", None)
    with GraphRAG(settings, console=Console(stderr=True, quiet=True)) as rag:
        if not resume:
            rag.store.run_autocommit("database/delete_all")
        rag.run(rag.aensure_schema())
        started = time.perf_counter()
        if triplets:
            rag.index_triplets(paths[0])
            run.words = sum(len(json.loads(line)["text"].split())
                            for line in paths[0].read_text(encoding="utf-8").splitlines())
        else:
            stats, loaded = rag.index(paths, method="fast")
            run.words = sum(len(d.text.split()) for d in loaded.documents)
            run.stages = dict(stats.stage_seconds)
        run.seconds = time.perf_counter() - started
        rag.build_communities(reports="none")
        run.digest, run.counts = graph_digest(rag)
    run.driver_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    run.worker_peaks_mb = sorted((_peak_rss_mb(pid) for pid in _titled(WORKER_TITLES)),
                                 reverse=True)
    run.worker_rss_mb = max(run.worker_peaks_mb, default=0.0)
    return run


def _titled(titles: tuple[str, ...]) -> list[int]:
    """This user's processes whose title is one of `titles`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid == os.getuid():
                title = (entry / "cmdline").read_bytes().split(b"\0")[0].decode().strip()
                if title in titles:
                    found.append(int(entry.name))
        except (OSError, UnicodeDecodeError):
            continue
    return found


def _peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def available(corpus: str, passages: int) -> int:
    """How many records of `corpus` a run of `passages` reads (the book: one)."""
    if corpus == "book":
        return 1
    source = WIKI if corpus.startswith("2wiki") else MUSIQUE
    with source.open(encoding="utf-8") as lines:
        return min(passages, sum(1 for _ in lines))


RUNS: dict[tuple[str, str, int], Run] = {}  # this invocation's runs without a fault


def child(kind: str, corpus: str, passages: int, folder: Path, kill: str = "") -> Run:
    """`one_run` in a process of its own, or the same run done before in this invocation."""
    passages = available(corpus, passages)
    if kill:
        return _child(kind, corpus, passages, folder, kill)
    key = (kind, corpus, passages)
    if key not in RUNS:
        RUNS[key] = _child(kind, corpus, passages, folder)
    return RUNS[key]


def _child(kind: str, corpus: str, passages: int, folder: Path, kill: str = "") -> Run:
    """`one_run` in a process of its own (pinned to core 0 for the single-core kinds), with an
    empty cache folder; `kill` "worker" kills the cluster's worker node once its tasks run,
    "driver" kills this run once a batch is written and starts it again."""
    for pid in _titled(("ray::IDLE",)):  # fresh workers: their peak RSS is this run's
        os.kill(pid, 9)
    cache = Path(tempfile.mkdtemp(dir=folder, prefix=f"cache-{kind}-"))
    models = _models_dir()
    if models.is_dir():
        (cache / "models").symlink_to(models, target_is_directory=True)
    command = [sys.executable, __file__, "--one", kind, corpus, str(passages), str(folder)]
    if kind in PINNED:
        command = ["taskset", "-c", "0", *command]
    env = {**os.environ, "GRAPHRAG_CACHE_DIR": str(cache)}
    load = os.getloadavg()[0]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    if kill == "worker":
        _kill_worker_when_busy(proc)
    killed = kill == "driver" and _kill_when_a_batch_is_written(proc, passages)
    if killed:
        proc = subprocess.Popen([*command, "resume"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (err.strip().splitlines() or ["no output"])[-1]
        return Run(kind, corpus, error=f"exit {proc.returncode}: {tail}")
    run = Run(**json.loads(lines[-1]))
    run.load, run.passages = max(load, os.getloadavg()[0]), passages
    if kill == "driver" and not killed:
        run.error = "the run ended before a batch could be killed: give it more passages"
    return run


def _models_dir() -> Path:
    from graphrag_neo4j.settings import load_settings

    return load_settings().cache_dir / "models"


def _kill_worker_when_busy(proc: subprocess.Popen[str]) -> None:
    """Kill the worker node once a pass-1 task runs (the run has work on it to lose)."""
    while proc.poll() is None:
        if _titled(("ray::count_terms", "ray::weigh_statements")):
            time.sleep(1.0)
            done = subprocess.run([str(CLUSTER), "kill-worker"], capture_output=True, text=True,
                                  check=False)
            console.print(done.stdout.strip() or done.stderr.strip())
            return
        time.sleep(0.05)


def _kill_when_a_batch_is_written(proc: subprocess.Popen[str], documents: int) -> bool:
    """SIGKILL the run once some but not all of its `documents` are indexed whole; whether it
    was (a run of one batch is never killed)."""
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.settings import load_settings

    # The run first wipes the graph an earlier run left, which takes a while: a count seen
    # during the wipe is the earlier run's, so none counts until the wipe has been seen done.
    wiped = False
    with Store.connect(load_settings().neo4j) as store:
        while proc.poll() is None:
            rows = store.read("indexing/documents/list_documents", skip=0, limit=10_000_000)
            complete = sum(row["complete"] for row in rows)
            wiped = wiped or complete == 0
            if wiped and 0 < complete < documents:
                proc.kill()
                proc.wait()
                console.print(f"killed the driver with {complete} of"
                              f" {len(rows)} documents indexed")
                return True
            time.sleep(0.2)
    return False


def _cluster(action: str) -> None:
    done = subprocess.run([str(CLUSTER), action], check=False, capture_output=True, text=True)
    if done.returncode != 0:
        console.print(f"ray-cluster.sh {action}: exit {done.returncode} {done.stderr.strip()}")


def equality(args: argparse.Namespace, folder: Path) -> Table:
    table = Table("corpus", "passages", "words", "in-process", "Ray, 2 nodes", "same graph",
                  "load avg", title="Equality: one in-process run against the two-node cluster")
    for corpus in args.equality:
        one = child("in-process", corpus, args.equality_passages, folder)
        two = child("ray-cluster", corpus, args.equality_passages, folder)
        same = bool(one.digest) and one.digest == two.digest
        row = (corpus, f"{one.passages:,}", f"{one.words:,}", _graph(one), _graph(two),
               "yes" if same else "NO", f"{max(one.load, two.load):.1f}")
        console.print("equality:", " | ".join(row))  # each row as it comes: a long run
        table.add_row(*row)
    return table


def _graph(run: Run) -> str:
    if run.error:
        return run.error[:80]
    counts = run.counts
    return (f"{counts.get('entities', 0):,} ent, {counts.get('relations', 0):,} rel, "
            f"{counts.get('communities', 0):,} comm, {run.digest}")


def speed(args: argparse.Namespace, folder: Path) -> Group:
    table = Table("run", "words", "seconds", "words/s", "vs in-process", "driver RSS MB",
                  "worker peak RSS MB", "graph rows/s written", "load avg",
                  title=f"2Wiki fast, {args.passages:,} passages")
    runs = [child(kind, "2wiki", args.passages, folder) for kind in args.kinds]
    base = runs[0].words_per_second
    console.print({run.kind: {k: round(v, 1) for k, v in run.stages.items()} for run in runs})
    for run in runs:
        ratio = f"{run.words_per_second / base:.2f}x" if base and not run.error else "-"
        table.add_row(run.kind + (" (taskset -c 0)" if run.kind in PINNED else ", 2 nodes"),
                      f"{run.words:,}", f"{run.seconds:.1f}", f"{run.words_per_second:,.0f}",
                      ratio if not run.error else run.error[:60], f"{run.driver_rss_mb:.0f}",
                      f"{run.worker_rss_mb:.0f}" if run.kind != "in-process" else "-",
                      f"{run.write_rate:,.0f}", f"{run.load:.1f}")
    cluster = [run for run in runs if run.kind == "ray-cluster"]
    return Group(table, *(projection(run) for run in cluster))


def projection(run: Run) -> Table:
    """100,000 and 1,000,000 passages on N nodes, from the two-node run's measured figures."""
    title = (f"Projection from the two-node run (load average {run.load:.1f}"
             f"{': busy cores, a floor' if run.load > CLUSTER_CPUS + 0.5 else ''})")
    table = Table("nodes of 8 CPUs", *(f"{p:,} passages" for p in PROJECTED_PASSAGES),
                  "bottleneck", title=title)
    if run.error or not run.words or not run.passages:
        table.add_row("-", *("-" for _ in PROJECTED_PASSAGES), run.error[:60] or "no run")
        return table
    driver_s = sum(run.stages.get(stage, 0.0) for stage in DRIVER_STAGES)
    map_cpu_per_word = max(0.0, run.seconds - driver_s) * CLUSTER_CPUS / run.words
    driver_per_word = driver_s / run.words
    words_per_passage = run.words / run.passages
    rows_per_passage = (run.counts.get("entities", 0) + run.counts.get("relations", 0)
                        ) / run.passages
    for nodes in PROJECTED_NODES:
        cells = []
        for passages in PROJECTED_PASSAGES:
            words = passages * words_per_passage
            mapped = words * map_cpu_per_word / (nodes * NODE_CPUS) / 3600
            driver = words * driver_per_word / 3600
            cells.append(f"{mapped:.2f} h map + {driver:.2f} h driver = {mapped + driver:.2f} h")
        bottleneck = ("the driver (resolution, one writer)"
                      if driver_per_word > map_cpu_per_word / (nodes * NODE_CPUS)
                      else "the workers' map work")
        table.add_row(str(nodes), *cells, bottleneck)
    writes = [p * rows_per_passage / run.write_rate / 3600 if run.write_rate else 0.0
              for p in PROJECTED_PASSAGES]
    table.add_row("of which one writer", *(f"{h:.2f} h at {run.write_rate:,.0f} rows/s"
                                           for h in writes), "")
    table.caption = (f"measured: {map_cpu_per_word * 1000:.2f} map CPU-s and "
                     f"{driver_per_word * 1000:.3f} driver s per 1,000 words, "
                     f"{words_per_passage:.0f} words and {rows_per_passage:.1f} graph rows a"
                     " passage")
    return table


def memory(args: argparse.Namespace, folder: Path) -> Table:
    table = Table("passages", "words", "each worker's peak RSS MB", "driver RSS MB",
                  "load avg", title="Ray workers' peak RSS by corpus size (2Wiki fast, 2 nodes)")
    for size in args.sizes:
        run = child("ray-cluster", "2wiki", size, folder)
        peaks = ", ".join(f"{mb:.0f}" for mb in run.worker_peaks_mb) or "-"
        table.add_row(f"{run.passages:,}", f"{run.words:,}", peaks,
                      f"{run.driver_rss_mb:.0f}" if not run.error else run.error[:60],
                      f"{run.load:.1f}")
    return table


def fault(args: argparse.Namespace, folder: Path) -> Table:
    passages = args.fault_passages
    table = Table("run", "seconds", "graph", "same graph", "load avg",
                  title=f"Faults on the two-node cluster (2Wiki fast, {passages:,} passages)")
    one = child("in-process", "2wiki", passages, folder)
    runs = {"in-process": one}
    runs["worker node killed mid-run"] = child("ray-cluster", "2wiki", passages, folder,
                                               kill="worker")
    _cluster("start-worker")
    runs["driver killed after a batch, run again"] = child("ray-cluster", "2wiki", passages,
                                                           folder, kill="driver")
    for name, run in runs.items():
        table.add_row(name, f"{run.seconds:.1f}", _graph(run),
                      "yes" if one.digest and run.digest == one.digest else "NO",
                      f"{run.load:.1f}")
    return table


SECTIONS: dict[str, Any] = {"equality": equality, "speed": speed, "memory": memory, "fault": fault}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reset", action="store_true", help="wipe the graph (required)")
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS),
                        help="the sections to run, in this order (default: all)")
    parser.add_argument("--passages", type=int, default=6119,
                        help="2Wiki passages of the speed runs")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                        help="the speed runs (default: all three; the first is the baseline)")
    parser.add_argument("--sizes", type=int, nargs=2, default=[2000, 6119],
                        help="2Wiki passages of the two memory runs")
    parser.add_argument("--equality", nargs="+", choices=CORPORA, default=list(CORPORA),
                        help="the corpora of the equality runs (default: all three)")
    parser.add_argument("--equality-passages", type=int, default=sys.maxsize,
                        help="2Wiki and MuSiQue records of the equality runs (default: all)")
    parser.add_argument("--fault-passages", type=int, default=2000,
                        help="2Wiki passages of the fault runs")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        kind, corpus, passages, folder, *resume = args.one
        run = one_run(kind, corpus, int(passages), Path(folder), resume=bool(resume))
        print(json.dumps(asdict(run)))
        return
    if not args.reset:
        parser.error("every run wipes the graph: pass --reset against a Neo4j of its own")
    started = time.perf_counter()
    _cluster("start")
    try:
        exported = subprocess.check_output([str(CLUSTER), "env"], text=True)
        for pair in exported.removeprefix("export ").split():
            name, value = pair.split("=", 1)
            os.environ[name] = value
        with tempfile.TemporaryDirectory(prefix="scale-out-") as tmp:
            folder = Path(tmp)
            for name in args.only:
                console.print(SECTIONS[name](args, folder))
    finally:
        _cluster("stop")
    console.print(f"{os.cpu_count()} cores; whole benchmark {time.perf_counter() - started:.0f} s."
                  " Timing figures are valid only on otherwise idle cores.")


if __name__ == "__main__":
    main()
