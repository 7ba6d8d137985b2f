"""The Python API: `GraphRAG(settings)` with async methods and sync twins on one event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rich.console import Console
from rich.text import Text

from graphrag_neo4j.llm.tokens.context_window import fit_to_window, model_window
from graphrag_neo4j.runtime.errors import InputError, check_text
from graphrag_neo4j.runtime.loop_thread import LoopThread
from graphrag_neo4j.settings import Settings, load_settings

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langchain_core.language_models import BaseChatModel

    from graphrag_neo4j.communities.build import CommunityOverview, CommunityStats
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.indexing.extraction.base import ExtractionMethod
    from graphrag_neo4j.indexing.graph.deletion import DeletionReport
    from graphrag_neo4j.indexing.graph.document_styles import DocumentStyles
    from graphrag_neo4j.indexing.graph.unmerging import UnmergeReport
    from graphrag_neo4j.indexing.input.loaders import LoadResult
    from graphrag_neo4j.indexing.input.sharding import Shard
    from graphrag_neo4j.indexing.interop.msgraphrag_import import ImportReport
    from graphrag_neo4j.indexing.interop.parquet_export import ExportReport
    from graphrag_neo4j.indexing.run.run_report import IndexStats
    from graphrag_neo4j.llm.calls.chat import LLMCaller, RemoteReplies
    from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller
    from graphrag_neo4j.llm.costs.budget import Budget
    from graphrag_neo4j.llm.costs.estimate import CostEstimate
    from graphrag_neo4j.llm.lazy_model import LazyModel
    from graphrag_neo4j.query.base import Answer, QueryMethod
    from graphrag_neo4j.runtime.progress import StageProgress

T = TypeVar("T")
COMMUNITIES_LOCK = "communities"  # held while communities are rebuilt (Store.exclusive)


def in_workspace(settings: Settings, workspace: str | None) -> Settings:
    """The settings of `workspace` (None: the one the settings name), its name checked. A
    named workspace's entities get no type labels: a label outside the workspace whitelist
    would be shared by every workspace's entities (docs/workspaces.md)."""
    from graphrag_neo4j.database.workspaces.names import check_name

    name = check_name(settings.neo4j.workspace if workspace is None else workspace)
    neo4j = settings.neo4j.model_copy(update={"workspace": name})
    extraction = settings.extraction
    if name:
        extraction = extraction.model_copy(update={"type_labels": False})
    return settings.model_copy(update={"neo4j": neo4j, "extraction": extraction})


class GraphRAG:
    """Index documents into Neo4j and manage the graph; models resolve lazily from settings.

        rag = GraphRAG()                       # settings from graphrag.toml / GRAPHRAG_* env
        rag.index(["./docs"])                  # LLM extraction
        rag.index(["./docs"], method="fast")   # spaCy extraction, no LLM
        rag.index_triplets("corpus.jsonl")     # pre-extracted triplets, no LLM
        rag.close()
    Pass `llm=` or `embeddings=` to use any LangChain chat model or Embeddings object.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        llm: BaseChatModel | None = None,
        embeddings: Embeddings | None = None,
        console: Console | None = None,
        no_cache: bool = False,
        budget: Budget | None = None,
        workspace: str | None = None,
    ) -> None:
        self.settings = in_workspace(settings or load_settings(), workspace)
        window = model_window(self.settings, llm)
        if window is not None:
            self.settings = fit_to_window(self.settings, window)
        self.console = console or Console(stderr=True)
        self.no_cache = no_cache
        self.budget = budget
        self._chat_model = llm
        self._embeddings = embeddings
        self._store: Store | None = None
        self._llm: LLMCaller | None = None
        self._embedder: EmbeddingCaller | None = None
        self._schema_ready = False
        self._schema_current = False  # no index of this release's schema missing
        self._methods: dict[str, QueryMethod] = {}
        self._owns_models = True  # False: another workspace's engine lent its call paths
        # One loop for every sync call of this engine, on a thread of its own (loop_thread).
        self._loop_thread = LoopThread()

    def for_workspace(self, workspace: str) -> GraphRAG:
        """An engine of another workspace with these settings, sharing this one's LLM and
        embedding call paths (one model in memory however many workspaces are served)."""
        other = GraphRAG(self.settings, llm=self._chat_model, embeddings=self._embeddings,
                         console=self.console, no_cache=self.no_cache, budget=self.budget,
                         workspace=workspace)
        # Resolved here (the models themselves load on their first call): an engine per
        # workspace must not load a model of its own.
        other._llm, other._embedder = self.llm, self.embedder
        other._owns_models = False  # this engine closes them
        return other

    @property
    def store(self) -> Store:
        """The Neo4j connection, opened on first use."""
        if self._store is None:
            from graphrag_neo4j.database.store import Store

            self._store = Store.connect(self.settings.neo4j)
        return self._store

    @property
    def llm(self) -> LLMCaller:
        """The one LLM call path, resolving the chat model from settings on first use (the
        model itself is built on the first call the cache does not answer)."""
        if self._llm is None:
            from graphrag_neo4j.llm.calls.chat import LLMCaller

            model: BaseChatModel | LazyModel[BaseChatModel] | None = self._chat_model
            if model is None:
                from graphrag_neo4j.llm.providers import resolve_llm

                resolved = resolve_llm(self.settings)
                self.console.print(Text(f"LLM: {resolved.description}"))
                model = resolved.source
            remote = self._cluster_replies() if self.settings.execution.ray else None
            self._llm = LLMCaller(model, self.settings.llm, self.settings.cache_dir,
                                  no_cache=self.no_cache, budget=self.budget, remote=remote)
        return self._llm

    def _cluster_replies(self) -> RemoteReplies:
        """LLM replies made by actors on the Ray cluster, each building the model from the
        settings (or receiving the one given to this engine) once."""
        from graphrag_neo4j.indexing.cluster.chat_replies import ClusterReplies

        if self._chat_model is None:
            return ClusterReplies.from_settings(self.settings)
        return ClusterReplies.of(self._chat_model, self.settings.execution)

    @property
    def embedder(self) -> EmbeddingCaller:
        """The one embedding path, resolving the embedder from settings on first use (the
        model itself is built on the first text the cache does not hold)."""
        if self._embedder is None:
            from graphrag_neo4j.llm.calls.embeddings import EmbeddingCaller

            model: Embeddings | LazyModel[Embeddings] | None = self._embeddings
            if model is None:
                from graphrag_neo4j.llm.providers import resolve_embeddings

                resolved = resolve_embeddings(self.settings)
                self.console.print(Text(f"Embedder: {resolved.description}"))
                model = resolved.source
            if self.settings.execution.ray:
                model = self._cluster_embeddings()
            self._embedder = EmbeddingCaller(
                model, self.settings.embedding, self.settings.cache_dir, no_cache=self.no_cache
            )
        return self._embedder

    def _cluster_embeddings(self) -> Embeddings:
        """The embedder run by Ray tasks: each worker builds it from the settings (or receives
        the one given to this engine) once."""
        from graphrag_neo4j.indexing.cluster.embeddings import ClusterEmbeddings

        if self._embeddings is None:
            return ClusterEmbeddings.from_settings(self.settings)
        return ClusterEmbeddings.of(self._embeddings, self.settings.execution)

    async def aensure_schema(self) -> int:
        """Apply constraints and indexes sized for the embedder, and bring documents of an
        older graph up to what this version records (once per instance)."""
        dimensions = await self.embedder.dimension()
        if not self._schema_ready:
            await asyncio.to_thread(self.store.apply_schema, dimensions)
            await asyncio.to_thread(self.store.check_embedder, self.embedder.model_name,
                                    dimensions)
            await asyncio.to_thread(self._record_capabilities)
            self._schema_ready = self._schema_current = True
        return dimensions

    def _record_capabilities(self) -> None:
        """Documents indexed before methods' capabilities were recorded get their method's."""
        from graphrag_neo4j.indexing.extraction.registry import capability_record

        self.store.write("indexing/documents/record_document_capabilities",
                         **capability_record(self.settings.extraction.method))

    def ensure_schema(self) -> int:
        """Sync version of `aensure_schema`."""
        return self.run(self.aensure_schema())

    def _indexer(self, settings: Settings | None = None) -> Any:
        """An Indexer for `settings` (default: the engine's), with the LLM only if its
        extraction method needs one: no model is loaded for a run that asks none."""
        from graphrag_neo4j.indexing.indexer import Indexer

        settings = settings or self.settings
        method = self._extraction_method(settings)
        llm = self.llm if method.needs_llm else None
        return Indexer(settings, self.store, self.embedder, llm, self.console)

    def _with_method(self, method: str | None) -> Settings:
        """The settings with `method` (checked against the registry) as extraction method."""
        from graphrag_neo4j.indexing.extraction.registry import check_extraction_method

        name = check_extraction_method(method or self.settings.extraction.method)
        extraction = self.settings.extraction.model_copy(update={"method": name})
        return self.settings.model_copy(update={"extraction": extraction})

    @property
    def llm_in_use(self) -> bool:
        """Whether this engine has resolved its LLM (a run or a question used it)."""
        return self._llm is not None

    async def aindex(
        self,
        paths: Sequence[Path | str],
        method: str | None = None,
        progress: StageProgress | None = None,
        *,
        follow_links: bool = False,
        shard: Shard | None = None,
    ) -> tuple[IndexStats, LoadResult]:
        """Load files and folders, extract them with a registered method and write the graph.

        `method` (a name of `indexing/extraction/registry.py`) overrides the
        `extraction.method` setting for this call; `progress` is a display of the caller's to
        show the stages in (e.g. a server job's). Folder walks stay inside each folder unless
        `follow_links`; with `shard` only that shard's documents are indexed (see
        `indexing.input.sharding`).
        """
        from graphrag_neo4j.indexing.input.loaders import load_documents
        from graphrag_neo4j.indexing.run.warning_digest import warnings_digested

        with warnings_digested():  # each kind of warning once, at the end
            settings = self._with_method(method)
            extraction = settings.extraction
            loaded = load_documents(
                [Path(p) for p in paths],
                text_field=extraction.text_field,
                title_field=extraction.title_field,
                follow_links=follow_links,
            )
            if not loaded.documents:
                skipped = loaded.skipped
                why = (f"all {len(skipped)} inputs were skipped (first: {skipped[0].reason})"
                       if skipped else "no files were found")
                raise InputError(f"Nothing to index: {why}; fix or add inputs and run again.")
            documents = shard.select(loaded.documents) if shard else loaded.documents
            await self.aensure_schema()
            stats = await self._indexer(settings).index_documents(
                documents, progress, corpus=loaded.documents)
            stats.skipped_files = len(loaded.skipped)
            return stats, loaded

    async def aestimate(
        self, paths: Sequence[Path | str], method: str | None = None, *, reports: bool = True
    ) -> CostEstimate:
        """What `aindex(paths, method)` (and its community reports) would cost, per stage;
        reads the input, the graph and the caches only: nothing is written, no LLM is called."""
        from graphrag_neo4j.indexing.costs.estimate import estimate_documents, load_input

        settings = self._with_method(method)
        documents = load_input([Path(p) for p in paths], settings.extraction)
        return await estimate_documents(
            documents, settings, lambda: self.store, self.llm, self.embedder,
            method=settings.extraction.method, reports=reports,
        )

    def estimate(
        self, paths: Sequence[Path | str], method: str | None = None, *, reports: bool = True
    ) -> CostEstimate:
        """Sync version of `aestimate`."""
        return self.run(self.aestimate(paths, method, reports=reports))

    async def aindex_triplets(self, path: Path | str, shard: Shard | None = None) -> IndexStats:
        """Ingest passages that carry their own triplets (no LLM); `shard` as for `aindex`."""
        from graphrag_neo4j.indexing.input.triplet_corpus import read_triplet_corpus
        from graphrag_neo4j.indexing.run.warning_digest import warnings_digested

        corpus = read_triplet_corpus(Path(path))  # it has logged each skipped record's reason
        await self.aensure_schema()
        passages = shard.select(corpus.passages) if shard else corpus.passages
        from graphrag_neo4j.indexing.indexer import TRIPLETS

        indexer = self._indexer(self._with_method(TRIPLETS))
        with warnings_digested():
            stats: IndexStats = await indexer.index_triplets(passages)
        stats.skipped_files = len(corpus.skipped)
        stats.malformed_triplets = corpus.dropped_triplets
        return stats

    async def adelete(self, document_id: str) -> DeletionReport:
        """Remove a document and whatever only it supported; re-describe the rest."""
        from graphrag_neo4j.indexing.graph.deletion import delete_document

        check_text(document_id, "document id")
        return await delete_document(self.store, document_id, self._document_styles(),
                                     self.embedder)

    async def aunmerge(self, merge_id: str) -> UnmergeReport:
        """Undo a recorded LLM merge: the merged-away entity gets its own mentions back."""
        from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
        from graphrag_neo4j.indexing.graph.unmerging import undo_merge

        check_text(merge_id, "merge id")
        await self.aensure_schema()
        return await undo_merge(self.store, merge_id, self._document_styles(), self.embedder,
                                TypeLabels.from_settings(self.settings))

    def merges(self) -> list[dict[str, Any]]:
        """The merge audit trail: every fold of one entity into another, undone ones marked."""
        return self.store.read("indexing/merges/list_merges")

    def _document_styles(self) -> DocumentStyles:
        """What delete and unmerge leave is merged in the style each document recorded (the
        LLM is resolved only for a document whose method lets it summarise)."""
        from graphrag_neo4j.indexing.extraction.base import RunServices
        from graphrag_neo4j.indexing.extraction.registry import legacy_style
        from graphrag_neo4j.indexing.graph.document_styles import DocumentStyles

        services = RunServices(self.settings, self.store, self.embedder)
        return DocumentStyles(self.settings, lambda: self.llm,
                              lambda name: legacy_style(name, services))

    def _extraction_method(self, settings: Settings) -> ExtractionMethod:
        """A new instance of the extraction method `settings` name, over this engine's store."""
        from graphrag_neo4j.indexing.extraction.base import RunServices
        from graphrag_neo4j.indexing.extraction.registry import create_extraction_method

        return create_extraction_method(
            settings.extraction.method, RunServices(settings, self.store, self.embedder)
        )

    async def aimport_msgraphrag(self, path: Path | str) -> ImportReport:
        """Write a Microsoft GraphRAG output folder (parquet tables) into the graph."""
        from graphrag_neo4j.indexing.graph.type_labels import TypeLabels
        from graphrag_neo4j.indexing.interop.msgraphrag_import import import_msgraphrag
        from graphrag_neo4j.indexing.interop.msgraphrag_tables import read_output
        from graphrag_neo4j.runtime.progress import StageProgress

        output = await asyncio.to_thread(read_output, Path(path))
        await self.aensure_schema()
        labels = TypeLabels.from_settings(self.settings)
        with StageProgress(self.console) as progress:
            return await import_msgraphrag(self.store, self.embedder, output, progress, labels)

    def import_msgraphrag(self, path: Path | str) -> ImportReport:
        """Sync version of `aimport_msgraphrag`."""
        return self.run(self.aimport_msgraphrag(path))

    def export_parquet(self, path: Path | str) -> ExportReport:
        """Write the graph as Microsoft GraphRAG-shaped parquet tables into a folder."""
        from graphrag_neo4j.indexing.interop.parquet_export import export_parquet

        return export_parquet(self.store, Path(path))

    def query_method(self, name: str | None = None) -> QueryMethod:
        """The method called `name`, by default local (kept until `close`, which closes it)."""
        from graphrag_neo4j.query.registry import DEFAULT_METHOD, create_method

        key = name or DEFAULT_METHOD
        if key not in self._methods:
            self._methods[key] = create_method(key, self)
        return self._methods[key]

    def find_entities(self, text: str) -> list[str]:
        """The named entities of `text` (the shipped spaCy model): grounding checks them."""
        from graphrag_neo4j.indexing.extraction.fast.named_entities import named_entities

        return named_entities(text)

    def entity_names_in_graph(self, names: list[str]) -> set[str]:
        """Those of `names` the graph holds as entities (by normalised name or a recorded
        merge): grounding accepts them in answers written from community reports."""
        from graphrag_neo4j.indexing.records import normalize_name

        by_key = {normalize_name(name): name for name in names}
        rows = self.store.read("query/entity_names_known", keys=list(by_key))
        return {by_key[row["key"]] for row in rows}

    async def aquery(
        self, question: str, method: str | QueryMethod | None = None, **options: Any
    ) -> Answer:
        """Answer a question with any method of `query.registry` (by default local), or with a
        method object of the caller's own (`eval answers` passes its gold passages).

        `options` are `response_type`, `history` (earlier (role, text) turns), `on_token` (a
        callback for streamed answer text), `level` (global), `mentions` (hops) and any
        [search] setting for this query only, nested or dotted: `hops={"rerank": False}`,
        `**{"local.top_chunks": 3}`.
        """
        from graphrag_neo4j.query.answers.run import run_query
        from graphrag_neo4j.query.base import make_query

        query = make_query(self.settings, question, **options)
        runner = self.query_method(method) if method is None or isinstance(method, str) \
            else method
        answer = await run_query(
            self, runner, query, self.find_entities, self.entity_names_in_graph
        )
        return await self._schema_noted(answer)

    async def aretrieve(self, question: str, method: str | None = None, **options: Any) -> Answer:
        """The context a method would answer from, with no answer call (options as in aquery)."""
        from graphrag_neo4j.query.answers.run import retrieve_only
        from graphrag_neo4j.query.base import make_query
        from graphrag_neo4j.query.registry import DEFAULT_METHOD

        query = make_query(self.settings, question, **options)
        name = method or DEFAULT_METHOD
        return await self._schema_noted(
            await retrieve_only(self, name, self.query_method(name), query)
        )

    async def _schema_noted(self, answer: Answer) -> Answer:
        """The answer, with a note while the graph lacks indexes of this release's schema (an
        older release wrote it; queries never write the schema). Checked until it is current,
        then never again."""
        from graphrag_neo4j.query.answers.schema_note import schema_lag_note

        if not self._schema_current:
            pending = await asyncio.to_thread(self.store.pending_schema)
            if pending:
                answer.notes.append(schema_lag_note(pending, self.store.workspace.name))
            self._schema_current = not pending
        return answer

    def retrieve(self, question: str, method: str | None = None, **options: Any) -> Answer:
        """Sync version of `aretrieve`."""
        return self.run(self.aretrieve(question, method, **options))

    def query(self, question: str, method: str | None = None, **options: Any) -> Answer:
        """Sync version of `aquery`."""
        return self.run(self.aquery(question, method, **options))

    async def abuild_communities(
        self, progress: StageProgress | None = None, *, reports: str | None = None,
        incremental: bool = False,
    ) -> CommunityStats:
        """Re-cluster the entity graph, give every community an extractive summary, and write
        LLM reports: `all` now, `lazy` when global search needs them, or `none`.
        `incremental` (after a delete or unmerge) keeps the stored communities less what left
        the graph, and clusters only entities that have none.

        Without `reports` (nor `communities.reports` in the settings): `all` when some document
        was indexed with LLM extraction, `lazy` otherwise.
        """
        from graphrag_neo4j.communities.build import build_communities
        from graphrag_neo4j.communities.report_mode import choose_report_mode

        await self.aensure_schema()
        wanted = reports or self.settings.communities.reports
        mode = await asyncio.to_thread(choose_report_mode, self.store, wanted)
        llm = self.llm if mode == "all" else None
        # Concurrent runs (other processes or machines) rebuild one at a time, each on the
        # graph the previous one left.
        with self.store.exclusive(COMMUNITIES_LOCK):
            return await build_communities(
                self.store, self.settings, llm, self.embedder, self.console, progress,
                reports=mode, incremental=incremental,
            )

    async def aestimate_communities(self) -> CostEstimate:
        """What `abuild_communities()` would cost now; reads only, calls no LLM."""
        from graphrag_neo4j.communities.estimate import estimate_communities

        return await estimate_communities(self.store, self.settings, self.llm, self.embedder)

    def estimate_communities(self) -> CostEstimate:
        """Sync version of `aestimate_communities`."""
        return self.run(self.aestimate_communities())

    async def acommunities(self, limit: int = 10, level: int | None = None) -> CommunityOverview:
        """Communities per level and the `limit` largest ones (optionally of one level)."""
        from graphrag_neo4j.communities.build import community_overview

        return await asyncio.to_thread(community_overview, self.store, limit, level)

    def build_communities(self, *, reports: str | None = None, incremental: bool = False
                          ) -> CommunityStats:
        """Sync version of `abuild_communities`."""
        return self.run(self.abuild_communities(reports=reports, incremental=incremental))

    def communities(self, limit: int = 10, level: int | None = None) -> CommunityOverview:
        """Sync version of `acommunities`."""
        return self.run(self.acommunities(limit, level))

    def relabel_entities(self) -> int:
        """Set every entity's type label from its type and the settings (removed when off)."""
        from graphrag_neo4j.indexing.graph.type_labels import TypeLabels, relabel_all

        return relabel_all(self.store, TypeLabels.from_settings(self.settings))

    def counts(self) -> dict[str, int]:
        """Documents, chunks, entities, relations and communities in the graph."""
        return dict(self.store.read("database/count_graph")[0])

    def written_reports(self) -> int:
        """Community reports an LLM wrote or an import brought: what local search reads, and
        what global and DRIFT add to when they write lazy reports."""
        from graphrag_neo4j.communities.extractive import STATUS as EXTRACTIVE

        rows = self.store.read("query/communities/count_written_reports", extractive=EXTRACTIVE)
        return int(rows[0]["reports"])

    # Sync twins: the only place an event loop is started.
    def index(
        self,
        paths: Sequence[Path | str],
        method: str | None = None,
        *,
        follow_links: bool = False,
        shard: Shard | None = None,
    ) -> tuple[IndexStats, LoadResult]:
        """Sync version of `aindex`."""
        return self.run(self.aindex(paths, method, follow_links=follow_links, shard=shard))

    def index_triplets(self, path: Path | str, shard: Shard | None = None) -> IndexStats:
        """Sync version of `aindex_triplets`."""
        return self.run(self.aindex_triplets(path, shard))

    def unmerge(self, merge_id: str) -> UnmergeReport:
        """Sync version of `aunmerge`."""
        return self.run(self.aunmerge(merge_id))

    def delete(self, document_id: str) -> DeletionReport:
        """Sync version of `adelete`."""
        return self.run(self.adelete(document_id))

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` to its end on this engine's event loop (the sync twins' one loop,
        on its own thread: sync calls work inside a running loop and from several threads;
        async code should await the async methods instead of blocking its loop)."""
        return self._loop_thread.run(coroutine)

    def close(self) -> None:
        """Close the query methods, the Neo4j connection, the caches and the event loop."""
        for method in self._methods.values():
            method.close()
        self._methods.clear()
        owned = (self._llm, self._embedder) if self._owns_models else ()
        for resource in (self._store, *owned):
            if resource is not None:
                resource.close()
        self._loop_thread.close()

    def __enter__(self) -> GraphRAG:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


