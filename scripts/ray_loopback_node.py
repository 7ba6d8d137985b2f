"""`ray start ARGS` with the node kept at the --node-ip-address given, 127.0.0.1 included.

`ray start` replaces a loopback node address with the machine's network address (so that
other machines can reach the node), and with a single-machine setting it refuses to add a
second node. Tests and benchmarks run a two-node cluster on this machine that must stay on
loopback: this runs Ray's own command with that one replacement turned off.
"""

import sys

import ray._private.services as services
from ray.scripts.scripts import main


def _kept(host: str) -> str:
    return host


services.resolve_ip_for_localhost = _kept
sys.argv = ["ray", "start", *sys.argv[1:]]
main()
