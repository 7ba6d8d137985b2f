"""Every setting of the engine, each default declared once, loaded explicitly from file and env."""

from __future__ import annotations

import logging
import os
import re
import reprlib
import tomllib
import warnings
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from graphrag_neo4j.errors import ConfigError

CONFIG_FILE_NAME = "graphrag.toml"
PASSWORD_FILE_NAME = "password"  # in neo4j.home: the password `neo4j start` generated
CONFIG_ENV_VAR = "GRAPHRAG_CONFIG"
PROMPTS_FOLDER_NAME = "prompts"

logger = logging.getLogger(__name__)
# Python spells the [search.global] section `global_`; overrides may too.
_GLOBAL_ATTRIBUTE = re.compile(r"^global_(?=\.|$)")

# Set only for the duration of one load_settings() call, so the file is a per-call choice.
_active_config_file: ContextVar[Path | None] = ContextVar("graphrag_config_file", default=None)


def _user_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "graphrag-neo4j"


def _user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphrag-neo4j"


# How a query's own options may change a [search] setting (query.base.make_query reads it).
# Unmarked, a number may be lowered but never raised past the settings (those of `serve` for
# its clients): it is a budget of rows, tokens, calls or seconds. TUNABLE marks a weight, share
# or level held within its own bounds; SETTINGS_ONLY one no query may change at all.
PER_QUERY = "per_query"
TUNABLE: dict[str, Any] = {PER_QUERY: "tunable"}
SETTINGS_ONLY: dict[str, Any] = {PER_QUERY: "settings_only"}


class _Section(BaseModel):
    """A settings section: unknown keys are typos, so they are refused."""

    model_config = ConfigDict(extra="forbid")


class Neo4jSettings(_Section):
    """Where the graph lives and how the bundled local server runs."""

    uri: str = Field("bolt://127.0.0.1:7687", description="Bolt URI of the Neo4j server.")
    user: str = Field("neo4j", description="Neo4j user name.")
    password: SecretStr | None = Field(
        None,
        description="Neo4j password; empty = the random one `neo4j start` generated on first"
        " start and keeps user-only in <home>/password.",
    )
    database: str = Field("neo4j", description="Database name (Community edition has one).")
    managed: bool = Field(
        True,
        description="`graphrag-neo4j neo4j start|stop` run the bundled local server; false for"
        " a server run elsewhere (a cluster, or Aura at neo4j+s://...), which they leave alone.",
    )
    home: Path = Field(
        default_factory=lambda: _user_data_dir() / "neo4j",
        description="Folder of the local server: data, logs, pid file, resolved classpath.",
    )
    http_port: int = Field(7474, description="HTTP port of the local server (Browser).")
    heap: str = Field("2g", description="JVM heap of the local server.")
    pagecache: str = Field("2g", description="Page cache of the local server.")
    write_batch_size: int = Field(1000, description="Rows per UNWIND write transaction.")
    transaction_rows: int = Field(
        20_000, ge=1, description="Most rows one write transaction of a batch's mentions holds"
        " (more commit in several; a failed batch is rolled back by deleting what it wrote):"
        " Neo4j holds a transaction's changes in memory (dbms.memory.transaction.total.max).",
    )
    max_transaction_retry_s: float = Field(
        30.0, description="How long transient Neo4j errors are retried."
    )

    def secret(self) -> str:
        """The configured password, else the one the local server generated (or "")."""
        if self.password is not None:
            return self.password.get_secret_value()
        stored = Path(self.home).expanduser() / PASSWORD_FILE_NAME
        return stored.read_text(encoding="utf-8").strip() if stored.is_file() else ""

    @property
    def bolt_port(self) -> int:
        """The Bolt port the local server listens on, taken from `uri`."""
        return urlparse(self.uri).port or 7687


class LLMSettings(_Section):
    """Which chat model answers and how calls to it are made."""

    provider: Literal["auto", "openai", "azure", "local"] = Field(
        "auto",
        description="auto = openai when OPENAI_API_KEY is set, otherwise the offline local model.",
    )
    model: str | None = Field(
        None, description="Model name (openai: gpt-4o-mini; azure: the deployment)."
    )
    api_key: SecretStr | None = Field(
        None, description="API key; OPENAI_API_KEY / AZURE_OPENAI_API_KEY when unset."
    )
    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, llama.cpp)."
    )
    azure_endpoint: str | None = Field(None, description="Azure OpenAI endpoint URL.")
    api_version: str | None = Field(None, description="Azure OpenAI API version.")
    gguf_path: Path | None = Field(
        None, description="GGUF file for provider=local; empty = the offline default model."
    )
    n_ctx: int = Field(8192, description="Context window of the local model, in tokens.")
    n_threads: int = Field(
        0, description="CPU threads of the local model; 0 = the cores free when it loads."
    )
    cpu_poll: int = Field(
        0,
        description="How hard llama.cpp's idle threads poll for work (0-100); 0 lets them sleep,"
        " which keeps throughput when another program shares the cores.",
        ge=0,
        le=100,
    )
    temperature: float = Field(0.0, description="Sampling temperature.")
    max_tokens: int = Field(1500, description="Most tokens one answer may generate.")
    repeat_penalty: float = Field(
        1.1,
        description="Repetition penalty of the local llama.cpp model (1.0 = off); small models "
        "decoding greedily otherwise fall into loops of the same record.",
    )
    concurrency: int | None = Field(
        None,
        description="Most LLM calls in flight at once (fewer while the API answers 429); unset:"
        " 25 for OpenAI and Azure, 4 for a server at llm.base_url, which often runs few at a"
        " time (set its parallel slots).",
        ge=1,
    )
    timeout_s: float = Field(600.0, description="Timeout of one LLM call, in seconds.")
    max_retries: int = Field(5, description="Retries on rate limits, timeouts and 5xx.")
    cache: bool = Field(True, description="Reuse cached responses for identical calls.")
    prompt_price_per_1m: float | None = Field(
        None, description="Price per million prompt tokens, for the cost figure."
    )
    completion_price_per_1m: float | None = Field(
        None, description="Price per million completion tokens, for the cost figure."
    )


# What the offline embedder makes of a text longer than its window.
LongTexts = Literal["windows", "truncate"]


class EmbeddingSettings(_Section):
    """Which embedder turns text into vectors."""

    provider: Literal["auto", "openai", "azure", "offline", "offline-multilingual"] = Field(
        "auto",
        description="auto = openai when OPENAI_API_KEY is set, otherwise offline MiniLM"
        " (English); offline-multilingual = Universal Sentence Encoder, 16 languages, offline.",
    )
    model: str | None = Field(
        None, description="Model name (openai: text-embedding-3-small; azure: deployment)."
    )
    api_key: SecretStr | None = Field(None, description="API key; OPENAI_API_KEY when unset.")
    base_url: str | None = Field(None, description="OpenAI-compatible embeddings endpoint.")
    azure_endpoint: str | None = Field(
        None, description="Azure OpenAI endpoint; empty = llm.azure_endpoint."
    )
    api_version: str | None = Field(
        None, description="Azure OpenAI API version; empty = llm.api_version."
    )
    threads: int = Field(2, description="CPU threads of the offline embedder (onnxruntime).")
    long_texts: LongTexts = Field(
        "windows", description="A text longer than the offline MiniLM's window (256 word "
        "pieces, about 190 words): `windows` = the mean of its tokens over consecutive windows "
        "(it costs as many runs as windows), `truncate` = its first window only (what "
        "sentence-transformers does: the rest of a long chunk is never seen)."
    )
    batch_size: int = Field(64, description="Texts per embedding request.")
    concurrency: int = Field(2, description="Most embedding batches in flight at once.")
    cache: bool = Field(True, description="Reuse cached vectors for identical texts.")
    price_per_1m: float | None = Field(
        None, description="Price per million embedded tokens, for estimates (else built-in)."
    )


class ChunkingSettings(_Section):
    """How documents are cut into overlapping windows."""

    unit: Literal["tokens", "chars"] = Field(
        "tokens", description="Measure windows in tiktoken tokens or in characters."
    )
    size: int = Field(1200, description="Window size (tokens or characters).")
    overlap: int = Field(100, description="Overlap between consecutive windows.")
    encoding: str = Field("cl100k_base", description="tiktoken encoding for token counts.")


class FastExtractionSettings(_Section):
    """Extraction without an LLM (`method = "fast"`): spaCy NER, noun phrases, co-occurrence."""

    label_types: dict[str, str] = Field(
        default_factory=lambda: {
            "PERSON": "person", "GPE": "location", "LOC": "location", "FAC": "location",
            "ORG": "organization", "NORP": "organization", "EVENT": "event",
            "WORK_OF_ART": "concept", "LAW": "concept", "PRODUCT": "concept",
            "LANGUAGE": "concept",
        },
        description="spaCy NER label -> entity type; labels not listed (DATE, TIME, MONEY, "
        "CARDINAL, ...) are dropped.",
    )
    concepts: bool = Field(True, description="Also take noun phrases as `concept` entities.")
    concept_type: str = Field("concept", description="Entity type of noun-phrase concepts.")
    min_type_agreement: float = Field(
        0.5, description="Share of a name's typed mentions its most frequent type (NER label, "
        "or the shape of inline code) must be given to; a name typed less consistently is a "
        "concept (the news-trained NER labels a product a place, an index type a person).",
    )
    min_concept_frequency: int = Field(
        3, description="Chunks of the run's input a noun phrase must appear in to become a concept."
    )
    min_concept_chars: int = Field(3, description="Shortest concept name, in characters.")
    max_concept_words: int = Field(4, description="Longest concept name, in words.")
    max_concept_chunk_share: float = Field(
        0.5,
        description="Concepts found in more than this share of the input's chunks are too "
        "common to say anything (applied from 20 chunks on).",
    )
    sentences_per_description: int = Field(
        2, description="Supporting sentences kept verbatim as an entity or relation description: "
        "of those of six words or more (shorter ones only when there are too few), the ones"
        " opening with the entity's name first, then the shortest."
    )
    vector_words: int = Field(
        0, ge=0, description="Words of an entity's extractive description its vector encodes "
        "after its name (0: the name alone). The description's sentences are in the chunks, "
        "which have vectors of their own; embedding them again made most of a fast index's "
        "time and moved no retrieval measure."
    )
    sentence_weight: float = Field(
        1.0, description="Weight a relation gets per sentence in which both ends appear."
    )
    chunk_weight: float = Field(
        0.25, description="Weight per chunk in which both ends appear but never in one sentence "
        "(0 = no chunk-level co-occurrence)."
    )
    chunk_window_sentences: int = Field(
        3, ge=1, description="Chunk-level co-occurrence links two terms only when they appear "
        "within this many consecutive sentences of the chunk, so a chunk's relations grow "
        "with its length, not its square (a 1,200-token chunk of 100 terms would otherwise "
        "make 4,950 pairs)."
    )
    cooccurrence_predicate: str = Field(
        "co-occurs with", description="Predicate of relations no verb links."
    )
    min_entity_frequency: int = Field(
        1, description="Pruning: chunks of the run's input a named entity must appear in."
    )
    min_edge_weight: float = Field(
        1.0, description="Pruning: relations weaker than this (summed over the input) are dropped."
    )
    hub_degree_percentile: float = Field(
        90.0,
        description="Pruning: entities of `hub_types` whose degree is above this percentile "
        "of the input's degrees are dropped (100 = off), as Microsoft GraphRAG drops ego nodes.",
    )
    hub_types: list[str] = Field(
        default_factory=lambda: ["concept"],
        description="Entity types hub pruning may drop (named entities stay).",
    )
    fold_aliases: bool = Field(
        True,
        description="Fold a short name into the one full name of a document that contains it "
        "(\"Scrooge\" -> \"Ebenezer Scrooge\"), recorded as an undoable merge.",
    )
    alias_types: list[str] = Field(
        default_factory=lambda: ["person", "organization", "location"],
        description="Entity types alias folding applies to.",
    )
    alias_opening_types: list[str] = Field(
        default_factory=lambda: ["person"],
        description="Alias types whose short name may open the full name (a first name: "
        "\"Ebenezer\" -> \"Ebenezer Scrooge\"). Other short names fold only into a name "
        "they close (\"Vegas\" -> \"Las Vegas\"): a name that opens a longer one is its "
        "modifier (\"Oxford University\" of \"Oxford University Cricket Club\").",
    )
    llm_summaries: bool = Field(
        False, description="Summarise long descriptions with the LLM instead of keeping "
        "`sentences_per_description` sentences."
    )
    embed_relations: bool = Field(
        False, description="Embed each relation's sentence, as LLM and triplet relations are. "
        "Only hops reads these vectors (its relation search and candidate order) and weighs "
        "fast relations at `hops.fast_relation_weight`."
    )
    batch_size: int = Field(
        2, description="Chunks per spaCy `nlp.pipe` batch (small batches keep the worker "
        "processes evenly busy)."
    )
    processes: int = Field(
        2, description="spaCy worker processes (forked, each parsing batches into terms); 1 "
        "parses in the indexing process, as every input of fewer than 16 chunks does (starting "
        "workers would cost more than they save)."
    )


class ExtractionSchemaSettings(_Section):
    """An optional schema the extraction keeps to: allowed entity and relation types."""

    entity_types: dict[str, str] = Field(
        default_factory=dict,
        description="Allowed entity types, each with a one-line description the LLM reads"
        " (e.g. person = \"a human being or a ghost\"); empty = no schema.",
    )
    relation_types: list[str] = Field(
        default_factory=list,
        description="Allowed relation types (a relationship's `predicate`); empty = any verb"
        " phrase.",
    )
    patterns: list[tuple[str, str, str]] = Field(
        default_factory=list,
        description="Allowed (source type, relation, target type) patterns, listed in the"
        " prompt; a relation outside them is kept and counted.",
    )
    outside: Literal["closest", "other"] = Field(
        "closest",
        description="A type or relation outside the schema: closest = the allowed one spelled"
        " alike (a typo, a plural), else the one closest in meaning (the embedder's cosine"
        " between the value and the allowed name with its description, at least"
        " min_similarity: `location` -> place), else `other`; other = always `other`.",
    )
    min_similarity: float = Field(
        0.35, ge=-1.0, le=1.0,
        description="Least cosine similarity for outside = closest to map a type or relation by"
        " meaning. With MiniLM and the four-type schema of docs/indexing.md, 0.35 keeps location,"
        " company, human, festival (0.46-0.61) and leaves concept, date, product (0.20-0.26)"
        " `other`; another embedder may want another value.",
    )


class ExtractionSettings(_Section):
    """How entities and triplets are pulled from chunks and resolved."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    method: str = Field(
        "llm", description="A registered extraction method (`graphrag-neo4j index --help` "
        "lists them): llm = an LLM call per chunk; fast = spaCy, no LLM (see [fast])."
    )

    entity_types: list[str] = Field(
        default_factory=lambda: ["person", "organization", "location", "event", "concept"],
        description="Entity types the extractor may use.",
    )
    type_labels: bool = Field(
        True,
        description="Give every entity a Neo4j label made from its type (:__Entity__:Person) when"
        " the type is one of entity_types, the fast method's types or extra_label_types; false"
        " adds none (`graphrag-neo4j init-db --relabel` removes existing ones).",
    )
    extra_label_types: list[str] = Field(
        default_factory=lambda: ["geo"],
        description="More entity types that get a label, e.g. those of an imported Microsoft"
        " GraphRAG index (its default types are person, organization, geo and event).",
    )
    gleaning_passes: int = Field(1, description="Extra 'what did you miss' passes per chunk.")
    language: str | None = Field(
        None, description="Output language; empty keeps the input's language."
    )
    max_name_words: int = Field(
        6, ge=1,
        description="Longest entity name, in words, unless it is a title (every word capitalised"
        " but of, the, and...); longer phrases, URLs, code, markup, numbers, sentences and"
        " headings in capitals are refused and counted, and a relation from an entity to such a"
        " value becomes a fact in the entity's description.",
    )
    orphan_triplets: Literal["add_entity", "drop"] = Field(
        "add_entity", description="What to do with a triplet whose endpoint was not extracted."
    )
    resolution: bool = Field(True, description="Merge same-name and near-duplicate entities.")
    resolution_similarity: float = Field(
        0.85, description="Embedding cosine above which two names become merge candidates."
    )
    summary_token_budget: int = Field(
        300, description="Joined descriptions longer than this get one LLM summary."
    )
    text_field: str = Field("text", description="Field holding the text in JSON/JSONL/CSV.")
    title_field: str = Field("title", description="Field holding the title in JSON/JSONL/CSV.")
    fast: FastExtractionSettings = Field(
        default_factory=FastExtractionSettings, description="Settings of `method = \"fast\"`."
    )
    schema_: ExtractionSchemaSettings = Field(
        default_factory=ExtractionSchemaSettings, alias="schema",
        description="Schema-guided extraction: the types every method's output is mapped onto.",
    )


class CommunitySettings(_Section):
    """How communities are found and reported."""

    max_cluster_size: int = Field(10, description="Leiden splits communities larger than this.")
    seed: int = Field(0xDEADBEEF, description="Random seed, so the same graph gives the same run.")
    report_max_input_tokens: int = Field(6000, description="Token budget of one report's context.")
    report_max_tokens: int = Field(1500, description="Most tokens one report may generate.")
    reports: Literal["all", "lazy", "none"] | None = Field(
        None,
        description="LLM community reports: all at build time, lazy (written by global search "
        "for the communities a question selects) or none; empty = lazy when no document was "
        "indexed with LLM extraction, all otherwise.",
    )
    min_report_size: int = Field(
        3, ge=1,
        description="Communities of fewer member entities get no LLM report, at build time or "
        "lazily: their extractive summary stands (a pair's report restates its one relation); "
        "1 reports every community.",
    )
    extractive_sentences: int = Field(
        5,
        description="Sentences in a community's extractive summary (written at build time "
        "without an LLM): its member and relation description sentences that name most members.",
    )
    extractive_max_tokens: int = Field(
        200, description="Token budget of a community's extractive summary."
    )


class LocalSearchSettings(_Section):
    """Local search: the entities nearest the question and what surrounds them."""

    top_k_entities: int = Field(10, description="Entities from the vector search.")
    top_chunks: int = Field(
        3, description="Text units in the context: those the walk from the found entities and"
        " the nearest passages visits most (the [search.ppr] settings).",
    )
    top_communities: int = Field(3, description="Community reports in the context.")
    top_outside_rels: int = Field(10, description="Relations to outside entities.")
    top_inside_rels: int = Field(10, description="Relations among the found entities.")
    rels_per_entity: int = Field(
        10, description="Relations gathered per entity, inside ones first."
    )
    context_tokens: int = Field(8000, description="Context token budget.")
    text_unit_prop: float = Field(
        0.5, ge=0, le=1, json_schema_extra=TUNABLE,
        description="Share of the budget for text units.",
    )
    community_prop: float = Field(
        0.15, ge=0, le=1, json_schema_extra=TUNABLE, description="Share for community reports."
    )
    seeds_per_mention: int = Field(
        2, description="Entities added per name the question mentions (fulltext match)."
    )
    passage_entities: int = Field(
        5,
        description="Entities added from those the question's best passages mention (the best"
        " passage's first, then the most frequent): a fast graph's entity vectors encode names"
        " only.",
    )


class GlobalSearchSettings(_Section):
    """Global search: map over community reports, then reduce."""

    community_level: int = Field(
        2, ge=0, json_schema_extra=TUNABLE, description="Community level to map over."
    )
    map_batch_tokens: int = Field(8000, description="Report tokens per map call.")
    map_budget_tokens: int = Field(
        24000,
        description="A level without LLM reports (lazy): the most tokens of community text "
        "the map stage reads. The communities nearest the question come first (their reports "
        "written within `search.lazy_report_budget`), then the others largest first, by "
        "extractive summary; the answer's notes say what share of the level's entities they "
        "cover. Raise it to read more of the level (more map calls).",
    )
    reduce_tokens: int = Field(8000, description="Token budget of the reduce context.")
    dynamic_selection: bool = Field(
        False, description="Rate reports from the root down and map only relevant ones."
    )
    dynamic_min_rating: int = Field(
        5, ge=0, le=10, json_schema_extra=TUNABLE,
        description="Rating (0-10) a report needs to count as relevant."
    )


class HopsSearchSettings(_Section):
    """Hops search: a subgraph around the question's entities ranks the passages."""

    entity_top_k: int = Field(3, description="Entities per question mention.")
    max_mentions: int = Field(
        20, ge=1, description="Most names a question's mentions may hold: more given in the"
        " `mentions` option are refused, more found by the NER call are cut.",
    )
    relation_top_k: int = Field(3, description="Relations from the question.")
    degree: int = Field(
        1, ge=1, le=2, json_schema_extra=TUNABLE, description="Subgraph expansion degree (1 or 2)."
    )
    final_k: int = Field(2, description="Passages in the answer context.")
    rerank: bool = Field(
        False,
        description="Find the question's names and rerank relations with the LLM (two calls);"
        " off by default: with the offline model it put Recall@2 below naive's"
        " (docs/benchmarks.md). Retrieval only makes the same calls.",
    )
    max_candidates: int = Field(
        100, description="Candidate relations kept from the subgraph, nearest first."
    )
    rerank_candidates: int = Field(
        25, description="Most candidate relations shown to the LLM reranker."
    )
    rerank_select: int = Field(3, description="Most relations the LLM reranker may choose.")
    relation_weight: float = Field(
        0.75, json_schema_extra=TUNABLE,
        description="Weight of the best relation's similarity added to a passage's own "
        "(passages of LLM-extracted or triplet documents).",
    )
    fast_relation_weight: float = Field(
        0.0, json_schema_extra=TUNABLE,
        description="The same for passages indexed with --method fast, whose relations "
        "are co-occurrences, not stated facts (on MuSiQue any weight lowered Recall@5).",
    )
    bridge_weight: float = Field(
        0.15, json_schema_extra=TUNABLE,
        description="Added to passages naming a bridge, a named entity of the passage "
        "nearest the question that the question does not name (x 1/ln(2 + its passages)).",
    )
    bridge_max_passages: int = Field(
        50, description="An entity named in more passages is too common to be a bridge."
    )


class PprSearchSettings(_Section):
    """PPR search: Personalized PageRank from the question's entities and passages."""

    damping: float = Field(
        0.5, gt=0, lt=1, json_schema_extra=TUNABLE,
        description="Probability that the walk follows an edge rather than restarting at a"
        " seed (HippoRAG 2's 0.5).",
    )
    passage_share: float = Field(
        0.5, ge=0, le=1, json_schema_extra=TUNABLE,
        description="Share of the walk's restarts at the passages nearest the question (by"
        " their min-max normalised scores); the rest restarts at the entities, each by its"
        " similarity over the passages it is in. Half and half: neither the passages' words"
        " nor the graph's entities alone decide.",
    )
    seed_passages: int = Field(
        20, ge=0, le=1000, description="Passages nearest the question seeded into the walk."
    )
    named_per_mention: int = Field(
        2, ge=0, le=1000,
        description="Entities seeded per name the question mentions (fulltext match).",
    )
    entity_top_k: int = Field(
        5, ge=0, le=1000, description="Entities nearest the question seeded into the walk."
    )
    fact_top_k: int = Field(
        5, ge=0, le=1000,
        description="Relations nearest the question whose two entities are seeded.",
    )
    max_degree: int = Field(
        30, ge=1, le=1_000_000,
        description="A node with more edges (a hub) is reached but not walked through when the"
        " seeds' neighbourhood is read. The neighbourhood grows with its square: at 100, a"
        " question over a dense graph (a software manual's) read for 67 s and passed a 256 MiB"
        " transaction memory limit; at 30 it took about a second.",
    )
    top_k: int = Field(3, ge=1, le=1000, description="Passages in the answer context.")


class DriftSearchSettings(_Section):
    """DRIFT search: a primer over community reports, rounds of local follow-ups, a reduce."""

    primer_k: int = Field(
        5, ge=1, description="Community reports the primer reads, nearest first."
    )
    k_followups: int = Field(
        3, ge=1, description="Follow-up questions answered by local search per round."
    )
    depth: int = Field(
        2, ge=1, description="Rounds of follow-ups (local calls <= followups x depth)."
    )
    hyde: bool = Field(
        False, description="Embed an LLM-written hypothetical answer with the question."
    )
    primer_tokens: int = Field(
        4000, description="Token budget of the community reports in the primer prompt."
    )
    followup_tokens: int = Field(
        3000, description="Token budget of each follow-up's local search context."
    )
    reduce_tokens: int = Field(
        6000, description="Token budget of the findings and tables of the final answer."
    )


class NaiveSearchSettings(_Section):
    """Naive search: the passages nearest the question."""

    top_k: int = Field(3, description="Passages from the vector search.")


class CypherSearchSettings(_Section):
    """Cypher search (Text2Cypher): the LLM writes one read-only query from the graph schema."""

    timeout_s: float = Field(
        10.0, gt=0, description="Most seconds the generated query may run (read transaction)."
    )
    max_rows: int = Field(50, ge=1, description="Most result rows read into the answer prompt.")
    repair: bool = Field(
        True, description="On a refused or failing query, one naming what the graph does not"
        " have, or one that finds no rows or only zeros, one more LLM call with the error text"
        " (the unknown and the existing names, or the empty result). First, with no LLM call,"
        " each repair of the one list of rewrites (query/cypher/rewrites/registry.py, shown in"
        " docs/query-methods.md) that the query is for.",
    )
    check_names: bool = Field(
        True, description="Treat a query naming a label, relationship type or property the"
        " graph does not have (its EXPLAIN warns of it) like a failing one, and do not run it.",
    )
    fallback: bool = Field(
        True, description="When no query runs (or it finds nothing), answer with local search"
        " and say so in the answer's notes; false answers from the empty result."
    )
    allowed_procedures: list[str] = Field(
        default_factory=lambda: [
            "db.labels", "db.relationshipTypes", "db.propertyKeys",
            "db.index.fulltext.queryNodes", "db.index.vector.queryNodes",
        ],
        json_schema_extra=SETTINGS_ONLY,
        description="The only procedures a generated query may call; any other procedure,"
        " write, schema or admin operation in its plan is refused (settings only: a query"
        " cannot change it).",
    )
    schema_samples: int = Field(
        3, ge=0, description="Sample values shown per property in the schema the LLM reads."
    )
    context_tokens: int = Field(
        4000, description="Token budget of the query's result rows in the answer prompt."
    )


class HybridSearchSettings(_Section):
    """Fulltext (BM25) candidates beside the vector ones, for naive, hops and local."""

    enabled: bool = Field(
        True,
        description="Candidates from the fulltext indexes (BM25) as well as the vector indexes,"
        " fused as `fusion` says (passages for naive, hops and local; entities for hops"
        " and local). On MuSiQue it adds 3.5 Recall@5 points to naive (docs/benchmarks.md).",
    )
    candidates: int = Field(
        20, description="Candidates each way (vector, fulltext) before fusion."
    )
    fusion: Literal["max", "rrf"] = Field(
        "max",
        description="max = each way's scores divided by its best, then each candidate's"
        " best (neo4j-graphrag's and LangChain's hybrid search); rrf = reciprocal rank fusion.",
    )


# Old flat [search] names -> their place in a method's section. They keep working, with a
# deprecation line, for one release (in the settings file, environment and query options).
RENAMED_SEARCH_SETTINGS: dict[str, str] = {
    "top_k_entities": "local.top_k_entities",
    "top_chunks": "local.top_chunks",
    "top_communities": "local.top_communities",
    "top_outside_rels": "local.top_outside_rels",
    "top_inside_rels": "local.top_inside_rels",
    "rels_per_entity": "local.rels_per_entity",
    "local_context_tokens": "local.context_tokens",
    "text_unit_prop": "local.text_unit_prop",
    "community_prop": "local.community_prop",
    "local_seeds_per_mention": "local.seeds_per_mention",
    "community_level": "global.community_level",
    "map_batch_tokens": "global.map_batch_tokens",
    "map_budget_tokens": "global.map_budget_tokens",
    "reduce_tokens": "global.reduce_tokens",
    "dynamic_selection": "global.dynamic_selection",
    "dynamic_min_rating": "global.dynamic_min_rating",
    "hops_entity_top_k": "hops.entity_top_k",
    "hops_relation_top_k": "hops.relation_top_k",
    "hops_degree": "hops.degree",
    "hops_final_k": "hops.final_k",
    "hops_rerank": "hops.rerank",
    "hops_max_candidates": "hops.max_candidates",
    "hops_rerank_candidates": "hops.rerank_candidates",
    "hops_rerank_select": "hops.rerank_select",
    "hops_relation_weight": "hops.relation_weight",
    "hops_fast_relation_weight": "hops.fast_relation_weight",
    "hops_bridge_weight": "hops.bridge_weight",
    "hops_bridge_max_passages": "hops.bridge_max_passages",
    "drift_primer_k": "drift.primer_k",
    "drift_k_followups": "drift.k_followups",
    "drift_depth": "drift.depth",
    "drift_hyde": "drift.hyde",
    "drift_primer_tokens": "drift.primer_tokens",
    "drift_followup_tokens": "drift.followup_tokens",
    "drift_reduce_tokens": "drift.reduce_tokens",
    "naive_top_k": "naive.top_k",
    "hybrid": "hybrid.enabled",
    "hybrid_candidates": "hybrid.candidates",
    "hybrid_fusion": "hybrid.fusion",
}


def renamed_setting_line(old: str, new: str) -> str:
    """The one deprecation sentence for an old [search] name."""
    return (f"search.{old} is deprecated: use search.{new} (the old name goes in the next"
            " release).")


def moved_search_names(table: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A [search] table with old flat names moved into their sections, and a line per move.

    A new name given as well wins over the old one.
    """
    # `hybrid` is an old name and a section: only its old, scalar form moves.
    moved = {key: value for key, value in table.items()
             if key in RENAMED_SEARCH_SETTINGS and not isinstance(value, Mapping | BaseModel)}
    result = {key: value for key, value in table.items() if key not in moved}
    for old, value in moved.items():
        section, key = RENAMED_SEARCH_SETTINGS[old].split(".")
        existing = result.get(section) or {}
        if isinstance(existing, BaseModel):
            existing = existing.model_dump(by_alias=True)
        result[section] = {key: value, **existing}
    lines = [renamed_setting_line(old, RENAMED_SEARCH_SETTINGS[old]) for old in moved]
    return result, lines


class SearchSettings(_Section):
    """Budgets of the query methods: shared ones here, each method's in its own section."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    response_type: str = Field("Multiple Paragraphs", description="Shape of the answer.")
    history_tokens: int = Field(
        1000, ge=0, description="Every method: most tokens of earlier turns in a prompt."
    )
    passage_context_tokens: int = Field(
        4000, description="Naive/Hops: token budget of the passages in the answer prompt."
    )
    grounding: Literal["flag", "drop", "off"] = Field(
        "flag",
        description="Every method, after the answer: citations of rows not in the context are"
        " repaired or removed, and named entities of the answer found nowhere in the context"
        " or question are unsupported. flag = list them in the answer's notes; drop = remove"
        " the sentences naming them (and say so); off = no check.",
    )
    answer_check: Literal["flag", "off"] = Field(
        "flag",
        description="Every method, after the answer: an answer that only repeats words of the"
        " question, or gives no date or time to a when-question or no number to a how-many"
        " one, is flagged in the answer's notes as not answering it (a small model often names"
        " a step on the way instead). off = no check.",
    )
    lazy_report_budget: int = Field(
        5,
        description="Global and DRIFT: most community reports one question may have the LLM "
        "write when communities hold extractive summaries only (lazy reports). Global maps over "
        "that many communities nearest the question; DRIFT's primer writes the missing reports "
        "of its nearest ones. 0 reads the extractive summaries instead.",
    )
    local: LocalSearchSettings = Field(
        default_factory=LocalSearchSettings, description="Settings of local search."
    )
    global_: GlobalSearchSettings = Field(
        default_factory=GlobalSearchSettings, alias="global",
        description="Settings of global search.",
    )
    hops: HopsSearchSettings = Field(
        default_factory=HopsSearchSettings, description="Settings of hops search."
    )
    ppr: PprSearchSettings = Field(
        default_factory=PprSearchSettings, description="Settings of PPR search."
    )
    drift: DriftSearchSettings = Field(
        default_factory=DriftSearchSettings, description="Settings of DRIFT search."
    )
    cypher: CypherSearchSettings = Field(
        default_factory=CypherSearchSettings, description="Settings of cypher search."
    )
    naive: NaiveSearchSettings = Field(
        default_factory=NaiveSearchSettings, description="Settings of naive search."
    )
    hybrid: HybridSearchSettings = Field(
        default_factory=HybridSearchSettings,
        description="Fulltext candidates beside vector ones (naive, hops and local).",
    )

    @model_validator(mode="before")
    @classmethod
    def _move_renamed(cls, data: Any) -> Any:
        """Old flat names in a settings file or the environment still work, with a warning."""
        if not isinstance(data, Mapping):
            return data
        moved, lines = moved_search_names(data)
        for line in lines:
            logger.warning(line)
            warnings.warn(line, DeprecationWarning, stacklevel=2)
        return moved


def _search_sections() -> dict[str, type[BaseModel]]:
    """The method sections of [search] by their TOML name."""
    return {info.alias or name: info.annotation
            for name, info in SearchSettings.model_fields.items()
            if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel)}


def search_setting_names() -> list[str]:
    """Every [search] setting by its name relative to [search], e.g. `hops.degree`."""
    sections = _search_sections()
    shared = [name for name, info in SearchSettings.model_fields.items()
              if (info.alias or name) not in sections]
    return shared + [f"{key}.{field}" for key, section in sections.items()
                     for field in section.model_fields]


def per_query_rule(name: str) -> str:
    """How a query may change a [search] setting (`hops.degree`): "tunable", "settings_only",
    or "budget" (unmarked: lowered only)."""
    section, _, key = name.rpartition(".")
    owner = _search_sections()[section] if section else SearchSettings
    extra = owner.model_fields[key].json_schema_extra
    return str(extra.get(PER_QUERY, "budget")) if isinstance(extra, dict) else "budget"


def search_overrides(
    overrides: Mapping[str, Any],
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Overrides given nested (`{"hops": {"degree": 2}}`), dotted (`"hops.degree"`) or by an
    old flat name, as one nested [search] table; with a deprecation line per old name and the
    names that are no setting at all."""
    known = set(search_setting_names())
    table: dict[str, Any] = {}
    lines: list[str] = []
    unknown: list[str] = []
    for name, value in _dotted(overrides):
        if name in RENAMED_SEARCH_SETTINGS:
            lines.append(renamed_setting_line(name, RENAMED_SEARCH_SETTINGS[name]))
            name = RENAMED_SEARCH_SETTINGS[name]
        if name not in known:
            unknown.append(name)
            continue
        section, _, key = name.rpartition(".")
        (table.setdefault(section, {}) if section else table)[key] = value
    return table, lines, unknown


def _dotted(overrides: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(dotted name, value) pairs: a section given as a table is opened into its keys."""
    sections = _search_sections()
    pairs: list[tuple[str, Any]] = []
    for name, value in overrides.items():
        name = _GLOBAL_ATTRIBUTE.sub("global", name)
        if name in sections and isinstance(value, Mapping):
            pairs.extend((f"{name}.{key}", item) for key, item in value.items())
        else:
            pairs.append((name, value))
    return pairs


def merged_search(base: SearchSettings, table: Mapping[str, Any]) -> dict[str, Any]:
    """`base` as a [search] table with `table`'s keys laid over it, section by section."""
    merged = base.model_dump(by_alias=True)
    for key, value in table.items():
        merged[key] = {**merged[key], **value} if isinstance(value, Mapping) else value
    return merged


class EvalSettings(_Section):
    """`eval answers`: how methods are compared on a question set."""

    context_tokens: int = Field(
        4000,
        ge=100,
        description="The one context token budget every method gets in `eval answers` (each"
        " method's answer, map, primer and follow-up budgets), so methods compare on equal terms.",
    )
    response_type: str = Field(
        "A short phrase: only the answer (a name, place, date or number), no sentence and no"
        " explanation",
        description="Answer shape asked for in `eval answers` when questions have gold answers"
        " (EM and F1 reward the answer alone).",
    )
    judge_model: str | None = Field(
        None,
        description="Model of the `eval answers --judge` calls, from the [llm] provider;"
        " empty = the [llm] model.",
    )


class ServerSettings(_Section):
    """The HTTP API and MCP service (`graphrag-neo4j serve` / `mcp`)."""

    host: str = Field("127.0.0.1", description="Address to listen on; others need api_key.")
    port: int = Field(8000, description="Port to listen on.")
    api_key: SecretStr | None = Field(
        None,
        description="Key clients send as `Authorization: Bearer KEY`; required off loopback.",
    )
    max_body_bytes: int = Field(
        10_000_000, description="Largest request body (uploads included); larger gets 413."
    )
    max_question_chars: int = Field(
        4000, description="Longest question (or last chat message); longer gets 413."
    )
    max_option_chars: int = Field(
        1000, description="Longest text in a query's options (response_type...); longer gets 413."
    )
    max_history_chars: int = Field(
        20000, description="Most characters of earlier turns a query or chat sends; more gets 413."
    )
    allowed_hosts: list[str] = Field(
        [], description="Host names clients may reach the server by besides its bound address"
        " (loopback binds accept 127.0.0.1, localhost and [::1]); others get 400."
    )
    body_timeout_s: float = Field(
        30.0, description="Longest a request body may take to arrive (slower gets 408), and a"
        " request head (a connection idle or half-sent that long is closed)."
    )
    client_task_prefixes: list[str] = Field(
        ["### Task:"],
        description="A chat's last message starting with one of these is the chat client's own"
        " chore (Open WebUI's title, tags, follow-ups): the chat model answers it alone, with no"
        " graph search and no max_question_chars (it quotes the chat). [] turns this off.",
    )
    max_concurrent: int = Field(
        4, description="Requests served at once; more get 429 with Retry-After."
    )
    retry_after_s: int = Field(2, description="Seconds a 429 tells the client to wait.")
    request_timeout_s: float = Field(
        300.0, description="Longest a request may run before it gets 504."
    )
    jobs_kept: int = Field(200, description="Finished indexing jobs remembered for GET /v1/jobs.")
    max_queued_jobs: int = Field(
        10, description="Jobs waiting to run (uploads, deletions); more get 429 with Retry-After."
    )
    access_log: bool = Field(
        True, description="Log each request's method, path and status (never its headers)."
    )


class ExecutionSettings(_Section):
    """Where `index` runs its map work: in this process (the default) or on a Ray cluster."""

    ray: bool = Field(
        False, description="Run extraction's map work as Ray tasks (`index --ray`): a local Ray"
        " when no cluster is named, else the cluster at `ray_address` or RAY_ADDRESS. Needs the"
        " `graphrag-neo4j[ray]` extra.",
    )
    ray_address: str | None = Field(
        None, description="The Ray cluster to join (`host:port` of `ray start --head`, or"
        " `ray://host:10001`); empty = RAY_ADDRESS, else a local Ray on this machine.",
    )
    node_ip_address: str = Field(
        "127.0.0.1", description="The address this driver gives Ray for itself. Loopback keeps a"
        " local Ray, or a cluster at a loopback address, on 127.0.0.1; for a cluster on other"
        " machines Ray replaces it with this machine's network address.",
    )
    partition_chunks: int = Field(
        64, ge=1, description="Most chunks (or texts to embed) one Ray task handles: what a"
        " worker holds at once; fewer when that keeps every CPU of the cluster busy.",
    )
    tasks_in_flight: int = Field(
        8, ge=1, description="Ray tasks submitted and not yet collected: bounds what the"
        " driver holds of their results.",
    )


class Settings(BaseSettings):
    """The whole configuration; build it with load_settings() or directly."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHRAG_", env_nested_delimiter="__", extra="forbid"
    )

    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)
    communities: CommunitySettings = Field(default_factory=CommunitySettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    eval: EvalSettings = Field(default_factory=EvalSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)
    cache_dir: Path = Field(
        default_factory=_user_cache_dir,
        description="LLM response cache, embedding cache and downloaded models.",
    )
    prompts_dir: Path | None = Field(
        None, description="Folder of prompt overrides (written by `graphrag-neo4j init`)."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,  # noqa: ARG003 (no .env support)
        file_secret_settings: PydanticBaseSettingsSource,  # noqa: ARG003
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Python arguments beat environment variables, which beat the settings file."""
        config_file = _active_config_file.get()
        if config_file is None:
            return (init_settings, env_settings)
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, config_file))


def find_config_file(start: Path | None = None) -> Path | None:
    """The settings file: $GRAPHRAG_CONFIG, else graphrag.toml in the working folder."""
    explicit = os.environ.get(CONFIG_ENV_VAR)
    if explicit:
        return Path(explicit)
    candidate = (start or Path.cwd()) / CONFIG_FILE_NAME
    return candidate if candidate.is_file() else None


def load_settings(config_file: Path | None = None, **overrides: object) -> Settings:
    """Build settings from overrides, env vars and the settings file, in that order."""
    path = config_file or find_config_file()
    if path is not None and not path.is_file():
        raise ConfigError(f"Settings file {path} does not exist; run `graphrag-neo4j init`.")
    token = _active_config_file.set(path)
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ConfigError(_settings_problem(exc, path)) from exc
    finally:
        _active_config_file.reset(token)
    return _resolve_relative_paths(settings, path.parent if path else Path.cwd())


def _settings_problem(exc: tomllib.TOMLDecodeError | ValidationError, path: Path | None) -> str:
    """One sentence naming what is wrong with the settings and where to fix it."""
    if isinstance(exc, tomllib.TOMLDecodeError):
        return (f"{path} is not valid TOML ({exc}); fix that line (an inline table {{...}}"
                " must stay on one line) or run `graphrag-neo4j init` for a commented file.")
    first = exc.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    env = f"GRAPHRAG_{key.upper().replace('.', '__')}"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    places = f"{path} or {env}" if path else env
    if first["type"] == "extra_forbidden":
        problem = f"{key} is not a setting{more}"
    else:
        # a refused key is still a key
        value = "<hidden>" if _is_secret(first["loc"]) else reprlib.repr(first.get("input"))
        problem = f"Setting {key} = {value} is refused: {first['msg']}{more}"
    return f"{problem}; fix it in {places} (docs/settings.md lists every setting)."


def _is_secret(loc: tuple[int | str, ...]) -> bool:
    """Whether the setting at `loc` is typed SecretStr (a password, an API key)."""
    annotation: Any = Settings
    for part in loc:
        fields = getattr(annotation, "model_fields", None)
        if not isinstance(fields, dict) or part not in fields:
            break  # past the setting: a union member's or an item's place
        annotation = fields[part].annotation
    return SecretStr in (annotation, *get_args(annotation))


def _resolve_relative_paths(settings: Settings, base: Path) -> Settings:
    """Relative paths in a settings file are relative to that file's folder."""
    prompts_dir = settings.prompts_dir
    if prompts_dir is None and (base / PROMPTS_FOLDER_NAME).is_dir():
        prompts_dir = base / PROMPTS_FOLDER_NAME
    if prompts_dir is not None and not prompts_dir.is_absolute():
        prompts_dir = base / prompts_dir
    return settings.model_copy(update={"prompts_dir": prompts_dir})
