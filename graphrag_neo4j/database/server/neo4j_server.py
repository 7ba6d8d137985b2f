"""Run a real local Neo4j Community 5.26 server (Bolt + Browser) without Docker.

`start()` builds the launcher once (see `neo4j_build`), then starts the JVM directly with
`java @argfile graphragneo4j.Launcher --home ...` in its own session, so it outlives this
process; its output goes to `<home>/logs/neo4j.log`. The password travels in the child's
environment (`GRAPHRAG_NEO4J__PASSWORD`), never on its command line. Readiness is the
launcher's ready file (written once Neo4j has fully started) plus a Bolt handshake, then one
Bolt HELLO proves the configured password is the stored one. This module never imports the
`neo4j` driver.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.text import Text

from graphrag_neo4j.database.server import bolt_probe
from graphrag_neo4j.database.server.build import Neo4jServerError, ensure_launcher, neo4j_version
from graphrag_neo4j.database.server.config import (
    HOST,
    PASSWORD_ENV,
    ServerConfig,
    jvm_options,
    launcher_args,
    launcher_env,
    server_config_from_settings,
    validate,
)
from graphrag_neo4j.database.server.credentials import (
    ensure_password,
    password_file,
    stored_password,
)
from graphrag_neo4j.database.server.process import (
    command_line,
    is_launcher_command,
    pid_alive,
    read_pid,
    wait_for_exit,
)
from graphrag_neo4j.runtime.resources import private_dir, write_private

__all__ = [
    "Neo4jServerError",
    "ServerConfig",
    "ServerStatus",
    "StartResult",
    "log_path",
    "server_config_from_settings",
    "start",
    "status",
    "stop",
    "tail_log",
]

USER = "neo4j"
STOP_TIMEOUT_S = 120.0  # the first stop also writes the class-data archive
START_MARKER = "===== graphrag-neo4j: starting Neo4j"


@dataclass(frozen=True)
class StartResult:
    """What `start()` did: the server's pid, whether it was already up, and how long it took."""

    pid: int
    already_running: bool
    seconds: float
    bolt_url: str
    browser_url: str
    neo4j_version: str


@dataclass(frozen=True)
class ServerStatus:
    """Whether the local server runs, where it answers and where its files are."""

    running: bool
    pid: int | None
    bolt_ready: bool
    bolt_url: str
    http_url: str
    browser_url: str
    home: Path
    data_dir: Path
    log_file: Path


def log_path(cfg: ServerConfig) -> Path:
    """The server's log: launcher messages, Neo4j's user log and JVM output."""
    return cfg.home / "logs" / "neo4j.log"


def status(cfg: ServerConfig) -> ServerStatus:
    """Whether the server runs (its pid file names a live launcher JVM for this home)."""
    pid = running_pid(cfg)
    ready = pid is not None and bolt_probe.handshake(HOST, cfg.bolt_port) is not None
    return ServerStatus(
        running=pid is not None,
        pid=pid,
        bolt_ready=ready,
        bolt_url=cfg.bolt_url,
        http_url=cfg.http_url,
        browser_url=cfg.browser_url,
        home=cfg.home,
        data_dir=cfg.home / "data",
        log_file=log_path(cfg),
    )


def start(cfg: ServerConfig, console: Console) -> StartResult:
    """Start the server unless it runs; returns once Neo4j has fully started and Bolt answers."""
    began = time.monotonic()
    cfg = with_password(cfg, console)
    pid = running_pid(cfg)
    if pid is not None:
        console.print(
            f"Neo4j is already running, pid {pid} ({cfg.bolt_url}, {cfg.browser_url}).",
            soft_wrap=True,
        )
        _wait_until_ready(cfg, pid, lambda: None if pid_alive(pid) else -1, console)
        check_password(cfg, pid)
        return _result(cfg, pid, began, already_running=True)
    _remove_stale_pid_file(cfg, console)
    validate(cfg)
    for port in (cfg.bolt_port, cfg.http_port):
        ensure_port_free(port)
    build = ensure_launcher(cfg.home, console)
    command = [
        str(build.java), *jvm_options(cfg), *build.cds_options(), f"@{build.argfile}",
        *launcher_args(cfg),
    ]  # fmt: skip
    proc = _spawn(cfg, command)
    try:
        _wait_until_ready(cfg, proc.pid, proc.poll, console)
    except Neo4jServerError:
        _terminate(proc)
        cfg.pid_file.unlink(missing_ok=True)
        raise
    check_password(cfg, proc.pid)
    result = _result(cfg, proc.pid, began, already_running=False)
    console.print(
        f"[green]Neo4j {result.neo4j_version} is running[/green] (pid {proc.pid}, "
        f"started in {result.seconds:.1f} s): Bolt {cfg.bolt_url}, Browser {cfg.browser_url}",
        soft_wrap=True,
    )
    return result


def with_password(cfg: ServerConfig, console: Console) -> ServerConfig:
    """`cfg` with its password: configured, stored, or generated now for a new server."""
    if not cfg.password and not stored_password(cfg.home) and _has_database(cfg):
        raise Neo4jServerError(
            f"The Neo4j server in {cfg.home} was created with a password this version does not"
            f" know (earlier versions used the published default 'graphrag-neo4j'); set"
            f" neo4j.password (env {PASSWORD_ENV}) to it."
        )
    private_dir(cfg.home)
    password, generated = ensure_password(cfg.home, cfg.password)
    if generated:
        console.print(
            f"Generated a random password for user neo4j, kept user-only in "
            f"{password_file(cfg.home)} (the CLI and Python API read it from there).",
            soft_wrap=True,
        )
    return replace(cfg, password=password)


def _has_database(cfg: ServerConfig) -> bool:
    return (cfg.home / "data" / "databases" / "system").is_dir()


def stop(cfg: ServerConfig, console: Console) -> bool:
    """Stop the server (SIGTERM, then SIGKILL after a timeout); False if it was not running."""
    pid = running_pid(cfg)
    if pid is None:
        _remove_stale_pid_file(cfg, console)
        console.print("Neo4j is not running.")
        return False
    began = time.monotonic()
    with contextlib.suppress(ProcessLookupError):  # it may have exited just now
        os.kill(pid, signal.SIGTERM)
    with console.status(f"Stopping Neo4j (pid {pid}), checkpointing the databases..."):
        stopped = wait_for_exit(pid, STOP_TIMEOUT_S)
    if not stopped:
        console.print(f"[yellow]Neo4j did not stop within {STOP_TIMEOUT_S:.0f} s; killing it.")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        wait_for_exit(pid, 10.0)
    cfg.pid_file.unlink(missing_ok=True)
    cfg.ready_file.unlink(missing_ok=True)
    how = "cleanly" if stopped else "forcibly"
    console.print(f"Neo4j stopped {how} (pid {pid}) in {time.monotonic() - began:.1f} s.")
    return True


def tail_log(cfg: ServerConfig, lines: int = 50) -> list[str]:
    """The last `lines` lines of the server log (empty if there is no log yet)."""
    path = log_path(cfg)
    if not path.is_file():
        return []
    if lines <= 0:
        return []
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        budget = lines * 400
        while True:  # read a growing tail until it holds enough lines or is the whole file
            handle.seek(max(0, size - budget))
            text = handle.read().decode("utf-8", errors="replace")
            if text.count("\n") > lines or budget >= size:
                return text.splitlines()[-lines:]
            budget *= 4


def failure_excerpt(lines: list[str], keep: int = 12) -> str:
    """The last log lines of the latest start, without Java stack frames."""
    starts = [i for i, line in enumerate(lines) if line.startswith(START_MARKER)]
    latest = lines[starts[-1] + 1 :] if starts else lines
    frames = ("at ", "... ")
    useful = [line for line in latest if line.strip() and not line.lstrip().startswith(frames)]
    return "\n".join(useful[-keep:])


def ensure_port_free(port: int) -> None:
    """Raise if something already listens on 127.0.0.1:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            raise Neo4jServerError(
                f"Port {port} on {HOST} is already used by another process; stop it or "
                "configure another port (neo4j.uri / neo4j.http_port)."
            ) from None


def check_password(cfg: ServerConfig, pid: int) -> None:
    """Raise if the running server rejects the configured password for user neo4j."""
    try:
        accepted = bolt_probe.login_ok(HOST, cfg.bolt_port, USER, cfg.password)
    except OSError as exc:
        raise Neo4jServerError(
            f"Neo4j (pid {pid}) does not answer on {cfg.bolt_url}: {exc}."
        ) from None
    if not accepted:
        raise Neo4jServerError(
            f"Neo4j is running (pid {pid}) but the password stored in {cfg.home / 'data'} for "
            f"user neo4j differs from the configured one; set neo4j.password (env "
            f"{PASSWORD_ENV}) to the stored password, or stop the server and delete that data "
            "folder to start afresh."
        )


def running_pid(cfg: ServerConfig) -> int | None:
    """The pid in the pid file if it is a live launcher JVM for this home, else None."""
    pid = read_pid(cfg.pid_file)
    if pid is None or not pid_alive(pid):
        return None
    command = command_line(pid)
    return pid if command is None or is_launcher_command(command, cfg.home) else None


def _remove_stale_pid_file(cfg: ServerConfig, console: Console) -> None:
    if cfg.pid_file.exists():
        pid = read_pid(cfg.pid_file)
        cfg.pid_file.unlink(missing_ok=True)
        gone = f"process {pid} is gone" if pid else "it held no pid"
        console.print(Text(f"Removed a stale pid file ({gone}): {cfg.pid_file}"), soft_wrap=True)


def _spawn(cfg: ServerConfig, command: list[str]) -> subprocess.Popen[bytes]:
    log = log_path(cfg)
    # The folders and files this process makes are user-only too, like the JVM's (umask 077).
    private_dir(log.parent)
    shutil.rmtree(cfg.temp_dir, ignore_errors=True)  # no JVM uses it: ours is not running
    private_dir(cfg.temp_dir)
    private_dir(cfg.pid_file.parent)
    with os.fdopen(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "ab") as out:
        log.chmod(0o600)  # a log written by an earlier version may be wider
        out.write(f"\n{START_MARKER} {datetime.now():%Y-%m-%d %H:%M:%S} =====\n".encode())
        out.flush()
        proc = subprocess.Popen(
            command, cwd=cfg.home, env=launcher_env(cfg), stdin=subprocess.DEVNULL,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            umask=0o077,  # the graph, its logs and transaction files are the user's only
        )  # fmt: skip
    write_private(cfg.pid_file, f"{proc.pid}\n")
    return proc


def _wait_until_ready(
    cfg: ServerConfig, pid: int, exit_code: Callable[[], int | None], console: Console
) -> None:
    """Wait for Bolt and HTTP to answer; raise if the JVM exits or the timeout passes."""
    deadline = time.monotonic() + cfg.startup_timeout_s
    with console.status(f"Starting Neo4j {neo4j_version()} (pid {pid})..."):
        while not _answers(cfg, pid):
            code = exit_code()
            if code is not None:
                raise Neo4jServerError(
                    f"Neo4j exited with code {code} while starting; the last lines of "
                    f"{log_path(cfg)} are:\n{failure_excerpt(tail_log(cfg, 200))}"
                )
            if time.monotonic() > deadline:
                raise Neo4jServerError(
                    f"Neo4j did not finish starting within {cfg.startup_timeout_s:.0f} s "
                    f"(Bolt {cfg.bolt_url}); see {log_path(cfg)}."
                )
            time.sleep(0.25)


def _terminate(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _answers(cfg: ServerConfig, pid: int) -> bool:
    """Fully started (the launcher's ready file names this pid) and Bolt answers."""
    if read_pid(cfg.ready_file) != pid:
        return False
    return bolt_probe.handshake(HOST, cfg.bolt_port, timeout_s=2.0) is not None


def _result(cfg: ServerConfig, pid: int, began: float, *, already_running: bool) -> StartResult:
    return StartResult(
        pid=pid,
        already_running=already_running,
        seconds=time.monotonic() - began,
        bolt_url=cfg.bolt_url,
        browser_url=cfg.browser_url,
        neo4j_version=neo4j_version(),
    )
