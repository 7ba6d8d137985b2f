"""The only door to Neo4j: runs named Cypher files with parameters, batched and retried."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from types import TracebackType
from typing import Any, LiteralString, Self

from graphrag_neo4j.database.memory_refusal import refusing_over_memory
from graphrag_neo4j.database.workspaces.names import SUFFIX, Workspace, check_name
from graphrag_neo4j.runtime.errors import Neo4jUnavailableError, SchemaMismatchError
from graphrag_neo4j.runtime.resources import (
    load_cypher,
    schema_changes,
    split_statements,
    statements_to_run,
)
from graphrag_neo4j.settings import Neo4jSettings

# The driver imports pandas and pyarrow when it starts, if they are installed, only to take
# DataFrames and Arrow arrays as parameters and to build `Result.to_df()`, which the engine never
# uses; that is 0.3 s of every command's start. It is imported with both hidden, and they stay
# importable for whoever needs them (the parquet import and export).
_DATAFRAME_MODULES = ("pandas", "pyarrow")


def _import_driver_without_dataframes() -> None:
    hidden = [name for name in _DATAFRAME_MODULES if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # import fails: the driver skips it
    try:
        import neo4j  # noqa: F401
    finally:
        for name in hidden:
            if sys.modules.get(name) is None:
                del sys.modules[name]


_import_driver_without_dataframes()
import neo4j  # noqa: E402 (imported above; this binds the name)
from neo4j import GraphDatabase, ManagedTransaction  # noqa: E402
from neo4j.exceptions import (  # noqa: E402
    AuthError,
    ClientError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

Row = dict[str, Any]
# The chunk fulltext index of graphs written before chunks carried their document's title.
LEGACY_CHUNK_FULLTEXT = "chunk_text_fulltext"
VECTOR_INDEXES = (
    "chunk_embedding",
    "community_embedding",
    "entity_description_embedding",
    "related_embedding",
)
# The driver has notifications off; EXPLAIN of a generated query turns warnings on for its own
# session, so the plan can say which labels, types and properties the graph does not have.
PLAN_NOTICE_SEVERITY = neo4j.NotificationMinimumSeverity.WARNING
# The transaction metadata key marking a model-written query
# (cypher/query/schema/terminate_generated).
GENERATED_TAG = "generated_query"


class _PlanNoticesUnlogged(logging.Filter):
    """Drops the driver's log line for a notice of an EXPLAIN: its caller reads the notices."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return not str(getattr(args[0], "query", "") if args else "").startswith("EXPLAIN ")


logging.getLogger("neo4j.notifications").addFilter(_PlanNoticesUnlogged())


# After 3 wrong passwords Neo4j refuses every login, the right one too, for 5 s.
RATE_LIMITED = "Neo.ClientError.Security.AuthenticationRateLimit"
AUTH_LOCK_WAIT_S = 5.5
CONNECT_ATTEMPTS = 3


class Store:
    """A Neo4j connection that speaks only in named Cypher files, in one workspace: every
    statement's whitelisted labels, types and index names are the workspace's
    (`workspaces.names`), so nothing it runs reads or writes another workspace's nodes."""

    def __init__(self, settings: Neo4jSettings) -> None:
        self.settings = settings
        self.workspace = Workspace(check_name(settings.workspace))
        self._driver = GraphDatabase.driver(
            settings.uri,
            auth=(settings.user, settings.secret()),
            max_transaction_retry_time=settings.max_transaction_retry_s,
            notifications_min_severity="OFF",
        )

    def _query(self, name: str) -> LiteralString:
        """A statement from our own cypher/ files, in this workspace's names: never text
        built from user input (a workspace name is validated, and only whitelisted tokens map)."""
        return self.workspace.map_cypher(load_cypher(name))

    def _params(self, query: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters of a statement, with `$workspace_suffix` (what this workspace's
        labels end with; '' in the default one) where the statement asks for it: statements
        over every label of the database (db.labels()) keep the workspace's."""
        found = dict(params)
        if "$workspace_suffix" in query:
            found["workspace_suffix"] = self.workspace.suffix
        return found

    def _statements(self, name: str) -> list[str]:
        return split_statements(self._query(name))

    @classmethod
    def connect(cls, settings: Neo4jSettings) -> Self:
        """Open a store and prove the server answers, or raise one clear sentence."""
        if not settings.secret():
            raise Neo4jUnavailableError(
                f"No Neo4j password is set for {settings.uri} and none was generated in"
                f" {settings.home}: set GRAPHRAG_NEO4J__PASSWORD, or run"
                " `graphrag-neo4j neo4j start` once to generate one."
            )
        store = cls(settings)
        try:
            with store._unavailable_as_error():
                store._verify_through_auth_lock()
        except Neo4jUnavailableError:
            store.close()
            raise
        return store

    def _verify_through_auth_lock(self) -> None:
        """Prove the server answers; a login locked by recent failures is tried again later."""
        for attempt in range(CONNECT_ATTEMPTS):
            try:
                self._driver.verify_connectivity()
                return
            except ClientError as exc:
                if exc.code != RATE_LIMITED or attempt + 1 == CONNECT_ATTEMPTS:
                    raise
            time.sleep(AUTH_LOCK_WAIT_S)

    def close(self) -> None:
        """Release the driver's connections."""
        self._driver.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _unavailable_as_error(self) -> Iterator[None]:
        uri = self.settings.uri
        try:
            yield
        except AuthError as exc:
            raise Neo4jUnavailableError(
                f"Neo4j at {uri} refused user {self.settings.user!r}: check"
                " GRAPHRAG_NEO4J__PASSWORD (the local server keeps the password"
                " it was first started with)."
            ) from exc
        except ClientError as exc:
            if exc.code != RATE_LIMITED:
                raise
            raise Neo4jUnavailableError(
                f"Neo4j at {uri} refuses logins of user {self.settings.user!r} for a few seconds"
                " after failed attempts; check GRAPHRAG_NEO4J__PASSWORD and try again."
            ) from exc
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            raise Neo4jUnavailableError(
                f"Neo4j is not reachable at {uri}: start it with `graphrag-neo4j neo4j start`."
            ) from exc

    def _session(self, access_mode: str = neo4j.WRITE_ACCESS) -> neo4j.Session:
        return self._driver.session(
            database=self.settings.database, default_access_mode=access_mode
        )

    # Statements are loaded before the session opens: a missing file is our bug, and must not
    # be reported as an unreachable server (FileNotFoundError is an OSError too).
    def read(self, name: str, **params: Any) -> list[Row]:
        """All rows of a read-only statement, in a retried read transaction."""
        query = self._query(name)
        params = self._params(query, params)

        def work(tx: ManagedTransaction) -> list[Row]:
            return tx.run(query, params).data()

        with self._unavailable_as_error(), self._session(neo4j.READ_ACCESS) as session:
            return session.execute_read(refusing_over_memory(name, work))

    def stream(self, name: str, **params: Any) -> Iterator[Row]:
        """Rows of a read-only statement one at a time, without holding them all in memory."""
        query = self._query(name)
        with self._unavailable_as_error(), self._session(neo4j.READ_ACCESS) as session:
            for record in session.run(query, self._params(query, params)):
                yield record.data()

    def write(self, name: str, **params: Any) -> list[Row]:
        """Run a writing statement in one retried transaction and return its rows."""
        query = self._query(name)
        params = self._params(query, params)

        def work(tx: ManagedTransaction) -> list[Row]:
            return tx.run(query, params).data()

        with self._unavailable_as_error(), self._session() as session:
            return session.execute_write(refusing_over_memory(name, work))

    def write_together(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Row]]:
        """Run several named statements in ONE transaction: all of them happen or none."""
        queries = [(query, self._params(query, params))
                   for query, params in ((self._query(name), params) for name, params in steps)]

        def work(tx: ManagedTransaction) -> list[list[Row]]:
            return [tx.run(query, params).data() for query, params in queries]

        names = ", ".join(name for name, _ in steps)
        with self._unavailable_as_error(), self._session() as session:
            return session.execute_write(refusing_over_memory(names, work))

    def write_rows(
        self,
        name: str,
        rows: Sequence[Mapping[str, Any]],
        *,
        batch_size: int | None = None,
        on_batch: Callable[[int], None] | None = None,
        **params: Any,
    ) -> int:
        """Send `rows` as `$rows` to an UNWIND statement, one transaction per batch."""
        size = batch_size or self.settings.write_batch_size
        for start in range(0, len(rows), size):
            batch = [dict(row) for row in rows[start : start + size]]
            self.write(name, rows=batch, **params)
            if on_batch is not None:
                on_batch(len(batch))
        return len(rows)

    def run_autocommit(self, name: str, **params: Any) -> None:
        """Run the statements of a file that manage their own transactions (`CALL ... IN
        TRANSACTIONS`), in order."""
        self.run_script(name, **params)

    def run_script(self, name: str, **params: Any) -> int:
        """Run each `;`-separated statement of a file in its own auto-commit transaction."""
        return self._run_statements(self._statements(name), params)

    def _run_statements(self, statements: Sequence[str], params: dict[str, Any]) -> int:
        with self._unavailable_as_error(), self._session() as session:
            for statement in statements:
                session.run(statement, self._params(statement, params)).consume()
        return len(statements)

    def explain(self, name: str) -> list[str]:
        """EXPLAIN every statement of a file: the plan's top operator of each."""
        plans = []
        with self._unavailable_as_error(), self._session(neo4j.READ_ACCESS) as session:
            for statement in self._statements(name):
                text = "EXPLAIN " + statement
                summary = session.run(text).consume()
                plans.append(str((summary.plan or {}).get("operatorType", "")))
        return plans

    # The one exception to named files: Cypher a model wrote for the `cypher` query method.
    # query/cypher/guard.py EXPLAINs it first and refuses writes, schema and admin commands
    # and procedures outside an allow-list, and a plan that starts anywhere but at this
    # workspace's labels; it then runs in a read transaction (the server refuses writes in
    # one), with a timeout and a row limit. The model writes the Cypher files' names (the
    # schema it is shown is in those), made this workspace's here as a file's are.
    def explain_generated(
        self, text: str
    ) -> tuple[str, list[dict[str, Any]], list[dict[str, str]]]:
        """EXPLAIN (never run) a model-written statement: its query type ('r', 'w', 'rw' or
        's'), every operator of its plan with its arguments, and the server's warnings about
        it (GQL status and description: an unknown label is 01N50)."""
        query = neo4j.Query("EXPLAIN " + self.workspace.map_cypher(text))
        with (
            self._unavailable_as_error(),
            self._driver.session(
                database=self.settings.database, default_access_mode=neo4j.READ_ACCESS,
                notifications_min_severity=PLAN_NOTICE_SEVERITY,
            ) as session,
        ):
            summary = session.run(query).consume()
        notices = [{"status": notice.gql_status, "description": notice.status_description}
                   for notice in summary.gql_status_objects if notice.is_notification]
        return str(summary.query_type or ""), _operators(summary.plan or {}), notices

    def shares_database(self) -> bool:
        """Whether a named workspace's graph is in this database too."""
        rows = self.read("workspaces/named_workspace_exists", suffix_mark=SUFFIX)
        return bool(rows and rows[0]["shared"])

    def read_generated(
        self, text: str, timeout_s: float, max_rows: int, tag: str = ""
    ) -> list[Row]:
        """Run a model-written statement the guard accepted: read access, `timeout_s` (the
        server ends the transaction then), and at most `max_rows` rows read back; `tag` marks
        its transaction for `terminate_generated`. Not retried: a failure goes back to the
        model."""
        with (
            self._unavailable_as_error(),
            self._session(neo4j.READ_ACCESS) as session,
            session.begin_transaction(
                timeout=timeout_s, metadata={GENERATED_TAG: tag} if tag else None
            ) as tx,
        ):
            result = tx.run(self.workspace.map_cypher(text))
            rows = [record.data() for _, record in zip(range(max_rows), result, strict=False)]
            tx.rollback()  # nothing to commit; a read transaction holds no writes anyway
        return rows

    def terminate_generated(self, tag: str) -> int:
        """End the transaction of the model-written statement run under `tag` (its caller
        gave up on it); how many were ended."""
        with self._unavailable_as_error(), self._session() as session:
            return len(session.run(self._query("query/schema/terminate_generated"), tag=tag).data())

    @contextmanager
    def exclusive(self, name: str) -> Iterator[None]:
        """Hold the named lock in Neo4j for the block; other processes and machines wait.

        The lock is a node write-locked by a transaction kept open for the block and rolled
        back after it, so a holder that dies releases it with its connection: no lease, no
        stale lock. Writes inside the block use other sessions.
        """
        holder = f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"
        self.write("database/merge_lock", lock=name)
        with self._session() as session:
            with self._unavailable_as_error():
                tx = session.begin_transaction()
                tx.run(self._query("database/hold_lock"), lock=name, holder=holder).consume()
            try:
                yield
            finally:
                with suppress(Neo4jError, DriverError):  # a lost connection released it already
                    tx.rollback()

    def vector_index_dimensions(self) -> dict[str, int]:
        """The dimension of every vector index of this workspace, by the name the Cypher files
        give it."""
        rows = self.read("database/embedder/show_vector_indexes")
        return {row["name"]: int(row["dimensions"]) for row in rows}

    def schema_names(self) -> set[str]:
        """The names of this workspace's constraints and indexes, as the Cypher files call
        them."""
        names = (self.workspace.canonical(row["name"]) for row in self.read("database/show_schema"))
        return {name for name in names if name is not None}

    def pending_schema(self) -> list[str]:
        """The indexes and constraints `apply_schema` would create or drop in this workspace:
        none once this release's schema is applied (a graph an older release wrote lacks some)."""
        return schema_changes(_schema_statements(), self.schema_names())

    def apply_schema(self, dimensions: int) -> None:
        """Create constraints and indexes, refusing vector indexes of another dimension.

        A graph written before chunks carried their document's title gets them, and its chunk
        fulltext index is replaced by one over title and text.
        """
        for index_name, held in self.vector_index_dimensions().items():
            if index_name in VECTOR_INDEXES and held != dimensions:
                raise SchemaMismatchError(
                    f"Vector index {index_name!r} in {self.settings.uri} holds {held}-dimension"
                    f" vectors but the configured embedder makes {dimensions}: switch back to"
                    " that embedder, or run `graphrag-neo4j init-db --reset-vectors` and re-index."
                )
        existing = self.schema_names()  # constraints' indexes too
        legacy = LEGACY_CHUNK_FULLTEXT in existing
        if legacy:
            # Titles first: the schema drops the old index, and a run stopped in between
            # would otherwise leave old chunks without titles for good.
            self.run_autocommit("indexing/documents/backfill_chunk_titles")
        try:
            self._run_statements(
                [self.workspace.map_cypher(statement) for statement in
                 statements_to_run(_schema_statements(), existing)],
                {"dimensions": dimensions},
            )
        except ClientError as exc:
            raise SchemaMismatchError(
                f"Neo4j at {self.settings.uri} rejected the schema ({exc.message})."
            ) from exc
        if legacy:
            # The new chunk index fills from every chunk.
            self.run_autocommit("database/await_indexes")

    def reset_vectors(self) -> None:
        """Drop the vector indexes and every stored embedding, for a change of embedder."""
        self.run_script("database/embedder/drop_vector_indexes")
        self.run_autocommit("database/embedder/remove_embeddings")
        self.write("database/embedder/forget_embedder")

    def check_embedder(self, name: str, dimensions: int) -> None:
        """Record the embedder of the graph's vectors on first use; refuse another one."""
        held = self.write("database/embedder/record_embedder", embedder=name,
                          dimension=dimensions)[0]
        if held["embedder"] != name:
            raise SchemaMismatchError(embedder_mismatch(self.settings.uri, held, name))


def embedder_mismatch(uri: str, held: Mapping[str, Any], name: str) -> str:
    """One sentence: the graph holds another embedder's vectors, and the two ways out."""
    return (f"The graph at {uri} holds vectors of {held['embedder']} ({held['dimension']}"
            f" dimensions) but the configured embedder is {name}: configure that embedder"
            " again ([embedding] in the settings), or run `graphrag-neo4j init-db"
            " --reset-vectors` and re-index.")


def _operators(plan: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every operator of an EXPLAIN plan, depth first, with its arguments and whether it is a
    leaf (where rows start: the workspace guard checks what each leaf reads)."""
    found = [{"operator": str(plan.get("operatorType", "")), "args": plan.get("args", {}),
              "leaf": not plan.get("children")}]
    for child in plan.get("children", []):
        found.extend(_operators(child))
    return found


def _schema_statements() -> list[str]:
    """The statements of this release's schema (cypher/database/schema.cypher), one by one."""
    return split_statements(load_cypher("database/schema"))
