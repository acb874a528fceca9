"""Per 32-pixel tile at 1024, the covered (pixel, circle) pairs of each named scene, counted on the CPU
in float64, and a model of the blend's last block slot: 528 slots (four blocks on each of 132 SMs)
filled with the tiles' pairs, each tile to the slot that frees first, in launch order, by their bin's
list length (each circle in the bins its bounding box meets, 64-pixel bins), and fullest first.

    python3 docs/results/tile-order/probes/tile_work.py snowsingle rand100k rand10k rand1M micro2M
"""

import heapq
import sys

import numpy as np

from scenes.builtin import build_scene

SIZE, TILE, BIN, SLOTS = 1024, 32, 64, 528


def makespan(work: np.ndarray, order: np.ndarray) -> float:
    slots = [0.0] * SLOTS
    for pairs in work[order]:
        heapq.heappush(slots, heapq.heappop(slots) + pairs)
    return max(slots) / (work.sum() / SLOTS)


for name in sys.argv[1:]:
    scene = build_scene(name)
    position, radius = scene.position.astype(np.float64), scene.radius.astype(np.float64)
    centers = (np.arange(SIZE) + 0.5) / SIZE
    work = np.zeros((SIZE // TILE, SIZE // TILE))
    listed = np.zeros((SIZE // BIN, SIZE // BIN))
    for (x, y, _), r in zip(position, radius, strict=True):
        bx0, bx1 = (int(np.clip((v) * SIZE, 0, SIZE - 1)) // BIN for v in (x - r, x + r))
        by0, by1 = (int(np.clip((v) * SIZE, 0, SIZE - 1)) // BIN for v in (y - r, y + r))
        listed[by0 : by1 + 1, bx0 : bx1 + 1] += 1
        x0, x1 = max(int((x - r) * SIZE), 0), min(int((x + r) * SIZE) + 1, SIZE)
        y0, y1 = max(int((y - r) * SIZE), 0), min(int((y + r) * SIZE) + 1, SIZE)
        if x0 >= x1 or y0 >= y1:
            continue
        covered = ((centers[y0:y1, None] - y) ** 2 + (centers[None, x0:x1] - x) ** 2) <= r * r
        rows, cols = np.nonzero(covered)
        np.add.at(work, ((rows + y0) // TILE, (cols + x0) // TILE), 1)
    pairs = work.ravel()
    tile_y, tile_x = np.divmod(np.arange(pairs.size), SIZE // TILE)
    length = listed[tile_y // 2, tile_x // 2]
    launch = np.arange(pairs.size)
    print(
        f"{name}: pairs {pairs.sum():.0f}, tile mean {pairs.mean():.0f}, max {pairs.max():.0f}"
        f" ({pairs.max() / pairs.mean():.2f}x); last slot / mean slot: launch order"
        f" {makespan(pairs, launch):.2f}, by list length {makespan(pairs, np.lexsort((launch, -length))):.2f},"
        f" fullest first {makespan(pairs, np.argsort(-pairs, kind='stable')):.2f}"
    )
