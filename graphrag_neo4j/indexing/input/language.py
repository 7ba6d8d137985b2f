"""The language a document is written in, from its prose (py3langid's model, shipped in its wheel).

Text in the Latin script is named only when the detector is confident: short English passages
full of foreign names and titles are otherwise taken for another language. Text mostly in
another script (Chinese, Cyrillic...) cannot be English, so its best guess stands. Otherwise
the document counts as unknown and is read as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.input.prose import prose_of
from graphrag_neo4j.llm.offline.catalog import MULTILINGUAL

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

UNKNOWN = "unknown"
# Below this confidence a Latin-script language is not named: on 8,000 short English Wikipedia
# passages the detector's wrong guesses (names and quoted titles) stayed under it but for one.
MIN_CONFIDENCE = 0.95
MIN_LETTERS = 20  # fewer letters of prose than this say too little to judge
# The detector keeps a list entry per feature of the text (5 MB held 72 MB and took 9 s), so
# a long document is judged on this many characters of prose, in pieces spread over all of it.
SAMPLE_CHARS = 60_000
SAMPLE_PIECES = 12
LATIN_END = 0x250  # Basic Latin to Latin Extended-B: the letters of the Latin script
# Names for the languages users meet most; any other is shown by its ISO 639 code.
LANGUAGE_NAMES = {
    "en": "English", "zh": "Chinese", "ja": "Japanese", "ru": "Russian", "ko": "Korean",
    "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
    "nl": "Dutch", "pl": "Polish", "uk": "Ukrainian", "ar": "Arabic", "hi": "Hindi",
    "tr": "Turkish", "vi": "Vietnamese", "sv": "Swedish", "ro": "Romanian", "th": "Thai",
}


@dataclass(frozen=True)
class Language:
    """A detected language: its ISO 639 code (or `unknown`) and the detector's confidence."""

    code: str
    confidence: float

    @property
    def name(self) -> str:
        """The language's English name, or its code."""
        return LANGUAGE_NAMES.get(self.code, self.code)


def detect_language(text: str) -> Language:
    """The language of the prose of `text` (code, URLs, tables not counted)."""
    prose = _spread_sample(prose_of(text))
    letters = [ch for ch in prose if ch.isalpha()]
    if len(letters) < MIN_LETTERS:
        return Language(UNKNOWN, 0.0)
    code, confidence = _identifier().classify(prose)
    if confidence < MIN_CONFIDENCE and _mostly_latin(letters):
        return Language(UNKNOWN, float(confidence))
    return Language(str(code), float(confidence))


def in_latin_script(text: str) -> bool:
    """Whether at least half the letters of `text` are Latin (True with no letters)."""
    return _mostly_latin([ch for ch in text if ch.isalpha()])


def _mostly_latin(letters: Sequence[str]) -> bool:
    return sum(ord(ch) < LATIN_END for ch in letters) * 2 >= len(letters)


def language_counts(languages: Mapping[str, Language]) -> dict[str, int]:
    """How many documents are in each language, by ISO code (unknown not counted)."""
    counts: dict[str, int] = {}
    for language in languages.values():
        if language.code != UNKNOWN:
            counts[language.code] = counts.get(language.code, 0) + 1
    return counts


def _spread_sample(prose: str) -> str:
    """`prose` itself when short, else SAMPLE_PIECES pieces of it spread from start to end."""
    if len(prose) <= SAMPLE_CHARS:
        return prose
    piece, step = SAMPLE_CHARS // SAMPLE_PIECES, len(prose) // SAMPLE_PIECES
    return "\n".join(prose[start:start + piece] for start in range(0, step * SAMPLE_PIECES, step))


@lru_cache(maxsize=1)
def _identifier() -> LanguageIdentifier:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def embedder_mismatch(counts: Mapping[str, int], embedder_languages: Sequence[str] | None,
                      embedder_name: str) -> str | None:
    """One sentence when documents are in languages the embedder was not trained on.

    `counts`: documents per ISO code; `embedder_languages`: the codes the embedder knows
    (None: any).
    """
    if embedder_languages is None:
        return None
    others = {code: n for code, n in counts.items()
              if code not in (*embedder_languages, UNKNOWN)}
    if not others:
        return None
    listed = ", ".join(f"{Language(code, 1.0).name} ({n})"
                       for code, n in sorted(others.items(), key=lambda item: -item[1]))
    known = ", ".join(Language(code, 1.0).name for code in embedder_languages)
    offline = (set(others) <= set(MULTILINGUAL.languages)
               and tuple(embedder_languages) != MULTILINGUAL.languages)
    choice = ('provider = "offline-multilingual" (16 languages, offline) or "openai"' if offline
              else 'provider = "openai"')
    return (f"Documents in {listed} are embedded by {embedder_name}, which knows "
            f"{known} only, so their chunks are found poorly by similarity;"
            f" for such a corpus set [embedding] {choice} (or a multilingual model behind"
            " base_url) and re-index.")
