"""`graphrag-neo4j eval retrieval` end to end on the nano passages, without an LLM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from graphrag_neo4j.cli.eval.retrieval import app as eval_app
from graphrag_neo4j.database.store import Store
from graphrag_neo4j.runtime.errors import InputError

pytestmark = pytest.mark.integration


def test_eval_indexes_the_corpus_and_prints_recall_per_method(
    store: Store, shared_data: Path, tmp_path: Path
) -> None:
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps([{
        "id": "euler",
        "question": "What contribution did the son of Euler's teacher make?",
        "supporting_passage_ids": ["nano_dataset-3", "nano_dataset-2"],
    }]))
    per_question = tmp_path / "per_question.jsonl"
    app = typer.Typer()
    app.add_typer(eval_app, name="eval")  # as cli.py mounts it
    result = CliRunner().invoke(app, [
        "eval", "retrieval", "--corpus", str(shared_data / "milvus_nano" / "nano_dataset.json"),
        "--questions", str(questions), "--method", "naive,hops,global", "--k", "1,4",
        "--set", "hops.rerank=false", "--per-question", str(per_question),
    ])
    assert result.exit_code == 0, result.output
    assert "Recall@1" in result.output and "Recall@4" in result.output
    # A method the graph cannot rank with is said and left out; an unknown name is refused
    # before anything runs (tests/unit/cli/test_refusals.py).
    assert "global is not available" in result.output
    rows = [json.loads(line) for line in per_question.read_text().splitlines()]
    assert [row["method"] for row in rows] == ["naive", "hops"]
    for row in rows:  # Euler's passage first, and all four passages within k = 4
        assert row["ranked"][0] == "nano_dataset-3"
        assert row["recall@1"] == 0.5 and row["recall@4"] == 1.0
    assert store.read("database/count_graph")[0]["documents"] == 4


def _eval_and_index_app() -> typer.Typer:
    """`eval` and `index` mounted as cli.py mounts them."""
    from graphrag_neo4j.cli.graph.index import index_command

    app = typer.Typer()
    app.add_typer(eval_app, name="eval")
    app.command("index")(index_command)
    return app


def _nano_passages(shared_data: Path) -> list[dict[str, str]]:
    """The Milvus notebook's four passages, each {"passage": text}."""
    nano = json.loads((shared_data / "milvus_nano" / "nano_dataset.json").read_text())
    return list(nano["passages"])


def test_eval_without_corpus_scores_a_graph_built_by_fast_indexing(
    store: Store, shared_data: Path, tmp_path: Path
) -> None:
    app, nano = _eval_and_index_app(), _nano_passages(shared_data)
    corpus = tmp_path / "passages.jsonl"
    corpus.write_text("".join(
        json.dumps({"id": f"nano_dataset-{i}", "text": p["passage"]}) + "\n"
        for i, p in enumerate(nano)
    ))
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps([{
        "id": "euler", "question": "What contribution did the son of Euler's teacher make?",
        "supporting_passage_ids": ["nano_dataset-3", "nano_dataset-2"],
    }]))
    runner = CliRunner()
    indexed = runner.invoke(app, ["index", str(corpus), "--method", "fast", "--no-communities"])
    assert indexed.exit_code == 0, indexed.output
    result = runner.invoke(app, [
        "eval", "retrieval", "--questions", str(questions), "--method", "naive,hops",
        "--k", "4", "--set", "hops.rerank=false",
    ])
    assert result.exit_code == 0, result.output
    assert "evaluating the graph as it is" in result.output and "Recall@4" in result.output
    counts = store.read("database/count_graph")[0]
    assert counts["documents"] == 4 and counts["entities"] > 0 and counts["relations"] > 0


def test_gold_given_as_file_names_is_matched_to_the_documents_indexed_from_them(
    store: Store, shared_data: Path, tmp_path: Path
) -> None:
    from graphrag_neo4j.evaluation.gold_ids import match_gold

    app, nano = _eval_and_index_app(), _nano_passages(shared_data)
    for i, passage in enumerate(nano):  # two folders, the same file names in both
        folder = tmp_path / "pages" / ("first" if i < 2 else "second")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"passage-{i % 2}.txt").write_text(passage["passage"])
    runner = CliRunner()
    indexed = runner.invoke(app, ["index", str(tmp_path / "pages"), "--method", "fast",
                                  "--no-communities"])
    assert indexed.exit_code == 0, indexed.output

    match = match_gold(store, ["second/passage-1.txt", "passage-1.txt", "nowhere.txt"])
    assert len(match.document_of) == 1 and match.by_source == 1
    assert match.ambiguous == {"passage-1.txt": 2} and match.unmatched == ["nowhere.txt"]

    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps([
        {"id": "euler", "question": "What contribution did the son of Euler's teacher make?",
         "supporting_passage_ids": ["second/passage-1.txt"]},  # Euler's passage, nano 3
        {"id": "lost", "question": "Who?", "supporting_passage_ids": ["nowhere.txt"]},
    ]))
    per_question = tmp_path / "per_question.jsonl"
    result = runner.invoke(app, [
        "eval", "retrieval", "--questions", str(questions), "--method", "naive", "--k", "1",
        "--per-question", str(per_question)])
    assert result.exit_code == 0, result.output
    assert "matched a document by its source file" in result.output
    assert "1 question(s) left out" in result.output and "'lost'" in result.output
    (row,) = [json.loads(line) for line in per_question.read_text().splitlines()]
    assert row["gold"] == list(match.document_of.values()) and row["recall@1"] == 1.0

    questions.write_text(json.dumps([
        {"question": "Who?", "supporting_passage_ids": ["nowhere.txt"]}]))
    refused = runner.invoke(app, ["eval", "retrieval", "--questions", str(questions),
                                  "--method", "naive"])
    # The entry point prints an InputError as its one sentence (tests/unit/cli).
    assert isinstance(refused.exception, InputError), refused.output
    assert "No gold reference in" in str(refused.exception)
    assert "'nowhere.txt'" in str(refused.exception)
