"""Where the graph lives (Neo4j, its bundled local server) and how the HTTP API serves."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from pydantic import Field, SecretStr

from graphrag_neo4j.settings.base import Section, user_data_dir

PASSWORD_FILE_NAME = "password"  # in neo4j.home: the password `neo4j start` generated
BOLT_PORT = 7687  # Neo4j's own default Bolt port, when the URI names none


class Neo4jSettings(Section):
    """Where the graph lives and how the bundled local server runs."""

    uri: str = Field(f"bolt://127.0.0.1:{BOLT_PORT}", description="Bolt URI of the Neo4j server.")
    user: str = Field("neo4j", description="Neo4j user name.")
    password: SecretStr | None = Field(
        None,
        description="Neo4j password; empty = the random one `neo4j start` generated on first"
        " start and keeps user-only in <home>/password.",
    )
    database: str = Field("neo4j", description="Database name (Community edition has one).")
    workspace: str = Field(
        "", description="The workspace of the graph this process reads and writes ('' = the"
        " default one, the graph of before workspaces): letters, digits and single underscores;"
        " each has its own labels and indexes in the database (docs/workspaces.md).",
    )
    managed: bool = Field(
        True,
        description="`graphrag-neo4j neo4j start|stop` run the bundled local server; false for"
        " a server run elsewhere (a cluster, or Aura at neo4j+s://...), which they leave alone.",
    )
    home: Path = Field(
        default_factory=lambda: user_data_dir() / "neo4j",
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
        return urlparse(self.uri).port or BOLT_PORT


class ServerSettings(Section):
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
