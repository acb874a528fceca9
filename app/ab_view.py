"""The A/B view: the frame on screen (A) against the same frame rendered by another variant or by the
CPU reference (B), shown split at a divider, toggled, or as the absolute difference."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from app.frame_follower import FrameFollower
from render.core.image_io import to_rgb8
from render.core.overlay_picture import turbo
from render.core.renderer import RendererUnavailable, render_frame

if TYPE_CHECKING:
    from app.session import Session

REFERENCE = "reference"
MODES = ("split", "toggle", "difference")


@dataclasses.dataclass(frozen=True)
class Difference:
    """Where A and B differ: ``per_pixel`` float32 (H, W), row 0 = bottom, the largest absolute RGB
    difference of each pixel; ``values`` how many RGB values differ at all."""

    per_pixel: np.ndarray
    values: int

    @property
    def largest(self) -> float:
        return float(self.per_pixel.max()) if self.per_pixel.size else 0.0


def difference(a: np.ndarray, b: np.ndarray) -> Difference:
    """A against B, float32 (H, W, 4) each, row 0 = bottom; RGB only (NaN counts as differing)."""
    delta = np.abs(a[..., :3].astype(np.float32) - b[..., :3].astype(np.float32))
    differs = ~(a[..., :3] == b[..., :3])
    delta = np.where(differs, np.nan_to_num(delta, nan=np.inf), 0)
    return Difference(delta.max(axis=2), int(differs.sum()))


def ab_picture(a: np.ndarray, b: np.ndarray, mode: str, divider: float, show_b: bool) -> np.ndarray:
    """uint8 (H, W, 4), row 0 = bottom, for the display: ``a`` and ``b`` float32 (H, W, 4), row 0 =
    bottom, split at ``divider`` (0..1 of the width: A left of it, B right, a white line between),
    one of them (``show_b``), or their difference through turbo (black where they are equal)."""
    if mode == "difference":
        per_pixel = difference(a, b).per_pixel
        largest = per_pixel.max() if per_pixel.size else 0.0
        scale = np.where(np.isfinite(per_pixel), per_pixel, largest if np.isfinite(largest) else 1.0)
        top = scale.max() if scale.size and scale.max() > 0 else 1.0
        rgb = np.where((per_pixel > 0)[..., None], turbo(scale / top), np.uint8(0))
    elif mode == "toggle":
        rgb = to_rgb8(b if show_b else a)[::-1]
    else:
        rgb = to_rgb8(a)[::-1].copy()
        column = int(round(np.clip(divider, 0, 1) * rgb.shape[1]))
        rgb[:, column:] = to_rgb8(b[:, column:])[::-1]
        rgb[:, max(column - 1, 0) : column + 1] = 255
    return np.concatenate([rgb, np.full((*rgb.shape[:2], 1), 255, np.uint8)], axis=2)


class AbView(FrameFollower):
    """A/B for the session's frame: ``b`` names B (a variant label or REFERENCE). B is rendered
    again whenever the frame, the variant, the size or B changes: a GPU variant at once, the CPU
    reference in the session's worker thread (seconds for big scenes). ``error`` says why B could
    not render; ``diff`` is A against B once B is there."""

    failures = (RendererUnavailable, ValueError, MemoryError)

    def __init__(self) -> None:
        super().__init__()
        self.on = False
        self.b = REFERENCE
        self.mode = MODES[0]
        self.divider = 0.5
        self.show_b = False
        self.image_b: np.ndarray | None = None
        self.diff: Difference | None = None
        self.error = ""

    def choose(self, b: str) -> None:
        """Compare with ``b`` (a variant label or REFERENCE) from the next frame on."""
        self.b, self.image_b, self.diff, self.error = b, None, None, ""
        self.forget()

    def ready(self, session: Session) -> bool:
        """Whether B belongs to the frame on screen now."""
        return self.image_b is not None and self.current(session)

    def picture(self, a: np.ndarray) -> np.ndarray:
        """The display's uint8 (H, W, 4), row 0 = bottom, of ``a`` (the session's image) and B."""
        assert self.image_b is not None
        return ab_picture(a, self.image_b, self.mode, self.divider, self.show_b)

    def _key(self, session: Session) -> tuple | None:
        if not self.on or session.renderer is None or session.scene is None or session.backend != "cuda":
            return None
        return (self.b, id(session.renderer), session.frame, session.settings.size, session.variant.label())

    def _at_once(self, session: Session) -> bool:
        return self.b != REFERENCE  # a GPU variant; the reference renders in the worker thread

    def _compute(self, session: Session) -> np.ndarray:
        """The session's frame by B (the variant, or the CPU reference), from its scene."""
        choice = None if self.b == REFERENCE else session.kind.variants.parse(self.b)
        renderer = session.kind.make_renderer(choice, session.look())
        renderer.load(session.scene, session.settings.size, session.settings.size)
        return render_frame(renderer, session.frame)

    def _keep(self, session: Session, value: np.ndarray) -> None:
        self.image_b = value
        a = session.host_image()
        self.diff = difference(a, value) if a is not None else None
        self.error = ""

    def _failed(self, error: Exception) -> None:
        self.image_b, self.diff, self.error = None, None, f"B ({self.b}): {error}"
