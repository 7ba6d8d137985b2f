"""The test server as a hostile page or a fumbling user meets it: CORS, permissions, auth lock.

Each case failed before its fix: the HTTP API answered any origin with `*`, data files were
world-readable, and the right password within 5 s of three wrong ones was called wrong.
"""

from __future__ import annotations

import stat
import urllib.request
from pathlib import Path

import pytest
from pydantic import SecretStr

from graphrag_neo4j.database.server import bolt_probe
from graphrag_neo4j.database.server.neo4j_server import ServerConfig, server_config_from_settings
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration
EVIL = "https://evil.example"


@pytest.fixture(scope="module")
def cfg(settings: Settings) -> ServerConfig:
    return server_config_from_settings(settings)


def preflight(cfg: ServerConfig, origin: str) -> dict[str, str]:
    request = urllib.request.Request(
        f"{cfg.http_url}/db/neo4j/tx/commit",
        method="OPTIONS",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return {key.lower(): value for key, value in response.headers.items()}


def test_a_foreign_origin_is_not_allowed_to_call_the_http_api(cfg: ServerConfig) -> None:
    headers = preflight(cfg, EVIL)
    allowed = headers.get("access-control-allow-origin")
    assert allowed not in ("*", EVIL)
    assert allowed == cfg.allowed_origin == f"http://127.0.0.1:{cfg.http_port}"


def test_the_browser_origin_is_allowed(cfg: ServerConfig) -> None:
    assert preflight(cfg, cfg.allowed_origin)["access-control-allow-origin"] == cfg.allowed_origin


def test_the_server_home_and_its_data_files_are_user_only(cfg: ServerConfig) -> None:
    assert stat.S_IMODE(cfg.home.stat().st_mode) == 0o700
    store_files = [p for p in (cfg.home / "data" / "databases" / "neo4j").iterdir() if p.is_file()]
    assert store_files
    loose = [p.name for p in store_files if stat.S_IMODE(p.stat().st_mode) & 0o077]
    assert loose == []


def _three_wrong_logins(cfg: ServerConfig) -> None:
    for _ in range(3):
        assert bolt_probe.login("127.0.0.1", cfg.bolt_port, "neo4j", "wrong-password-x") != (
            "accepted"
        )


def test_the_right_password_right_after_three_wrong_ones_is_accepted(cfg: ServerConfig) -> None:
    _three_wrong_logins(cfg)
    assert bolt_probe.login("127.0.0.1", cfg.bolt_port, "neo4j", cfg.password) == "rate_limited"
    assert bolt_probe.login_ok("127.0.0.1", cfg.bolt_port, "neo4j", cfg.password)


def test_the_store_connects_through_the_auth_lock(settings: Settings, cfg: ServerConfig) -> None:
    _three_wrong_logins(cfg)
    with Store.connect(settings.neo4j) as store:
        assert store.read("database/ping")


def test_a_wrong_password_never_reaches_the_log(settings: Settings, cfg: ServerConfig) -> None:
    wrong = settings.neo4j.model_copy(update={"password": SecretStr("never-logged-secret")})
    with pytest.raises(Exception, match="refused user"):
        Store.connect(wrong)
    log = Path(cfg.home / "logs" / "neo4j.log").read_text(encoding="utf-8", errors="replace")
    assert "never-logged-secret" not in log and cfg.password not in log



def test_the_server_logs_run_and_temp_folders_are_user_only(cfg: ServerConfig) -> None:
    """Inside the 0700 home, the folders and files the launcher writes are user-only too."""
    folders = [cfg.home / name for name in ("logs", "run", "tmp")]
    assert all(folder.is_dir() for folder in folders)
    loose = [str(p.relative_to(cfg.home)) for folder in folders
             for p in [folder, *folder.rglob("*")] if stat.S_IMODE(p.stat().st_mode) & 0o077]
    assert loose == []
