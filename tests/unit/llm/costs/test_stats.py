"""Per-model measurements beside the cache: ratio extremes, sums and the speed fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_neo4j.llm.costs.stats import (
    COMPLETION_COST_PRIOR,
    ModelStats,
    StageStats,
    fit_throughput,
)


def test_observations_add_up_per_model_and_stage(tmp_path: Path) -> None:
    stats = ModelStats(tmp_path / "cache.sqlite")
    stats.record("model-a", "extract", 1000, 100, 2.0)
    stats.record("model-a", "extract", 500, 200, 3.0)
    stats.record("model-a", "glean", 800, 8, 1.0)
    stats.record("model-b", "extract", 10, 10, 1.0)
    stages = stats.stages("model-a")
    stats.close()
    extract = stages["extract"]
    assert (extract.calls, extract.prompt_tokens, extract.completion_tokens) == (2, 1500, 300)
    assert extract.seconds == 5.0 and extract.prompt_per_call == 750
    assert (extract.min_ratio, extract.max_ratio) == (0.1, 0.4)
    assert set(stages) == {"extract", "glean"}
    again = ModelStats(tmp_path / "cache.sqlite")
    assert again.stages("model-b")["extract"].calls == 1  # kept on disk
    again.close()


def test_the_fit_recovers_prompt_and_completion_speeds(tmp_path: Path) -> None:
    stats = ModelStats(tmp_path / "cache.sqlite")
    # 60 prompt tokens/s and 20 completion tokens/s, as llama.cpp measures on two cores.
    for prompt, completion in [(600, 100), (1200, 50), (300, 400)]:
        stats.record("m", "extract", prompt, completion, prompt / 60 + completion / 20)
    throughput = fit_throughput(list(stats.stages("m").values()))
    stats.close()
    assert throughput is not None
    assert throughput.prompt_s == pytest.approx(1 / 60)
    assert throughput.completion_s == pytest.approx(1 / 20)


def test_one_observation_uses_the_prior_and_none_gives_none() -> None:
    one = StageStats(1, 100, 50, 5.0, 0.5, 0.5, 100**2, 50**2, 100 * 50, 500.0, 250.0)
    throughput = fit_throughput([one])
    assert throughput is not None
    assert throughput.completion_s == pytest.approx(COMPLETION_COST_PRIOR * throughput.prompt_s)
    assert throughput.seconds(100, 50) == pytest.approx(5.0)
    assert fit_throughput([]) is None
