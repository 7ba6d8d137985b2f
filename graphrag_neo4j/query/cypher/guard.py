"""Refuses model-written Cypher that could change anything, before it runs, from its plan."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from graphrag_neo4j.database.workspaces.isolation import workspace_refusal
from graphrag_neo4j.database.workspaces.names import Workspace

# Operators of read plans (Neo4j 5): scans, seeks, expands, filters, projections, joins,
# aggregation, ordering, paging. Anything else (Create, Merge, Set*, Delete, Remove, Foreach,
# LoadCSV, CreateIndex, administration commands, transactions, ...) is refused.
_READ_OPERATOR = re.compile(
    r"^(ProduceResults|Argument|AllNodesScan|NodeByLabelScan|UnionNodeByLabelsScan"
    r"|IntersectionNodeByLabelsScan|SubtractionNodeByLabelsScan|PartitionedAllNodesScan"
    r"|Node\w*(Index|ById|ByElementId)\w*(Seek|Scan)\w*|\w*Relationship\w*(Seek|Scan)\w*"
    r"|NodeCountFromCountStore|RelationshipCountFromCountStore"
    r"|Expand\(All\)|Expand\(Into\)|OptionalExpand\(All\)|OptionalExpand\(Into\)"
    # Variable-length expands in every mode the planner names: (All), (Into), (Pruning),
    # (Pruning,BFS,All), ...
    r"|VarLengthExpand\((All|Into|Pruning)(,(BFS|All|Into))*\)"
    r"|BFSPruningVarExpand|ShortestPath|StatefulShortestPath"
    r"|\w*ShortestPath\w*|Trail|Repeat\(Trail\)|NullifyMetadata"
    r"|Filter|Projection|Aggregation|EagerAggregation|OrderedAggregation|Distinct"
    r"|OrderedDistinct|Sort|PartialSort|Top|PartialTop|Limit|ExhaustiveLimit|Skip|Unwind"
    r"|PartitionedUnwind|Eager|Optional|Apply|SemiApply|AntiSemiApply|SelectOrSemiApply"
    r"|SelectOrAntiSemiApply|LetSemiApply|LetAntiSemiApply|LetSelectOrSemiApply"
    r"|LetSelectOrAntiSemiApply|RollUpApply|ConditionalApply|AntiConditionalApply"
    r"|CartesianProduct|NodeHashJoin|ValueHashJoin|NodeLeftOuterHashJoin"
    r"|NodeRightOuterHashJoin|Union|OrderedUnion|CacheProperties|AssertSameNode"
    r"|AssertSameRelationship|ProjectEndpoints|Anti|ProcedureCall)$"
)
_PROCEDURE = re.compile(r"^\s*([\w.]+)\s*\(")


class PlanReader(Protocol):
    """The part of `Store` the guard uses: EXPLAIN of a model-written statement, in its
    workspace."""

    workspace: Workspace

    def explain_generated(
        self, text: str
    ) -> tuple[str, list[dict[str, Any]], list[dict[str, str]]]:
        """The query type, the plan's operators with their arguments, and its warnings."""
        ...

    def shares_database(self) -> bool:
        """Whether a named workspace's graph is in the database too."""
        ...


@dataclass(frozen=True)
class Checked:
    """A statement the guard lets run, with the server's warnings about its plan."""

    statement: str
    notices: list[dict[str, str]]


@dataclass(frozen=True)
class Refusal:
    """Why a query may not run, in one sentence the model can also read for a repair."""

    reason: str


def single_statement(text: str) -> str | Refusal:
    """The statement without a trailing `;`; a second statement is refused."""
    statement = text.strip().rstrip(";").strip()
    if not statement:
        return Refusal("the reply held no Cypher query")
    if ";" in statement:
        return Refusal("only one statement may run, and this text holds a ';'")
    return statement


def plan_refusal(
    query_type: str, operators: Sequence[Mapping[str, Any]], allowed_procedures: Sequence[str]
) -> Refusal | None:
    """Why this EXPLAIN plan may not run (None: it only reads)."""
    for operator in operators:
        name = str(operator["operator"]).split("@", 1)[0]
        if not _READ_OPERATOR.match(name):
            return Refusal(f"the plan holds the operator {name}, and only reads may run")
        if name == "ProcedureCall":
            details = str(operator.get("args", {}).get("Details", ""))
            match = _PROCEDURE.match(details)
            procedure = match.group(1) if match else details
            if procedure not in allowed_procedures:
                return Refusal(f"the procedure {procedure} is not one a query may call")
    if query_type != "r":
        return Refusal(f"the query is of type {query_type!r}, and only read queries may run")
    return None


def _isolated(reader: PlanReader) -> bool:
    """Whether the plan must stay in its workspace's labels: always in a named workspace; in
    the default one only beside another's graph (alone it may read as before workspaces)."""
    return not reader.workspace.is_default or reader.shares_database()


def check_plan(
    reader: PlanReader, text: str, allowed_procedures: Sequence[str]
) -> Checked | Refusal:
    """The statement to run with its plan's warnings, or why it may not: one statement whose
    plan only reads. A statement the server cannot compile raises its error (for the repair
    prompt)."""
    statement = single_statement(text)
    if isinstance(statement, Refusal):
        return statement
    query_type, operators, notices = reader.explain_generated(statement)
    refusal = plan_refusal(query_type, operators, allowed_procedures)
    reason = refusal or (workspace_refusal(reader.workspace, statement, operators)
                         if _isolated(reader) else None)
    if isinstance(reason, str):
        return Refusal(reason)
    return reason or Checked(statement, notices)

