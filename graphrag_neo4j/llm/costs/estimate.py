"""What a run would cost per stage, as low-high ranges: the records every estimate returns."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from rich.table import Table


@dataclass(frozen=True)
class Range:
    """A low-high figure; equal ends mean the figure is exact. `mid` is the likeliest value
    when measurements give one (else the middle is taken)."""

    low: float
    high: float
    mid: float | None = field(default=None, compare=False)

    @classmethod
    def of(cls, value: float) -> Range:
        """An exact figure."""
        return cls(value, value)

    @property
    def exact(self) -> bool:
        """Whether both ends agree."""
        return self.low == self.high

    @property
    def expected(self) -> float:
        """The likeliest value: `mid`, else the middle of the range."""
        return self.mid if self.mid is not None else (self.low + self.high) / 2

    def __add__(self, other: Range) -> Range:
        return Range(self.low + other.low, self.high + other.high,
                     self.expected + other.expected)

    def scaled(self, factor: float) -> Range:
        """Both ends (and the likeliest value) times `factor`."""
        return Range(self.low * factor, self.high * factor, self.expected * factor)

    def text(self, fmt: str = ",.0f", unit: str = "") -> str:
        """`12,345` or `1,200-3,400`, with an optional unit."""
        if self.exact:
            return f"{unit}{self.low:{fmt}}"
        return f"{unit}{self.low:{fmt}}-{unit}{self.high:{fmt}}"


ZERO = Range.of(0)


@dataclass(frozen=True)
class StageEstimate:
    """One stage of a run: LLM calls (and those already cached), tokens, money and time."""

    stage: str
    calls: Range = ZERO
    cached_calls: int = 0
    prompt_tokens: Range = ZERO
    completion_tokens: Range = ZERO
    embedding_tokens: Range = ZERO
    cost: Range | None = ZERO
    seconds: Range | None = ZERO
    note: str = ""


def _sum(values: list[Range | None]) -> Range | None:
    total = ZERO
    for value in values:
        if value is None:
            return None
        total = total + value
    return total


@dataclass
class CostEstimate:
    """A whole run's estimate: facts about the input, the stages, and notes on assumptions."""

    facts: dict[str, int | str] = field(default_factory=dict)
    stages: list[StageEstimate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def total(self) -> StageEstimate:
        """Every stage added up (cost and time are unknown if any stage's is)."""
        stages = self.stages
        return StageEstimate(
            "total",
            _sum([s.calls for s in stages]) or ZERO,
            sum(s.cached_calls for s in stages),
            _sum([s.prompt_tokens for s in stages]) or ZERO,
            _sum([s.completion_tokens for s in stages]) or ZERO,
            _sum([s.embedding_tokens for s in stages]) or ZERO,
            _sum([s.cost for s in stages]),
            _sum([s.seconds for s in stages]),
        )

    def stage(self, name: str) -> StageEstimate:
        """The estimate of one stage by name."""
        return next(s for s in self.stages if s.stage == name)

    @property
    def all_cached(self) -> bool:
        """Whether the run would make no LLM or embedding call that costs anything."""
        total = self.total()
        return total.calls.high == 0 and total.embedding_tokens.high == 0

    def to_json(self) -> str:
        """The estimate for scripts: facts, stages with their totals, notes."""
        stages = [asdict(s) for s in [*self.stages, self.total()]]
        return json.dumps({"facts": self.facts, "stages": stages, "notes": self.notes},
                          indent=2)

    def table(self, title: str = "Estimate (nothing written, no LLM called)") -> Table:
        """A rich table: one row per stage and a total row."""
        table = Table(title=title)
        for header in ("stage", "LLM calls", "cached", "prompt tok", "completion tok",
                       "embedding tok", "cost USD", "time s", "note"):
            table.add_column(header, justify="left" if header in {"stage", "note"} else "right",
                             overflow="fold", no_wrap=header != "note")
        for stage in [*self.stages, self.total()]:
            table.add_row(
                stage.stage, stage.calls.text(), f"{stage.cached_calls:,}",
                stage.prompt_tokens.text(), stage.completion_tokens.text(),
                stage.embedding_tokens.text(),
                stage.cost.text(".4f") if stage.cost is not None else "unknown",
                stage.seconds.text(",.0f") if stage.seconds is not None else "unknown",
                stage.note, style="bold" if stage.stage == "total" else None,
            )
        return table
