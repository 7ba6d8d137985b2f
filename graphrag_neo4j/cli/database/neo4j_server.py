"""`graphrag-neo4j neo4j start|stop|status|logs`: the bundled local Neo4j server."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphrag_neo4j.database.server.neo4j_server import (
    ServerConfig,
    log_path,
    server_config_from_settings,
    start,
    status,
    stop,
    tail_log,
)
from graphrag_neo4j.runtime.errors import GraphRAGError

app = typer.Typer(
    help="Run a local Neo4j Community 5.26 server (Bolt 127.0.0.1:7687, Browser "
    "http://127.0.0.1:7474/browser/) with data under neo4j.home; needs Java 17+ and Maven.",
    no_args_is_help=True,
)
console = Console()
error_console = Console(stderr=True)
T = TypeVar("T")


def _server_config() -> ServerConfig:
    from graphrag_neo4j.settings import load_settings

    return server_config_from_settings(load_settings())


def _unmanaged() -> bool:
    """True (after saying so) when settings point at a server this command must not run."""
    from graphrag_neo4j.settings import load_settings

    neo4j = load_settings().neo4j
    if neo4j.managed:
        return False
    console.print(
        Text(f"neo4j.managed is false: {neo4j.uri} is run elsewhere (a cluster or Aura), so"
             " there is no local server to start or stop."),
        soft_wrap=True,
    )
    return True


def _run(action: Callable[[], T]) -> T:
    """Run a command body; a user-facing error becomes one red line and exit code 1."""
    try:
        return action()
    except GraphRAGError as exc:
        error_console.print(Text(str(exc), style="red"), soft_wrap=True)
        raise typer.Exit(1) from None


@app.command("start")
def start_command(
    timeout: float = typer.Option(600.0, help="Seconds to wait for Neo4j to answer."),
) -> None:
    """Start Neo4j (the first start downloads it with Maven); a no-op if it already runs."""
    if not _run(_unmanaged):
        _run(lambda: start(_with_timeout(_server_config(), timeout), console))


@app.command("stop")
def stop_command() -> None:
    """Stop Neo4j cleanly (SIGTERM; SIGKILL if it does not stop within two minutes)."""
    if not _run(_unmanaged):
        _run(lambda: stop(_server_config(), console))


@app.command("status")
def status_command() -> None:
    """Show whether Neo4j runs, its URLs and where its data lives (exit code 3 if stopped)."""
    info = _run(lambda: status(_server_config()))
    table = Table(show_header=False, box=None)
    state = f"running, pid {info.pid}" if info.running else "not running"
    if info.running and not info.bolt_ready:
        state += " (Bolt not answering yet)"
    table.add_row("Neo4j", Text(state, style="green" if info.bolt_ready else "yellow"))
    table.add_row("Bolt", info.bolt_url)
    table.add_row("Browser", info.browser_url)
    table.add_row("Data", str(info.data_dir))
    table.add_row("Log", str(info.log_file))
    console.print(table)
    if not info.running:
        raise typer.Exit(3)


@app.command("logs")
def logs_command(
    lines: int = typer.Option(50, "-n", "--lines", help="How many last lines to print."),
    follow: bool = typer.Option(False, "-f", "--follow", help="Keep printing new lines."),
) -> None:
    """Print the end of the server log (launcher, Neo4j and JVM output)."""
    cfg = _run(_server_config)
    for line in tail_log(cfg, lines):
        console.out(line, highlight=False)
    if follow:
        _follow(cfg)


def _follow(cfg: ServerConfig) -> None:
    path = log_path(cfg)
    position = path.stat().st_size if path.is_file() else 0
    try:
        while True:
            size = path.stat().st_size if path.is_file() else 0
            if size < position:  # the log was truncated or replaced
                position = 0
            if size > position:
                with path.open("rb") as handle:
                    handle.seek(position)
                    chunk = handle.read()
                position += len(chunk)
                console.out(chunk.decode("utf-8", errors="replace"), end="", highlight=False)
            time.sleep(0.5)
    except KeyboardInterrupt:
        return


def _with_timeout(cfg: ServerConfig, timeout: float) -> ServerConfig:
    return replace(cfg, startup_timeout_s=timeout)
