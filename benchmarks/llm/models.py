"""Offline model throughput: MiniLM short texts/s and passages/s, llama.cpp tokens/s.

Run: .venv/bin/python benchmarks/llm/models.py [--skip-llm] [--llm-tokens 256] [--repeats 3]
     .venv/bin/python benchmarks/llm/models.py --under-load [--llm-threads N] [--llm-poll P]
Targets on 2 cores: >= 150 short texts/s, >= 15 passages/s, >= 15 generated tokens/s, and
beside one competing busy process >= 40 % of the generation rate without it (--under-load
measures both in one run: a laptop is rarely idle).
On a shared machine each figure also shows the share of its 2 threads' time the process got
(CPU seconds / (wall seconds * 2)) and the figure divided by that share, an estimate of the
rate on 2 idle cores.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "musique" / "corpus.jsonl"
SHORT_COUNT = 512
PASSAGE_COUNT = 64
PASSAGE_WORDS = 225  # ~300 WordPiece tokens of English prose
TARGETS = {"short texts/s": 150.0, "passages/s": 15.0, "generated tokens/s": 15.0}
THREADS = 2
LLM_PROMPT = "Explain in detail how a knowledge graph differs from a relational database."


def _corpus_texts() -> list[str]:
    if CORPUS.is_file():
        with CORPUS.open(encoding="utf-8") as handle:
            return [json.loads(line)["text"] for line in handle]
    # Outside the workplace: synthetic prose, less realistic but the same shapes.
    words = ["the", "graph", "links", "people", "places", "and", "events", "that",
             "documents", "mention"]
    return [" ".join(words[(i + j) % len(words)] for j in range(80)) + "." for i in range(400)]


def short_texts(texts: list[str]) -> list[str]:
    """Sentences of 5 to 30 words."""
    sentences = [s for t in texts for s in re.split(r"(?<=[.!?])\s+", t)]
    return [s for s in sentences if 5 <= len(s.split()) <= 30][:SHORT_COUNT]


def passages(texts: list[str]) -> list[str]:
    """Consecutive corpus text cut into ~300-token windows."""
    words = " ".join(texts).split()
    return [" ".join(words[i * PASSAGE_WORDS : (i + 1) * PASSAGE_WORDS])
            for i in range(PASSAGE_COUNT)]


Figure = tuple[float, float]  # (rate per wall-clock second, share of 2 cores obtained)


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, share of THREADS cores this process got meanwhile)."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, min(1.0, cpu / (wall * THREADS))


def _rate(embedder: MiniLMEmbeddings, items: list[str], repeats: int) -> Figure:
    embedder.embed_documents(items[:8])  # warm-up: session creation, first allocations
    runs = [_timed(lambda: embedder.embed_documents(items)) for _ in range(repeats)]
    return (statistics.median(len(items) / wall for wall, _ in runs),
            statistics.median(share for _, share in runs))


def llm_rates(max_tokens: int, repeats: int) -> dict[str, Figure]:
    """Generation, prompt and end-to-end completion tokens/s (medians of `repeats` runs)."""
    from graphrag_neo4j.llm.providers import resolve_llm
    from graphrag_neo4j.settings import load_settings

    model = resolve_llm(load_settings(llm={"provider": "local", "max_tokens": max_tokens})).model
    model.invoke("Say OK.")  # loads the model; not timed
    generated, prompted, wall, shares = [], [], [], []
    for index in range(repeats):
        replies: list[Any] = []
        prompt = f"{LLM_PROMPT} (variant {index})"
        # A different prompt each time so llama.cpp's prompt cache does not flatter the figure.
        seconds, share = _timed(lambda: replies.append(model.invoke(prompt)))  # noqa: B023
        timings = replies[0].response_metadata.get("timings", {})
        generated.append(float(timings.get("predicted_per_second", 0.0)))
        prompted.append(float(timings.get("prompt_per_second", 0.0)))
        usage = replies[0].usage_metadata or {}
        wall.append(usage.get("output_tokens", 0) / seconds)
        shares.append(share)
    share = statistics.median(shares)
    return {"generated tokens/s": (statistics.median(generated), share),
            "prompt tokens/s": (statistics.median(prompted), share),
            "completion tokens/s end to end": (statistics.median(wall), share)}


def _local_model(max_tokens: int, threads: int | None, poll: int | None) -> Any:
    from graphrag_neo4j.llm.providers import resolve_llm
    from graphrag_neo4j.settings import load_settings

    llm: dict[str, Any] = {"provider": "local", "max_tokens": max_tokens}
    if threads is not None:
        llm["n_threads"] = threads
    if poll is not None:
        llm["cpu_poll"] = poll
    model = resolve_llm(load_settings(llm=llm)).model
    model.invoke("Say OK.")  # loads the model (threads fixed now, before any competitor)
    return model


def _generation_rate(model: Any, repeats: int, tag: str) -> float:
    rates = []
    for index in range(repeats):
        reply = model.invoke(f"{LLM_PROMPT} ({tag} {index})")
        rates.append(float(reply.response_metadata.get("timings", {})
                           .get("predicted_per_second", 0.0)))
    return statistics.median(rates)


def llm_under_load(max_tokens: int, repeats: int, threads: int | None, poll: int | None
                   ) -> dict[str, Figure]:
    """Generated tokens/s alone and beside one busy-loop process started here, and the ratio."""
    model = _local_model(max_tokens, threads, poll)
    idle = _generation_rate(model, repeats, "idle")
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(1.0)  # let the scheduler see the competitor
        loaded = _generation_rate(model, repeats, "loaded")
    finally:
        busy.kill()
        busy.wait()
    return {"generated tokens/s, alone": (idle, 1.0),
            "generated tokens/s, 1 busy process beside": (loaded, 1.0),
            "under load / alone (target >= 0.40)": (loaded / max(idle, 1e-9), 1.0)}


def _under_load_table(args: argparse.Namespace) -> Table:
    from graphrag_neo4j.llm.offline.cores import free_cores

    load = os.getloadavg()[0]
    figures = llm_under_load(args.llm_tokens, args.repeats, args.llm_threads, args.llm_poll)
    threads = args.llm_threads or f"auto ({free_cores()} free now)"
    poll = "settings default" if args.llm_poll is None else args.llm_poll
    table = Table(title=f"llama.cpp beside a busy process: threads {threads}, poll {poll}, "
                        f"{args.llm_tokens} tokens x {args.repeats} (load average {load:.2f})")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, (value, _) in figures.items():
        table.add_row(name, f"{value:.2f}")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-llm", action="store_true", help="Only the embedder.")
    parser.add_argument("--llm-tokens", type=int, default=256, help="Tokens per generation.")
    parser.add_argument("--repeats", type=int, default=3, help="Runs per figure (median).")
    parser.add_argument("--under-load", action="store_true",
                        help="Only llama.cpp: tokens/s alone and beside a busy process.")
    parser.add_argument("--llm-threads", type=int, help="llm.n_threads (default: settings).")
    parser.add_argument("--llm-poll", type=int, help="llm.cpu_poll (default: settings).")
    args = parser.parse_args()
    console = Console()
    if args.under_load:
        console.print(_under_load_table(args))
        return
    load_before = os.getloadavg()[0]
    texts = _corpus_texts()
    embedder = MiniLMEmbeddings(threads=THREADS)
    figures: dict[str, Figure] = {
        "short texts/s": _rate(embedder, short_texts(texts), args.repeats),
        "passages/s": _rate(embedder, passages(texts), args.repeats),
    }
    if not args.skip_llm:
        figures.update(llm_rates(args.llm_tokens, args.repeats))
    table = Table(title=f"Offline models on {os.cpu_count()} cores "
                        f"(load average {load_before:.2f} -> {os.getloadavg()[0]:.2f})")
    for header in ("figure", "measured", "cpu share", "idle-core estimate", "target"):
        table.add_column(header, justify="left" if header == "figure" else "right")
    for name, (value, share) in figures.items():
        target = TARGETS.get(name)
        verdict = "" if target is None else ("[green]ok[/green]" if value >= target
                                             else "[red]below[/red]")
        table.add_row(name, f"{value:,.1f}", f"{share:.0%}", f"{value / max(share, 0.01):,.1f}",
                      f"{target:g} {verdict}" if target else "")
    console.print(table)


if __name__ == "__main__":
    main()
