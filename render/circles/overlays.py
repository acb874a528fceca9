"""What the circle renderer's overlays show, computed on the CPU with the kernels' own float32
tests: the oracle for the GPU's figures and the figures themselves on the CPU backend.

* ``tiles``: the grid of pixels that one block of a variant's blend kernel owns;
* ``depth``: per pixel, how many circles cover its center (the blend's test, the reference's box);
* ``candidates``: per tile, how many circles the variant tests for it: tile-scan every circle that
  passes its tile test, tile-sort the keys its sort puts in the tile's range, tile-warp the length
  of the bin list of the tile's coarse bin (every circle with ``bins=off``), per-pixel every circle.

Arrays are row 0 = bottom, as the renderer's images are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from render.circles import shading
from render.circles.cells import box_cells
from render.circles.strategies import int_define
from render.circles.tile_warp import tile_warp_bins
from render.circles.variants import VARIANTS
from render.core.grids import BLOCK_2D, grid_2d
from render.core.overlay import Overlay
from render.core.renderer import Renderer
from render.core.variants import VariantChoice
from scenes.model import CircleScene

f32 = np.float32
OVERLAYS = ("tiles", "depth", "candidates")
EXACT_SLACK = f32(1.0001)  # disc_in_box_exact's tolerance (shaders/circle_common.cuh)


def circle_overlay(renderer: Renderer, name: str, choice: VariantChoice | None) -> Overlay:
    """The overlay ``name`` (one of OVERLAYS) of the frame ``renderer`` has just rendered: a CUDA
    renderer's from its own variant and its GPU's figures, the CPU reference's for the binning
    rule of ``choice`` (None or ``auto``: the variant ``auto`` picks for the scene)."""
    from render.circles.auto import choose_auto
    from render.circles.reference import ReferenceRenderer
    from render.circles.renderer import CudaRenderer

    width, height = renderer.width, renderer.height  # type: ignore[attr-defined]
    figures: dict[str, Callable[[], np.ndarray]]
    if isinstance(renderer, CudaRenderer):
        assert renderer.resolved is not None
        rule = renderer.resolved
        figures = {"depth": renderer.depth_counts, "candidates": renderer.candidate_counts}
    else:
        assert isinstance(renderer, ReferenceRenderer), renderer
        scene = renderer.scene
        rule = choose_auto(scene, width, height) if choice is None or choice.name == "auto" else choice
        figures = {
            "depth": lambda: depth_counts(scene, width, height),
            "candidates": lambda: candidate_counts(scene, rule, width, height),
        }
    grid = variant_grid(rule, width, height)
    if name == "tiles":
        return Overlay(name, (grid.width, grid.height), f"the blocks of {rule.label()}")
    if name == "depth":
        return Overlay(name, (1, 1), "circles covering the pixel's center", figures[name]())
    assert name == "candidates", name
    return Overlay(name, (grid.width, grid.height), f"circles {rule.label()} tests per tile", figures[name]())


@dataclasses.dataclass(frozen=True)
class TileGrid:
    """Cells of ``width`` x ``height`` pixels, ``cols`` x ``rows`` of them; the last column and row
    are cut at the image's edge when the size is not a multiple."""

    width: int
    height: int
    cols: int
    rows: int


def variant_grid(choice: VariantChoice, width: int, height: int) -> TileGrid:
    """The pixels each block of ``choice``'s blend kernel owns (``auto`` resolved first)."""
    spec = VARIANTS[choice.name]
    assert spec.launch != "auto", "resolve auto before asking for its grid"
    tile = BLOCK_2D if spec.launch == "per-pixel" else (int_define(spec.defines(choice), "TILE"),) * 2
    cols, rows = grid_2d(width, height, tile)
    return TileGrid(tile[0], tile[1], cols, rows)


def depth_counts(scene: CircleScene, width: int, height: int) -> np.ndarray:
    """int32 (height, width): the circles covering each pixel's center, by the reference's test
    (``dx * dx + dy * dy <= r * r`` in float32 over each circle's clamped pixel box).

    In a row of a circle's box the covered pixels are one run (dx grows with the column, and each
    rounding keeps the order), so each (circle, row) finds its run's ends, estimated in float64 and
    moved pixel by pixel until the float32 test agrees, and adds 1 over it through a difference
    array: work per row of a box instead of per pixel, and at most 16 bytes a pixel beside the result.
    """
    bounds = shading.pixel_bounds(scene.position, scene.radius, width, height)
    centers_x, centers_y = shading.pixel_centers(width), shading.pixel_centers(height)
    x, y = scene.position[:, 0], scene.position[:, 1]
    with np.errstate(over="ignore"):
        radius2 = scene.radius * scene.radius
    steps = np.zeros((height, width + 1), np.int32)  # +1 where a run starts, -1 after it ends
    rows = bounds[:, 2], bounds[:, 3]
    for item, _, row in box_cells(np.zeros(len(x), np.int64), np.ones(len(x), np.int64), *rows):
        with np.errstate(over="ignore"):
            dy = centers_y[row] - y[item]
            dy2 = dy * dy
        first, end = _covered_run(centers_x, x[item], dy2, radius2[item], bounds[item, 0], bounds[item, 1])
        some = end > first
        at = row[some] * (width + 1)
        flat = steps.reshape(-1)  # one count array of the image's size at a time: 8 bytes a pixel
        np.add(flat, np.bincount(at + first[some], minlength=flat.size), out=flat, casting="unsafe")
        np.subtract(flat, np.bincount(at + end[some], minlength=flat.size), out=flat, casting="unsafe")
    return np.cumsum(steps[:, :width], axis=1, dtype=np.int32)


def _covered_run(centers_x: np.ndarray, cx, dy2, r2, box_x0, box_x1) -> tuple[np.ndarray, np.ndarray]:
    """[first, end): the columns of each (circle, row) whose centers the circle covers, within its
    box [box_x0, box_x1); ``cx``, ``dy2`` (float32 dy * dy) and ``r2`` (float32 r * r) per pair.
    An infinite r * r covers the whole box row (the sum is at most infinite, never NaN)."""
    width = len(centers_x)

    def covered(column: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            dx = centers_x[np.clip(column, 0, width - 1)] - cx
            return dx * dx + dy2 <= r2

    everything = np.isinf(r2)
    with np.errstate(invalid="ignore", over="ignore"):
        half = np.sqrt(np.maximum(r2.astype(np.float64) - dy2, 0))
        first = np.nan_to_num(np.ceil((cx - half) * width - 0.5), nan=0, posinf=width, neginf=-1)
        end = np.nan_to_num(np.floor((cx + half) * width - 0.5) + 1, nan=0, posinf=width + 1, neginf=-1)
    first = np.where(everything, box_x0, np.clip(first, box_x0, box_x1)).astype(np.int64)
    end = np.where(everything, box_x1, np.clip(end, first, box_x1)).astype(np.int64)
    while True:  # the estimate is off by a pixel or so; rounding near a tangent row, by a few more
        grow_left = (first > box_x0) & covered(first - 1)
        shrink_left = ~grow_left & (first < end) & ~covered(first)
        grow_right = (end < box_x1) & covered(end)
        shrink_right = ~grow_right & (end > first + shrink_left) & ~covered(end - 1)
        if not (grow_left.any() or shrink_left.any() or grow_right.any() or shrink_right.any()):
            return first, end
        first = first - grow_left + shrink_left
        end = np.maximum(end + grow_right - shrink_right, first)


def candidate_counts(scene: CircleScene, choice: VariantChoice, width: int, height: int) -> np.ndarray:
    """int32 (rows, cols) of ``variant_grid``: the circles ``choice`` (resolved) tests per tile."""
    grid = variant_grid(choice, width, height)
    launch = VARIANTS[choice.name].launch
    if launch == "per-pixel" or (launch == "tile-warp" and (choice.option("bins") == "off" or not scene.count)):
        return np.full((grid.rows, grid.cols), scene.count, np.int32)
    defines = VARIANTS[choice.name].defines(choice)
    if launch == "tile-warp":
        per_side, bins_x, bins_y = tile_warp_bins(width, height, grid.width)
        size = grid.width * per_side
        x0, x1, y0, y1 = _pixel_ranges(scene, width, height, size)
        bins = _passing(scene, (x0, x1, y0, y1), (bins_x, bins_y), size, width, height, _disc_in_box)
        return bins[np.arange(grid.rows)[:, None] // per_side, np.arange(grid.cols)[None, :] // per_side]
    test = _disc_in_box if defines.get("EXACT_TILE_TEST") else _box_in_box
    tile = grid.width
    if launch == "tile-sort":
        ranges = _pixel_ranges(scene, width, height, tile)
    else:
        ranges = _near_ranges(scene, tile, width, height)
    return _passing(scene, ranges, (grid.cols, grid.rows), tile, width, height, test)


def _pixel_ranges(scene: CircleScene, width: int, height: int, size: int):
    """Each circle's cells of ``size`` pixels that hold pixels of its clamped pixel box, as
    half-open ranges (x0, x1, y0, y1); empty for a circle with no pixel."""
    bounds = shading.pixel_bounds(scene.position, scene.radius, width, height)
    some = (bounds[:, 0] < bounds[:, 1]) & (bounds[:, 2] < bounds[:, 3])
    x0, y0 = bounds[:, 0] // size, bounds[:, 2] // size
    x1 = np.where(some, (bounds[:, 1] - 1) // size + 1, x0)
    y1 = np.where(some, (bounds[:, 3] - 1) // size + 1, y0)
    return x0, x1, y0, y1


def _near_ranges(scene: CircleScene, tile: int, width: int, height: int):
    """Every tile whose box could pass a tile test for each circle, pixel box or not: the circle's
    extent in tiles (float64) widened by what the float32 tests may add (the exact test's 1.0001 on
    r^2, about r / 20000; the rounding of sums as large as |center| + r) and one tile more on each
    side, cut to the grid."""
    radius = scene.radius.astype(np.float64)

    def along(center: np.ndarray, pixels: int):
        center = center.astype(np.float64)
        slack = radius * 1e-4 + (np.abs(center) + radius) * 1e-6
        with np.errstate(over="ignore", invalid="ignore"):
            lo = np.floor((center - radius - slack) * pixels / tile) - 1
            hi = np.floor((center + radius + slack) * pixels / tile) + 2
        tiles = -(-pixels // tile)
        return np.clip(lo, 0, tiles).astype(np.int64), np.clip(hi, 0, tiles).astype(np.int64)

    x0, x1 = along(scene.position[:, 0], width)
    y0, y1 = along(scene.position[:, 1], height)
    return x0, x1, y0, y1


def _passing(scene: CircleScene, ranges, shape, size: int, width: int, height: int, test) -> np.ndarray:
    """int32 (rows, cols) with cols, rows = ``shape``: per cell of ``size`` pixels, the circles of
    whose ``ranges`` it is one that pass ``test`` against the cell's box."""
    cols, rows = shape
    x, y, r = scene.position[:, 0], scene.position[:, 1], scene.radius
    counts = np.zeros(rows * cols, np.int64)
    for item, cx, cy in box_cells(*ranges):
        box = _pixel_box(cx * size, cy * size, size, width, height)
        with np.errstate(over="ignore", invalid="ignore"):
            keep = test(x[item], y[item], r[item], box)
        counts += np.bincount((cy * cols + cx)[keep], minlength=rows * cols)
    return counts.reshape(rows, cols).astype(np.int32)


def _pixel_box(x0: np.ndarray, y0: np.ndarray, size: int, width: int, height: int):
    """pixel_box of circle_common.cuh for cells of ``size`` pixels at pixel (x0, y0): float32
    (left, right, bottom, top) arrays in normalized units, cut at the image's edge."""
    inv_w, inv_h = f32(1) / f32(width), f32(1) / f32(height)
    left = x0.astype(np.float32) * inv_w
    right = np.minimum(x0 + size, width).astype(np.float32) * inv_w
    bottom = y0.astype(np.float32) * inv_h
    top = np.minimum(y0 + size, height).astype(np.float32) * inv_h
    return left, right, bottom, top


def _box_in_box(x, y, r, box) -> np.ndarray:
    """circle_in_box_conservative: the circle's bounding box overlaps the cell's."""
    left, right, bottom, top = box
    return (x >= left - r) & (x <= right + r) & (y >= bottom - r) & (y <= top + r)


def _disc_in_box(x, y, r, box) -> np.ndarray:
    """disc_in_box_exact: the nearest point of the cell is within r (with its slack)."""
    left, right, bottom, top = box
    dx = np.minimum(np.maximum(x, left), right) - x
    dy = np.minimum(np.maximum(y, bottom), top) - y
    return dx * dx + dy * dy <= r * r * EXACT_SLACK
