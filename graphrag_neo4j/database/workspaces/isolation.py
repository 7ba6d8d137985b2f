"""Whether a model-written query's plan stays inside its workspace: where every row starts.

A plan's rows start at its leaves. A query stays in its workspace when every leaf that reads
the graph starts at this workspace's labels or relationship types (relationships only ever join
nodes of one workspace, so expanding from there never leaves it), and every index procedure it
calls names one of this workspace's indexes. Everything else is refused: an unlabelled scan,
a seek by id, a count of every node, another workspace's label, a procedure listing the
database's labels. Leaves that read nothing (Argument, a first Projection or Unwind) pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from graphrag_neo4j.database.workspaces.names import INDEXES, Workspace

# Leaves that start from labels or relationship types, each named in the operator's details.
_LABELLED_LEAF = re.compile(
    r"^(NodeByLabelScan|\w*NodeByLabelsScan|Node\w*Index\w*(Seek|Scan)\w*"
    r"|\w*RelationshipTypeScan|\w*Relationship\w*Index\w*(Seek|Scan)\w*"
    r"|NodeCountFromCountStore|RelationshipCountFromCountStore)$"
)
_FREE_LEAF = ("Argument", "Projection", "Unwind", "PartitionedUnwind", "ProcedureCall")
# Labels and types in a plan's details: `a:L`, `a:L1&L2`, `a:L1|!L2`, `[r:T]`, `(:L)`.
_NAMES = re.compile(r"[:&|]!?`?([A-Za-z0-9_]+)`?")
# Procedures that list the database's names, every workspace's.
_LISTING = ("db.labels", "db.relationshipTypes", "db.schema.")
_INDEX_PROCEDURE = re.compile(r"^\s*db\.index\.(vector|fulltext)\.query(Nodes|Relationships)\b")
_INDEX_CALL = re.compile(r"query(?:Nodes|Relationships)\s*\(\s*(['\"])([A-Za-z0-9_]+)\1")
_INDEX_WORD = re.compile(r"query(?:Nodes|Relationships)", re.IGNORECASE)


def workspace_refusal(
    workspace: Workspace, statement: str, operators: Sequence[Mapping[str, Any]]
) -> str | None:
    """Why this plan may read outside `workspace` (None: it reads only inside)."""
    index_calls = 0
    for operator in operators:
        name = str(operator["operator"]).split("@", 1)[0]
        details = str(operator.get("args", {}).get("Details", ""))
        if name == "ProcedureCall":
            if details.strip().startswith(_LISTING):
                return ("a query may not list the database's labels or types: the schema above"
                        " names every one it may use")
            index_calls += bool(_INDEX_PROCEDURE.match(details))
        if not operator.get("leaf", True) or name in _FREE_LEAF:
            continue
        reason = _leaf_refusal(workspace, name, details)
        if reason:
            return reason
    return _index_refusal(workspace, statement, index_calls)


def _leaf_refusal(workspace: Workspace, operator: str, details: str) -> str | None:
    """Why a leaf reads outside the workspace: not a labelled one, or a name not its own."""
    if not _LABELLED_LEAF.match(operator):
        return (f"the plan starts with {operator}, which reads nodes of every label: start the"
                " pattern at a labelled node of the schema, e.g. (e:__Entity__)")
    names = _NAMES.findall(details)
    foreign = [name for name in names if not workspace.owns(name)]
    if not names or foreign:
        return ("the plan reads nodes or relationships outside the schema above: use only its"
                " labels and relationship types")
    return None


def _index_refusal(workspace: Workspace, statement: str, calls: int) -> str | None:
    """Why the statement's index procedures may read outside the workspace: each must name
    one of its indexes as a literal, and nothing else may be called so."""
    text = workspace.map_cypher(statement)
    named = [match.group(2) for match in _INDEX_CALL.finditer(text)]
    owned = [name for name in named if workspace.canonical(name) in INDEXES]
    if len(owned) != len(named) or len(_INDEX_WORD.findall(text)) != len(named) \
            or len(named) < calls:
        return ("an index procedure must name one of the graph's indexes as a quoted literal,"
                " e.g. db.index.fulltext.queryNodes('entity_name_fulltext', ...)")
    return None
