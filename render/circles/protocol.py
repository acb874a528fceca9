"""The CS149 timing protocol's frames (``shared/perf/peers.md``): each step of a frame (clear, advance,
render) followed by a device synchronize, the frame timed with a wall clock. ``bench`` runs it on a
renderer, the floor on empty kernels."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from render.core.gpu import synchronize_device


def timed_frames(
    steps: Sequence[Callable[[], object]], frames: int, after: Callable[[], object] = lambda: None
) -> list[float]:
    """Milliseconds of each of ``frames`` frames of ``steps``; ``after`` runs after each frame, untimed."""
    totals = []
    for _ in range(frames):
        start = time.perf_counter()
        for step in steps:
            step()
            synchronize_device()
        totals.append((time.perf_counter() - start) * 1e3)
        after()
    return totals
