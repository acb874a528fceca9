"""Per-stage GPU times from CUDA events (and, when switched on, NVTX ranges around the stages)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from render.core import nvtx
from render.core.frame_graph import record_event_node

Captured = TypeVar("Captured")


@dataclass(frozen=True)
class StageMarks:
    """What one frame's launches told a StageTimer: the stages timed, and those that queued nothing."""

    timed: frozenset[str]
    idle: frozenset[str]


class StageTimer:
    """CUDA events around each of ``stages`` in the latest frame; read after the work is done.

    A stage that queues no GPU work in a frame is marked ``idle`` and reads 0 ms: its two events
    would cost about 3 us of host time and a round trip to the GPU for its synchronize, for
    nothing measured (H100 machine; docs/log/2026-11-22-circle-kernel-tuning.md).

    Inside ``capture``, the events become event nodes of the CUDA graph being captured (see
    ``render.core.frame_graph``), so a replayed frame times its stages as a launched one does.
    """

    def __init__(self, stages: tuple[str, ...]) -> None:
        import cupy

        self._cupy = cupy
        self.stages = stages
        self._events = {stage: (cupy.cuda.Event(), cupy.cuda.Event()) for stage in stages}
        self._recorded: set[str] = set()
        self._idle: set[str] = set()
        self._capturing = False

    def _record(self, event) -> None:
        if self._capturing:
            record_event_node(event, self._cupy.cuda.get_current_stream())
        else:
            event.record()

    def start(self, stage: str) -> None:
        self._idle.discard(stage)
        if not self._capturing:
            nvtx.push(stage)
        self._record(self._events[stage][0])

    def stop(self, stage: str) -> None:
        self._record(self._events[stage][1])
        if not self._capturing:
            nvtx.pop()
        self._recorded.add(stage)

    def idle(self, stage: str) -> None:
        """This frame's ``stage`` queued no GPU work."""
        self._idle.add(stage)
        self._recorded.discard(stage)

    def capture(self, capture: Callable[[], Captured]) -> tuple[Captured, StageMarks]:
        """Run ``capture`` (which captures a frame into a CUDA graph) with the stage events recorded
        as graph nodes and no NVTX ranges; returns what it returned and the marks it made, for
        ``replay`` after each launch of the graph. The timer's own marks stay as they were."""
        recorded, idle = set(self._recorded), set(self._idle)
        self._recorded.clear()
        self._idle.clear()
        self._capturing = True
        try:
            captured = capture()
            return captured, StageMarks(frozenset(self._recorded), frozenset(self._idle))
        finally:
            self._capturing = False
            self._recorded, self._idle = recorded, idle

    def replay(self, marks: StageMarks) -> None:
        """A captured frame was launched: its stages are this frame's."""
        for stage in marks.timed:
            self._idle.discard(stage)
            self._recorded.add(stage)
        for stage in marks.idle:
            self.idle(stage)

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
