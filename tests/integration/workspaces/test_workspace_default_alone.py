"""The default workspace alone in its database: model-written queries read as before
workspaces (an unlabelled scan is allowed) until a named workspace's graph arrives."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.query.cypher.guard import Checked, Refusal, check_plan
from graphrag_neo4j.settings import Settings
from tests.integration.text_files import write_texts
from tests.integration.workspaces.workspace_pair import TEXTS, workspace_rag

pytestmark = pytest.mark.integration

UNLABELLED = "MATCH (n) WHERE n.name CONTAINS 'Scrooge' RETURN n.name AS name"


def test_an_unlabelled_scan_runs_alone_and_is_refused_once_a_workspace_arrives(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    procedures = settings.search.cypher.allowed_procedures
    assert not store.shares_database()
    assert isinstance(check_plan(store, UNLABELLED, procedures), Checked)
    with workspace_rag(settings, tmp_path, "gamma") as rag:
        (path,) = write_texts(tmp_path / "docs", carol=TEXTS["beta"])
        rag.index([path])
    assert store.shares_database()
    assert isinstance(check_plan(store, UNLABELLED, procedures), Refusal)
