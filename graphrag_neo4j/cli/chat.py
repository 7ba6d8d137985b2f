"""`graphrag-neo4j chat`: a terminal conversation over the graph; Ctrl-D leaves."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

import typer
from rich.console import Console

from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.database.workspaces.names import Workspace
from graphrag_neo4j.query.answers.conversation import HELP, Conversation, LineSource, Turn, run_chat
from graphrag_neo4j.query.base import Answer
from graphrag_neo4j.query.registry import DEFAULT_METHOD, method_list

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


@dataclass
class TerminalLines:
    """Lines typed at a prompt naming the current method, with line editing and recall."""

    conversation: Conversation

    def readline(self) -> str:
        """The typed line, or '' at Ctrl-D."""
        try:
            return input(f"\n{self.conversation.method}> ") + "\n"
        except EOFError:
            return ""


def chat_command(
    method: Annotated[
        str | None,
        typer.Option(
            help=f"The query method to start with: {method_list()} (default {DEFAULT_METHOD})."
        ),
    ] = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Talk with the graph: earlier turns go into every answer; /help lists the commands."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:

        def ask(
            question: str, name: str, history: tuple[Turn, ...], sink: Callable[[str], None]
        ) -> Answer:
            return rag.query(question, name, history=history, on_token=sink)

        names = Workspace(rag.settings.neo4j.workspace)  # known without connecting
        conversation = Conversation(ask, as_written=names.map_cypher)
        if method:
            conversation.switch(method)
        lines: LineSource = sys.stdin
        if sys.stdin.isatty():
            import readline  # noqa: F401 (gives input() line editing and arrow-key recall)

            lines = TerminalLines(conversation)
        console.print(f"Chatting with {conversation.method} search. {HELP}", highlight=False)
        asked = run_chat(conversation, lines, TerminalOutput())
    console.print(f"Bye ({asked} question{'s' if asked != 1 else ''} asked).", highlight=False)
