"""Per-stage GPU times from CUDA events (and, when switched on, NVTX ranges around the stages)."""

from __future__ import annotations

from render.core import nvtx


class StageTimer:
    """CUDA events around each of ``stages`` in the latest frame; read after the work is done.

    A stage that queues no GPU work in a frame is marked ``idle`` and reads 0 ms: its two events
    would cost about 3 us of host time and a round trip to the GPU for its synchronize, for
    nothing measured (H100 machine; docs/log/2026-11-22-circle-kernel-tuning.md)."""

    def __init__(self, stages: tuple[str, ...]) -> None:
        import cupy

        self._cupy = cupy
        self.stages = stages
        self._events = {stage: (cupy.cuda.Event(), cupy.cuda.Event()) for stage in stages}
        self._recorded: set[str] = set()
        self._idle: set[str] = set()

    def start(self, stage: str) -> None:
        self._idle.discard(stage)
        nvtx.push(stage)
        self._events[stage][0].record()

    def stop(self, stage: str) -> None:
        self._events[stage][1].record()
        nvtx.pop()
        self._recorded.add(stage)

    def idle(self, stage: str) -> None:
        """This frame's ``stage`` queued no GPU work."""
        self._idle.add(stage)
        self._recorded.discard(stage)

    def times_ms(self) -> dict[str, float]:
        """Milliseconds per stage timed or marked idle (synchronizes with the last recorded event)."""
        times = {}
        for stage in self.stages:
            if stage in self._idle:
                times[stage] = 0.0
            elif stage in self._recorded:
                start, stop = self._events[stage]
                stop.synchronize()
                times[stage] = self._cupy.cuda.get_elapsed_time(start, stop)
        return times
