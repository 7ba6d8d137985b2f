"""The loopback rule and the key check, without a server."""

from __future__ import annotations

import httpx
import pytest
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import SecretStr
from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse

from graphrag_neo4j.api.guards.security import KeyGate, check_bind, is_loopback, key_check
from graphrag_neo4j.runtime.errors import ConfigError


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost"])
def test_loopback_addresses(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "::", "example.org"])
def test_other_addresses_need_a_key(host: str) -> None:
    assert not is_loopback(host)
    with pytest.raises(ConfigError, match="GRAPHRAG_SERVER__API_KEY"):
        check_bind(host, None)
    with pytest.raises(ConfigError):
        check_bind(host, SecretStr(""))
    with pytest.raises(ConfigError, match="at least 16 random"):
        check_bind(host, SecretStr("k"))
    check_bind(host, SecretStr("k" * 16))


async def test_key_check_accepts_only_the_key() -> None:
    require = key_check(SecretStr("right"))
    await require(HTTPAuthorizationCredentials(scheme="Bearer", credentials="right"))
    for given in (None, HTTPAuthorizationCredentials(scheme="Bearer", credentials="wrong")):
        with pytest.raises(HTTPException) as raised:
            await require(given)
        assert raised.value.status_code == 401 and "right" not in str(raised.value.detail)
    await key_check(None)(None)  # no key configured: open (loopback only)


def test_hosts_allowed_follow_the_bound_address() -> None:
    from graphrag_neo4j.api.guards.request_origin import allowed_hosts

    assert allowed_hosts("127.0.0.1", []) == ["127.0.0.1", "localhost", "[::1]"]
    assert "evil.example" not in allowed_hosts("127.0.0.1", [])
    assert allowed_hosts("127.0.0.1", ["my.box"])[-1] == "my.box"
    assert allowed_hosts("0.0.0.0", []) == ["*"]
    assert allowed_hosts("0.0.0.0", ["rag.example"]) == ["rag.example"]
    assert allowed_hosts("10.0.0.5", []) == ["10.0.0.5"]


async def test_wrong_keys_are_throttled_per_client() -> None:
    """Ten wrong keys from one address: the next requests of that address are 429 before any
    key is compared (the right one too, or its answer would tell a guess right); another
    address is unaffected."""
    gate = KeyGate(PlainTextResponse("ok"), SecretStr("right-key-0123456789"))

    async def status(key: str, client: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=gate, client=(client, 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.get("/v1/models", headers={"Authorization": f"Bearer {key}"})

    assert [(await status(f"guess-{i}", "10.0.0.1")).status_code for i in range(10)] == [401] * 10
    refused = await status("right-key-0123456789", "10.0.0.1")
    assert refused.status_code == 429 and 0 < int(refused.headers["retry-after"]) <= 60
    assert (await status("right-key-0123456789", "10.0.0.2")).status_code == 200
