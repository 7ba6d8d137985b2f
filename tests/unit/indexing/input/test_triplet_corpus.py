"""Reading pre-extracted triplet corpora: the Milvus notebook's JSON and HippoRAG's JSONL."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from graphrag_neo4j.indexing.input.triplet_corpus import read_triplet_corpus
from graphrag_neo4j.runtime.errors import InputError


def _write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_notebook_list_shape(tmp_path: Path) -> None:
    data = [
        {"passage": "Alice met Bob in Paris.", "triplets": [["Alice", "met", "Bob"]]},
        {"passage": "Bob lives in Paris.", "triplets": [[" Bob ", "lives in", " Paris "]]},
    ]
    path = _write(tmp_path / "tiny.json", json.dumps(data))
    corpus = read_triplet_corpus(path)
    assert [passage.document.id for passage in corpus.passages] == ["tiny-0", "tiny-1"]
    first = corpus.passages[0].document
    assert (first.title, first.text, first.source) == (
        "Alice met Bob in Paris.",
        "Alice met Bob in Paris.",
        f"{path}#0",
    )
    assert corpus.passages[1].triplets == [("Bob", "lives in", "Paris")]  # parts are stripped
    assert corpus.skipped == [] and corpus.dropped_triplets == 0 and corpus.n_triplets == 2


def test_long_passage_title_is_its_first_60_characters(tmp_path: Path) -> None:
    text = "A passage that goes on and on,\nwell past sixty characters, to test the title."
    corpus = read_triplet_corpus(_write(tmp_path / "long.json", json.dumps([{"passage": text}])))
    title = corpus.passages[0].document.title
    assert title == "A passage that goes on and on, well past sixty characters, t"
    assert len(title) == 60
    assert corpus.passages[0].triplets == []  # a passage without triplets is still a passage


def test_malformed_triplets_are_dropped_and_counted(tmp_path: Path) -> None:
    triplets = [
        ["a", "b", "c"],
        ["a", "b"],
        ["a", "b", "c", "d"],
        ["a", "", "c"],
        ["a", "  ", "c"],
        ["a", 1, "c"],
        "a b c",
        None,
        ("x", "y", "z"),
    ]
    path = _write(tmp_path / "t.json", json.dumps([{"passage": "p", "triplets": triplets}]))
    corpus = read_triplet_corpus(path)
    assert corpus.passages[0].triplets == [("a", "b", "c"), ("x", "y", "z")]
    assert corpus.dropped_triplets == 7


def test_malformed_triplets_are_reported_per_record(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    records = [{"id": "ok", "text": "p", "triplets": [["a", "b", "c"]]},
               {"id": "bad", "text": "q", "triplets": [["a", "b"], ["x", "y", "z"], None]}]
    path = _write(tmp_path / "t.jsonl", "\n".join(json.dumps(r) for r in records))
    with caplog.at_level(logging.WARNING):
        corpus = read_triplet_corpus(path)
    assert corpus.dropped_triplets == 2 and corpus.skipped == []
    warnings = [r.getMessage() for r in caplog.records]
    assert warnings == [f"{path} line 2: 2 of its 3 triplets are not three non-empty strings;"
                        " dropped."]


def test_triplets_not_a_list_keep_the_passage(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The passage is kept, so it is no skipped record: the bad field is one malformed
    triplet, warned about once."""
    path = _write(tmp_path / "t.json", json.dumps([{"passage": "p", "triplets": "oops"}]))
    with caplog.at_level(logging.WARNING):
        corpus = read_triplet_corpus(path)
    assert corpus.passages[0].triplets == []
    assert corpus.skipped == [] and corpus.dropped_triplets == 1
    assert ["record 0 has 'triplets' that is not a list" in r.getMessage()
            for r in caplog.records] == [True]


def test_jsonl_shape_with_ids_and_bad_lines(tmp_path: Path) -> None:
    lines = [
        json.dumps({"id": "m-1", "title": "T", "text": "one", "triplets": [["s", "p", "o"]]}),
        "",
        "{broken",
        json.dumps({"id": "m-2", "title": "T", "text": "two", "triplets": []}),
        json.dumps({"id": "m-3", "title": "T"}),
        json.dumps(["not", "an", "object"]),
        json.dumps({"id": "m-1", "text": "repeat"}),
        json.dumps({"text": "no id here"}),
    ]
    path = _write(tmp_path / "corpus.jsonl", "\n".join(lines))
    corpus = read_triplet_corpus(path)
    documents = [passage.document for passage in corpus.passages]
    assert [document.id for document in documents] == ["m-1", "m-2", "corpus-7"]
    assert documents[0].source == f"{path}#m-1" and documents[2].source == f"{path}#7"
    assert [document.title for document in documents[:2]] == ["T", "T"]
    skipped = "\n".join(corpus.skipped)
    assert f"{path} line 3 is not valid JSON" in skipped
    assert f"{path} line 5 has no 'passage' or 'text' string" in skipped
    assert f"{path} line 6 holds a list" in skipped
    assert f"{path} line 7 repeats the id 'm-1'" in skipped
    assert len(corpus.skipped) == 4


def test_single_line_jsonl_is_read(tmp_path: Path) -> None:
    record = {"id": "only", "text": "one line", "triplets": [["a", "b", "c"]]}
    corpus = read_triplet_corpus(_write(tmp_path / "one.jsonl", json.dumps(record)))
    assert corpus.passages[0].document.id == "only"


@pytest.mark.parametrize(
    "content",
    [
        "subject,predicate,object\na,b,c\n",
        "just some prose, not JSON at all",
        b"\x00\x01\x02binary",
        "",
    ],
)
def test_not_json_at_all_raises(tmp_path: Path, content: str | bytes) -> None:
    path = _write(tmp_path / "bad.txt", content)
    with pytest.raises(InputError) as raised:
        read_triplet_corpus(path)
    message = str(raised.value)
    assert str(path) in message


def test_not_json_message_names_the_expected_shapes(tmp_path: Path) -> None:
    path = _write(tmp_path / "prose.jsonl", "hello\nworld\n")
    with pytest.raises(InputError, match="neither JSON nor JSONL") as raised:
        read_triplet_corpus(path)
    assert '"passage", "triplets"' in str(raised.value)
    assert '"id", "title", "text", "triplets"' in str(raised.value)


def test_json_without_any_passage_raises(tmp_path: Path) -> None:
    path = _write(tmp_path / "other.json", json.dumps({"rows": [{"foo": 1}]}))
    with pytest.raises(InputError, match="no usable passage"):
        read_triplet_corpus(path)


def test_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        read_triplet_corpus(tmp_path / "absent.json")


def test_milvus_nano_dataset(shared_data: Path) -> None:
    corpus = read_triplet_corpus(shared_data / "milvus_nano" / "nano_dataset.json")
    ids = [passage.document.id for passage in corpus.passages]
    assert ids == [f"nano_dataset-{index}" for index in range(4)]
    assert corpus.n_triplets == 22 and corpus.dropped_triplets == 0 and corpus.skipped == []
    assert corpus.passages[0].document.title.startswith("Jakob Bernoulli")
    assert ("Jakob Bernoulli", "was the older brother of", "Johann Bernoulli") in (
        corpus.passages[0].triplets
    )
    assert corpus.passages[3].document.text.startswith("Leonhard Euler")


def test_musique_corpus_counts(shared_data: Path) -> None:
    corpus = read_triplet_corpus(shared_data / "musique" / "corpus.jsonl")
    assert len(corpus.passages) == 1890
    assert corpus.n_triplets == 17234
    assert corpus.dropped_triplets == 0 and corpus.skipped == []
    first = corpus.passages[0]
    assert first.document.id == "musique-0000"
    assert first.document.title == "Journal of Mathematical Physics"
    assert first.triplets[0] == (
        "Journal of Mathematical Physics",
        "published by",
        "American Institute of Physics",
    )
    assert len({passage.document.id for passage in corpus.passages}) == 1890
