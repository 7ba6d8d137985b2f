"""`--workspace NAME`: the one option every command that reads or writes the graph takes."""

from __future__ import annotations

import os
from typing import Annotated

import typer

WORKSPACE_ENV = "GRAPHRAG_NEO4J__WORKSPACE"

WorkspaceOption = Annotated[
    str | None,
    typer.Option("--workspace", help="The workspace to read and write (default: the"
                 " neo4j.workspace setting, else the default workspace); see docs/workspaces.md."),
]


def use_workspace(name: str | None) -> None:
    """Make `name` the workspace of every setting this command loads (checked at once)."""
    if name is None:
        return
    from graphrag_neo4j.database.workspaces.names import check_name

    os.environ[WORKSPACE_ENV] = check_name(name)
