"""Inline code in fast extraction: the name a code span holds and the type its shape gives."""

from __future__ import annotations

import pytest

from graphrag_neo4j.indexing.extraction.fast.code_names import code_name, code_names
from graphrag_neo4j.indexing.extraction.fast.decisions import TermCounts
from graphrag_neo4j.indexing.extraction.fast.extraction import extract_fast
from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.extraction.fast.parsing import unwrapped
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms, Term
from graphrag_neo4j.indexing.input.prose import ProseMask
from graphrag_neo4j.indexing.records import Chunk
from graphrag_neo4j.settings import FastExtractionSettings


@pytest.mark.parametrize(("code", "name", "kind"), [
    ("pg_dump -Fc mydb", "pg_dump", "command"),  # a program and its arguments
    ("git gc --auto", "git gc", "command"),
    ("$ git push", "git push", "command"),
    ("wal_level = replica", "wal_level", "setting"),
    ("gc.auto", "gc.auto", "setting"),
    ("--aggressive", "--aggressive", "option"),
    (".git/config", ".git/config", "file"),
    ("sqlite3_open()", "sqlite3_open", "function"),
    ("VACUUM FULL", "VACUUM FULL", "keyword"),
    ("pg_dump", "pg_dump", "identifier"),
])
def test_a_code_span_names_what_its_shape_says(code: str, name: str, kind: str) -> None:
    found = code_name(code)
    assert found is not None and (found.name, found.type) == (name, kind)


@pytest.mark.parametrize("code", ["<percent>", "0.5", "%(refname:strip=2)", "stash@{0}", "--"])
def test_code_that_names_nothing_gives_no_name(code: str) -> None:
    assert code_name(code) is None


def test_a_name_is_found_where_it_stands_in_the_text() -> None:
    text = "Run `  git gc --auto` or set `gc.auto`."
    (_, gc), (_, setting) = code_names(text)
    assert gc is not None and text[gc.start:gc.end] == "git gc"
    assert setting is not None and text[setting.start:setting.end] == "gc.auto"


def _extract(texts: list[str]) -> list[str]:
    settings = FastExtractionSettings(min_concept_frequency=1, hub_degree_percentile=100)
    chunks = [Chunk(f"c{i}", "d1", text, i, 50) for i, text in enumerate(texts)]
    return [f"{e.name}|{e.type}|{e.description}"
            for x in extract_fast(load_pipeline, chunks, settings) for e in x.entities]


def test_inline_code_becomes_typed_entities_and_descriptions_keep_it() -> None:
    found = _extract(["Run `pg_dump -Fc mydb` before you set `wal_level` to `replica`. "
                      "The `--clean` option of `pg_dump` drops objects first."])
    names = {line.split("|")[0]: line.split("|")[1] for line in found}
    assert names["pg_dump"] == "command" and names["--clean"] == "option"
    assert names["wal_level"] == "identifier"
    # The sentence is kept whole: no "( , , and )" where the code was.
    assert any("`wal_level` to `replica`" in line for line in found)
    # No noun phrase is made of code words.
    assert "mydb" not in names and "-Fc" not in names


def _counts(mentions: list[tuple[str, str, bool]]) -> TermCounts:
    counts = TermCounts()
    for n, (key, kind, heading) in enumerate(mentions):
        counts.add(ChunkTerms(f"c{n}", ["s"], [Term(key, key, kind, 0, False, -1, False,
                                                    heading)]))
    return counts


def test_a_type_given_to_few_of_a_names_mentions_is_a_concept() -> None:
    settings = FastExtractionSettings()
    counts = _counts([("gist", "person", False), ("gist", "location", False),
                      ("gist", "organization", False),
                      ("ada", "person", False), ("ada", "", False), ("ada", "", False),
                      ("acl privilege", "organization", True)])
    types = counts.voted_types({"gist", "ada", "acl privilege"}, settings)
    # NER typed GiST three ways, Ada once but alike; a name seen only as a heading is a
    # title, not an org.
    assert types == {"gist": "concept", "ada": "person", "acl privilege": "concept"}


def test_a_clumped_term_is_central_and_a_spread_one_is_not() -> None:
    counts = TermCounts()
    for n in range(40):
        terms = [Term("kind", "kind", "concept", 0, True, -1, False)]
        if n < 5:
            terms += [Term("trigger", "trigger", "concept", s, True, -1, False)
                      for s in range(6)]
        counts.add(ChunkTerms(f"c{n}", ["s"] * 6, terms))
    assert counts.central({"kind", "trigger"}) == {"trigger"}


def test_inline_code_is_parsed_whole_options_and_placeholders_included() -> None:
    kept = ProseMask(keep_inline_code=True).prose("Set a `<key>=<value>` pair, see <b>x</b>.")
    assert kept == "Set a `<key>=<value>` pair, see    x    ."
    assert unwrapped("use `--all`, not him--yes") == "use `--all`, not him \u2014 yes"
