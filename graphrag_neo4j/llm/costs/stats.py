"""Measured completion/prompt ratios and speed per (model, stage), kept beside the LLM cache.

Every fresh (uncached) call adds one observation; estimates read them back to predict
completion tokens and wall time for the same model. The `models` probe counts too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_neo4j.llm.cache.sqlite_file import SharedFile, shared_file

# The stage an embedder's measurements are kept under (prompt tokens are the texts' tokens).
EMBEDDING_STAGE = "embed"
# Seconds per completion token over seconds per prompt token when the measurements cannot yet
# separate the two (one observation): ~60 prompt vs ~20 generated tokens/s measured on llama.cpp.
COMPLETION_COST_PRIOR = 3.0
_COLUMNS = ("calls", "prompt_tokens", "completion_tokens", "seconds", "min_ratio", "max_ratio",
            "spp", "scc", "spc", "sps", "scs")
_CREATE = (
    "CREATE TABLE IF NOT EXISTS model_stats (identity TEXT NOT NULL, stage TEXT NOT NULL, "
    "calls INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
    " seconds REAL NOT NULL, min_ratio REAL NOT NULL, max_ratio REAL NOT NULL, spp REAL NOT NULL,"
    " scc REAL NOT NULL, spc REAL NOT NULL, sps REAL NOT NULL, scs REAL NOT NULL, "
    "PRIMARY KEY (identity, stage))"
)
# One observation folded into the running sums; ratios keep their extremes.
_UPSERT = (
    "INSERT INTO model_stats VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (identity, stage) DO UPDATE SET calls = calls + 1, "
    "prompt_tokens = prompt_tokens + excluded.prompt_tokens, "
    "completion_tokens = completion_tokens + excluded.completion_tokens, "
    "seconds = seconds + excluded.seconds, min_ratio = min(min_ratio, excluded.min_ratio), "
    "max_ratio = max(max_ratio, excluded.max_ratio), spp = spp + excluded.spp, "
    "scc = scc + excluded.scc, spc = spc + excluded.spc, sps = sps + excluded.sps, "
    "scs = scs + excluded.scs"
)


@dataclass(frozen=True)
class StageStats:
    """What the fresh calls of one stage of one model measured, summed."""

    calls: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    min_ratio: float
    max_ratio: float
    spp: float = 0.0
    scc: float = 0.0
    spc: float = 0.0
    sps: float = 0.0
    scs: float = 0.0

    @property
    def prompt_per_call(self) -> float:
        """Average prompt tokens of one call."""
        return self.prompt_tokens / self.calls if self.calls else 0.0


@dataclass(frozen=True)
class Throughput:
    """Seconds per prompt token and per completion token of one model (one call at a time)."""

    prompt_s: float
    completion_s: float

    def seconds(self, prompt_tokens: float, completion_tokens: float) -> float:
        """Model time of calls with these token totals."""
        return prompt_tokens * self.prompt_s + completion_tokens * self.completion_s


def fit_throughput(stages: list[StageStats]) -> Throughput | None:
    """Least squares seconds = a * prompt + b * completion over every observation; with too
    few observations to separate a from b, b = COMPLETION_COST_PRIOR * a."""
    if not stages:
        return None
    spp, scc, spc, sps, scs = (sum(getattr(s, n) for s in stages)
                               for n in ("spp", "scc", "spc", "sps", "scs"))
    det = spp * scc - spc * spc
    if det > 1e-9 * max(spp * scc, 1.0):
        a, b = (sps * scc - scs * spc) / det, (scs * spp - sps * spc) / det
        if a >= 0 and b > 0:
            return Throughput(a, b)
    seconds = sum(s.seconds for s in stages)
    weighted = sum(s.prompt_tokens + COMPLETION_COST_PRIOR * s.completion_tokens for s in stages)
    if weighted <= 0:
        return None
    a = seconds / weighted
    return Throughput(a, COMPLETION_COST_PRIOR * a)


class ModelStats:
    """The `model_stats` table in the LLM cache file; safe to share between threads and
    processes (one connection per process and file, see `sqlite_file`)."""

    def __init__(self, path: Path) -> None:
        self._file: SharedFile | None = shared_file(path)
        self._file.ensure(_CREATE)
        self._path = path

    @property
    def _db(self) -> SharedFile:
        if self._file is None:
            raise RuntimeError(f"The model statistics in {self._path} are closed.")
        return self._file

    def record(self, identity: str, stage: str, prompt_tokens: int, completion_tokens: int,
               seconds: float) -> None:
        """Add one fresh call's measurement."""
        p, c, s = float(prompt_tokens), float(completion_tokens), float(seconds)
        ratio = c / p if p > 0 else 0.0
        row = (identity, stage, prompt_tokens, completion_tokens, s, ratio, ratio,
               p * p, c * c, p * c, p * s, c * s)
        self._db.write(lambda conn: conn.execute(_UPSERT, row))

    def stages(self, identity: str) -> dict[str, StageStats]:
        """Every stage measured for this model."""
        statement = f"SELECT stage, {', '.join(_COLUMNS)} FROM model_stats WHERE identity = ?"
        rows: list[Any] = self._db.run(
            lambda conn: conn.execute(statement, (identity,)).fetchall(), [])
        return {row[0]: StageStats(*row[1:]) for row in rows}

    def close(self) -> None:
        """Let go of the file (the process's last user closes its connection)."""
        if self._file is not None:
            self._file.release()
            self._file = None
