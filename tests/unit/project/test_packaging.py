"""The wheel carries cypher/, prompts/ and the Neo4j launcher inside the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from graphrag_neo4j.runtime.resources import all_cypher_names, all_prompt_names

REPO_ROOT = Path(__file__).resolve().parents[3]


def test_wheel_ships_cypher_prompts_and_launcher(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path)],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("graphrag_neo4j-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    cypher = {n for n in names if n.startswith("graphrag_neo4j/cypher/") and n.endswith(".cypher")}
    prompts = {n for n in names if n.startswith("graphrag_neo4j/prompts/")}
    assert "graphrag_neo4j/prompts/query/hops/follow_up.txt" in prompts  # sub-folders ship
    assert {f"graphrag_neo4j/cypher/{name}.cypher" for name in all_cypher_names()} == cypher
    assert {f"graphrag_neo4j/prompts/{name}.txt" for name in all_prompt_names()} == prompts
    assert "graphrag_neo4j/cypher/database/embedder/read_embedder.cypher" in cypher
    assert "graphrag_neo4j/cypher/explore/graphrag.grass" in names
    assert "graphrag_neo4j/database/server/neo4j_launcher/pom.xml" in names
    assert not any("/target/" in n for n in names)
