"""The workspaces of a database, with what each holds, and the deletion of one with its schema."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.database.workspaces.names import Workspace, workspace_of
from graphrag_neo4j.runtime.errors import InputError

# What a workspace's row counts: the label or type behind each column.
COUNTED = {"documents": "__Document__", "chunks": "__Chunk__", "entities": "__Entity__",
           "relations": "RELATED", "communities": "__Community__"}


@dataclass
class WorkspaceCounts:
    """One workspace and how many of each kind of thing it holds."""

    name: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTED, 0))

    @property
    def label(self) -> str:
        """How the workspace is called to a user."""
        return Workspace(self.name).label


def list_workspaces(store: Store) -> list[WorkspaceCounts]:
    """Every workspace with data or a schema in the database, the default one first."""
    found: dict[str, WorkspaceCounts] = defaultdict(lambda: WorkspaceCounts(""))
    found[""] = WorkspaceCounts("")
    for row in store.read("workspaces/label_counts"):
        name = workspace_of(row["name"])
        entry = found.setdefault(name, WorkspaceCounts(name))
        canonical = Workspace(name).canonical(row["name"])
        for column, token in COUNTED.items():
            if canonical == token:
                entry.counts[column] += int(row["count"])
    for row in store.read("database/show_schema"):
        name = workspace_of(row["name"])
        found.setdefault(name, WorkspaceCounts(name))
    return [found[name] for name in sorted(found)]


def delete_workspace(store: Store) -> dict[str, int]:
    """Delete everything of the store's (named) workspace: its nodes, relationships, locks,
    constraints and indexes; what it held. Idempotent: a stopped deletion resumes, a second
    one finds nothing."""
    workspace = store.workspace
    if workspace.is_default:
        raise InputError("The default workspace cannot be deleted as a workspace: run"
                         " `graphrag-neo4j wipe` to empty it.")
    held = store.read("database/count_graph")[0]
    store.run_autocommit("workspaces/delete_graph")
    store.write("workspaces/delete_locks")
    store.run_script("workspaces/drop_schema")
    return {key: int(value) for key, value in held.items()}

