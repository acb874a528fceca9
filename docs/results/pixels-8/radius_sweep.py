"""tile-warp at 4 and 8 pixels a thread, with and without bin lists, on random flat circles of one
radius at 1024 (about 200 covering circles a pixel at every radius): where 8 pixels a thread starts to
pay, and where the lists do. Run from the project's root on a GPU:
    python3 docs/results/pixels-8/radius_sweep.py"""

import math
import sys

from render.circles.auto import candidate_cut
from render.circles.bench import bench_one
from scenes.builtin import fixed_size_circles

SIZE = 1024
DEPTH = 200
VARIANTS = ("tile-warp", "tile-warp:pixels=8", "tile-warp:bins=off", "tile-warp:bins=off,pixels=8")
print("radius px, circles, lists' cut, then total ms (blend ms) of: " + ", ".join(VARIANTS), flush=True)
for pixels in (16, 32, 48, 64, 96, 128, 192, 256):
    count = round(DEPTH * SIZE * SIZE / (math.pi * pixels * pixels))
    scene = fixed_size_circles(f"r{pixels}px", count, pixels / SIZE, 0)
    cut = candidate_cut(scene.position, scene.radius, SIZE, SIZE)
    times = []
    for variant in VARIANTS:
        row = bench_one(scene, variant, SIZE, frames=4, runs=3)
        times.append(f"{row.total_ms:.3f} ({row.stage_ms.get('blending', 0):.3f})")
    print(f"{pixels:>4} {count:>7} {cut:6.1f}  " + "  ".join(times), flush=True)
sys.exit(0)
