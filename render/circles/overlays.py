"""What the circle renderer's overlays show, computed on the CPU with the kernels' own float32
tests: the oracle for the GPU's figures and the figures themselves on the CPU backend.

* ``tiles``: the grid of pixels that one block of a variant's blend kernel owns;
* ``depth``: per pixel, how many circles cover its center (the blend's test, the reference's box);
* ``candidates``: per tile, how many circles the variant tests for it: tile-scan every circle that
  passes its tile test, tile-sort the keys its sort puts in the tile's range, tile-warp the length
  of the bin list of the tile's coarse bin (every circle with ``bins=off``), per-pixel every circle;
* ``cycles`` (GPU only): per block of the blend kernel, the SM clock cycles it took
  (``render.circles.measures``);
* ``warp-skip`` (tile-warp): per warp, the share of the circles it tested that missed its region
  (``render.circles.warp_skip``; measured inside the kernel on the GPU).

Arrays are row 0 = bottom, as the renderer's images are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from render.circles import shading
from render.circles.cells import box_cells
from render.circles.strategies import int_define
from render.circles.tile_tests import box_in_box, disc_in_box, near_ranges, passing, pixel_ranges
from render.circles.tile_warp import tile_warp_bins, warp_region
from render.circles.user_file import read_user_source
from render.circles.variants import VARIANTS
from render.circles.warp_skip import warp_skip_fractions
from render.core.grids import BLOCK_2D, grid_2d
from render.core.overlay import Overlay
from render.core.renderer import NoGpu, Renderer, RendererUnavailable
from render.core.variants import VariantChoice
from scenes.model import CircleScene

OVERLAYS = ("tiles", "depth", "candidates", "cycles", "warp-skip")
GPU_OVERLAYS = ("cycles",)  # measured on the GPU only
RULE_OVERLAYS = ("tiles", "candidates", "warp-skip")  # those that depend on the variant's binning rule


def overlay_rule(renderer: Renderer, choice: VariantChoice | None) -> VariantChoice:
    """The variant whose figures an overlay of ``renderer``'s frame shows: a CUDA renderer's own
    (``auto`` resolved), or for the CPU reference ``choice`` (None or ``auto``: ``auto``'s pick)."""
    from render.circles.auto import choose_auto
    from render.circles.renderer import CudaRenderer

    if isinstance(renderer, CudaRenderer):
        assert renderer.resolved is not None
        return renderer.resolved
    if choice is None or choice.name == "auto":
        return choose_auto(renderer.scene, renderer.width, renderer.height)  # type: ignore[attr-defined]
    return choice


def overlay_problem(name: str, rule: VariantChoice) -> str | None:
    """Why overlay ``name`` cannot show the variant ``rule`` (``auto``: not known until it picks), or None."""
    if name == "warp-skip" and rule.name not in ("tile-warp", "auto"):
        return (
            f"warp-skip: the warps of tile-warp skip circles; {rule.label()} has no such warps "
            "(name a tile-warp variant)"
        )
    if name == "warp-skip" and dict(rule.options).get("walk") == "cell":
        return f"warp-skip: {rule.label()} walks its circles by cells of lanes, not by warps (name walk=warp)"
    if VARIANTS[rule.name].launch == "user-file" and name in ("candidates", "cycles"):
        return f"{name}: not known for {rule.label()}, whose binning and blocks are its own"
    return None


def circle_overlay(renderer: Renderer, name: str, choice: VariantChoice | None) -> Overlay:
    """The overlay ``name`` (one of OVERLAYS) of the frame ``renderer`` has just rendered: a CUDA
    renderer's from its own variant and its GPU's figures, the CPU reference's for the binning
    rule of ``choice`` (None or ``auto``: the variant ``auto`` picks for the scene)."""
    from render.circles.reference import ReferenceRenderer
    from render.circles.renderer import CudaRenderer

    width, height = renderer.width, renderer.height  # type: ignore[attr-defined]
    rule = overlay_rule(renderer, choice)
    figures: dict[str, Callable[[], np.ndarray]]
    if isinstance(renderer, CudaRenderer):
        figures = {
            "depth": renderer.depth_counts,
            "candidates": renderer.candidate_counts,
            "cycles": renderer.block_cycles,
            "warp-skip": renderer.warp_skips,
        }
    else:
        assert isinstance(renderer, ReferenceRenderer), renderer
        if name in GPU_OVERLAYS:
            raise NoGpu(f"{name}: measured inside the GPU's blend kernel; the cpu reference has none")
        scene = renderer.scene
        figures = {
            "depth": lambda: depth_counts(scene, width, height),
            "candidates": lambda: candidate_counts(scene, rule, width, height),
            "warp-skip": lambda: warp_skip_fractions(scene, rule, width, height),
        }
    problem = overlay_problem(name, rule)
    if problem:
        raise RendererUnavailable(problem)
    grid = variant_grid(rule, width, height)
    label = rule.label()
    if name == "tiles":
        return Overlay(name, (grid.width, grid.height), f"the blocks of {label}")
    if name == "depth":
        return Overlay(name, (1, 1), "circles covering the pixel's center", figures[name](), "pixel")
    if name == "candidates":
        return Overlay(name, (grid.width, grid.height), f"circles {label} tests per tile", figures[name]())
    if name == "cycles":
        unit = f"SM clock cycles per block of {label}"
        return Overlay(name, (grid.width, grid.height), unit, figures[name](), "block")
    assert name == "warp-skip", name
    region = warp_region(int_define(VARIANTS[rule.name].defines(rule), "PIXELS"))
    unit = f"share of the circles a warp of {label} tests that miss its region (0: it tested none)"
    return Overlay(name, region, unit, figures[name](), "warp")


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
    if spec.launch == "user-file":
        tile = _user_cell(choice)
    elif spec.launch == "per-pixel":
        tile = BLOCK_2D
    else:
        tile = (int_define(spec.defines(choice), "TILE"),) * 2
    cols, rows = grid_2d(width, height, tile)
    return TileGrid(tile[0], tile[1], cols, rows)


def _user_cell(choice: VariantChoice) -> tuple[int, int]:
    """The pixels a block of a user's kernel owns, from its file's declaration as it is now."""
    try:
        return read_user_source(choice.path).launch.cell()
    except ValueError as error:
        raise RendererUnavailable(str(error)) from None


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
        x0, x1, y0, y1 = pixel_ranges(scene, width, height, size)
        bins = passing(scene, (x0, x1, y0, y1), (bins_x, bins_y), size, width, height, disc_in_box)
        return bins[np.arange(grid.rows)[:, None] // per_side, np.arange(grid.cols)[None, :] // per_side]
    test = disc_in_box if defines.get("EXACT_TILE_TEST") else box_in_box
    tile = grid.width
    if launch == "tile-sort":
        ranges = pixel_ranges(scene, width, height, tile)
    else:
        ranges = near_ranges(scene, (tile, tile), width, height)
    return passing(scene, ranges, (grid.cols, grid.rows), tile, width, height, test)
