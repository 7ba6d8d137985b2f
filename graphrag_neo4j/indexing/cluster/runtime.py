"""Joining Ray: the cluster the settings or RAY_ADDRESS name, else a local Ray on this machine."""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from graphrag_neo4j.errors import ConfigError

if TYPE_CHECKING:
    from graphrag_neo4j.settings import ExecutionSettings

logger = logging.getLogger(__name__)
# Ray's own environment variable for the cluster to join (what `ray start --head` prints).
ADDRESS_ENV = "RAY_ADDRESS"


def ray_address(execution: ExecutionSettings) -> str | None:
    """The cluster to join: the setting, else RAY_ADDRESS, else None (a local Ray)."""
    return execution.ray_address or os.environ.get(ADDRESS_ENV) or None


def connect(execution: ExecutionSettings) -> None:
    """Join the cluster (or start a local Ray) once per process; the driver gives Ray
    `node_ip_address` for itself so a cluster on loopback stays on loopback."""
    try:
        import ray
    except ImportError as exc:
        raise ConfigError("`--ray` needs Ray: install the extra with `pip install "
                          "'graphrag-neo4j[ray]'` (scripts/setup.sh does).") from exc
    if ray.is_initialized():
        return
    address = ray_address(execution)
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
