"""tile-warp's binning by group size: `auto` on rand10k, rand100k and snowsingle at 1024 (256 bins,
16 to a row) with every binning block taking `rows` rows of bins (16 = one group, as before groups
were sized), each timed by the bench's protocol (best of 3 runs of 4 frames) twice. Prints one JSON
line per row: total ms and the binning stage's median ms, both runs.
Run from the repository root: python3 docs/results/bin-groups/group_sweep.py
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import render.circles.tile_warp as tile_warp  # noqa: E402
from render.circles.bench import bench_one  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

for name in ("rand10k", "rand100k", "snowsingle"):
    scene = build_scene(name)
    for rows in (16, 8, 4, 2, 1):
        tile_warp.bin_group = lambda bins_x, bins_y, blocks, wanted, rows=rows: rows * bins_x
        runs = [bench_one(scene, "auto", 1024, 4, 3) for _ in range(2)]
        print(
            json.dumps(
                {
                    "scene": name,
                    "rows": rows,
                    "resolved": runs[0].resolved,
                    "total_ms": [round(run.total_ms, 4) for run in runs],
                    "binning_ms": [round(run.stage_ms["binning"], 4) for run in runs],
                }
            ),
            flush=True,
        )
