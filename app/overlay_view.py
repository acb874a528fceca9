"""The overlay the window shows over the frame: which one, its figures for the frame on screen, and
the frame with its colours mixed in for the display."""

from __future__ import annotations

import concurrent.futures
from typing import TYPE_CHECKING

import numpy as np

from render.core.overlay import Overlay
from render.core.overlay_picture import overlaid_rgb8

if TYPE_CHECKING:
    from app.session import Session

NONE = "none"


class OverlayView:
    """The overlay named ``name`` (``NONE``: none), computed again whenever the frame on screen
    changes: on the GPU at once, from the variant's own binning; on the CPU in the session's worker
    thread, after the frame it belongs to (a big scene's depth takes seconds there), for the binning
    rule of the variant the panel names. ``error`` says why the last one failed."""

    def __init__(self) -> None:
        self.name = NONE
        self.overlay: Overlay | None = None
        self.values: np.ndarray | None = None  # the overlay's values as float64, flat, for the histogram
        self.error = ""
        self._shown_for: tuple | None = None
        self._job: concurrent.futures.Future | None = None
        self._job_for: tuple | None = None

    def choose(self, name: str) -> None:
        """Show overlay ``name`` (``NONE``: none) from the next frame on."""
        self.name, self.overlay, self.values, self.error, self._shown_for = name, None, None, "", None

    def active(self, session: Session) -> bool:
        """Whether an overlay is chosen that the session's renderer draws."""
        return self.name in session.kind.overlays

    def update(self, session: Session) -> bool:
        """After ``session.update``: True when a new overlay is ready to show."""
        key = self._key(session)
        if key is None or key == self._shown_for:
            return False
        if session.backend == "cuda":
            return self._take(key, lambda: session.kind.overlay(session.renderer, self.name, None))
        if self._job is not None and self._job.done():
            job, self._job = self._job, None
            if self._job_for == key:
                return self._take(key, job.result)
        if self._job is None and not session.frame_outstanding:
            self._job_for = key
            self._job = session.run_in_worker(session.kind.overlay, session.renderer, self.name, session.variant)
        return False

    def ready(self, session: Session) -> bool:
        """Whether the overlay computed belongs to the frame on screen now."""
        return self.overlay is not None and self._shown_for == self._key(session)

    def picture(self, image: np.ndarray) -> np.ndarray:
        """uint8 (H, W, 4), row 0 = bottom, for the display: ``image`` float32 (H, W, 4), row 0 =
        bottom, with the overlay mixed in."""
        assert self.overlay is not None
        rgb = overlaid_rgb8(image, self.overlay)[::-1]
        return np.concatenate([rgb, np.full((*rgb.shape[:2], 1), 255, np.uint8)], axis=2)

    def _key(self, session: Session) -> tuple | None:
        """What the overlay shown must belong to: None when there is none to compute."""
        if not self.active(session) or session.renderer is None:
            return None
        image = id(session.cpu.image) if session.backend == "cpu" else None
        return (self.name, id(session.renderer), session.frame, session.variant.label(), image)

    def _take(self, key: tuple, compute) -> bool:
        """Keep what ``compute()`` gives for ``key``; a failure is kept as ``error``."""
        self._shown_for = key
        try:
            self.overlay = compute()
        except (ValueError, MemoryError, RuntimeError) as error:
            self.overlay, self.values, self.error = None, None, f"{self.name}: {error}"
            return False
        values = self.overlay.values
        self.values = None if values is None else values.astype(np.float64).ravel()
        self.error = ""
        return True
