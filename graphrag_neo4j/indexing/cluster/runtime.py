"""Joining Ray: the cluster the settings or RAY_ADDRESS name, else a local Ray on this machine."""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from graphrag_neo4j.runtime.errors import ConfigError

if TYPE_CHECKING:
    from graphrag_neo4j.settings import ExecutionSettings

logger = logging.getLogger(__name__)
# Ray's own environment variable for the cluster to join (what `ray start --head` prints).
ADDRESS_ENV = "RAY_ADDRESS"
# Ray's switch for a cluster on one machine (meant for Windows and macOS; "0": one machine).
SINGLE_MACHINE_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def ray_address(execution: ExecutionSettings) -> str | None:
    """The cluster to join: the setting, else RAY_ADDRESS, else None (a local Ray)."""
    return execution.ray_address or os.environ.get(ADDRESS_ENV) or None


def _on_loopback(address: str | None, node_ip_address: str) -> bool:
    """Whether the driver and the cluster (a local Ray when `address` is None) are all on
    this machine's loopback."""
    host = (address or "127.0.0.1").removeprefix("ray://").rsplit(":", 1)[0]
    return node_ip_address in LOOPBACK and host in LOOPBACK


def connect(execution: ExecutionSettings) -> None:
    """Join the cluster (or start a local Ray) once per process; the driver gives Ray
    `node_ip_address` for itself so a cluster on loopback stays on loopback."""
    address = ray_address(execution)
    if _on_loopback(address, execution.node_ip_address):
        # Ray swaps a loopback node address for the machine's network address (and binds its
        # servers there) unless told the cluster is on one machine; read when Ray is imported.
        os.environ.setdefault(SINGLE_MACHINE_ENV, "0")
    try:
        import ray
    except ImportError as exc:
        raise ConfigError("`--ray` needs Ray: install the extra with `pip install "
                          "'graphrag-neo4j[ray]'` (scripts/setup.sh does).") from exc
    if ray.is_initialized():
        return
    # A local Ray uses the cores this process may run on (`taskset` included), not the machine's.
    cpus = None if address else len(os.sched_getaffinity(0))
    try:
        ray.init(address=address, num_cpus=cpus, _node_ip_address=execution.node_ip_address,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local Ray"
        raise ConfigError(
            f"Could not start or join Ray at {where} ({exc}); check `ray status` on the head"
            " node, execution.ray_address and RAY_ADDRESS (and RAY_AUTH_MODE/RAY_AUTH_TOKEN"
            " when the cluster uses token auth).") from exc
    logger.info("Ray: joined %s", address or "a local Ray")
