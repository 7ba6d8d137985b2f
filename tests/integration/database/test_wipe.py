"""`graphrag-neo4j wipe` deletes the whole graph, and only when confirmed."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.options.workspace_option import WORKSPACE_ENV
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import in_workspace
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration


def _documents(store: Store) -> int:
    return int(store.read("database/count_graph")[0]["documents"])


def test_wipe_asks_first_and_deletes_everything_with_yes(store: Store) -> None:
    store.write_rows("indexing/documents/merge_documents", [{
        "id": f"doc-{n}", "title": "t", "source": "s", "content_hash": "h",
        "extraction_method": "fast", "language": "en", "description_sentences": 3,
        "description_vector_words": 8, "description_llm_summaries": False} for n in range(3)])
    _register_subcommands()
    unconfirmed = CliRunner().invoke(app, ["wipe"])  # no terminal to ask on
    assert isinstance(unconfirmed.exception, InputError)
    assert "--yes" in str(unconfirmed.exception) and _documents(store) == 3
    wiped = CliRunner().invoke(app, ["wipe", "--yes"])
    assert wiped.exit_code == 0, wiped.output
    assert "3 documents" in wiped.output and _documents(store) == 0
    again = CliRunner().invoke(app, ["wipe", "--yes"])
    assert again.exit_code == 0 and "already empty" in again.output


def test_wipe_of_a_workspace_keeps_the_others(store: Store, settings: Settings,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    row = {"title": "t", "source": "s", "content_hash": "h", "extraction_method": "fast",
           "language": "en", "description_sentences": 3, "description_vector_words": 8,
           "description_llm_summaries": False}
    acme = Store.connect(in_workspace(settings, "acme").neo4j)
    try:
        store.write_rows("indexing/documents/merge_documents", [{**row, "id": "doc-default"}])
        acme.write_rows("indexing/documents/merge_documents", [{**row, "id": "doc-acme"}])
        monkeypatch.setenv(WORKSPACE_ENV, "")  # the command sets it; the test restores it
        _register_subcommands()
        wiped = CliRunner().invoke(app, ["wipe", "--yes", "--workspace", "acme"])
        assert wiped.exit_code == 0 and "workspace acme" in wiped.output, wiped.output
        assert _documents(acme) == 0 and _documents(store) == 1
    finally:
        acme.close()
