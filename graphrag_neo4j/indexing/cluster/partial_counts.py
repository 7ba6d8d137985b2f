"""Partial counts of a partitioned input merged into the counts of the whole input.

Each partition's worker returns the dataclass a run counts into (`TermCounts`, `EdgeWeights`,
and whatever counts a method adds later); `merged` adds them field by field by the field's kind,
so a new count needs no merge code of its own: a Counter or number is added, a set joined, a
dict merged key by key, an object with a `merge` method merged by it, anything else (settings,
the kept keys) must be equal in every part.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def merged(parts: Iterable[T], empty: T) -> T:
    """The counts of all `parts`, merged one by one as they come (in partition order) into
    `empty`, which is returned: a driver holds one part at a time besides the total."""
    for part in parts:
        merge_into(empty, part)
    return empty


def merge_into(total: Any, part: Any) -> None:
    """Add `part`'s counts to `total`'s, field by field (both the same dataclass)."""
    if type(total) is not type(part) or not dataclasses.is_dataclass(total):
        raise TypeError(f"cannot merge {type(part).__name__} into {type(total).__name__}")
    for field in dataclasses.fields(total):
        name = field.name
        setattr(total, name, _combined(getattr(total, name), getattr(part, name), name))


def _combined(held: Any, more: Any, name: str) -> Any:
    """One field's value over both parts."""
    if isinstance(held, Counter):
        held.update(more)
        return held
    if isinstance(held, dict):
        for key, value in more.items():
            held[key] = _combined(held[key], value, name) if key in held else value
        return held
    if isinstance(held, set):
        return held | more
    if isinstance(held, int | float) and not isinstance(held, bool):
        return held + more
    if hasattr(held, "merge"):
        held.merge(more)
        return held
    if held != more:
        raise ValueError(f"partial counts disagree on {name!r}, which every part shares")
    return held
