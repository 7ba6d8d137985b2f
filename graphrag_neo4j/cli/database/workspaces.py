"""`graphrag-neo4j workspaces list|delete`: the workspaces of the database, and deleting one."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from graphrag_neo4j.cli.database.wipe import confirm

app = typer.Typer(no_args_is_help=True)
console = Console(stderr=True)


@app.command("list")
def list_command() -> None:
    """Every workspace of the database with its documents, chunks, entities, relations and
    communities (the default workspace first)."""
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.database.workspaces.catalog import COUNTED, list_workspaces
    from graphrag_neo4j.settings import load_settings

    with Store.connect(load_settings().neo4j) as store:
        found = list_workspaces(store)
    table = Table("workspace", *COUNTED)
    for entry in found:
        table.add_row(entry.label, *(f"{entry.counts[column]:,}" for column in COUNTED))
    Console().print(table)


@app.command("delete")
def delete_command(
    name: Annotated[str, typer.Argument(help="The workspace to delete.")],
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")
    ] = False,
) -> None:
    """Delete a named workspace and everything in it: documents, chunks, entities, relations,
    communities, merges, locks, constraints and indexes (run again after a stop: it resumes)."""
    from graphrag_neo4j.database.store import Store
    from graphrag_neo4j.database.workspaces.catalog import delete_workspace
    from graphrag_neo4j.engine import in_workspace
    from graphrag_neo4j.settings import load_settings

    settings = in_workspace(load_settings(), name)
    with Store.connect(settings.neo4j) as store:
        if not yes:
            confirm(f"Delete workspace {name!r} and everything in it?")
        held = delete_workspace(store)
    listed = ", ".join(f"{value:,} {key}" for key, value in held.items())
    console.print(Text(f"Deleted workspace {name!r} ({listed})."))
