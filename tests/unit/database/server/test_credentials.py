"""The local server password: generated once when none is set, user-only, read by Settings."""

from __future__ import annotations

import io
import re
import stat
from pathlib import Path

import pytest
from rich.console import Console

from graphrag_neo4j.database.server.build import Neo4jServerError, launcher_text
from graphrag_neo4j.database.server.credentials import (
    ensure_password,
    password_file,
    stored_password,
)
from graphrag_neo4j.database.server.neo4j_server import ServerConfig, with_password
from graphrag_neo4j.settings import Settings


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_password_is_generated_once_and_kept_user_only(tmp_path: Path) -> None:
    home = tmp_path / "neo4j"
    first, generated = ensure_password(home, "")
    again, generated_again = ensure_password(home, "")
    assert generated and not generated_again
    assert first == again == stored_password(home)
    assert len(first) >= 32 and first != "graphrag-neo4j"
    assert _mode(password_file(home)) == 0o600
    assert _mode(home) == 0o700


def test_two_homes_get_different_passwords(tmp_path: Path) -> None:
    assert ensure_password(tmp_path / "a", "")[0] != ensure_password(tmp_path / "b", "")[0]


def test_a_configured_password_wins_and_nothing_is_written(tmp_path: Path) -> None:
    assert ensure_password(tmp_path, "configured-secret") == ("configured-secret", False)
    assert not password_file(tmp_path).exists()


def test_settings_read_the_generated_password_back(tmp_path: Path) -> None:
    generated, _ = ensure_password(tmp_path, "")
    assert Settings(neo4j={"home": tmp_path}).neo4j.secret() == generated
    explicit = Settings(neo4j={"home": tmp_path, "password": "explicit-password"})
    assert explicit.neo4j.secret() == "explicit-password"


def test_start_generates_and_says_where_without_printing_it(tmp_path: Path) -> None:
    out = io.StringIO()
    cfg = with_password(ServerConfig(home=tmp_path / "neo4j"), Console(file=out, width=300))
    assert cfg.password == stored_password(tmp_path / "neo4j")
    assert str(password_file(tmp_path / "neo4j")) in out.getvalue()
    assert cfg.password not in out.getvalue()


def test_an_old_database_without_a_known_password_is_one_sentence(tmp_path: Path) -> None:
    home = tmp_path / "neo4j"
    (home / "data" / "databases" / "system").mkdir(parents=True)
    with pytest.raises(Neo4jServerError, match="GRAPHRAG_NEO4J__PASSWORD"):
        with_password(ServerConfig(home=home), Console(file=io.StringIO()))
    assert not password_file(home).exists()


def test_the_launcher_restricts_cors_to_the_browser_origin() -> None:
    source = launcher_text("src/main/java/graphragneo4j/Launcher.java")
    assert '"dbms.security.http_access_control_allow_origin", "http://" + http' in source
    assert ServerConfig(home=Path(), http_port=7474).allowed_origin == "http://127.0.0.1:7474"


def test_an_unmanaged_server_is_neither_started_nor_stopped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from graphrag_neo4j.cli.database import neo4j_server as cli_neo4j

    def never(*_: object) -> None:
        raise AssertionError("an unmanaged server must not be started or stopped")

    monkeypatch.setattr(cli_neo4j, "start", never)
    monkeypatch.setattr(cli_neo4j, "stop", never)
    env = {"GRAPHRAG_NEO4J__MANAGED": "false", "GRAPHRAG_NEO4J__URI": "neo4j+s://x.databases.neo4j.io",
           "GRAPHRAG_NEO4J__HOME": str(tmp_path), "COLUMNS": "200"}
    for command in ("start", "stop"):
        result = CliRunner().invoke(cli_neo4j.app, [command], env=env)
        assert result.exit_code == 0, result.output
        assert "neo4j.managed is false: neo4j+s://x.databases.neo4j.io is run elsewhere" in (
            result.output
        )


def test_the_launcher_keeps_few_transaction_logs() -> None:
    # A local server serves no backups or cluster members: its logs are only for recovery.
    source = launcher_text("src/main/java/graphragneo4j/Launcher.java")
    (kept,) = re.findall(r'TX_LOG_RETENTION = "(\d+)M size"', source)
    (rotation,) = re.findall(r'"db.tx_log.rotation.size", "(\d+)M"', source)
    assert int(kept) + int(rotation) <= 256
