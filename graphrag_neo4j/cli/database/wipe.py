"""`graphrag-neo4j wipe`: delete the whole graph, after saying what it holds and asking."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.runtime.errors import InputError

console = Console(stderr=True)


def wipe_command(
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")
    ] = False,
    workspace: WorkspaceOption = None,
) -> None:
    """Delete every document, chunk, entity, relation and community of the graph of one
    workspace (the schema, the other workspaces and the model caches stay)."""
    use_workspace(workspace)
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.settings import load_settings

    settings = load_settings()
    with Store.connect(settings.neo4j) as store:
        where = settings.neo4j.uri
        if not store.workspace.is_default:
            where = f"workspace {store.workspace.name} at {where}"
        counts = store.read("database/count_graph")[0]
        held = ", ".join(f"{value:,} {name}" for name, value in counts.items())
        if not any(counts.values()):
            console.print(Text(f"The graph at {where} is already empty."))
            return
        if not yes:
            confirm(f"Delete the graph at {where} ({held})?")
        # In batches of relationships, then nodes: a large graph fits no single transaction.
        # Only this workspace's nodes: the other workspaces of the database stay.
        store.run_autocommit("workspaces/delete_graph")
    console.print(Text(f"Deleted the graph at {where} ({held})."))


def confirm(question: str) -> None:
    """Ask on a terminal; without one, refuse in one sentence naming --yes."""
    if not sys.stdin.isatty():
        raise InputError(f"{question[:-1]} needs a confirmation: run it on a terminal, or add"
                         " --yes.")
    if not typer.confirm(question, default=False, err=True):
        console.print("Nothing deleted.")
        raise typer.Exit(1)
