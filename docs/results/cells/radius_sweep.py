"""tile-warp's two walks on random circles of one radius, a few radii and counts, at 1024: where the
cells' walk starts to pay. Run from the project's root on a GPU: python3 docs/results/cells/radius_sweep.py"""

import sys

from render.circles.bench import bench_one
from scenes.builtin import fixed_size_circles

SIZE = 1024
for count in (250_000, 1_000_000):
    for pixels in (1, 2, 3, 4, 6, 8, 12):
        scene = fixed_size_circles(f"r{pixels}px-{count}", count, pixels / SIZE, 0)
        times = []
        for variant in ("tile-warp", "tile-warp:walk=cell"):
            row = bench_one(scene, variant, SIZE, frames=4, runs=3)
            times.append(f"{variant} {row.total_ms:.3f} (blend {row.stage_ms.get('blending', 0):.3f})")
        print(f"{count:>9} circles r {pixels:>2} px: " + "  ".join(times), flush=True)
sys.exit(0)
