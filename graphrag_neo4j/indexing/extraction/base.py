"""The extraction seam: the contract every extraction method meets and what it is built from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from graphrag_neo4j.indexing.records import Chunk, ChunkExtraction, Document
from graphrag_neo4j.runtime.errors import InputError

if TYPE_CHECKING:
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.indexing.input.language import Language
    from graphrag_neo4j.indexing.input.triplet_corpus import Triplet
    from graphrag_neo4j.llm.calls.chat import LLMCaller
    from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
    from graphrag_neo4j.llm.costs.estimate import StageEstimate
    from graphrag_neo4j.llm.costs.profile import ModelProfile
    from graphrag_neo4j.settings import Settings

Advance = Callable[[int], None]


@dataclass(frozen=True)
class DescriptionStyle:
    """How a method's entity and relation descriptions are merged and what their vectors hold."""

    # Extractive: keep this many verbatim sentences, no LLM (None: join, and let the LLM
    # summarise past the token budget).
    sentences: int | None = None
    # Words of an entity's description its vector encodes after the name (None: all).
    vector_words: int | None = None
    # Whether joined descriptions past the token budget may be summarised by the LLM; a
    # method that calls no LLM says no, so deleting or unmerging its documents calls none.
    llm_summaries: bool = True

    def document_row(self) -> dict[str, int | bool | None]:
        """The style as recorded on each document the method writes (`merge_documents`)."""
        return {"description_sentences": self.sentences,
                "description_vector_words": self.vector_words,
                "description_llm_summaries": self.llm_summaries}


class IndexingServices(Protocol):
    """What extraction methods and stages use; the twin of the query side's `Services`."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store: ...

    @property
    def embedder(self) -> EmbeddingCaller: ...

    @property
    def llm(self) -> LLMCaller | None: ...


@dataclass(frozen=True)
class RunServices:
    """The services of one run, as the engine composes them."""

    settings: Settings
    store: Store
    embedder: EmbeddingCaller
    llm: LLMCaller | None = None


def require_llm(services: IndexingServices, method: str) -> LLMCaller:
    """The run's LLM, or one sentence saying that `method` needs one."""
    if services.llm is None:
        raise InputError(f"Extraction method {method!r} needs an LLM; configure one "
                         "([llm] in the settings) or choose a method that needs none.")
    return services.llm


@dataclass(frozen=True)
class Batch:
    """Documents indexed together, their chunks, triplets the input brought for them, the
    language of each input document, and the whole input's chunks."""

    documents: Sequence[Document]
    chunks: Mapping[str, Sequence[Chunk]]
    triplets: Mapping[str, Sequence[Triplet]] = field(default_factory=dict)
    # Of every document of the run's input (as `corpus`), by id; absent = not detected.
    languages: Mapping[str, Language] = field(default_factory=dict)
    # The chunks of every document of the run's input (other batches, other shards, unchanged
    # documents too), for decisions that must not depend on how the input was cut; None: the
    # batch's own.
    corpus: Mapping[str, Sequence[Chunk]] | None = None
    # A long document is split across batches: the chunk before its first one here, and the
    # documents whose last chunk is in this batch (None: all of them).
    preceding: Mapping[str, Chunk] = field(default_factory=dict)
    finished: Sequence[str] | None = None

    @property
    def finished_ids(self) -> list[str]:
        """The documents this batch completes (marked indexed after it)."""
        return [d.id for d in self.documents] if self.finished is None else list(self.finished)

    @property
    def all_chunks(self) -> list[Chunk]:
        """Every chunk of the batch, document by document, in order."""
        return [c for d in self.documents for c in self.chunks[d.id]]

    @property
    def corpus_chunks(self) -> list[Chunk]:
        """Every chunk of the run's input, document by document (sorted by id), in order."""
        if self.corpus is None:
            return self.all_chunks
        return [c for document_id in sorted(self.corpus) for c in self.corpus[document_id]]


class ExtractionMethod(Protocol):
    """One way to turn chunks into entity and relation mentions.

    What it does is decided by what it declares, never by its name:
    `needs_llm`: the run calls the LLM (for extraction, or for the summaries it asks for).
    `llm_extracted`: an LLM wrote its graph; recorded on each document it writes, so
    communities get LLM reports by default (`index --estimate` counts them too).
    `cooccurrence_relations`: its relations link names that occur together rather than facts
    a text states; recorded on each document, so hops weighs them by `hops.fast_relation_weight`.
    `folds_aliases`: resolution folds a short name into the one full name of a document that
    contains it ("Scrooge" -> "Ebenezer Scrooge") when no LLM decides merges.
    `embeds_relations`: its relations get sentence vectors (read by hops' relation search).
    `description_style`: how its descriptions are merged and how much of them vectors hold.
    `progress_label` names its bar in the run's progress and its time in the summary.
    """

    name: str
    description: str
    progress_label: str
    llm_extracted: bool
    cooccurrence_relations: bool

    @property
    def folds_aliases(self) -> bool: ...

    @property
    def needs_llm(self) -> bool: ...

    @property
    def embeds_relations(self) -> bool: ...

    @property
    def description_style(self) -> DescriptionStyle: ...

    async def extract(self, batch: Batch, advance: Advance) -> list[ChunkExtraction]:
        """One extraction per chunk of the batch (advance(1) per chunk done)."""
        ...

    def estimate(self, chunks: Sequence[Chunk], profile: ModelProfile) -> list[StageEstimate]:
        """The estimate rows of extracting these chunks: calls, tokens and cost, no LLM call."""
        ...


def document_record(method: ExtractionMethod) -> dict[str, str | int | bool | None]:
    """What each document a method writes records of it: its name, what the query side and
    the community build read (LLM-extracted, co-occurrence relations), its description style."""
    return {"extraction_method": method.name, "llm_extracted": method.llm_extracted,
            "cooccurrence_relations": method.cooccurrence_relations,
            **method.description_style.document_row()}


@runtime_checkable
class CorpusWide(Protocol):
    """A method whose decisions (frequencies, types, pruning, aliases) look at the run's whole
    input, so batches and shards of one input write the graph of one run."""

    def corpus_extractions(self) -> list[ChunkExtraction]:
        """The extractions of every chunk of the input the last `extract` decided over."""
        ...


class ExtractionFactory(Protocol):
    """An extraction method's class: its name, description and what its documents record,
    and a new instance."""

    name: str
    description: str
    llm_extracted: bool
    cooccurrence_relations: bool

    def __call__(self, services: IndexingServices) -> ExtractionMethod:
        """A new instance of the method over the run's services."""
        ...
