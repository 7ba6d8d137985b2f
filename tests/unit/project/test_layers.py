"""The package's rooms keep their layers: imports point down, and no import cycle exists.

Every import counts, also those under `TYPE_CHECKING` and inside functions: a cycle hidden
from the interpreter is still a cycle for whoever reads the code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import graphrag_neo4j

PACKAGE = Path(graphrag_neo4j.__file__).parent
ROOT_MODULES = {"__init__", "__main__", "engine", "citations"}
DOMAIN_ROOMS = ("query", "indexing", "communities", "llm")
ABOVE_DOMAIN = ("graphrag_neo4j.engine", "graphrag_neo4j.cli", "graphrag_neo4j.api")
NOT_FOR_FOUNDATIONS = ("query", "indexing", "communities", "cli", "database.server")
# evaluation/ drives the engine as the CLI does: nothing below it imports it.
BELOW_EVALUATION = (*DOMAIN_ROOMS, "database.server")


def module_name(path: Path) -> str:
    """`graphrag_neo4j.query.base` for graphrag_neo4j/query/base.py (packages by __init__)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every Python module of the package (the Java launcher folder holds none)."""
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported(path: Path, known: set[str]) -> Iterator[str]:
    """The package modules a file imports, wherever the import statement stands."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                # `from graphrag_neo4j.cli import query` imports a module, not a name.
                yield child if child in known else node.module


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (package parents left out: they are inert)."""
    found = modules()
    known = set(found)
    return {
        name: {t for t in imported(path, known) if t in known and not name.startswith(t + ".")}
        for name, path in found.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def in_room(module: str, room: str) -> bool:
    """Whether a module lives in graphrag_neo4j/<room>/."""
    return module.startswith(f"graphrag_neo4j.{room}.") or module == f"graphrag_neo4j.{room}"


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_domain_rooms_never_import_the_engine_or_the_cli() -> None:
    wrong = [
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        for target in targets
        if any(in_room(module, room) for room in DOMAIN_ROOMS)
        and any(target == top or target.startswith(top + ".") for top in ABOVE_DOMAIN)
    ]
    assert wrong == []


def test_llm_and_store_import_no_domain_room() -> None:
    graph = import_graph()
    foundations = [m for m in graph if in_room(m, "llm") or m == "graphrag_neo4j.database.store"]
    wrong = [
        f"{module} -> {target}"
        for module in foundations
        for target in graph[module]
        if any(in_room(target, room) for room in NOT_FOR_FOUNDATIONS)
    ]
    assert foundations and wrong == []


def test_communities_and_query_never_import_indexing() -> None:
    wrong = [
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        for target in targets
        if (in_room(module, "communities") or in_room(module, "query"))
        and in_room(target, "indexing")
    ]
    assert wrong == []


def arrows(
    graph: dict[str, set[str]], source: Callable[[str], bool], target: Callable[[str], bool]
) -> list[str]:
    """Every `module -> imported` arrow of the graph from a `source` module to a `target`."""
    return [
        f"{module} -> {imported}"
        for module, targets in graph.items()
        for imported in targets
        if source(module) and target(imported)
    ]


def below_evaluation(module: str) -> bool:
    """The engine and every room under it: what `evaluation/` may import, never the reverse."""
    return module == "graphrag_neo4j.engine" or any(
        in_room(module, room) for room in BELOW_EVALUATION
    )


def test_evaluation_sits_above_the_engine_and_below_the_cli() -> None:
    graph = import_graph()
    evaluation = partial(in_room, room="evaluation")
    above = [partial(in_room, room=room) for room in ("cli", "api")]
    assert arrows(graph, below_evaluation, evaluation) == []
    assert arrows(graph, evaluation, lambda m: any(check(m) for check in above)) == []


def test_the_layer_check_sees_query_importing_evaluation() -> None:
    graph = {"graphrag_neo4j.query.answers.run": {"graphrag_neo4j.evaluation.scores"}}
    assert arrows(graph, below_evaluation, partial(in_room, room="evaluation")) == [
        "graphrag_neo4j.query.answers.run -> graphrag_neo4j.evaluation.scores"
    ]


def test_only_the_shared_pieces_live_at_the_root() -> None:
    flat = {p.stem for p in PACKAGE.glob("*.py")}
    assert flat == ROOT_MODULES
