"""Wall-clock laps of the app's loop, so ``gui --stats`` can say where a frame's host time goes."""

from __future__ import annotations

import time

HOST_PHASE = "host phase: "  # the frame log's keys of host-side phases, beside the GPU stages


class PhaseClock:
    """Laps of one pass of the loop, started at construction: ``laps`` maps "host phase: PHASE" to the
    milliseconds since the previous lap."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.laps[HOST_PHASE + phase] = (now - self._last) * 1000
        self._last = now
