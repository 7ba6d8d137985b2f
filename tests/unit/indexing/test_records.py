"""Entity name keys: symbol-only names keep stable, distinct, non-empty keys."""

from __future__ import annotations

import pytest

from graphrag_neo4j.indexing.records import entity_id, normalize_name


@pytest.mark.parametrize("name", ["🚀", "🎉", "!!!", "???", "—", "★ ★"])
def test_symbol_only_names_keep_a_non_empty_key(name: str) -> None:
    assert normalize_name(name) != ""
    assert normalize_name(name) == normalize_name(f"  {name} ")


def test_symbol_only_names_stay_different_entities() -> None:
    keys = {normalize_name(n) for n in ("🚀", "🎉", "!!!", "???")}
    ids = {entity_id(n, "concept") for n in ("🚀", "🎉", "!!!", "???")}
    assert len(keys) == len(ids) == 4


def test_words_still_fold_as_before() -> None:
    assert normalize_name('The "Acme, Inc."') == "acme inc"
    assert normalize_name("Rocket 🚀") == "rocket"
    assert normalize_name("   ") == ""
