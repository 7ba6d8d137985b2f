"""The spaCy model: loaded once, verified against its wheel's hashes, clear errors otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.indexing.extraction.fast import nlp_model
from graphrag_neo4j.indexing.extraction.fast.nlp_model import (
    lemmatizer,
    load_pipeline,
    mismatched_files,
)
from graphrag_neo4j.runtime.errors import ModelError


def test_loaded_once_per_process_without_the_sentence_recogniser() -> None:
    nlp = load_pipeline()
    assert nlp is load_pipeline()
    assert {"ner", "parser", "tagger"} <= set(nlp.pipe_names)
    assert "senter" not in nlp.component_names
    assert nlp.disabled == ["lemmatizer"]


def test_the_language_is_read_without_loading_the_pipeline() -> None:
    assert nlp_model.pipeline_language() == load_pipeline().lang == "en"


def test_lemmas_on_demand_are_the_lemmatizers_own() -> None:
    nlp = load_pipeline()
    text = "Scrooge's clerks were copying letters; the Spirits showed him the houses he'd owned."
    lazy = nlp(text)
    nlp.enable_pipe("lemmatizer")
    try:
        full = nlp(text)
    finally:
        nlp.disable_pipe("lemmatizer")
    lemma = lemmatizer(nlp)
    assert [lemma(token) for token in lazy] == [token.lemma_ for token in full]
    assert "clerk" in {lemma(token) for token in lazy}


def test_a_missing_model_is_one_sentence_naming_the_fix() -> None:
    with pytest.raises(ModelError) as error:
        load_pipeline("no_such_model", distribution="no-such-model")
    message = str(error.value)
    assert message.count(". ") == 0 and "scripts/spacy-model.txt" in message
    assert "not installed" in message


def test_a_broken_package_is_one_sentence_naming_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    # The installed wheel verifies; the package it names cannot be loaded.
    with pytest.raises(ModelError, match=r"could not be loaded .*setup\.sh"):
        load_pipeline("no_such_spacy_package")
    assert "no_such_spacy_package" not in nlp_model._loaded


def test_a_corrupt_model_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = tmp_path / "model", tmp_path / "other"
    good.write_bytes(b"weights")
    bad.write_bytes(b"truncated")
    expected = nlp_model._record_hash(good)
    assert mismatched_files([(good, expected), (bad, expected), (tmp_path / "gone", "x")]) == [
        bad, tmp_path / "gone"
    ]
    monkeypatch.setattr(nlp_model, "mismatched_files", lambda records: [bad])
    with pytest.raises(ModelError, match=r"is corrupt \(other\); install it"):
        nlp_model._verify_installed(nlp_model.MODEL_DISTRIBUTION)


def test_a_blank_line_ends_a_sentence() -> None:
    doc = load_pipeline()("CHARACTERS\n\nBob Cratchit, clerk to Ebenezer Scrooge.\nPeter, his son.")
    sentences = [s.text.strip() for s in doc.sents]
    assert sentences[0] == "CHARACTERS"
    assert sentences[1].startswith("Bob Cratchit, clerk to Ebenezer Scrooge.")
