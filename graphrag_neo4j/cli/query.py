"""`graphrag-neo4j query`: ask a question with any registered method."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from graphrag_neo4j.citations import citation_legend
from graphrag_neo4j.cli.options.search_set import SetOption, search_settings_set, settings_with
from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.query.answers.evidence import GENERATED_TABLE
from graphrag_neo4j.query.base import Answer, NoteKind
from graphrag_neo4j.query.registry import DEFAULT_METHOD, method_list

console = Console(stderr=True)
out = Console()


def _options(
    community_level: int | None, response_type: str | None, settings: dict[str, Any]
) -> dict[str, Any]:
    options: dict[str, Any] = dict(settings)
    if community_level is not None:
        options["level"] = community_level
    if response_type:
        options["response_type"] = response_type
    return options


def query_command(
    question: Annotated[str, typer.Argument(help="The question to answer.")],
    method: Annotated[
        str | None,
        typer.Option(help=f"The query method: {method_list()} (default {DEFAULT_METHOD})."),
    ] = None,
    community_level: Annotated[
        int | None, typer.Option(help="Global: community level to map over (default 2).")
    ] = None,
    response_type: Annotated[
        str | None, typer.Option(help='Answer shape, e.g. "Single Sentence".')
    ] = None,
    settings: SetOption = None,
    show_context: Annotated[bool, typer.Option(help="Print the data the answer used.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the Answer as JSON.")] = False,
    show_cypher: Annotated[
        bool, typer.Option(help="Print a Neo4j Browser query that draws the answer's evidence.")
    ] = False,
    retrieve_only: Annotated[
        bool, typer.Option(help="Build the context and print what it holds; no answer call.")
    ] = False,
    history: Annotated[
        Path | None,
        typer.Option(help='Earlier turns: a JSON list of {"role": ..., "content": ...} objects'
                     " or of (role, text) pairs."),
    ] = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Answer a question over the graph."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG
    from graphrag_neo4j.query.base import check_question

    check_question(question)  # before the models and the connection are opened
    overrides = search_settings_set(settings)
    run_settings = settings_with(overrides)
    options = _options(community_level, response_type, overrides)
    if history is not None:
        from graphrag_neo4j.query.answers.conversation import read_history

        options["history"] = read_history(history)
    if retrieve_only:
        with GraphRAG(settings=run_settings, console=console) as rag:
            answer = rag.retrieve(question, method, **options)
        if as_json:
            out.print_json(json.dumps(answer.as_json(), default=str))
        else:
            _print_retrieval(answer, show_context, show_cypher)
        return
    streamed: list[str] = []
    # Retrieval and the calls before the answer (global's map, DRIFT's primer and follow-ups)
    # can take minutes with a local model: a spinner shows it works until the answer streams.
    waiting = console.status(f"{method or DEFAULT_METHOD} search: retrieving and reading...")

    def show(piece: str) -> None:
        # The answer is printed as the model writes it; the rest of the output follows it.
        waiting.stop()
        streamed.append(piece)
        out.print(piece, end="", highlight=False, markup=False)

    with GraphRAG(settings=run_settings, console=console) as rag:
        if not as_json and rag.query_method(method).streams:
            options["on_token"] = show
        with waiting:
            answer = rag.query(question, method, **options)
    if as_json:
        out.print_json(json.dumps(answer.as_json(), default=str))
        return
    _print_answer(answer, show_context, already_printed=bool(streamed))
    if show_cypher:
        _print_cypher(answer)


def _print_cypher(answer: Answer) -> None:
    from graphrag_neo4j.database.workspaces.names import Workspace
    from graphrag_neo4j.query.answers.evidence import browser_script
    from graphrag_neo4j.settings import load_settings

    # The Browser runs it as written: in the workspace's own labels, as the store would.
    workspace = Workspace(load_settings().neo4j.workspace)
    console.print("[dim]Paste into Neo4j Browser to draw this answer's evidence:[/dim]")
    out.print(workspace.map_cypher(browser_script(answer)), highlight=False, markup=False,
              soft_wrap=True)


def _print_retrieval(answer: Answer, show_context: bool, show_cypher: bool) -> None:
    # Every table the context holds counts, but cypher's record of its own query.
    counts = ", ".join(f"{len(rows)} {name.lower()}" for name, rows in answer.sources.items()
                       if name != GENERATED_TABLE and rows)
    console.print(f"{answer.method} context: {counts or 'nothing found'} (no answer call).")
    for note in answer.notes:  # what the context read (a global level's coverage, say)
        console.print(note.text, style="yellow", highlight=False, markup=False)
    if show_context and answer.context:
        console.print(Panel(Text(answer.context), title="Context", expand=False))
    if show_cypher:
        _print_cypher(answer)


def _print_answer(answer: Answer, show_context: bool, already_printed: bool) -> None:
    if already_printed:
        out.print()  # end the streamed answer's line before anything else is written
    if show_context and answer.context:
        console.print(Panel(Text(answer.context), title="Context", expand=False))
    for note in answer.notes:
        console.print(note.text, style="yellow", highlight=False, markup=False)
    selection = answer.selection
    if selection is not None and selection.rating_calls:
        console.print(
            f"Dynamic selection: {selection.rating_calls} rating calls,"
            f" {selection.map_calls} map calls, {selection.map_calls_saved} saved."
        )
    if not already_printed:
        out.print(Markdown(answer.text))
    for line in citation_legend(answer.citations):
        out.print(Text(line, style="dim"))
    console.print(
        f"[dim]{answer.method} search: {answer.llm_calls} LLM calls,"
        f" {answer.prompt_tokens:,} prompt + {answer.completion_tokens:,} completion tokens[/dim]"
    )
    checked = not any(note.kind == NoteKind.NAMES_UNCHECKED for note in answer.notes)
    if answer.grounding and checked and not answer.unsupported_entities:
        # Say the check ran, so silence is not read as "not checked" (notes list what it found).
        console.print(f"[dim]grounding ({answer.grounding}): every name in the answer is in its"
                      " context[/dim]")
