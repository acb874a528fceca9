"""The kernels' tests of circles against cells of the image (tiles, bins, warp regions) on the CPU,
in their own float32 arithmetic (``shaders/circle_common.cuh``), and the ranges of cells each
circle can pass them for: what the overlays count.

A cell is ``cell`` = (width, height) pixels; cells are numbered from the bottom-left corner, and
the last column and row are cut at the image's edge.
"""

from __future__ import annotations

import numpy as np

from render.circles import shading
from render.circles.cells import box_cells
from scenes.model import CircleScene

f32 = np.float32
EXACT_SLACK = f32(1.0001)  # disc_in_box_exact's tolerance


def pixel_ranges(scene: CircleScene, width: int, height: int, size: int):
    """Each circle's square cells of ``size`` pixels that hold pixels of its clamped pixel box, as
    half-open int64 ranges (x0, x1, y0, y1), (N,) each; empty for a circle with no pixel."""
    bounds = shading.pixel_bounds(scene.position, scene.radius, width, height)
    some = (bounds[:, 0] < bounds[:, 1]) & (bounds[:, 2] < bounds[:, 3])
    x0, y0 = bounds[:, 0] // size, bounds[:, 2] // size
    x1 = np.where(some, (bounds[:, 1] - 1) // size + 1, x0)
    y1 = np.where(some, (bounds[:, 3] - 1) // size + 1, y0)
    return x0, x1, y0, y1


def near_ranges(scene: CircleScene, cell: tuple[int, int], width: int, height: int):
    """Every cell whose box could pass a tile test for each circle, pixel box or not, as half-open
    int64 ranges (x0, x1, y0, y1): the circle's extent in cells (float64) widened by what the float32
    tests may add (the exact test's 1.0001 on r^2, about r / 20000; the rounding of sums as large as
    |center| + r) and one cell more on each side, cut to the grid."""
    radius = scene.radius.astype(np.float64)

    def along(center: np.ndarray, pixels: int, size: int):
        center = center.astype(np.float64)
        slack = radius * 1e-4 + (np.abs(center) + radius) * 1e-6
        with np.errstate(over="ignore", invalid="ignore"):
            lo = np.floor((center - radius - slack) * pixels / size) - 1
            hi = np.floor((center + radius + slack) * pixels / size) + 2
        cells = -(-pixels // size)
        return np.clip(lo, 0, cells).astype(np.int64), np.clip(hi, 0, cells).astype(np.int64)

    x0, x1 = along(scene.position[:, 0], width, cell[0])
    y0, y1 = along(scene.position[:, 1], height, cell[1])
    return x0, x1, y0, y1


def passing(scene: CircleScene, ranges, shape, size: int, width: int, height: int, test) -> np.ndarray:
    """int32 (rows, cols) with cols, rows = ``shape``: per square cell of ``size`` pixels, the
    circles of whose ``ranges`` it is one that pass ``test`` (``box_in_box`` or ``disc_in_box``)
    against the cell's box."""
    cols, rows = shape
    x, y, r = scene.position[:, 0], scene.position[:, 1], scene.radius
    counts = np.zeros(rows * cols, np.int64)
    for item, cx, cy in box_cells(*ranges):
        box = cell_boxes(cx, cy, (size, size), width, height)
        with np.errstate(over="ignore", invalid="ignore"):
            keep = test(x[item], y[item], r[item], box)
        counts += np.bincount((cy * cols + cx)[keep], minlength=rows * cols)
    return counts.reshape(rows, cols).astype(np.int32)


def cell_boxes(cx: np.ndarray, cy: np.ndarray, cell: tuple[int, int], width: int, height: int):
    """pixel_box of circle_common.cuh for cells (cx, cy) (int64 arrays) of ``cell`` pixels: float32
    (left, right, bottom, top) arrays in normalized units, cut at the image's edge."""
    x0, y0 = cx * cell[0], cy * cell[1]
    inv_w, inv_h = f32(1) / f32(width), f32(1) / f32(height)
    left = x0.astype(np.float32) * inv_w
    right = np.minimum(x0 + cell[0], width).astype(np.float32) * inv_w
    bottom = y0.astype(np.float32) * inv_h
    top = np.minimum(y0 + cell[1], height).astype(np.float32) * inv_h
    return left, right, bottom, top


def box_in_box(x, y, r, box) -> np.ndarray:
    """circle_in_box_conservative: the circle's bounding box overlaps the cell's."""
    left, right, bottom, top = box
    return (x >= left - r) & (x <= right + r) & (y >= bottom - r) & (y <= top + r)


def disc_in_box(x, y, r, box) -> np.ndarray:
    """disc_in_box_exact: the nearest point of the cell is within r (with its slack)."""
    left, right, bottom, top = box
    dx = np.minimum(np.maximum(x, left), right) - x
    dy = np.minimum(np.maximum(y, bottom), top) - y
    return dx * dx + dy * dy <= r * r * EXACT_SLACK
