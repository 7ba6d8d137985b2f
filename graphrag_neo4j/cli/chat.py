"""`graphrag-neo4j chat`: a terminal conversation over the graph; Ctrl-D leaves."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console

from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.registry import method_names

console = Console(stderr=True)
out = Console()


class TerminalOutput:
    """Answer text on stdout as it streams, everything else on stderr."""

    def answer_text(self, piece: str) -> None:
        """Print a piece of the answer without a line break."""
        out.print(piece, end="", highlight=False, markup=False, soft_wrap=True)

    def notice(self, text: str) -> None:
        """Print a dimmed line that is not answer text."""
        console.print(text, style="dim", highlight=False, markup=False, soft_wrap=True)


def chat_command(
    method: Annotated[
        str | None,
        typer.Option(help=f"Method to start with: {', '.join(method_names())} (default local)."),
    ] = None,
) -> None:
    """Talk with the graph: earlier turns go into every answer; /help lists the commands."""
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.query.conversation import HELP, Conversation, Turn, run_chat

    with GraphRAG(console=console) as rag:

        def ask(
            question: str, name: str, history: tuple[Turn, ...], sink: Callable[[str], None]
        ) -> Answer:
            return rag.query(question, name, history=history, on_token=sink)

        conversation = Conversation(ask)
        if method:
            conversation.switch(method)
        interactive = sys.stdin.isatty()
        if interactive:
            import readline  # noqa: F401 (line editing and arrow-key recall for input)
        console.print(f"Chatting with {conversation.method} search. {HELP}", highlight=False)
        asked = run_chat(conversation, sys.stdin, TerminalOutput(),
                         prompt=_show_prompt if interactive else None)
    console.print(f"Bye ({asked} question{'s' if asked != 1 else ''} asked).", highlight=False)


def _show_prompt(text: str) -> None:
    console.print(f"\n{text}", end="", style="bold", highlight=False, markup=False)
