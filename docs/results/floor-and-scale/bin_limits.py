"""tile-warp (bins on) by bench's protocol as its widest bin (BIN_PIXELS) narrows from 512 to 32
pixels, so from one group of bins a binning block to as many as 256 (32-pixel bins at 8192): the
scored scenes at 1024, rand100k and rand1M at 3072 (where the rule first gives more than one group),
and 10^7 circles of scale's families at 4096 and 8192. Prints one JSON line a row.
Run from the repository root: python3 docs/results/floor-and-scale/bin_limits.py
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from render.circles import constants  # noqa: E402
from render.circles.bench import bench_one  # noqa: E402
from render.circles.scale import family_scene  # noqa: E402
from render.circles.tile_warp import tile_warp_bins  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

WIDEST = (512, 256, 128, 64, 32)
SCORED = ("rand10k", "rand100k", "snowsingle", "biglittle", "rand1M", "micro2M")


def row(scene, size: int, widest: int) -> dict:
    constants.BIN_PIXELS = widest
    timed = bench_one(scene, "tile-warp", size, 4, 3)
    stages = {k: round(v, 4) for k, v in timed.stage_ms.items() if v}
    total = None if timed.total_ms is None else round(timed.total_ms, 4)
    bins = tile_warp_bins(size, size, 32)
    return dict(scene=scene.name, size=size, widest=widest, bins=bins, total_ms=total, stage_ms=stages)


def main() -> None:
    points = [(build_scene(name), 1024) for name in SCORED]
    points += [(build_scene(name), 3072) for name in ("rand100k", "rand1M")]
    for family in ("fixed", "depth"):
        scene = family_scene(family, 10_000_000, 0)
        points += [(scene, 4096), (scene, 8192)]
    for scene, size in points:
        for widest in WIDEST:
            print(json.dumps(row(scene, size, widest)), flush=True)


if __name__ == "__main__":
    main()
