"""Local Neo4j wrapper: config -> JVM command, pid files, stale/foreign pids, stop, CLI errors.

Nothing here starts Neo4j or opens a network socket; processes that stand in for the launcher
JVM are plain Python sleepers whose command line looks like the launcher's.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import SecretStr
from rich.console import Console
from typer.testing import CliRunner

from graphrag_neo4j.cli.database import neo4j_server as cli_neo4j
from graphrag_neo4j.database.server import bolt_probe
from graphrag_neo4j.database.server.build import (
    argfile_text,
    launcher_text,
    neo4j_version,
    parse_java_version,
)
from graphrag_neo4j.database.server.config import (
    PASSWORD_ENV,
    jvm_options,
    launcher_args,
    launcher_env,
    validate,
)
from graphrag_neo4j.database.server.neo4j_server import (
    START_MARKER,
    Neo4jServerError,
    ServerConfig,
    failure_excerpt,
    log_path,
    running_pid,
    server_config_from_settings,
    start,
    status,
    stop,
    tail_log,
)
from graphrag_neo4j.database.server.process import is_launcher_command, pid_alive, read_pid
from graphrag_neo4j.settings import Settings

PASSWORD = "unit-test-password"


@pytest.fixture
def cfg(tmp_path: Path) -> ServerConfig:
    return ServerConfig(home=tmp_path / "neo4j", password=PASSWORD, bolt_port=17001)


@pytest.fixture
def quiet() -> Console:
    return Console(file=io.StringIO(), width=200)


@pytest.fixture
def fake_launcher(cfg: ServerConfig) -> Iterator[subprocess.Popen[bytes]]:
    """A live process whose command line is the launcher's for cfg.home."""
    code = "import time; time.sleep(60)"
    home = str(cfg.home.resolve())
    proc = subprocess.Popen([sys.executable, "-c", code, "graphragneo4j.Launcher", "--home", home])
    yield proc
    proc.kill()
    proc.wait()


def write_pid(cfg: ServerConfig, pid: int | str) -> None:
    cfg.pid_file.parent.mkdir(parents=True, exist_ok=True)
    cfg.pid_file.write_text(f"{pid}\n")


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_config_from_settings_unwraps_the_secret(tmp_path: Path) -> None:
    neo4j = SimpleNamespace(
        home=tmp_path, bolt_port=7688, http_port=7475, password=SecretStr("s3cret-pass"),
        heap="1g", pagecache="512m",
    )  # fmt: skip
    cfg = server_config_from_settings(SimpleNamespace(neo4j=neo4j))
    assert cfg == ServerConfig(tmp_path, 7688, 7475, "s3cret-pass", "1g", "512m")
    assert "s3cret-pass" not in repr(cfg)
    assert cfg.bolt_url == "bolt://127.0.0.1:7688"
    assert cfg.browser_url == "http://127.0.0.1:7475/browser/"


def test_config_from_the_real_settings_class(tmp_path: Path) -> None:
    settings = Settings(neo4j={"uri": "bolt://127.0.0.1:17687", "home": tmp_path})
    cfg = server_config_from_settings(settings)
    assert (cfg.bolt_port, cfg.home) == (17687, tmp_path)
    assert cfg.password == ""  # none configured: `start` generates one (see credentials)


def test_password_goes_to_the_environment_never_the_command_line(cfg: ServerConfig) -> None:
    command = jvm_options(cfg) + launcher_args(cfg)
    assert not any(PASSWORD in part for part in command)
    env = launcher_env(cfg, {"PATH": "/usr/bin"})
    assert env == {"PATH": "/usr/bin", PASSWORD_ENV: PASSWORD}


def test_jvm_and_launcher_arguments(cfg: ServerConfig) -> None:
    options = jvm_options(ServerConfig(cfg.home, heap="3g", password=PASSWORD))
    assert options[:2] == ["-Xms3g", "-Xmx3g"]
    assert "--add-opens=java.base/java.nio=ALL-UNNAMED" in options
    assert f"-Djava.io.tmpdir={(cfg.home / 'tmp').resolve()}" in options
    args = launcher_args(cfg)
    assert args[0] == "graphragneo4j.Launcher"
    assert args[1:] == [
        "--home", str(cfg.home.resolve()), "--bolt-port", "17001", "--http-port", "7474",
        "--pagecache", "2g",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"password": "short"}, "at least 8 characters"),
        ({"heap": "lots"}, "neo4j.heap"),
        ({"http_port": 17001}, "must differ"),
    ],
)
def test_validate_rejects_bad_settings(
    cfg: ServerConfig, changes: dict[str, object], message: str
) -> None:
    bad = ServerConfig(**{**cfg.__dict__, **changes})
    with pytest.raises(Neo4jServerError, match=message):
        validate(bad)


def test_start_refuses_a_short_password_before_doing_anything(
    tmp_path: Path, quiet: Console
) -> None:
    with pytest.raises(Neo4jServerError, match="at least 8"):
        start(ServerConfig(tmp_path / "h", password="short"), quiet)
    assert not (tmp_path / "h" / "launcher").exists()


def test_read_pid(tmp_path: Path) -> None:
    pid_file = tmp_path / "neo4j.pid"
    assert read_pid(pid_file) is None
    for garbled in ("", "abc", "-5", "0"):
        pid_file.write_text(garbled)
        assert read_pid(pid_file) is None
    pid_file.write_text("1234\n")
    assert read_pid(pid_file) == 1234


def test_stale_pid_file_of_a_dead_process(cfg: ServerConfig, quiet: Console) -> None:
    write_pid(cfg, dead_pid())
    assert running_pid(cfg) is None
    assert status(cfg).running is False
    assert stop(cfg, quiet) is False
    assert not cfg.pid_file.exists()


def test_pid_reused_by_an_unrelated_process_is_not_ours(cfg: ServerConfig) -> None:
    write_pid(cfg, os.getpid())
    assert running_pid(cfg) is None


def test_live_launcher_is_running_and_stop_terminates_it(
    cfg: ServerConfig,
    fake_launcher: subprocess.Popen[bytes],
    quiet: Console,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bolt_probe, "handshake", lambda *args, **kwargs: None)
    write_pid(cfg, fake_launcher.pid)
    assert running_pid(cfg) == fake_launcher.pid
    info = status(cfg)
    assert (info.running, info.pid, info.data_dir) == (True, fake_launcher.pid, cfg.home / "data")
    assert stop(cfg, quiet) is True
    assert fake_launcher.poll() is not None
    assert not cfg.pid_file.exists()


def test_a_zombie_child_counts_as_gone() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    stat = Path(f"/proc/{proc.pid}/stat")
    deadline = time.monotonic() + 10
    while stat.is_file() and " Z " not in stat.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)  # exited but not reaped: a zombie
    assert pid_alive(proc.pid) is False


def test_is_launcher_command_matches_the_exact_home(tmp_path: Path) -> None:
    home = tmp_path / "a"
    command = f"java -Xmx2g @args graphragneo4j.Launcher --home {home.resolve()} --bolt-port 1"
    assert is_launcher_command(command, home)
    assert not is_launcher_command(command, tmp_path / "a" / "b")
    assert not is_launcher_command(command.replace(str(home), f"{home}x"), home)
    assert not is_launcher_command(f"python -c x --home {home.resolve()}", home)


def test_tail_log_and_failure_excerpt(cfg: ServerConfig) -> None:
    assert tail_log(cfg) == []
    log_path(cfg).parent.mkdir(parents=True)
    lines = ["old failure", f"{START_MARKER} 2026-01-01 =====", "INFO starting"]
    lines += ["Exception in thread main: boom", "\tat org.neo4j.X.y(X.java:1)", "\t... 5 more"]
    lines += ["Caused by: bad size 'lots'"]
    log_path(cfg).write_text("\n".join(lines) + "\n")
    assert tail_log(cfg, 2) == ["\t... 5 more", "Caused by: bad size 'lots'"]
    excerpt = failure_excerpt(tail_log(cfg, 100))
    assert excerpt.splitlines() == [
        "INFO starting", "Exception in thread main: boom", "Caused by: bad size 'lots'",
    ]  # fmt: skip


def test_parse_java_version() -> None:
    assert parse_java_version('openjdk version "17.0.15" 2025-04-15') == 17
    assert parse_java_version('java version "1.8.0_292"') == 8
    assert parse_java_version('openjdk version "21" 2023-09-19') == 21
    assert parse_java_version("no java here") == 0


def test_argfile_quotes_the_classpath() -> None:
    text = argfile_text([Path("/a b/x.jar"), Path("/c/y.jar")])
    assert text == '-cp "/a b/x.jar:/c/y.jar"\n'


def test_launcher_files_ship_in_the_package() -> None:
    assert "<artifactId>neo4j-browser</artifactId>" in launcher_text("pom.xml")
    assert "class Launcher" in launcher_text("src/main/java/graphragneo4j/Launcher.java")
    assert neo4j_version().startswith("5.26.")


def test_bolt_hello_encoding() -> None:
    assert bolt_probe.pack_string("abc") == b"\x83abc"
    assert bolt_probe.pack_string("x" * 20)[:2] == b"\xd0\x14"
    assert bolt_probe.pack_string("x" * 300)[:3] == b"\xd1\x01\x2c"
    assert bolt_probe.pack_map({"a": "b"}) == b"\xa1\x81a\x81b"
    assert bolt_probe.pack_struct(0x02) == b"\xb0\x02"
    hello = bolt_probe.pack_struct(0x01, bolt_probe.pack_map({"scheme": "basic"}))
    assert hello[:3] == b"\xb1\x01\xa1"
    assert bolt_probe.chunk(b"\x01\x02") == b"\x00\x02\x01\x02\x00\x00"


def test_cli_prints_one_red_line_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bad = ServerConfig(tmp_path, password="short")
    monkeypatch.setattr(cli_neo4j, "_server_config", lambda: bad)
    result = CliRunner().invoke(cli_neo4j.app, ["start"])
    assert result.exit_code == 1
    assert "at least 8 characters" in result.output
    assert "Traceback" not in result.output


def test_cli_status_exits_3_when_stopped_and_logs_prints_the_tail(
    monkeypatch: pytest.MonkeyPatch, cfg: ServerConfig
) -> None:
    monkeypatch.setattr(cli_neo4j, "_server_config", lambda: cfg)
    result = CliRunner().invoke(cli_neo4j.app, ["status"])
    assert result.exit_code == 3
    assert "not running" in result.output
    log_path(cfg).parent.mkdir(parents=True)
    log_path(cfg).write_text("".join(f"line {i}\n" for i in range(100)))
    result = CliRunner().invoke(cli_neo4j.app, ["logs", "-n", "3"])
    assert result.exit_code == 0
    assert result.output.splitlines() == ["line 97", "line 98", "line 99"]
