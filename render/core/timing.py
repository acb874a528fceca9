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
    """What one frame's launches told a StageTimer: the stages timed, those that queued nothing, and
    those that began where another ended (``switch``), as (stage, the stage it followed) pairs."""

    timed: frozenset[str]
    idle: frozenset[str]
    switched: frozenset[tuple[str, str]] = frozenset()


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
        # stage -> the stage whose stop event is its start (``switch``), in the latest frame
        self._switched: dict[str, str] = {}
        self._capturing = False
        # ``switch`` records beside the stream: on a stream of its own that waits for it (fork), and
        # that the stream waits for again (join) at its next record. Non-blocking: a capture on a
        # stream that syncs with the legacy default stream would be lost to another thread's use of it.
        self._beside = cupy.cuda.Stream(non_blocking=True)
        self._fork, self._join = cupy.cuda.Event(disable_timing=True), cupy.cuda.Event(disable_timing=True)
        self._joined = True

    def _rejoin(self, stream) -> None:
        """``stream`` waits for what ``switch`` recorded beside it, if it has not yet."""
        if not self._joined:
            self._join.record(self._beside)
            stream.wait_event(self._join)
            self._joined = True

    def _record_on(self, event, stream) -> None:
        if self._capturing:
            record_event_node(event, stream)
        else:
            event.record(stream)

    def _record(self, event) -> None:
        stream = self._cupy.cuda.get_current_stream()
        self._rejoin(stream)
        self._record_on(event, stream)

    def start(self, stage: str) -> None:
        self._idle.discard(stage)
        self._switched.pop(stage, None)
        if not self._capturing:
            nvtx.push(stage)
        self._record(self._events[stage][0])

    def stop(self, stage: str) -> None:
        self._record(self._events[stage][1])
        if not self._capturing:
            nvtx.pop()
        self._recorded.add(stage)

    def switch(self, stopping: str, starting: str) -> None:
        """``stopping`` ends and ``starting`` begins at one event, recorded once the work queued so
        far is done but beside the stream, not on it: the stream's next launch then waits for the
        launches before it only. In a captured graph an event node between two kernels delays the
        second by microseconds (docs/performance.md, "Stage events beside the frame's path")."""
        stream = self._cupy.cuda.get_current_stream()
        self._rejoin(stream)
        self._fork.record(stream)
        self._beside.wait_event(self._fork)
        self._record_on(self._events[stopping][1], self._beside)
        self._joined = False  # the stream waits for it at its next record
        if not self._capturing:
            nvtx.pop()
            nvtx.push(starting)
        self._recorded.add(stopping)
        self._idle.discard(starting)
        self._switched[starting] = stopping

    def idle(self, stage: str) -> None:
        """This frame's ``stage`` queued no GPU work."""
        self._idle.add(stage)
        self._recorded.discard(stage)

    def capture(self, capture: Callable[[], Captured]) -> tuple[Captured, StageMarks]:
        """Run ``capture`` (which captures a frame into a CUDA graph) with the stage events recorded
        as graph nodes and no NVTX ranges; returns what it returned and the marks it made, for
        ``replay`` after each launch of the graph. The timer's own marks stay as they were."""
        # A frame that failed after a switch left it unjoined: joined here, before the capture, as a
        # capturing stream may not wait for an event recorded outside it.
        self._rejoin(self._cupy.cuda.get_current_stream())
        recorded, idle, switched = set(self._recorded), set(self._idle), dict(self._switched)
        self._recorded.clear()
        self._idle.clear()
        self._switched.clear()
        self._capturing = True
        try:
            captured = capture()
            return captured, StageMarks(
                frozenset(self._recorded), frozenset(self._idle), frozenset(self._switched.items())
            )
        finally:
            self._capturing = False
            self._joined = True  # a fork inside the capture was joined, or went with the failed graph
            self._recorded, self._idle, self._switched = recorded, idle, switched

    def replay(self, marks: StageMarks) -> None:
        """A captured frame was launched: its stages are this frame's."""
        for stage in marks.timed:
            self._idle.discard(stage)
            self._recorded.add(stage)
            self._switched.pop(stage, None)
        for stage in marks.idle:
            self.idle(stage)
        for stage, after in marks.switched:
            self._switched[stage] = after

    def times_ms(self) -> dict[str, float]:
        """Milliseconds per stage timed or marked idle (synchronizes with the last recorded event)."""
        times = {}
        for stage in self.stages:
            if stage in self._idle:
                times[stage] = 0.0
            elif stage in self._recorded:
                start, stop = self._events[stage]
                if stage in self._switched:
                    start = self._events[self._switched[stage]][1]
                stop.synchronize()
                times[stage] = self._cupy.cuda.get_elapsed_time(start, stop)
        return times
