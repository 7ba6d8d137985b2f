"""`graphrag-neo4j models`: which LLM and embedder the settings resolve to, and a probe."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphrag_neo4j.runtime.errors import GraphRAGError
from graphrag_neo4j.settings import Settings

PROBE_TEXT = (
    "Leonhard Euler studied mathematics under Johann Bernoulli at the University of Basel. "
    "Johann's son Daniel Bernoulli later worked with Euler in Saint Petersburg."
)
PROBE_STAGE = "probe"
# The reading probe: this many copies of the probe text (about 400 tokens), a reply of a word.
READING_PROBE_NOTES = 12
READING_PROBE_MAX_TOKENS = 4
# Texts in the timed embedding probe: one batch, as indexing sends them.
EMBEDDING_PROBE_BATCH = 32


def embedding_probe_texts() -> list[str]:
    """Distinct texts (an embedder call sends each text once) for the timed probe batch."""
    return [f"{PROBE_TEXT} ({number})" for number in range(1, EMBEDDING_PROBE_BATCH + 1)]


@dataclass(frozen=True)
class ProbeResult:
    """One capability check: did it work, what it found, how long it took."""

    name: str
    ok: bool
    detail: str
    seconds: float


async def probe_llm(settings: Settings) -> tuple[str, ProbeResult]:
    """Resolve the LLM and run one tiny extraction, bypassing the response cache."""
    from graphrag_neo4j.indexing.extraction.tag_parser import parse_extraction
    from graphrag_neo4j.llm.calls.chat import LLMCaller
    from graphrag_neo4j.llm.providers import resolve_llm
    from graphrag_neo4j.runtime.resources import load_prompt

    resolved = resolve_llm(settings)
    # No cached reply, but the timing is kept beside the cache for later estimates.
    caller = LLMCaller(resolved.model, settings.llm, settings.cache_dir, no_cache=True)
    # A long prompt with a one-word reply first: beside the extraction's even mix it lets an
    # estimate tell the cost of reading a token from that of writing one.
    notes = "\n".join(f"{n}. {PROBE_TEXT}" for n in range(1, READING_PROBE_NOTES + 1))
    reading = load_prompt("cli/probe_reading", settings.prompts_dir).format(text=notes)
    await caller.complete(reading, stage=PROBE_STAGE, max_tokens=READING_PROBE_MAX_TOKENS)
    read = caller.usage.total()
    prompt = load_prompt("cli/probe_extraction", settings.prompts_dir).format(text=PROBE_TEXT)
    started = time.perf_counter()
    reply = await caller.complete(prompt, stage=PROBE_STAGE)
    seconds = time.perf_counter() - started
    parsed = parse_extraction(reply)
    usage = caller.usage.total()
    tokens = (f"{usage.prompt_tokens - read.prompt_tokens} prompt + "
              f"{usage.completion_tokens - read.completion_tokens} completion tokens")
    ok = bool(parsed.entities)
    if ok:
        detail = (f"tag format parseable: {len(parsed.entities)} entities, "
                  f"{len(parsed.triplets)} triplets ({tokens})")
    else:
        head = reply.strip().replace("\n", " ")[:160]
        detail = f"reply not in the tag format ({tokens}); it began: {head!r}"
    return resolved.description, ProbeResult("extraction", ok, detail, seconds)


async def probe_embedder(settings: Settings) -> tuple[str, ProbeResult]:
    """Resolve the embedder and embed one text, bypassing the vector cache."""
    from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
    from graphrag_neo4j.llm.providers import resolve_embeddings

    resolved = resolve_embeddings(settings)
    caller = EmbeddingCaller(resolved.model, settings.embedding, None, no_cache=True)
    started = time.perf_counter()
    dimension = await caller.dimension()
    seconds = time.perf_counter() - started
    # The first call also loaded the model, so a second, batch-sized one is timed for
    # estimates (kept beside the vector cache; no vector is cached).
    timed = EmbeddingCaller(resolved.model, settings.embedding, settings.cache_dir,
                            no_cache=True)
    try:
        await timed.embed(embedding_probe_texts())
    finally:
        timed.close()
        caller.close()
    return resolved.description, ProbeResult("embedding", dimension > 0,
                                             f"dimension {dimension}", seconds)


def _table(rows: list[tuple[str, str, ProbeResult | None]]) -> Table:
    table = Table(title="Models")
    for header in ("role", "resolved to", "probe", "latency"):
        # Fold, never truncate: a cut-off model file name is the one thing users look for here.
        table.add_column(header, overflow="fold")
    for role, description, result in rows:
        if result is None:
            table.add_row(role, Text(description), "skipped", "")
            continue
        mark = ("ok", "green") if result.ok else ("FAILED", "red")
        probe = Text.assemble(mark, f" {result.detail}")  # the detail quotes model output
        table.add_row(role, Text(description), probe, f"{result.seconds:.2f} s")
    return table


async def _run(settings: Settings, probe: bool) -> list[tuple[str, str, ProbeResult | None]]:
    from graphrag_neo4j.llm.providers import resolve_embeddings, resolve_llm

    if not probe:
        return [("LLM", resolve_llm(settings).description, None),
                ("embedder", resolve_embeddings(settings).description, None)]
    embedder_description, embedding = await probe_embedder(settings)
    llm_description, extraction = await probe_llm(settings)
    return [("LLM", llm_description, extraction), ("embedder", embedder_description, embedding)]


def graph_vectors(settings: Settings) -> dict[str, Any] | None:
    """Which embedder made the graph's vectors (recorded when an engine first ensured its
    schema); None when none is recorded or no Neo4j answers."""
    from graphrag_neo4j.database.store import Store

    try:
        with Store.connect(settings.neo4j) as store:
            rows = store.read("database/embedder/read_embedder")
    except GraphRAGError:
        return None
    return rows[0] if rows else None


def vectors_row(settings: Settings, held: dict[str, Any]) -> tuple[str, str, ProbeResult]:
    """The table's row of the graph's vectors; a failed check when the embedder differs."""
    from graphrag_neo4j.database.store import embedder_mismatch
    from graphrag_neo4j.llm.calls.embeddings import embedder_name
    from graphrag_neo4j.llm.providers import resolve_embeddings

    name = embedder_name(resolve_embeddings(settings).model)
    description = f"{held['embedder']}, {held['dimension']} dimensions"
    ok = held["embedder"] == name
    detail = "the embedder above" if ok else embedder_mismatch(settings.neo4j.uri, held, name)
    return "graph vectors", description, ProbeResult("vectors", ok, detail, 0.0)


def corpus_language_warning(settings: Settings) -> str | None:
    """One sentence when the indexed documents are in languages the embedder does not know;
    None too when no Neo4j answers (there is no corpus to compare)."""
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.indexing.input.language import embedder_mismatch
    from graphrag_neo4j.llm.providers import resolve_embeddings

    embedder = resolve_embeddings(settings).model
    languages = getattr(embedder, "languages", None)
    if languages is None:
        return None
    try:
        with Store.connect(settings.neo4j) as store:
            rows = store.read("indexing/documents/count_document_languages")
    except GraphRAGError:
        return None
    counts = {row["language"]: row["documents"] for row in rows}
    return embedder_mismatch(counts, languages, getattr(embedder, "model_name", "the embedder"))


def models_command(
    probe: Annotated[
        bool, typer.Option("--probe/--no-probe", help="Run one extraction and one embedding.")
    ] = True,
    verify: Annotated[
        bool, typer.Option(help="Hash the offline default GGUF again, even if unchanged.")
    ] = False,
) -> None:
    """Show the resolved LLM and embedder and check that they work."""
    from graphrag_neo4j.settings import load_settings

    console = Console()
    try:
        settings = load_settings()
        if verify:
            _verify_default_gguf(settings, console)
        rows: list[tuple[str, str, ProbeResult | None]] = asyncio.run(_run(settings, probe))
        held = graph_vectors(settings)
        if held is not None:
            rows.append(vectors_row(settings, held))
    except GraphRAGError as exc:
        Console(stderr=True).print(Text.assemble(("Error: ", "red"), str(exc)), highlight=False)
        raise typer.Exit(1) from None
    console.print(_table(rows))
    warning = corpus_language_warning(settings)
    if warning is not None:
        Console(stderr=True).print(Text(f"Warning: {warning}", style="yellow"))
    failed = [result for _, _, result in rows if result is not None and not result.ok]
    if failed:
        sentence = failed[0].detail if failed[0].name == "vectors" else (
            "The model probe failed; see the table above.")
        Console(stderr=True).print(Text(sentence, style="red"))
        raise typer.Exit(1)


def _verify_default_gguf(settings: Settings, console: Console) -> None:
    """Re-hash the offline default model (ModelError, with the fix, when it differs)."""
    from graphrag_neo4j.llm.offline.download import ensure_default_gguf

    path = ensure_default_gguf(settings.cache_dir, console, verify=True)
    console.print(Text(f"{path}: size and sha256 verified."))
