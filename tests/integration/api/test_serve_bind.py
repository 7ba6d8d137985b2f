"""`serve` on a taken port: one sentence, and nothing claims to be serving."""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.runtime.errors import ConfigError

pytestmark = pytest.mark.integration  # it binds loopback sockets, which unit tests may not


def test_a_taken_port_is_refused_before_serving_is_announced() -> None:
    _register_subcommands()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--host", "127.0.0.1", "--port", str(port)])
    assert isinstance(result.exception, ConfigError)
    assert f"Cannot serve on 127.0.0.1:{port}" in str(result.exception)
    assert "--port" in str(result.exception) and "Serving on" not in result.output
