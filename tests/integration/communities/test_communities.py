"""Communities on a fixed graph in the real Neo4j: determinism, nesting, reports, incremental."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from graphrag_neo4j.communities.report_stage import embedding_text
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings, RecordingEmbeddings
from graphrag_neo4j.query.global_search.lazy_reports import waiting
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

REPORT_PROMPT = "You write briefing reports on communities"
_ENTITY_ROW = re.compile(r"^([0-9a-f]{16})\|([^|]*)\|", re.MULTILINE)


def clique(group: str, size: int) -> list[list[str]]:
    names = [f"{group} member {i}" for i in range(size)]
    return [[a, "knows", b] for i, a in enumerate(names) for b in names[i + 1 :]]


def fixed_passages() -> list[dict[str, Any]]:
    """Three linked 6-cliques (one level-0 community of 18, split at level 1), 25 5-cliques
    and a 5-clique whose report the fake model always breaks."""
    pairs = [("Alpha", 0, "Beta", 0), ("Alpha", 1, "Beta", 1), ("Alpha", 2, "Beta", 2),
             ("Beta", 3, "Gamma", 3), ("Beta", 4, "Gamma", 4), ("Beta", 5, "Gamma", 5),
             ("Alpha", 3, "Gamma", 0), ("Alpha", 4, "Gamma", 1)]
    links = [[f"{a} member {i}", "meets", f"{b} member {j}"] for a, i, b, j in pairs]
    groups = {"Alpha": 6, "Beta": 6, "Gamma": 6, "Broken": 5}
    groups |= {f"Small{k:02d}": 5 for k in range(25)}
    passages = [{"id": f"p-{g}", "title": g, "text": f"A passage about the {g} group.",
                 "triplets": clique(g, n)} for g, n in groups.items()]
    passages.append({"id": "p-links", "title": "links", "text": "How the groups meet.",
                     "triplets": links})
    return passages


def write_jsonl(path: Path, passages: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(p) for p in passages) + "\n", encoding="utf-8")
    return path


def fake_report(prompt: str) -> str:
    """A valid report naming the members in the prompt; broken JSON for the Broken group."""
    if "Broken member" in prompt:
        return '{"title": "Broken", "summary": unquoted text'
    _head, found, tail = prompt.partition("-----Entities-----")
    table = tail.split("\n\n")[0] if found else ""
    rows = _ENTITY_ROW.findall(table)
    names = [name for _, name in rows] or ["sub-communities"]
    ids = ", ".join(entity_id for entity_id, _ in rows[:5])
    findings = [{"summary": f"{name} belongs here",
                 "explanation": f"{name} is a member. [Data: Entities ({ids})]"}
                for name in (names * 5)[:5]]
    return json.dumps({"title": f"Community of {names[0]}", "summary": ", ".join(names),
                       "rating": 6.5, "rating_explanation": "Many links.", "findings": findings})


def fake_llm() -> FakeChatModel:
    return FakeChatModel(rules=[
        (REPORT_PROMPT, fake_report),
        ("Missing records:", "<done/>"),
        ("Zorblax lives alone", "<concept><name>Zorblax</name><type>concept</type>"
         "<description>A lonely thing.</description></concept>"),
    ])


def make_rag(settings: Settings, tmp_path: Path, llm: FakeChatModel,
             embeddings: FakeEmbeddings | None = None, console: Console | None = None,
             **community: Any) -> GraphRAG:
    tuned = settings.model_copy(update={
        "cache_dir": tmp_path / "cache",
        "extraction": settings.extraction.model_copy(update={"resolution": False}),
        "communities": settings.communities.model_copy(update=community),
    })
    return GraphRAG(tuned, llm=llm, embeddings=embeddings or FakeEmbeddings(dimension=384),
                    console=console)


def index_fixed_graph(rag: GraphRAG, tmp_path: Path) -> None:
    rag.index_triplets(write_jsonl(tmp_path / "corpus.jsonl", fixed_passages()))
    lonely = tmp_path / "docs" / "lonely.txt"
    lonely.parent.mkdir(exist_ok=True)
    lonely.write_text("Zorblax lives alone and knows nobody.", encoding="utf-8")
    rag.index([lonely])


def structure(store: Store) -> dict[str, tuple[int, frozenset[str], str | None]]:
    reports = store.read("communities/reports/list_community_reports")
    parents = {row["id"]: row["parent_id"] for row in reports}
    return {row["id"]: (row["level"], frozenset(row["members"]), parents[row["id"]])
            for row in store.read("communities/reports/list_community_state")}


def reports(store: Store) -> dict[str, dict[str, Any]]:
    return {row["id"]: row for row in store.read("communities/reports/list_community_reports")}


def related_entities(store: Store) -> set[str]:
    rows = store.stream("communities/build/stream_entity_edges")
    return {n for row in rows for n in (row["source"], row["target"])}


def test_two_runs_give_identical_nested_communities(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    with make_rag(settings, tmp_path, fake_llm()) as rag:
        index_fixed_graph(rag, tmp_path)
        first = rag.build_communities()
        before = structure(store)
        second = rag.build_communities()
        assert structure(store) == before
        store.write_rows("communities/build/delete_communities", [{"id": i} for i in before])
        rag.build_communities()  # from nothing again: content-derived ids come back
        assert structure(store) == before
    assert first.communities_per_level == {0: 27, 1: 3} and first.unclustered_entities == 1
    assert second.reports_generated == 0 and second.reports_reused == first.communities
    assert second.ids_kept == first.communities and second.ids_new == 0
    for level, members, parent in before.values():
        if parent is not None:
            assert before[parent][0] == level - 1 and members <= before[parent][1]
    has_children = {parent for _, _, parent in before.values() if parent}
    leaves = [members for cid, (_, members, _) in before.items() if cid not in has_children]
    in_leaves = set().union(*leaves)
    assert in_leaves == related_entities(store)
    entities = store.read("indexing/entities/list_entities", skip=0, limit=1000)
    (lonely,) = [e["id"] for e in entities if e["name"] == "Zorblax"]
    assert lonely not in set().union(*(members for _, members, _ in before.values()))


def test_every_community_gets_a_full_report_and_broken_json_falls_back(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    llm = fake_llm()
    with make_rag(settings, tmp_path, llm) as rag:
        index_fixed_graph(rag, tmp_path)
        stats = rag.build_communities()
    rows = reports(store)
    fallbacks = [r for r in rows.values() if r["report_status"] == "fallback"]
    assert stats.reports_generated == len(rows) == 30 and stats.reports_fallback == 1
    assert len(fallbacks) == 1
    broken = fallbacks[0]
    assert broken["title"] == f"Community {broken['id']} (report unavailable)"
    assert broken["rank"] == 0.0 and "Broken member 0" in broken["summary"]
    broken_prompts = [c.prompt for c in llm.calls if "Broken member 0" in c.prompt]
    assert len(broken_prompts) == 2 and "not valid JSON" in broken_prompts[1]
    small_prompts = [c for c in llm.calls if "Small07 member 0" in c.prompt]
    assert len(small_prompts) == 1
    for row in rows.values():
        assert row["embedded"] and row["content_hash"] and row["weight"] >= 1
        if row["report_status"] == "ok":
            assert row["title"].startswith("Community of") and row["summary"]
            assert row["rank"] == 6.5 and row["rating_explanation"] == "Many links."
            findings = json.loads(row["findings"])
            assert len(findings) == 5 and all(f["summary"] and f["explanation"] for f in findings)
            assert "[Data: Entities (" in row["full_content"]
            assert row["full_content"].startswith(f"# {row['title']}")


def test_a_build_writing_reports_embeds_the_reports_not_the_extracts_they_replace(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    embedder = RecordingEmbeddings()
    with make_rag(settings, tmp_path, fake_llm(), embeddings=embedder) as rag:
        index_fixed_graph(rag, tmp_path)
        embedder.texts.clear()
        rag.build_communities(reports="none")  # extracts only: each embedded
        extracts = list(embedder.texts)
        store.write_rows(
            "communities/build/delete_communities", [{"id": i} for i in reports(store)]
        )
        embedder.texts.clear()
        stats = rag.build_communities(reports="all")
        built = list(embedder.texts)
    rows = reports(store).values()
    assert stats.reports_generated == len(rows) == len(extracts) == 30
    assert sorted(built) == sorted(embedding_text(r["title"], r["summary"]) for r in rows)
    assert not set(extracts) & set(built)
    assert all(row["embedded"] for row in rows)


def test_communities_below_the_report_size_keep_their_extracts_and_are_never_reported(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    with make_rag(settings, tmp_path, fake_llm(), min_report_size=6) as rag:
        index_fixed_graph(rag, tmp_path)
        to_write = rag.estimate_communities().facts
        stats = rag.build_communities(reports="all")
    rows = reports(store).values()
    small = [r for r in rows if r["size"] < 6]
    at_levels = [row for level in (0, 1)
                 for row in store.read("query/communities/community_reports_at_level", level=level)]
    modes = {row["id"]: row["report_mode"] for row in at_levels}
    assert len(small) == stats.too_small_for_reports == to_write["too small for a report"] == 26
    assert stats.reports_generated == to_write["reports to write"] == len(rows) - 26 == 4
    assert all(r["report_status"] == "extractive" and r["embedded"] for r in small)
    assert all(r["report_status"] == "ok" for r in rows if r["size"] >= 6)
    assert {modes[r["id"]] for r in small} == {"none"} and len(modes) == 30
    assert not waiting(at_levels)  # global search maps every level whole, writes nothing lazily


_BAR = re.compile(r"^(?P<stage>[a-z][a-z ()0-9+,]*?)\s+━[━╸╺ ]*\s+(?P<done>\d+)/(?P<total>\d+)",
                  re.MULTILINE)


def test_every_progress_bar_of_a_build_with_reports_ends_full(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    console = Console(record=True, width=200, force_terminal=False)
    with make_rag(settings, tmp_path, fake_llm(), console=console, min_report_size=6) as rag:
        index_fixed_graph(rag, tmp_path)
        console.export_text()  # only the build's bars are read below
        rag.build_communities(reports="all")
    bars = {found["stage"]: (found["done"], found["total"])
            for found in _BAR.finditer(console.export_text())}
    # the 26 small communities' extracts are embedded after the reports: one bar, all of them
    assert bars["community embeddings"] == ("26", "26")
    assert all(done == total for done, total in bars.values()), bars


def test_a_crowded_parent_is_written_from_its_sub_reports(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    llm = fake_llm()
    with make_rag(settings, tmp_path, llm, report_max_input_tokens=700) as rag:
        index_fixed_graph(rag, tmp_path)
        rag.build_communities()
    rows = reports(store)
    parent = next(r for r in rows.values() if r["level"] == 0 and r["size"] == 18)
    children = [r for r in rows.values() if r["parent_id"] == parent["id"]]
    crowded = [c.prompt for c in llm.calls if "-----Reports of sub-communities-----" in c.prompt]
    assert len(crowded) == 1 and len(children) == 3
    assert any(f"Report {child['id']}:" in crowded[0] for child in children)
    assert "Alpha member 2|Beta member 2|meets" in crowded[0]  # links between sub-communities
    assert "Alpha member 0|Alpha member 2|knows" not in crowded[0]  # told by a sub-report


def test_adding_one_document_regenerates_only_the_affected_report(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    llm = fake_llm()
    with make_rag(settings, tmp_path, llm) as rag:
        index_fixed_graph(rag, tmp_path)
        first = rag.build_communities()
        before = structure(store)
        new_doc = {"id": "p-new", "title": "new", "text": "Newcomer joins the Small03 group.",
                   "triplets": [["Newcomer", "knows", "Small03 member 0"]]}
        rag.index_triplets(write_jsonl(tmp_path / "new.jsonl", [new_doc]))
        calls = len(llm.calls)
        added = rag.build_communities()
        after = structure(store)
        new_prompts = [c for c in llm.calls[calls:] if REPORT_PROMPT in c.prompt]
        assert added.reports_generated == 1 and len(new_prompts) == 1
        assert "Newcomer" in new_prompts[0].prompt and "Small03 member 0" in new_prompts[0].prompt
        assert added.reports_reused == first.communities - 1
        assert after.keys() == before.keys() and added.ids_new == 0
        grown = [cid for cid in after if after[cid][1] != before[cid][1]]
        assert len(grown) == 1 and len(after[grown[0]][1]) == 6

        documents = store.read("indexing/documents/list_documents", skip=0, limit=100)
        doc = next(d for d in documents if d["title"] == "new")
        rag.delete(doc["id"])
        calls = len(llm.calls)
        removed = rag.build_communities()
        assert removed.reports_generated == 1 and len(llm.calls) == calls  # answered by the cache
        assert structure(store) == before


def test_communities_after_a_delete_are_kept_and_only_the_changed_one_embedded(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    embeddings = RecordingEmbeddings(dimension=384)
    with make_rag(settings, tmp_path, fake_llm(), embeddings) as rag:
        index_fixed_graph(rag, tmp_path)
        new_doc = {"id": "p-new", "title": "new", "text": "Newcomer joins the Small03 group.",
                   "triplets": [["Newcomer", "knows", "Small03 member 0"]]}
        rag.index_triplets(write_jsonl(tmp_path / "new.jsonl", [new_doc]))
        rag.build_communities(reports="lazy")
        before = structure(store)
        documents = store.read("indexing/documents/list_documents", skip=0, limit=100)
        rag.delete(next(d["id"] for d in documents if d["title"] == "new"))
        embedded = len(embeddings.texts)
        removed = rag.build_communities(reports="lazy", incremental=True)
        after = structure(store)
    changed = [cid for cid in before if cid not in after or after[cid] != before[cid]]
    tops = sum(level == 0 for level, _, _ in before.values())
    assert len(changed) == 1 and removed.top_communities_kept == tops
    assert removed.extracts_written == 1 and removed.ids_new == 0
    # the changed community's title and summary do not name the newcomer: its vector stands
    assert removed.extract_vectors_kept == 1 and len(embeddings.texts) == embedded


def test_the_cli_prints_the_hierarchy(store: Store, settings: Settings, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from graphrag_neo4j.cli.app import _register_subcommands, app

    with make_rag(settings, tmp_path, fake_llm()) as rag:
        index_fixed_graph(rag, tmp_path)
        rag.build_communities()
    biggest = max(reports(store).values(), key=lambda row: row["size"])
    _register_subcommands()
    result = CliRunner().invoke(app, ["communities", "--top", "3", "--level", "0"])
    assert result.exit_code == 0, result.output
    assert "Community hierarchy" in result.output and "Largest communities" in result.output
    assert biggest["id"] in result.output and "│ 18 " in result.output


def test_memberless_communities_are_listed_with_a_warning(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A build killed after writing communities, before linking their members: the listing
    says so and how to repair it."""
    from neo4j import GraphDatabase
    from typer.testing import CliRunner

    from graphrag_neo4j.cli.app import _register_subcommands, app

    with make_rag(settings, tmp_path, fake_llm()) as rag:
        index_fixed_graph(rag, tmp_path)
        rag.build_communities()
        assert rag.communities().warning is None
    auth = (settings.neo4j.user, settings.neo4j.secret())
    with GraphDatabase.driver(settings.neo4j.uri, auth=auth) as driver, \
            driver.session() as session:  # what the killed build left: one community unlinked
        session.run("MATCH (c:__Community__) WITH c ORDER BY c.id LIMIT 1"
                    " MATCH (:__Entity__)-[link:IN_COMMUNITY]->(c) DELETE link").consume()
    _register_subcommands()
    result = CliRunner().invoke(app, ["communities"])
    assert result.exit_code == 0, result.output
    assert "1 communities have no members" in result.output
    assert "communities --build" in result.output
