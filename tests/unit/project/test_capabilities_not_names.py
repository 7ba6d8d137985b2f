"""Behaviour is decided by what a method declares, never by comparing its name: no code or
Cypher compares a value with the name of a registered extraction or query method."""

from __future__ import annotations

import re
from pathlib import Path

import graphrag_neo4j
from graphrag_neo4j.indexing.extraction.registry import METHODS as EXTRACTION_METHODS
from graphrag_neo4j.query.registry import METHODS as QUERY_METHODS

PACKAGE = Path(graphrag_neo4j.__file__).parent
CYPHER = PACKAGE.parent / "cypher"
NAMES = "|".join(re.escape(name) for name in sorted({*EXTRACTION_METHODS, *QUERY_METHODS}))
PYTHON_COMPARISON = re.compile(
    rf"""(==|!=)\s*['"]({NAMES})['"]|['"]({NAMES})['"]\s*(==|!=)|\bin\s*[(\[{{]\s*['"]({NAMES})['"]"""
)
CYPHER_COMPARISON = re.compile(rf"""(?<![:<>])(=|<>)\s*['"]({NAMES})['"]|\bIN\s*\[\s*'({NAMES})'""")
# The same words naming something else: the [llm] and [search.global] settings sections, and
# the LLM providers (`local` is llama.cpp's).
OTHER_MEANINGS = {
    ("llm/providers.py", "section == 'llm'"),
    ("llm/providers.py", 'provider in ("local", "offline")'),
    ("query/base.py", 'section == "global"'),
}


def comparisons(root: Path, pattern: re.Pattern[str], suffix: str) -> list[str]:
    """`file:line: text` of every line under `root` comparing a value with a method's name."""
    found = []
    for path in sorted(root.rglob(f"*{suffix}")):
        place = str(path.relative_to(root))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and not any(
                    place == file and text in line for file, text in OTHER_MEANINGS):
                found.append(f"{place}:{number}: {line.strip()}")
    return found


def test_no_code_compares_a_method_name() -> None:
    assert comparisons(PACKAGE, PYTHON_COMPARISON, ".py") == []


def test_no_cypher_compares_a_method_name() -> None:
    assert comparisons(CYPHER, CYPHER_COMPARISON, ".cypher") == []


def test_the_scan_finds_the_comparisons_it_forbids(tmp_path: Path) -> None:
    (tmp_path / "stage.py").write_text('if settings.method == "fast":\n    pass\n')
    (tmp_path / "count.cypher").write_text("RETURN count(CASE WHEN d.m = 'llm' THEN 1 END)\n")
    assert len(comparisons(tmp_path, PYTHON_COMPARISON, ".py")) == 1
    assert len(comparisons(tmp_path, CYPHER_COMPARISON, ".cypher")) == 1
