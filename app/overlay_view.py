"""The overlay the window shows over the frame: which one, its figures for the frame on screen, and
the frame with its colours mixed in for the display."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from app.frame_follower import FrameFollower
from render.core.overlay import Overlay
from render.core.overlay_picture import overlaid_rgb8

if TYPE_CHECKING:
    from app.session import Session

NONE = "none"


class OverlayView(FrameFollower):
    """The overlay named ``name`` (``NONE``: none), computed again whenever the frame on screen
    changes: on the GPU at once, from the variant's own binning; on the CPU in the session's worker
    thread, after the frame it belongs to (a big scene's depth takes seconds there), for the binning
    rule of the variant the panel names. ``error`` says why the last one failed."""

    failures = (ValueError, MemoryError, RuntimeError)

    def __init__(self) -> None:
        super().__init__()
        self.name = NONE
        self.overlay: Overlay | None = None
        self.values: np.ndarray | None = None  # the overlay's values as float64, flat, for the histogram
        self.error = ""

    def choose(self, name: str) -> None:
        """Show overlay ``name`` (``NONE``: none) from the next frame on."""
        self.name, self.overlay, self.values, self.error = name, None, None, ""
        self.forget()

    def active(self, session: Session) -> bool:
        """Whether an overlay is chosen that the session's renderer draws."""
        return self.name in session.kind.overlays

    def ready(self, session: Session) -> bool:
        """Whether the overlay computed belongs to the frame on screen now."""
        return self.overlay is not None and self.current(session)

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

    def _at_once(self, session: Session) -> bool:
        return session.backend == "cuda"

    def _compute(self, session: Session) -> Overlay:
        rule = None if session.backend == "cuda" else session.variant
        return session.kind.overlay(session.renderer, self.name, rule)

    def _keep(self, session: Session, value: Overlay) -> None:
        self.overlay = value
        self.values = None if value.values is None else value.values.astype(np.float64).ravel()
        self.error = ""

    def _failed(self, error: Exception) -> None:
        said = str(error)
        self.overlay, self.values = None, None
        self.error = said if said.startswith(f"{self.name}: ") else f"{self.name}: {said}"
