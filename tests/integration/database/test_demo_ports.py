"""demo.sh's port picker: the port asked for when free, another free one when it is taken."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # it binds loopback sockets, which unit tests may not

SCRIPT = Path(__file__).parents[3] / "scripts" / "free_port.py"


def _pick(port: int) -> int:
    done = subprocess.run([sys.executable, str(SCRIPT), str(port)], capture_output=True,
                          text=True, check=True)
    return int(done.stdout)


def test_a_taken_port_is_replaced_by_a_free_one() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        other = _pick(port)
        assert other != port
    with socket.socket() as check:
        check.bind(("127.0.0.1", other))  # it was free indeed
    assert _pick(port) == port  # released: the one asked for
