"""LLM replies made on the Ray cluster: one actor per CPU holds the chat model, built once.

`ClusterReplies` is the `RemoteReplies` of the driver's `LLMCaller` under `--ray`. The caller
keeps what must be one for the whole cluster: the response cache (looked up before a request
travels, so every worker gets the same hits), the limit on calls in flight, the pace
(`llm.requests_per_minute`) and the pause after a 429, retries, the budget and the usage
ledger. Only the model's reply is made on a worker, by a `ChatWorker` actor that built the
model from the settings (or was sent the driver's model) once. A request goes to the actor
with the fewest in flight; Ray restarts an actor whose node dies and runs its calls again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any

from graphrag_neo4j.indexing.cluster.remote_failures import Failure, portable, restored
from graphrag_neo4j.indexing.cluster.runtime import connect
from graphrag_neo4j.indexing.cluster.tasks import TASK_RETRIES, cluster_cpus, itself
from graphrag_neo4j.settings import ExecutionSettings, Settings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage

    from graphrag_neo4j.llm.calls.reply_guards import StopRule

BuildChat = Callable[[], "BaseChatModel"]


class ChatWorker:
    """A Ray actor: the chat model, built once, answering the driver's requests."""

    def __init__(self, build: BuildChat) -> None:
        self._model = build()
        self._served = 0

    async def reply(self, messages: Sequence[BaseMessage], params: dict[str, Any],
                    stop_when: StopRule | None) -> AIMessage | Exception | Failure:
        """The model's reply, streamed here when `stop_when` may end it early, or how the
        call failed."""
        from graphrag_neo4j.llm.calls.model_requests import request_reply
        from graphrag_neo4j.llm.calls.streaming import Streaming

        try:
            reply = await request_reply(self._model, messages, params,
                                        Streaming(None, stop_when))
        except Exception as exc:
            return portable(exc)
        self._served += 1
        return reply

    def served(self) -> int:
        """Replies this actor made since it started."""
        return self._served

    def pid(self) -> int:
        """This actor's process (for fault tests)."""
        return os.getpid()


class ClusterReplies:
    """The cluster's chat models, one actor per CPU, each request to the least busy."""

    def __init__(self, build: BuildChat, execution: ExecutionSettings) -> None:
        self._build, self._execution = build, execution
        self._load: list[int] = []
        self._turn = 0  # where the search for the least busy starts: ties go round

    @classmethod
    def from_settings(cls, settings: Settings) -> ClusterReplies:
        """The chat model the settings ask for, built by each actor from them."""
        return cls(partial(_resolved, settings), settings.execution)

    @classmethod
    def of(cls, model: BaseChatModel, execution: ExecutionSettings) -> ClusterReplies:
        """`model` itself, sent to each actor (it must pickle)."""
        return cls(partial(itself, model), execution)

    @cached_property
    def _actors(self) -> list[Any]:
        import ray

        connect(self._execution)
        # No CPU reserved: the actors wait on the model most of the time, and a reserved CPU
        # would starve the run's parsing and embedding tasks; SPREAD puts one on each node
        # in turn.
        worker = ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=TASK_RETRIES,
                            scheduling_strategy="SPREAD")(ChatWorker)
        actors: list[Any] = [worker.remote(self._build)
                             for _ in range(cluster_cpus(self._execution))]
        # Every model built before the first call is paced: calls queued at an actor still
        # loading would reach the provider in one burst, past the pace.
        ray.get([each.served.remote() for each in actors])
        self._load = [0] * len(actors)
        return actors

    @property
    def workers(self) -> int:
        """How many actors answer (one per CPU of the cluster)."""
        return len(self._actors)

    async def reply(self, messages: Sequence[BaseMessage], params: dict[str, Any],
                    stop_when: StopRule | None) -> AIMessage:
        """The reply of the actor with the fewest requests in flight."""
        actors = self._actors
        self._turn = (self._turn + 1) % len(actors)
        order = [(self._turn + step) % len(actors) for step in range(len(actors))]
        index = min(order, key=self._load.__getitem__)
        self._load[index] += 1
        try:
            reply = await actors[index].reply.remote(list(messages), params, stop_when)
        finally:
            self._load[index] -= 1
        if isinstance(reply, Exception | Failure):
            raise restored(reply)
        return reply  # type: ignore[no-any-return]

    def served(self) -> list[int]:
        """Replies each actor made since it (last) started, for tests."""
        import ray

        return list(ray.get([actor.served.remote() for actor in self._actors]))

    def pids(self) -> list[int]:
        """Each actor's process, for fault tests."""
        import ray

        return list(ray.get([actor.pid.remote() for actor in self._actors]))


def _resolved(settings: Settings) -> BaseChatModel:
    from graphrag_neo4j.llm.providers import resolve_llm

    return resolve_llm(settings).source.model
