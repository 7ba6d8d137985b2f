"""The local Neo4j server the test command started: status, Browser page, discovery, password.

The server is started by scripts/test.sh (`graphrag-neo4j neo4j start`) before pytest runs;
these tests only look at it and never stop it.
"""

from __future__ import annotations

import io
import json
import urllib.request

import pytest
from neo4j import GraphDatabase
from rich.console import Console

from graphrag_neo4j.database.server import bolt_probe
from graphrag_neo4j.database.server.neo4j_server import (
    ServerConfig,
    log_path,
    server_config_from_settings,
    start,
    status,
)
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def cfg(settings: Settings) -> ServerConfig:
    return server_config_from_settings(settings)


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8")


def test_status_says_running(cfg: ServerConfig) -> None:
    info = status(cfg)
    assert info.running, f"no live launcher JVM for {cfg.home}; see {log_path(cfg)}"
    assert info.pid is not None and info.bolt_ready
    assert info.data_dir == cfg.home / "data" and info.data_dir.is_dir()
    assert info.log_file.is_file()


def test_transaction_logs_are_kept_to_a_bounded_size(settings: Settings) -> None:
    # Neo4j's default (two days of logs) kept 14 GB over the index of one 20 MB text; 1 GB in
    # 256 MB files still kept 515 MB for a 22 MB graph.
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver:
        records, _, _ = driver.execute_query(
            "SHOW SETTINGS YIELD name, value WHERE name IN $names RETURN name, value",
            names=["db.tx_log.rotation.retention_policy", "db.tx_log.rotation.size"])
    kept = {record["name"]: record["value"] for record in records}
    assert kept["db.tx_log.rotation.retention_policy"] == "128M size"
    assert kept["db.tx_log.rotation.size"] in ("32M", "32.00MiB")


def test_browser_page_is_served(cfg: ServerConfig) -> None:
    code, html = fetch(cfg.browser_url)
    assert code == 200
    assert "Neo4j" in html and "<html" in html.lower()


def test_discovery_reports_community_5_26_on_loopback(cfg: ServerConfig) -> None:
    code, body = fetch(cfg.http_url + "/")
    discovery = json.loads(body)
    assert code == 200
    assert discovery["neo4j_edition"] == "community"
    assert discovery["neo4j_version"].startswith("5.26.")
    assert discovery["bolt_direct"] == cfg.bolt_url


def test_bolt_accepts_only_the_configured_password(cfg: ServerConfig) -> None:
    assert bolt_probe.handshake("127.0.0.1", cfg.bolt_port) is not None
    assert not bolt_probe.login_ok("127.0.0.1", cfg.bolt_port, "neo4j", cfg.password + "-wrong")
    assert bolt_probe.login_ok("127.0.0.1", cfg.bolt_port, "neo4j", cfg.password)


def test_second_start_is_a_no_op(cfg: ServerConfig) -> None:
    before = status(cfg).pid
    out = io.StringIO()
    result = start(cfg, Console(file=out, width=200))
    assert result.already_running and result.pid == before
    assert f"already running, pid {before}" in out.getvalue()
