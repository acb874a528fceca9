"""A model of an SM that issues for its oldest blocks first: each SM's blocks (every 132nd of the
launch) run at most `c` of its issue each, the older first, until its issue is used. The frame's
time, in mean tiles of work, for tiles in launch order, fullest first, and fullest first snaking
back and forth over the SMs, against the ideal (the work spread evenly). Tiles' work: their covered
pairs (analyze.py's tile_pairs). Run from the repository root:
python3 docs/results/tile-tails/timelines/priority_model.py"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analyze import tile_pairs  # noqa: E402

SMS = 132


def sm_time(works: list[float], c: float) -> float:
    left = np.array(works, float)
    t = 0.0
    while (left > 1e-12).any():
        active = np.where(left > 1e-12)[0]
        rates = np.zeros(len(left))
        free = 1.0
        for i in active:
            rates[i] = min(c, free)
            free -= rates[i]
        step = min(left[i] / rates[i] for i in active if rates[i] > 0)
        left -= rates * step
        t += step
    return t


def frame_time(work: np.ndarray, order: np.ndarray, c: float) -> float:
    return max(sm_time([work[order[k]] for k in range(s, len(order), SMS)], c) for s in range(SMS))


for scene in ("rand100k", "rand1M"):
    work = tile_pairs(scene)
    work /= work.mean()
    launch = np.arange(len(work))
    fullest = np.argsort(-work, kind="stable")
    snake = np.concatenate([fullest[r * SMS : (r + 1) * SMS][:: 1 if r % 2 == 0 else -1] for r in range(8)])
    for c in (0.25, 0.35, 0.5):
        times = [frame_time(work, order, c) for order in (launch, fullest, snake)]
        print(
            f"{scene} c {c}: ideal {work.sum() / SMS:.2f}, launch order {times[0]:.2f},"
            f" fullest first {times[1]:.2f}, snaking {times[2]:.2f}"
        )
