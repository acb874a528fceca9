"""Mean entries a tile-warp bin gets from a chunk of CHUNK circles at 1024x1024, per scored scene,
counted from the circles' pixel boxes against the bins (at least the disc test's count). Run from
the project's root, no GPU needed: python3 docs/results/sparse-emit/entries_per_bin.py"""

import numpy as np

from render.circles.constants import CHUNK
from render.circles.tile_tests import pixel_ranges
from render.circles.tile_warp import tile_warp_bins
from scenes.lookup import scene_loader

SIZE = 1024
for name in ("rgb", "rand10k", "rand100k", "pattern", "snowsingle", "biglittle", "rand1M", "micro2M"):
    scene = scene_loader(name, 0)()
    per_side, bins_x, bins_y = tile_warp_bins(SIZE, SIZE, 32)
    x0, x1, y0, y1 = pixel_ranges(scene, SIZE, SIZE, 32 * per_side)
    entries = int((np.maximum(x1 - x0, 0) * np.maximum(y1 - y0, 0)).sum())
    bins, chunks = bins_x * bins_y, -(-scene.count // CHUNK)
    print(
        f"{name:10s} {scene.count:>8} circles, {bins} bins, {chunks:>5} chunks, {entries:>8} entries: "
        f"{entries / bins / chunks:.1f} a bin a chunk"
    )
