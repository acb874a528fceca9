"""tile-warp's warp-skip overlay on the CPU, with the kernel's own float32 tests: the oracle of the
GPU's measured figures and the figures themselves on the CPU backend.

A block of tile-warp stages, from its tile's candidates (its bin's list, or every circle with
``bins=off``), those that touch the tile; each of its warps tests every staged circle against its
own region of the tile and blends only those that touch the region. A warp's skip fraction is the
share of the staged circles that missed its region.
"""

from __future__ import annotations

import numpy as np

from render.circles.cells import box_cells
from render.circles.measures import skip_fraction
from render.circles.strategies import int_define
from render.circles.tile_tests import cell_boxes, disc_in_box, near_ranges, pixel_ranges
from render.circles.tile_warp import tile_warp_bins, warp_region
from render.circles.variants import VARIANTS
from render.core.grids import grid_2d
from render.core.variants import VariantChoice
from scenes.model import CircleScene


def warp_skip_fractions(scene: CircleScene, choice: VariantChoice, width: int, height: int) -> np.ndarray:
    """float32 (rows, cols) over the warp regions of ``choice`` (a tile-warp configuration), row 0 =
    bottom, cut to the image: ``skip_fraction`` of the circles each warp tests and of those that
    touch its region."""
    assert choice.name == "tile-warp", choice
    defines = VARIANTS[choice.name].defines(choice)
    tile = int_define(defines, "TILE")
    region = warp_region(int_define(defines, "PIXELS"))
    listed, candidates = _listed(scene, choice, width, height, tile)
    x, y, r = scene.position[:, 0], scene.position[:, 1], scene.radius

    def tested_cells(cell: tuple[int, int], also) -> np.ndarray:
        """int64 (rows, cols) of cells of ``cell`` pixels: the circles a block stages for the cell's
        tile that pass ``also`` (item, cx, cy) too."""
        cols, rows = grid_2d(width, height, cell)
        counts = np.zeros(rows * cols, np.int64)
        x0, x1, y0, y1 = near_ranges(scene, cell, width, height)
        x1 = np.where(candidates, x1, x0)  # a circle in no tile's candidates has no cells to test
        for item, cx, cy in box_cells(x0, x1, y0, y1):
            tx, ty = cx * cell[0] // tile, cy * cell[1] // tile
            with np.errstate(over="ignore", invalid="ignore"):
                keep = disc_in_box(x[item], y[item], r[item], cell_boxes(tx, ty, (tile, tile), width, height))
                keep &= listed(item, tx, ty) & also(item, cx, cy)
            counts += np.bincount((cy * cols + cx)[keep], minlength=rows * cols)
        return counts.reshape(rows, cols)

    def touches_region(item, cx, cy) -> np.ndarray:
        return disc_in_box(x[item], y[item], r[item], cell_boxes(cx, cy, region, width, height))

    staged = tested_cells((tile, tile), lambda item, cx, cy: True)
    touched = tested_cells(region, touches_region)
    rows, cols = touched.shape
    tested = staged[np.arange(rows)[:, None] * region[1] // tile, np.arange(cols)[None, :] * region[0] // tile]
    return skip_fraction(tested, touched)


def _listed(scene: CircleScene, choice: VariantChoice, width: int, height: int, tile: int):
    """((item, tx, ty) -> bool array: whether circle ``item`` is among tile (tx, ty)'s candidates,
    bool (N,): whether it is among any tile's). With bins, only circles with pixels are listed: a
    circle far off the image whose huge radius passes every tile test is in no bin's list."""
    if choice.option("bins") == "off" or not scene.count:
        return lambda item, tx, ty: np.ones(len(item), bool), np.ones(scene.count, bool)
    per_side = tile_warp_bins(width, height, tile)[0]
    size = tile * per_side
    x0, x1, y0, y1 = pixel_ranges(scene, width, height, size)
    x, y, r = scene.position[:, 0], scene.position[:, 1], scene.radius

    def listed(item, tx, ty) -> np.ndarray:
        bx, by = tx // per_side, ty // per_side
        spans = (x0[item] <= bx) & (bx < x1[item]) & (y0[item] <= by) & (by < y1[item])
        return spans & disc_in_box(x[item], y[item], r[item], cell_boxes(bx, by, (size, size), width, height))

    return listed, (x0 < x1) & (y0 < y1)
