"""Frames of the CPU backend, rendered in a worker thread so that the window keeps responding."""

from __future__ import annotations

import concurrent.futures
import time

import numpy as np

from app.cpu_progress import CpuProgress
from render.core import progress
from render.core.renderer import Renderer


class FrameGivenUp(Exception):
    """The frame rendering was given up: a newer load replaced it, or the app is closing."""


class CpuFrames:
    """The CPU backend's frame pipeline: a frame is owed (``dirty``) after a load, a step or a
    change of look; ``poll`` starts rendering it in ``worker`` and hands back the finished image.
    Each load bumps ``generation``, so a frame still rendering for an older load is given up (the
    references stop within a fraction of a second, ``render.core.progress``), as is the frame under
    way when the app closes (``stop``)."""

    def __init__(self, worker: concurrent.futures.Executor) -> None:
        self._worker = worker
        self._job: concurrent.futures.Future | None = None
        self.generation = 0
        self.dirty = True
        self.advances_due = 0
        self.image: np.ndarray | None = None
        self.bands = progress.BandCounter()
        self._what = ""  # the frame rendering, or owed while an older one stops
        self._started = 0.0
        self._job_generation = 0
        self._stopping = False

    def restart(self, frame: int, on_cpu: bool) -> None:
        """A new renderer shows ``frame``: on the CPU it still owes the frame's advances."""
        self.generation += 1
        self.advances_due = frame + 1 if on_cpu else 0
        self.dirty = True
        self._started = time.monotonic()

    def step(self) -> None:
        """One more advance before the next frame."""
        self.advances_due += 1
        self.dirty = True

    def poll(self, renderer: Renderer, what: str = "") -> float | None:
        """The finished frame's seconds (its image in ``image``), or None; starts the owed frame,
        described by ``what`` (``app.cpu_progress.frame_title``), when none is rendering."""
        if self._job is not None:
            if not self._job.done():
                if self._job_generation != self.generation:
                    self._what = what  # what is owed, while the given-up frame stops
                return None
            job, self._job = self._job, None
            # Asked, not raised: raising it here would tie the job to its own traceback, keeping the
            # given-up frame's arrays until the cycle collector happens to run.
            if not isinstance(job.exception(), FrameGivenUp):
                generation, image, seconds = job.result()
                if generation == self.generation:
                    self.image = image
                    return seconds
        if self.dirty and not self._stopping:
            self.dirty = False
            advances, self.advances_due = self.advances_due, 0
            self.bands.start(0)
            if self._job_generation == self.generation:  # a step: a new frame of the same load
                self._started = time.monotonic()
            self._what, self._job_generation = what, self.generation
            self._job = self._worker.submit(self._render, renderer, advances, self.generation)
        return None

    @property
    def progress(self) -> CpuProgress | None:
        """The frame rendering now, and how far it has come (since its load, for the first frame of
        a load: a frame given up for it may still be stopping); None while none is."""
        if not self.busy:
            return None
        bands = self.bands.bands if self._job_generation == self.generation else progress.Bands()
        return CpuProgress(self._what, self._started, bands)

    def stop(self) -> None:
        """Give up the frame under way, and start no other (the app is closing)."""
        self._stopping = True

    @property
    def busy(self) -> bool:
        """True while a frame is rendering."""
        return self._job is not None and not self._job.done()

    @property
    def outstanding(self) -> bool:
        """True while a frame is owed: queued, rendering, or finished but not yet handed back."""
        return self.dirty or self._job is not None

    def _render(self, renderer: Renderer, advances: int, generation: int):
        """In the worker thread: the frame's advances and render; its bands counted on ``bands``."""

        def still_wanted(fraction: float) -> None:
            if self._stopping or generation != self.generation:
                raise FrameGivenUp

        started = time.perf_counter()
        with progress.reporting(still_wanted), progress.counting(self.bands):
            for _ in range(advances):
                renderer.advance()
            renderer.clear()
            renderer.render()
        return generation, renderer.image(), time.perf_counter() - started
