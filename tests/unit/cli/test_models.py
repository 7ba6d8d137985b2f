"""`graphrag-neo4j models`: the table, the probe verdict and the exit code (fake models)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest
import typer
from typer.testing import CliRunner, Result

from graphrag_neo4j.cli.models import models_command
from graphrag_neo4j.llm import providers
from graphrag_neo4j.llm.lazy_model import LazyModel
from graphrag_neo4j.llm.providers import ResolvedModel
from graphrag_neo4j.llm.testing import FakeChatModel, FakeEmbeddings
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import Settings

GOOD_REPLY = (
    "<concept><name>Leonhard Euler</name><type>person</type></concept>\n"
    "<concept><name>Johann Bernoulli</name><type>person</type></concept>\n"
    "<triplet><subject>Leonhard Euler</subject><predicate>studied under</predicate>"
    "<object>Johann Bernoulli</object><strength>9</strength></triplet>"
)


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(models_command)
    return app


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GRAPHRAG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COLUMNS", "200")  # rich wraps table cells at 80 otherwise
    fake = ResolvedModel(LazyModel.ready(FakeEmbeddings()), "fake embedder")
    monkeypatch.setattr(providers, "resolve_embeddings", lambda settings: fake)


def _use_llm(monkeypatch: pytest.MonkeyPatch, reply: str) -> FakeChatModel:
    model = FakeChatModel(rules=[("Leonhard Euler studied", reply)])

    def resolve(settings: Settings) -> ResolvedModel[FakeChatModel]:
        return ResolvedModel(LazyModel.ready(model), "fake llm")

    monkeypatch.setattr(providers, "resolve_llm", resolve)
    return model


def test_probe_reports_parsed_records_and_dimension(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _use_llm(monkeypatch, GOOD_REPLY)
    result = CliRunner().invoke(_app(), [])
    assert result.exit_code == 0, result.output
    assert "fake llm" in result.output and "fake embedder" in result.output
    assert "tag format parseable: 2 entities, 1 triplets" in result.output
    assert "dimension 384" in result.output
    # A reading probe (long prompt, one-word reply) first, so estimates can tell reading a
    # token from writing one; the verdict is the extraction probe's.
    assert len(model.calls) == 2 and "One word:" in model.calls[0].prompt


def test_an_unparseable_reply_fails_the_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    _use_llm(monkeypatch, "Euler was a mathematician. Bernoulli taught him.")
    result = CliRunner().invoke(_app(), [])
    assert result.exit_code == 1
    assert "not in the tag format" in result.output


def test_no_probe_only_resolves(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _use_llm(monkeypatch, GOOD_REPLY)
    result = CliRunner().invoke(_app(), ["--no-probe"])
    assert result.exit_code == 0 and "skipped" in result.output
    assert model.calls == []


def test_a_user_error_is_one_red_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(settings: Settings) -> ResolvedModel[FakeChatModel]:
        raise ConfigError("The openai LLM provider needs an API key; set OPENAI_API_KEY.")

    monkeypatch.setattr(providers, "resolve_llm", broken)
    result = CliRunner().invoke(_app(), [])
    assert result.exit_code == 1
    assert "needs an API key" in result.output
    assert "Traceback" not in result.output


class _EnglishEmbeddings(FakeEmbeddings):
    languages = ("en",)


class _GraphWithChinese:
    # What the graph recorded of its vectors' embedder (none: from before the record).
    vectors: ClassVar[list[dict[str, object]]] = []

    def __enter__(self) -> _GraphWithChinese:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def read(self, name: str) -> list[dict[str, object]]:
        if name == "database/embedder/read_embedder":
            return self.vectors
        assert name == "indexing/documents/count_document_languages"
        return [{"language": "en", "documents": 3}, {"language": "zh", "documents": 2}]


def _models_over(
    monkeypatch: pytest.MonkeyPatch, embedder: FakeEmbeddings, graph: _GraphWithChinese
) -> Result:
    """`models --no-probe` with this embedder configured, over this graph."""
    from graphrag_neo4j.database.store import Store

    _use_llm(monkeypatch, GOOD_REPLY)
    resolved = ResolvedModel(LazyModel.ready(embedder), "the embedder")
    monkeypatch.setattr(providers, "resolve_embeddings", lambda settings: resolved)
    monkeypatch.setattr(Store, "connect", classmethod(lambda cls, settings: graph))
    return CliRunner().invoke(_app(), ["--no-probe"])


def test_an_english_only_embedder_over_a_chinese_corpus_is_warned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _models_over(monkeypatch, _EnglishEmbeddings(), _GraphWithChinese())
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # rich wraps the warning at the terminal's width
    assert "Chinese (2)" in said and f"by {_EnglishEmbeddings().model_name}," in said
    assert "[embedding] provider" in said


class _GraphOfOpenAIVectors(_GraphWithChinese):
    vectors: ClassVar[list[dict[str, object]]] = [
        {"embedder": "text-embedding-3-small", "dimension": 1536}]


def test_models_names_the_graphs_vectors_and_refuses_another_embedder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _models_over(monkeypatch, FakeEmbeddings(), _GraphOfOpenAIVectors())
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert "graph vectors" in said and "text-embedding-3-small, 1536 dimensions" in said
    assert (f"holds vectors of text-embedding-3-small (1536 dimensions) but the configured"
            f" embedder is {FakeEmbeddings().model_name}") in said
    assert "--reset-vectors" in said
