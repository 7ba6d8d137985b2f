"""Documents' detected languages kept in the cache folder: a text detected once is not again.

Loading the detector's model (an LZMA-compressed table) costs about 0.6 s a process, which a
re-run of an unchanged corpus would otherwise pay for nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.input.language import (
    MIN_CONFIDENCE,
    MIN_LETTERS,
    Language,
    detect_language,
)
from graphrag_neo4j.llm.cache.disk_cache import DiskCache, stable_key

if TYPE_CHECKING:
    from graphrag_neo4j.indexing.records import Document

LANGUAGE_CACHE_FILE = "language_cache.sqlite"
# Bump when detect_language's rule changes (what counts as prose, when a guess stands).
_RULE_VERSION = 2


def document_languages(documents: Sequence[Document], cache_dir: Path) -> dict[str, Language]:
    """Each document's language by document id: from the cache, else detected and kept."""
    cache = DiskCache(cache_dir / LANGUAGE_CACHE_FILE, "languages")
    try:
        keys = {d.id: _key(d.text) for d in documents}
        known = cache.get_many(keys.values())
        found = {doc_id: Language(*known[key]) for doc_id, key in keys.items() if key in known}
        fresh = {d.id: detect_language(d.text) for d in documents if d.id not in found}
        cache.put_many({keys[doc_id]: [lang.code, lang.confidence]
                        for doc_id, lang in fresh.items()})
        return found | fresh
    finally:
        cache.close()


def _key(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return stable_key(_RULE_VERSION, metadata.version("py3langid"), MIN_CONFIDENCE, MIN_LETTERS,
                      digest)
