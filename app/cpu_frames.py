"""Frames of the CPU backend, rendered in a worker thread so that the window keeps responding."""

from __future__ import annotations

import concurrent.futures
import time

import numpy as np

from render.core.renderer import Renderer


class CpuFrames:
    """The CPU backend's frame pipeline: a frame is owed (``dirty``) after a load, a step or a
    change of look; ``poll`` starts rendering it in ``worker`` and hands back the finished image.
    Each load bumps ``generation``, so a frame still rendering for an older load is dropped."""

    def __init__(self, worker: concurrent.futures.Executor) -> None:
        self._worker = worker
        self._job: concurrent.futures.Future | None = None
        self.generation = 0
        self.dirty = True
        self.advances_due = 0
        self.image: np.ndarray | None = None

    def restart(self, frame: int, on_cpu: bool) -> None:
        """A new renderer shows ``frame``: on the CPU it still owes the frame's advances."""
        self.generation += 1
        self.advances_due = frame + 1 if on_cpu else 0
        self.dirty = True

    def step(self) -> None:
        """One more advance before the next frame."""
        self.advances_due += 1
        self.dirty = True

    def poll(self, renderer: Renderer) -> float | None:
        """The finished frame's seconds (its image in ``image``), or None; starts the owed frame
        when none is rendering."""
        if self._job is not None:
            if not self._job.done():
                return None
            generation, image, seconds = self._job.result()
            self._job = None
            if generation == self.generation:
                self.image = image
                return seconds
        if self.dirty:
            self.dirty = False
            advances, self.advances_due = self.advances_due, 0
            self._job = self._worker.submit(_render, renderer, advances, self.generation)
        return None

    @property
    def busy(self) -> bool:
        """True while a frame is rendering."""
        return self._job is not None and not self._job.done()

    @property
    def outstanding(self) -> bool:
        """True while a frame is owed: queued, rendering, or finished but not yet handed back."""
        return self.dirty or self._job is not None


def _render(renderer: Renderer, advances: int, generation: int):
    started = time.perf_counter()
    for _ in range(advances):
        renderer.advance()
    renderer.clear()
    renderer.render()
    return generation, renderer.image(), time.perf_counter() - started
