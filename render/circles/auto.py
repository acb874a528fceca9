"""``auto``: the variant that runs a scene best, chosen at load from the scene's statistics."""

from __future__ import annotations

import numpy as np

from render.circles.tile_warp import tile_warp_bins
from render.circles.variants import VARIANTS
from render.core.variants import VariantChoice
from scenes.model import CircleScene


def candidate_cut(position: np.ndarray, radius: np.ndarray, width: int, height: int) -> float:
    """How many times fewer candidates a tile of ``tile-warp`` (tile 32) reads from its bin's list
    than from every circle: the circle count over the mean list length, each circle counted in
    the bins its bounding box meets. ``position`` float32 (N, 3), ``radius`` float32 (N,)."""
    if len(radius) == 0:
        return 0.0
    tiles_per_bin, bins_x, bins_y = tile_warp_bins(width, height, 32)
    bin_size = 32 * tiles_per_bin
    spans = []
    for axis, size in ((0, width), (1, height)):
        low = np.clip((position[:, axis] - radius) * size, 0, size - 1).astype(np.int64) // bin_size
        high = np.clip((position[:, axis] + radius) * size, 0, size - 1).astype(np.int64) // bin_size
        spans.append(high - low + 1)
    entries = float((spans[0] * spans[1]).sum())
    return len(radius) * bins_x * bins_y / entries


AUTO_BINS_FROM = 5000  # circles; below, the binning graph's fixed ~25 us outweighs what it saves
AUTO_CANDIDATE_CUT = 10  # bin lists pay when they cut each tile's candidates at least this much
# Flat circles of at most this mean radius in pixels blend faster walked by cells than by warps:
# random circles of 1 to 8 pixels were 5-20 % faster, of 12 pixels (rand1M) 8 % slower.
CELL_WALK_RADIUS = 8.0


def mean_pixel_radius(radius: np.ndarray, width: int, height: int) -> float:
    """The circles' mean radius in pixels of the larger side; ``radius`` float32 (N,), N > 0."""
    return float(radius.mean(dtype=np.float64)) * max(width, height)


def choose_auto(scene: CircleScene, width: int, height: int) -> VariantChoice:
    """The variant ``auto`` runs for ``scene`` at width x height.

    From the H100 benches (docs/performance.md, "How `auto` decides"): a handful of circles is cheapest
    without binning; from a few thousand circles on, tile-warp with its bin lists when they cut
    each tile's candidates tenfold or more (rand10k 40x, rand100k, snowsingle, rand1M, micro2M),
    else tile-warp streaming every circle (pattern; biglittle, whose big circles fill the lists:
    5x, and whose binning then costs more than it saves). Flat circles of a few pixels (micro2M)
    are walked by cells rather than by warps.
    """
    if scene.count <= 16:
        return VARIANTS.parse("per-pixel")
    options = []
    if scene.count < AUTO_BINS_FROM or candidate_cut(scene.position, scene.radius, width, height) < AUTO_CANDIDATE_CUT:
        options.append("bins=off")
    if not scene.snowflake and mean_pixel_radius(scene.radius, width, height) <= CELL_WALK_RADIUS:
        options.append("walk=cell")
    return VARIANTS.parse("tile-warp" + (":" + ",".join(options) if options else ""))
