"""10^7 circles of scale's two families at 1024, 4096 and 8192: tile-warp's bin lists with full
(16-byte) against index (4-byte) entries, and tile-sort (per-tile lists from one global sort) beside
them, each by bench's protocol with its peak device memory. Prints one JSON line a row.
Run from the repository root: python3 docs/results/floor-and-scale/entries_and_bins.py [COUNT]
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from render.circles import constants  # noqa: E402
from render.circles.bench import bench_one  # noqa: E402
from render.circles.scale import family_scene  # noqa: E402
from render.core.device_memory import peak_device_bytes  # noqa: E402

RUNS = (("tile-warp", "full", 2**62), ("tile-warp", "index", 1), ("tile-sort:tile=32", "-", 2**62))


def main(count: int) -> None:
    for family in ("fixed", "depth"):
        scene = family_scene(family, count, 0)
        for size in (1024, 4096, 8192):
            for variant, entries, index_from in RUNS:
                constants.INDEX_ENTRIES_FROM = index_from
                with peak_device_bytes() as peak:
                    row = bench_one(scene, variant, size, 4, 2)
                stages = {k: round(v, 3) for k, v in row.stage_ms.items()}
                total = None if row.total_ms is None else round(row.total_ms, 3)
                line = dict(family=family, count=count, size=size, variant=row.resolved, entries=entries)
                print(json.dumps(line | dict(total_ms=total, stage_ms=stages, peak_mib=round(peak.bytes / 2**20, 1))))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
