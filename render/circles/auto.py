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
# At 8 pixels a thread, a tile stages its candidates with half the threads, so lists pay sooner.
AUTO_CANDIDATE_CUT_8_PIXELS = 4
# Flat circles of at most this mean radius in pixels blend faster walked by cells than by warps:
# random circles of 1 to 8 pixels were 5-20 % faster, of 12 pixels (rand1M) 8 % slower.
CELL_WALK_RADIUS = 8.0
# Flat circles of at least this mean radius in pixels blend faster at 8 pixels a thread, in images of
# at least EIGHT_PIXELS_AREA pixels: a hit's walk and test, and a covering hit's blend, are paid
# once for twice the pixels, while smaller images at 128 threads a tile leave the GPU too few warps
# (random circles of 32 pixels were as fast either way, of 48 to 256 pixels 3-15 % faster at 8;
# biglittle at 512x512 was 17 % slower).
BIG_CIRCLE_RADIUS = 40.0
EIGHT_PIXELS_AREA = 1 << 20


def mean_pixel_radius(radius: np.ndarray, width: int, height: int) -> float:
    """The circles' mean radius in pixels of the larger side; ``radius`` float32 (N,), N > 0."""
    return float(radius.mean(dtype=np.float64)) * max(width, height)


def choose_auto(scene: CircleScene, width: int, height: int) -> VariantChoice:
    """The variant ``auto`` runs for ``scene`` at width x height.

    From the H100 benches (docs/performance.md, "How `auto` decides"): a handful of circles is cheapest
    without binning; from a few thousand circles on, tile-warp with its bin lists when they cut
    each tile's candidates tenfold or more (rand10k 40x, rand100k, snowsingle, rand1M, micro2M),
    else tile-warp streaming every circle (pattern). Flat circles of a few pixels (micro2M) are
    walked by cells rather than by warps; wide flat circles in a large image (rand10k and rand100k
    at 1024: 51 pixels of mean radius, biglittle 235) are blended 8 pixels a thread, with lists
    from a fourfold cut (biglittle's 5x).
    """
    if scene.count <= 16:
        return VARIANTS.parse("per-pixel")
    radius = mean_pixel_radius(scene.radius, width, height)
    eight = not scene.snowflake and radius >= BIG_CIRCLE_RADIUS and width * height >= EIGHT_PIXELS_AREA
    options = []
    cut = AUTO_CANDIDATE_CUT_8_PIXELS if eight else AUTO_CANDIDATE_CUT
    if scene.count < AUTO_BINS_FROM or candidate_cut(scene.position, scene.radius, width, height) < cut:
        options.append("bins=off")
    if eight:
        options.append("pixels=8")
    elif not scene.snowflake and radius <= CELL_WALK_RADIUS:
        options.append("walk=cell")
    return VARIANTS.parse("tile-warp" + (":" + ",".join(options) if options else ""))
