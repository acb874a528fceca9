"""Figures of the block timelines (timeline-*.npz, written by timeline.py on the GPU from probe P):
per scene, block durations, how far the order in which an SM's blocks end follows their launch order
(Spearman's rho of block index and end time, averaged over SMs), blocks active per SM through the
kernel, and for rand100k and rand1M how each tile's covered pairs (counted here on the CPU) compare.
Run from the repository root: python3 docs/results/tile-tails/timelines/analyze.py"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from scenes.builtin import build_scene  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZE = 1024


def ranks(values: np.ndarray) -> np.ndarray:
    return np.argsort(np.argsort(values)).astype(float)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def tile_pairs(name: str) -> np.ndarray:
    """float (tiles,): covered pairs per 32-pixel tile, row-major from the bottom row."""
    scene = build_scene(name)
    position = np.asarray(scene.position).reshape(-1, 3)
    depth = np.zeros((SIZE, SIZE), np.int32)
    centers = (np.arange(SIZE) + 0.5) / SIZE
    for (x, y, _), r in zip(position, np.asarray(scene.radius), strict=True):
        x0, x1 = max(int((x - r) * SIZE) - 1, 0), min(int((x + r) * SIZE) + 2, SIZE)
        y0, y1 = max(int((y - r) * SIZE) - 1, 0), min(int((y + r) * SIZE) + 2, SIZE)
        if x0 < x1 and y0 < y1:
            dx, dy = centers[x0:x1] - x, centers[y0:y1] - y
            depth[y0:y1, x0:x1] += dy[:, None] ** 2 + dx[None, :] ** 2 <= r * r
    return depth.reshape(32, 32, 32, 32).sum(axis=(1, 3)).ravel().astype(float)


def main() -> None:
    for path in sorted(HERE.glob("timeline-*.npz")):
        d = np.load(path)
        sm, start, end = d["sm"], d["g0"].astype(np.int64), d["g1"].astype(np.int64)
        t0 = start.min()
        duration = (end - start) / 1e3
        rho = np.mean([spearman(np.where(sm == s)[0], end[sm == s]) for s in np.unique(sm)])
        span = end.max() - t0
        active = [
            ((start - t0 <= t) & (end - t0 > t)).sum() / len(np.unique(sm)) for t in (np.arange(10) + 0.5) * span / 10
        ]
        sm_end = np.array([(end[sm == s].max() - t0) / 1e3 for s in np.unique(sm)])
        print(f"{path.stem}: span {span / 1e3:.0f} us, blocks take {duration.min():.0f}-{duration.max():.0f} us")
        print(f"  SMs end {sm_end.min():.0f}-{sm_end.max():.0f} us; rho(launch order, end) within an SM {rho:.2f}")
        print("  blocks active an SM, at the middle of each tenth of the span:", " ".join(f"{a:.1f}" for a in active))
        for name in ("rand100k", "rand1M"):
            if f"-{name}-" in path.name:
                pairs = tile_pairs(name)
                print(
                    f"  tiles' covered pairs / mean: {pairs.min() / pairs.mean():.2f}-{pairs.max() / pairs.mean():.2f};"
                    f" correlation with the block's time {np.corrcoef(pairs, duration)[0, 1]:.2f}"
                )
                mine = np.where(sm == 1)[0]
                print(
                    "  SM 1's tiles, covered pairs / mean and us taken:",
                    ", ".join(
                        f"{pairs[k] / pairs.mean():.2f} {duration[k]:.0f}" for k in mine[np.argsort(duration[mine])]
                    ),
                )


if __name__ == "__main__":
    main()
