"""The offline models as they are named before any is loaded: names, sizes and languages.

Provider resolution and the language check read these without importing the models' modules
(and LangChain with them).
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_GGUF_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


@dataclass(frozen=True)
class OfflineEmbedder:
    """An offline embedder's model name, vector size and the languages it was trained on."""

    name: str
    dimension: int
    languages: tuple[str, ...]


# Trained on English pairs only: other languages' texts get vectors that match poorly.
MINILM = OfflineEmbedder("all-MiniLM-L6-v2-int8", 384, ("en",))
# Google's Universal Sentence Encoder (multilingual v3): 16 languages (Chinese in both
# scripts), as ISO 639-1 codes.
MULTILINGUAL = OfflineEmbedder(
    "universal-sentence-encoder-multilingual-v3", 512,
    ("ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "th", "tr", "zh"),
)
