"""A conversation over the graph as a loop over lines of text: turns, history and commands."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from graphrag_neo4j.query.answers.evidence import browser_script
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.registry import DEFAULT_METHOD, method_list, method_names
from graphrag_neo4j.runtime.errors import GraphRAGError, InputError

Turn = tuple[str, str]
# (question, method, earlier turns, sink of streamed answer text) -> the answer.
Ask = Callable[[str, str, tuple[Turn, ...], Callable[[str], None]], Answer]
HELP = (
    "Type a question, or: /method NAME (switch method), /context (the data of the last answer),"
    " /evidence (a Neo4j Browser query drawing it), /history, /clear (forget the turns), /help."
    " Ctrl-D leaves."
)


class LineSource(Protocol):
    """Where questions come from: any text stream, or a terminal prompt; '' means the end."""

    def readline(self) -> str:
        """The next line with its line break, or '' at the end of input (Ctrl-D)."""
        ...


class ChatOutput(Protocol):
    """Where a conversation writes: the answer as it streams, and everything else."""

    def answer_text(self, piece: str) -> None:
        """A piece of the answer (streamed, or the whole text at once)."""
        ...

    def notice(self, text: str) -> None:
        """A line that is not answer text: notes, command output, errors."""
        ...


@dataclass
class Conversation:
    """The turns so far, the method in use and the last answer, fed one line at a time."""

    ask: Ask
    method: str = DEFAULT_METHOD
    history: list[Turn] = field(default_factory=list)
    last: Answer | None = None
    # How a Browser script reads in the graph asked: the workspace's own labels.
    as_written: Callable[[str], str] = str

    def switch(self, name: str) -> None:
        """Use the method `name` from now on; an unknown name is one sentence."""
        if name not in method_names():
            raise InputError(f"Unknown method {name!r}: use one of {method_list()}.")
        self.method = name

    def handle(self, line: str, out: ChatOutput) -> None:
        """Answer a question or run a /command; a mistake is reported and the chat goes on."""
        text = line.strip()
        if not text:
            return
        try:
            if text.startswith("/"):
                self._command(text, out)
            else:
                self._turn(text, out)
        except GraphRAGError as exc:
            out.notice(f"Error: {exc}")

    def _turn(self, question: str, out: ChatOutput) -> None:
        pieces: list[str] = []

        def sink(piece: str) -> None:
            pieces.append(piece)
            out.answer_text(piece)

        answer = self.ask(question, self.method, tuple(self.history), sink)
        if not pieces:
            out.answer_text(answer.text)
        out.answer_text("\n")
        for note in answer.notes:
            out.notice(note.text)
        out.notice(f"{answer.method}: {answer.llm_calls} LLM calls, {answer.prompt_tokens:,}"
                   f" prompt + {answer.completion_tokens:,} completion tokens")
        self.history += [("user", question), ("assistant", answer.text)]
        self.last = answer

    def _command(self, text: str, out: ChatOutput) -> None:
        name, _, argument = text.partition(" ")
        argument = argument.strip()
        if name == "/method":
            if argument:
                self.switch(argument)
            out.notice(f"Method: {self.method} (registered: {method_list()}).")
        elif name in ("/context", "/evidence"):
            if self.last is None:
                out.notice("Nothing asked yet: ask a question first.")
            elif name == "/context":
                out.notice(self.last.context or "The last answer read no context.")
            else:
                out.notice(self.as_written(browser_script(self.last)))
        elif name == "/history":
            out.notice("\n".join(f"{role}: {turn}" for role, turn in self.history) or "No turns.")
        elif name == "/clear":
            self.history.clear()
            out.notice("Forgot the earlier turns.")
        elif name == "/help":
            out.notice(HELP)
        else:
            out.notice(f"Unknown command {name}. {HELP}")


def run_chat(conversation: Conversation, lines: LineSource, out: ChatOutput) -> int:
    """Feed lines to the conversation until the input ends (Ctrl-D); the questions asked."""
    asked = 0
    while True:
        line = lines.readline()
        if not line:
            return asked
        before = len(conversation.history)
        conversation.handle(line, out)
        asked += len(conversation.history) > before


def read_history(path: Path) -> list[Turn]:
    """Turns from a JSON file: [{"role", "content"}, ...] (OpenAI style) or [[role, text], ...]."""
    shape = 'a JSON list of {"role": ..., "content": ...} objects or [role, text] pairs'
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"History file {path} does not exist: pass {shape}.") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(
            f"History file {path} is not readable JSON ({exc}): pass {shape}."
        ) from None
    turns = [_turn(item) for item in data] if isinstance(data, list) else [None]
    if any(turn is None for turn in turns):
        raise InputError(f"History file {path} is not {shape}.")
    return [turn for turn in turns if turn is not None]


def _turn(item: Any) -> Turn | None:
    if isinstance(item, dict):
        role, content = item.get("role"), item.get("content")
    elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        role, content = item
    else:
        return None
    if not isinstance(role, str) or not role.strip() or not isinstance(content, str):
        return None
    return role.strip(), content
