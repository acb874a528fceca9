"""Whether a frame's blend waits on its heaviest tiles: per scene (auto at 1024 on the GPU), the
blend's stage time, each block's SM clock cycles (the cycles overlay's build), each tile's covered
pairs (the depth overlay summed over the tile), and how the slowest blocks compare with the blend
and with their tiles' pairs. Run from the repository root:
python3 docs/results/tile-spans/measure_spans.py SCENE..."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from render.circles.renderer import CudaRenderer  # noqa: E402
from render.circles.variants import VARIANTS  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

SIZE = 1024


def main() -> None:
    import cupy

    clock_khz = cupy.cuda.Device().attributes["ClockRate"]
    print(f"SM clock attribute {clock_khz / 1e6:.3f} GHz")
    for name in sys.argv[1:]:
        renderer = CudaRenderer(VARIANTS.parse("auto"))
        renderer.load(build_scene(name), SIZE, SIZE)
        blends = []
        for _ in range(5):
            renderer.clear()
            renderer.render()
            blends.append(renderer.stage_times_ms()["blending"])
        depth = renderer.depth_counts().astype(np.int64)
        for run in range(2):
            cycles = renderer.block_cycles().astype(np.float64)
            rows, cols = cycles.shape
            tile = SIZE // cols
            pairs = depth.reshape(rows, tile, cols, tile).sum(axis=(1, 3)).astype(np.float64)
            order = np.argsort(cycles.ravel())[::-1]
            heaviest = int(np.argmax(pairs))
            corr = float(np.corrcoef(cycles.ravel(), pairs.ravel())[0, 1])
            blend_cycles = min(blends) * 1e-3 * clock_khz * 1e3
            print(
                f"{name} ({renderer.resolved.label()}) run {run}: blend ms {min(blends):.4f}-{max(blends):.4f}"
                f" (= {blend_cycles:,.0f} cycles at the attribute clock); tiles {rows}x{cols} of {tile} px;"
                f" cycles mean {cycles.mean():,.0f} max {cycles.max():,.0f}"
                f" (max/blend {cycles.max() / blend_cycles:.2f});"
                f" pairs mean {pairs.mean():,.0f} max {pairs.max():,.0f}; corr(cycles, pairs) {corr:.2f};"
                f" heaviest tile's cycles {cycles.ravel()[heaviest]:,.0f}",
                flush=True,
            )
            flat_cycles, flat_pairs = cycles.ravel(), pairs.ravel() / pairs.mean()
            for k in order[:8]:
                print(f"    slow tile {k}: cycles {flat_cycles[k]:,.0f}, pairs {flat_pairs[k]:.2f}x mean")
            for k in np.argsort(flat_pairs)[::-1][:5]:
                relative = flat_cycles[k] / cycles.mean()
                print(f"    heavy tile {k}: pairs {flat_pairs[k]:.2f}x mean, cycles {relative:.2f}x mean")


if __name__ == "__main__":
    main()
