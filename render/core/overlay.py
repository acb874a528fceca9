"""An overlay: figures per cell of the image (per pixel, per tile), shown over the picture with a
colour map and a legend, and the statistics beside it. Kinds compute them (``RendererKind.overlay``);
``render.core.overlay_picture`` draws them."""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class Overlay:
    """``values`` (rows, cols), row 0 = bottom like the images, int32 or float32, one per cell of
    ``cell`` = (width, height) pixels (the last column and row cut at the image's edge); ``unit``
    says what a value counts, ``cell_name`` what a cell is (``pixel``, ``tile``, ``block``,
    ``warp``). ``values`` None: only the grid of cells is shown."""

    name: str
    cell: tuple[int, int]
    unit: str
    values: np.ndarray | None = None
    cell_name: str = "tile"


@dataclasses.dataclass(frozen=True)
class OverlayStats:
    """The figures that explain an overlay: its range, mean, and load imbalance (max / mean; inf
    when the mean is 0 and the max is not, 1 when both are 0)."""

    count: int
    low: float
    high: float
    mean: float
    imbalance: float

    def line(self) -> str:
        """For example ``min 0, mean 12.5, max 80, max/mean 6.40``."""
        figures = (figure(self.low), figure(self.mean), figure(self.high))
        return "min {}, mean {}, max {}, max/mean {:.2f}".format(*figures, self.imbalance)


def figure(value: float) -> str:
    """A whole number as it is, others to 4 significant digits (1 decimal from 1000 on)."""
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}" if abs(value) >= 1000 else f"{value:.4g}"


def overlay_stats(values: np.ndarray) -> OverlayStats:
    """The statistics of ``values`` (any shape, at least one value)."""
    flat = np.asarray(values, np.float64).ravel()
    high, mean = float(flat.max()), float(flat.mean())
    imbalance = high / mean if mean > 0 else (1.0 if high == 0 else float("inf"))
    return OverlayStats(len(flat), float(flat.min()), high, mean, imbalance)
