"""Prints the port given when nothing listens on it at 127.0.0.1, else one the system says is
free (demo.sh: its fixed ports may be taken on a shared machine)."""

import socket
import sys


def bound(port: int) -> int:
    """The port a socket bound to `port` (0: any free one) on the loopback got."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))
        return int(probe.getsockname()[1])


def free_port(wanted: int) -> int:
    """`wanted` if free, else a free port."""
    try:
        return bound(wanted)
    except OSError:
        return bound(0)


if __name__ == "__main__":
    print(free_port(int(sys.argv[1])))
