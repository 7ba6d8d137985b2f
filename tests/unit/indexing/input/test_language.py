"""Language detection on prose, and the warning when the embedder does not know a language."""

from __future__ import annotations

from pathlib import Path

from graphrag_neo4j.indexing.input.language import (
    UNKNOWN,
    Language,
    detect_language,
    embedder_mismatch,
    in_latin_script,
    language_counts,
)

ENGLISH = ("Ebenezer Scrooge kept a counting-house in London, where his clerk Bob Cratchit "
           "copied letters in a dismal little cell beyond.")
CHINESE = ("微软的图检索增强生成方法先从文档中抽取实体和关系，"
           "再把它们组织成社区，并为每个社区生成报告。")
RUSSIAN = ("Граф знаний хранит сущности и связи между ними, "
           "а поиск по графу находит ответы на вопросы.")
JAPANESE = "知識グラフは実体と関係を保存し、グラフ検索は複数の文書にまたがる質問に答えます。"


def test_languages_are_told_apart() -> None:
    assert detect_language(ENGLISH).code == "en"
    assert detect_language(CHINESE).code == "zh"
    assert detect_language(RUSSIAN).code == "ru"
    assert detect_language(JAPANESE).code == "ja"


def test_code_does_not_decide_the_language() -> None:
    code = "def load(path):\n    return open(path).read()\n" * 20
    text = CHINESE + "\n\n```python\n" + code + "```\n"
    assert detect_language(text).code == "zh"


def test_too_little_prose_is_unknown() -> None:
    assert detect_language("Paris.").code == UNKNOWN
    assert detect_language("```\nMATCH (n) RETURN n LIMIT 25\n```").code == UNKNOWN


def test_the_embedder_warning_names_the_languages_and_the_fix() -> None:
    counts = language_counts({"a": Language("zh", 0.99), "b": Language("zh", 0.98),
                              "c": Language("en", 1.0), "d": Language(UNKNOWN, 0.5)})
    assert counts == {"zh": 2, "en": 1}
    warning = embedder_mismatch(counts, ("en",), "all-MiniLM-L6-v2-int8")
    assert warning is not None
    assert "Chinese (2)" in warning and "all-MiniLM-L6-v2-int8" in warning
    assert "[embedding] provider" in warning
    assert embedder_mismatch(counts, None, "text-embedding-3-small") is None
    assert embedder_mismatch({"en": 3}, ("en",), "all-MiniLM-L6-v2-int8") is None


def test_the_multilingual_embedder_knows_the_seeds_languages_and_minilm_does_not() -> None:
    from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
    from graphrag_neo4j.llm.offline.multilingual import MultilingualEmbeddings

    counts = {"zh": 2, "ja": 1, "ru": 1, "en": 3}
    warning = embedder_mismatch(counts, MiniLMEmbeddings.languages, "MiniLM")
    assert warning is not None and 'provider = "offline-multilingual"' in warning
    assert embedder_mismatch(counts, MultilingualEmbeddings.languages, "USE") is None
    beyond = embedder_mismatch({"ro": 1}, MultilingualEmbeddings.languages, "USE")
    assert beyond is not None and "offline-multilingual" not in beyond and '"openai"' in beyond


def test_a_long_document_is_judged_on_a_sample_spread_over_all_of_it() -> None:
    import tracemalloc

    book = (Path(__file__).parents[4] / "sample" / "a_christmas_carol.txt").read_text("utf-8")
    long_english = book * 30  # about 5 MB
    # The detector's model loads on its first use: load it before counting, so the peak is the
    # document's whatever test ran first.
    detect_language(book[:2_000])
    tracemalloc.start()
    try:
        language = detect_language(long_english)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert language.code == "en"
    # Read whole, this text held 72 MB in the detector's feature list (15 MB now, mostly
    # the prose mask's copy of the text).
    assert peak < 30_000_000


def test_a_language_only_in_the_second_half_of_a_long_document_is_still_seen() -> None:
    code_then_chinese = "```\n" + "x = 1\n" * 20_000 + "```\n" + (CHINESE + "\n") * 2_000
    assert detect_language(code_then_chinese).code == "zh"


def test_the_latin_script_is_told_by_most_letters() -> None:
    assert in_latin_script("Scrooges Angestellter ist Bob Cratchit, in London.")
    assert not in_latin_script("斯克鲁奇的职员是鲍勃·克拉奇特, Bob.")
    assert in_latin_script("1843")  # no letters to judge by
