"""The type-label whitelist: safe identifiers only, from the settings, never from raw text."""

from __future__ import annotations

from graphrag_neo4j.indexing.graph.type_labels import TypeLabels, label_for
from graphrag_neo4j.settings import Settings


def test_types_become_pascal_case_identifiers_or_nothing() -> None:
    assert label_for("person") == "Person"
    assert label_for(" Work of  Art ") == "WorkOfArt"
    assert label_for("GEO") == "Geo"
    assert label_for("x`) DETACH DELETE (n") == "XDetachDeleteN"  # words only, no punctuation
    assert label_for("1990s") is None  # a label must start with a letter
    assert label_for("__Entity__") == "Entity"
    assert TypeLabels.from_types(["", "unknown"]).by_type == {}  # empty means unknown


def test_the_whitelist_comes_from_the_settings_and_leaves_unknown_out() -> None:
    labels = TypeLabels.from_settings(Settings())
    assert labels.by_type["person"] == "Person"
    assert labels.by_type["geo"] == "Geo"  # extra_label_types, for Microsoft GraphRAG imports
    assert "unknown" not in labels.by_type
    assert "Unknown" not in labels.labels
    made_up = TypeLabels.from_types(["person", "unknown", "???"])
    assert made_up.by_type == {"person": "Person"}


def test_turned_off_it_removes_every_whitelisted_label_and_adds_none() -> None:
    extraction = Settings().extraction.model_copy(update={"type_labels": False})
    labels = TypeLabels.from_settings(Settings().model_copy(update={"extraction": extraction}))
    params = labels.params()
    assert params["labels_by_type"] == {}
    assert "Person" in params["type_labels"]
    name, step = labels.step(["b", "a", "b"])
    assert name == "indexing/types/set_type_labels" and step["rows"] == [{"id": "a"}, {"id": "b"}]
