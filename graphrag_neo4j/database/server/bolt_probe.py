"""Talk just enough Bolt to tell whether a Neo4j server answers and accepts a password.

Used by the local server wrapper, which must not import the `neo4j` driver: a Bolt handshake
proves the server is up, and one HELLO message (Bolt 5.0/4.4 carry the credentials in HELLO)
proves the configured password is the one stored in the database.
"""

from __future__ import annotations

import socket
import struct
import time
from typing import Literal

BOLT_MAGIC = b"\x60\x60\xb0\x17"
# Proposals, best first: 5.0 and 4.4 both authenticate inside HELLO (5.1+ needs LOGON).
BOLT_VERSIONS = b"\x00\x00\x00\x05" + b"\x00\x00\x04\x04" + b"\x00" * 8
HELLO = 0x01
GOODBYE = 0x02
SUCCESS = 0x70
USER_AGENT = "graphrag-neo4j-probe/1.0"
# After dbms.security.auth_max_failed_attempts (3) wrong passwords Neo4j refuses every login,
# the right one too, for dbms.security.auth_lock_time (5 s) with this code.
RATE_LIMITED = b"AuthenticationRateLimit"
AUTH_LOCK_WAIT_S = 5.5
Outcome = Literal["accepted", "refused", "rate_limited"]


def handshake(host: str, port: int, timeout_s: float = 2.0) -> tuple[int, int] | None:
    """The agreed Bolt version (major, minor), or None when nothing Bolt answers there."""
    try:
        with socket.create_connection((host, port), timeout=timeout_s) as sock:
            return _negotiate(sock)
    except OSError:
        return None


def login_ok(
    host: str, port: int, user: str, password: str, timeout_s: float = 10.0, attempts: int = 3
) -> bool:
    """True when the server accepts this user and password (raises OSError if unreachable).

    A login refused only because of recent failed attempts is tried again once the lock ends,
    so the right password is never reported as a wrong one.
    """
    for attempt in range(attempts):
        outcome = login(host, port, user, password, timeout_s)
        if outcome != "rate_limited":
            return outcome == "accepted"
        if attempt + 1 < attempts:
            time.sleep(AUTH_LOCK_WAIT_S)
    raise OSError(
        f"Neo4j keeps refusing logins for user {user!r} after failed attempts; wait a few"
        " seconds and try again"
    )


def login(host: str, port: int, user: str, password: str, timeout_s: float = 10.0) -> Outcome:
    """One HELLO with these credentials: accepted, refused, or refused for a while (locked)."""
    with socket.create_connection((host, port), timeout=timeout_s) as sock:
        if _negotiate(sock) is None:
            raise OSError(f"the server on port {port} speaks no Bolt version this probe knows")
        auth = {
            "user_agent": USER_AGENT,
            "scheme": "basic",
            "principal": user,
            "credentials": password,
        }
        sock.sendall(chunk(pack_struct(HELLO, pack_map(auth))))
        reply = read_message(sock)
        if len(reply) >= 2 and reply[1] == SUCCESS:
            sock.sendall(chunk(pack_struct(GOODBYE)))
            return "accepted"
        return "rate_limited" if RATE_LIMITED in reply else "refused"


def _negotiate(sock: socket.socket) -> tuple[int, int] | None:
    sock.sendall(BOLT_MAGIC + BOLT_VERSIONS)
    agreed = _recv_exact(sock, 4)
    if agreed == b"\x00\x00\x00\x00":
        return None
    return agreed[3], agreed[2]


def pack_string(text: str) -> bytes:
    """PackStream encoding of a string."""
    data = text.encode("utf-8")
    size = len(data)
    if size < 0x10:
        return bytes([0x80 + size]) + data
    if size < 0x100:
        return b"\xd0" + bytes([size]) + data
    if size < 0x10000:
        return b"\xd1" + struct.pack(">H", size) + data
    return b"\xd2" + struct.pack(">I", size) + data


def pack_map(entries: dict[str, str]) -> bytes:
    """PackStream encoding of a small map of strings to strings."""
    if len(entries) >= 0x10:
        raise ValueError("pack_map only encodes maps of fewer than 16 entries")
    body = b"".join(pack_string(key) + pack_string(value) for key, value in entries.items())
    return bytes([0xA0 + len(entries)]) + body


def pack_struct(signature: int, *fields: bytes) -> bytes:
    """PackStream encoding of a structure (a Bolt message) with already packed fields."""
    return bytes([0xB0 + len(fields), signature]) + b"".join(fields)


def chunk(message: bytes) -> bytes:
    """Bolt chunking: 2-byte size headers, then the 0x0000 end marker."""
    parts = [message[i : i + 0xFFFF] for i in range(0, len(message), 0xFFFF)]
    return b"".join(struct.pack(">H", len(part)) + part for part in parts) + b"\x00\x00"


def read_message(sock: socket.socket) -> bytes:
    """One whole (de-chunked) Bolt message."""
    message = b""
    while True:
        (size,) = struct.unpack(">H", _recv_exact(sock, 2))
        if size == 0:
            if message:
                return message
            continue  # a NOOP keep-alive chunk
        message += _recv_exact(sock, size)


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        part = sock.recv(size - len(data))
        if not part:
            raise OSError("the Bolt server closed the connection")
        data += part
    return data
