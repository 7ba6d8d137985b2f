"""Parsed chunks on disk: an unchanged text is never parsed twice by the same parser.

A chunk's terms are stored under its parsed text, the spaCy model, the parser version and the
settings that shape terms, so a re-run of an unchanged corpus parses nothing and a changed
document parses only its changed chunks (the chunk id is not part of the key: it is set on read).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from graphrag_neo4j.indexing.extraction.fast.nlp_model import MODEL_PACKAGE, MODEL_VERSION
from graphrag_neo4j.indexing.extraction.fast.terms import ChunkTerms, Term
from graphrag_neo4j.llm.cache.disk_cache import DiskCache, stable_key
from graphrag_neo4j.settings import FastExtractionSettings

# Bump when parsing or term building changes what a text yields (how Markdown code is read,
# the text folding, `terms.chunk_terms`): every cached parse is then made again.
# 2: ASCII dashes ("--") are folded into an em dash.
# 3: a blank line ends a sentence; an indented line continuing a paragraph is prose, not code.
# 4: inline code is parsed, and a name in it is a term typed by its shape.
PARSER_VERSION = 4
PARSE_CACHE_FILE = "fast_parse_cache.sqlite"
# The settings `terms.chunk_terms` reads; the others apply after parsing, to all chunks at once.
TERM_SETTINGS = ("label_types", "concepts", "concept_type", "min_concept_chars",
                 "max_concept_words")


class ParseCache:
    """Chunk terms by parsed text, in `cache_dir`.

        cache = ParseCache(settings.cache_dir, settings.extraction.fast)
        found = cache.get_many(["text one", "text two"])   # text -> ChunkTerms (chunk_id "")
        cache.put_many({"text three": terms})
    """

    def __init__(self, cache_dir: Path, settings: FastExtractionSettings) -> None:
        self._store = DiskCache(cache_dir / PARSE_CACHE_FILE, "chunk_terms")
        shaping = {name: getattr(settings, name) for name in TERM_SETTINGS}
        self._identity = (PARSER_VERSION, MODEL_PACKAGE, MODEL_VERSION,
                          metadata.version("spacy"), shaping)

    def key(self, text: str) -> str:
        """The key `text`'s terms are stored under (for `get_keyed`)."""
        return stable_key(self._identity, text)

    def get_many(self, texts: Sequence[str]) -> dict[str, ChunkTerms]:
        """The cached terms of those `texts` parsed before (their chunk ids left empty)."""
        keys = {self.key(text): text for text in texts}
        return {keys[key]: terms for key, terms in self.get_keyed(keys).items()}

    def get_keyed(self, keys: Iterable[str]) -> dict[str, ChunkTerms]:
        """The cached terms stored under those `keys` (their chunk ids left empty)."""
        return {key: _from_json(value) for key, value in self._store.get_many(keys).items()}

    def put_many(self, parsed: dict[str, ChunkTerms]) -> None:
        """Store each text's terms."""
        self._store.put_many({self.key(text): _to_json(terms) for text, terms in parsed.items()})

    def close(self) -> None:
        """Close the file."""
        self._store.close()


def _to_json(terms: ChunkTerms) -> dict[str, Any]:
    return {"sentences": terms.sentences,
            "terms": [dataclasses.astuple(term) for term in terms.terms],
            "verbs": [[index, lemma] for index, lemma in terms.verbs.items()]}


def _from_json(value: dict[str, Any]) -> ChunkTerms:
    return ChunkTerms("", list(value["sentences"]), [Term(*row) for row in value["terms"]],
                      {int(index): str(lemma) for index, lemma in value["verbs"]})
