"""How many LLM calls may be in flight and how fast they start: the one limiter of a call path.

Additive increase, multiplicative decrease (TCP's congestion rule): each rate-limited reply
halves the limit once per window of calls (the replies of calls sent before the cut do not
cut again), and every successful call raises it by 1/limit, about one per window, back up to
the configured ceiling. A provider that admits N calls at a time thus sees about N, not a
storm of retries. Neither tenacity nor the OpenAI client adapts concurrency, hence this class.
A 429 also pauses every caller (`pause`): none starts a call until the provider's Retry-After
has passed, so they back off together. `per_minute` spaces the calls' starts evenly
(aiolimiter's leaky bucket of one call).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiolimiter import AsyncLimiter


@dataclass
class Slot:
    """One admitted call: the window it was sent in and its outcome (set by the caller)."""

    window: int
    ok: bool = False
    rate_limited: bool = False


class AdaptiveLimit:
    """A semaphore of one event loop whose size follows the provider's 429s.

        limit = AdaptiveLimit(25, per_minute=600)
        async with limit.slot() as slot:
            try: reply = await call(); slot.ok = True
            except RateLimitError: slot.rate_limited = True; limit.pause(retry_after); raise
    """

    def __init__(self, ceiling: int, per_minute: float | None = None) -> None:
        self.ceiling = max(1, ceiling)
        self.limit = float(self.ceiling)
        self.in_flight = 0
        self.cuts = 0  # also the current window's number
        self.resume_at = 0.0  # time.monotonic() before which no call starts
        self._changed = asyncio.Condition()
        self._pace = AsyncLimiter(1, 60.0 / per_minute) if per_minute else None

    @property
    def allowed(self) -> int:
        """Calls that may be in flight now."""
        return max(1, int(self.limit))

    def pause(self, seconds: float) -> None:
        """No call starts for `seconds` from now (a pause already longer stays)."""
        self.resume_at = max(self.resume_at, time.monotonic() + seconds)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Slot]:
        """Wait for room, a pause's end and the pace, hold room for one call, then grow or cut
        the limit by its outcome."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.in_flight < self.allowed)
            self.in_flight += 1
        slot = Slot(self.cuts)
        try:
            await self._after_pause()
            if self._pace is not None:
                await self._pace.acquire()
                await self._after_pause()  # a 429 may have come while this call waited
            yield slot
        finally:
            async with self._changed:
                self.in_flight -= 1
                self._adapt(slot)
                self._changed.notify_all()

    async def _after_pause(self) -> None:
        while (wait := self.resume_at - time.monotonic()) > 0:
            await asyncio.sleep(wait)

    def _adapt(self, slot: Slot) -> None:
        if slot.ok:
            self.limit = min(float(self.ceiling), self.limit + 1.0 / self.limit)
        elif slot.rate_limited and slot.window == self.cuts:
            # The first refusal of a window cuts; the others of that window only agree.
            self.limit = max(1.0, self.limit / 2)
            self.cuts += 1
