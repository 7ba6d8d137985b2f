"""The hosted-model path end to end: `graphrag-neo4j index --method llm` in one command, with
community reports, against an OpenAI-compatible HTTP server on loopback.

Before the fix the community-report stage crashed with `RuntimeError: Event loop is closed`:
indexing and community building ran in two event loops sharing one HTTP client. Streamed
extraction calls to a custom base_url also recorded 0 tokens, since the client only asks such
servers for usage when told to.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.llm.testing import pipeline_fake_llm
from graphrag_neo4j.settings import Settings
from tests.integration.llm.fake_openai import hosted_env, serving_answers

pytestmark = pytest.mark.integration
DOCS = {
    "lovelace.txt": "Ada Lovelace wrote notes on the Analytical Engine. Charles Babbage designed "
                    "the Analytical Engine in London. Mary Somerville introduced Ada Lovelace to "
                    "Charles Babbage.",
    "turing.txt": "Alan Turing worked at Bletchley Park with Joan Clarke. Gordon Welchman "
                  "joined Alan Turing at Bletchley Park.",
}


def _row(output: str, stage: str) -> list[int]:
    """The numbers of the usage table's row for `stage` (calls, hits, ..., completion tok)."""
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃|]", line) if c.strip()]
        if cells and cells[0] == stage:
            return [int(c.replace(",", "")) for c in cells[1:7]]
    raise AssertionError(f"no usage row {stage!r} in:\n{output}")


def test_index_llm_with_reports_in_one_command_over_http(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    with serving_answers(pipeline_fake_llm().answer) as fake:
        run = subprocess.run(
            [sys.executable, "-m", "graphrag_neo4j", "index", str(docs), "--method", "llm",
             "--reports"], env=hosted_env(fake.base_url, tmp_path / "cache"),
            capture_output=True, text=True, timeout=600, check=False)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    assert "Event loop is closed" not in output
    reports = store.read("database/count_graph")[0]
    assert reports["communities"] > 0
    extraction = _row(output, "extract")
    assert extraction[0] == 2 and extraction[4] > 0 and extraction[5] > 0  # streamed, counted
    written = _row(output, "community reports")
    assert written[0] >= 1 and written[4] > 0
    asked = [r for r in fake.requests if r.get("stream")]
    assert asked and all(r["stream_options"] == {"include_usage": True} for r in asked)
    assert fake.embedded_texts > 0
