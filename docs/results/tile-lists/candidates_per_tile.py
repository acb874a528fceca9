"""Candidates a tile of tile-warp reads at 1024 pixels (32-pixel tiles) from its 64-pixel bin's list,
against those it keeps (its own list, as bins one tile wide give it), per scene: the CPU's count
(render.circles.overlays.candidate_counts). Run from the repository's root:
python3 docs/results/tile-lists/candidates_per_tile.py > docs/results/tile-lists/candidates-per-tile.txt"""

import sys

sys.path.insert(0, ".")

from render.circles import constants  # noqa: E402
from render.circles.overlays import candidate_counts  # noqa: E402
from render.circles.variants import VARIANTS  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

print("scene       bin list a tile   own list a tile   bin / own")
for name in ("micro2M", "rand1M", "snowsingle", "rand100k"):
    scene = build_scene(name)
    means = []
    for widest in (128, 32):
        constants.BIN_PIXELS = widest
        means.append(float(candidate_counts(scene, VARIANTS.parse("tile-warp"), 1024, 1024).mean()))
    print(f"{name:<11} {means[0]:>15.0f} {means[1]:>17.0f} {means[0] / means[1]:>11.2f}")
