"""Submitting map work to Ray: bounded in flight, collected in order, retried when a worker dies."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from graphrag_neo4j.indexing.cluster.runtime import connect
from graphrag_neo4j.settings import ExecutionSettings

T = TypeVar("T")
# A task lost with its worker (killed, out of memory, its node gone) runs again this many times.
TASK_RETRIES = 5
# A boxed object-store reference (`shared`); per worker process, the values read (`held`), the
# few latest only (one run shares its kept keys, its decisions and its embedder's recipe).
Shared = list[Any]
HELD_VALUES = 4
_held: dict[str, Any] = {}


def cluster_map(
    function: Callable[..., T],
    arguments: Iterable[tuple[Any, ...]],
    execution: ExecutionSettings,
    on_result: Callable[[T], None] | None = None,
) -> Iterator[T]:
    """`function(*args)` for each of `arguments` as Ray tasks (one CPU each), results in the
    order of `arguments`; at most `execution.tasks_in_flight` tasks are submitted and not yet
    collected, so neither the driver nor the object store holds the whole input."""
    import ray

    connect(execution)
    remote = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(function)
    pending: deque[Any] = deque()
    for args in arguments:
        pending.append(remote.remote(*args))
        if len(pending) >= execution.tasks_in_flight:
            yield _collected(ray.get(pending.popleft()), on_result)
    while pending:
        yield _collected(ray.get(pending.popleft()), on_result)


def part_size(items: int, execution: ExecutionSettings) -> int:
    """Items per task: `execution.partition_chunks`, or fewer so that `items` keep every CPU
    of the cluster busy."""
    return max(1, min(execution.partition_chunks, -(-items // cluster_cpus(execution))))


def cluster_cpus(execution: ExecutionSettings) -> int:
    """The CPUs of the cluster (at least one)."""
    import ray

    connect(execution)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]


def shared(value: object, execution: ExecutionSettings) -> Shared:
    """`value` put once into the cluster's object store, its reference boxed in a list: Ray
    hands a task the reference as it is, and the task reads the value with `held`."""
    import ray

    connect(execution)
    return [ray.put(value)]


def held(boxed: Shared) -> Any:
    """On a worker: the value `shared` put, read from the object store once per worker process.
    A bare reference given to each task is deserialised by each, which for the corpus-wide
    decisions grows with the input and was paid by every partition of every batch."""
    import ray

    (reference,) = boxed
    key = reference.hex()
    if key not in _held:
        while len(_held) >= HELD_VALUES:
            del _held[next(iter(_held))]  # the oldest: an earlier run's or pass's value
        _held[key] = ray.get(reference)
    return _held[key]


def itself(value: T) -> T:
    """`value` as it is: the recipe of a model sent whole to the workers (`partial(itself, m)`)."""
    return value


def _collected(result: T, on_result: Callable[[T], None] | None) -> T:
    if on_result is not None:
        on_result(result)
    return result
