"""The cycles overlay of every circle configuration and auto, and tile-warp's warp-skip, on scenes at
1024 on the GPU: per configuration, the blend's stage time and the figures of its blocks' cycles
(mean, max, max / mean) and, for tile-warp, of its warps' skip fractions. Run from the repository
root: python3 docs/results/overlays/measure_overlays.py SCENE..."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from render.circles.renderer import CudaRenderer  # noqa: E402
from render.circles.variants import VARIANTS  # noqa: E402
from render.core.overlay import overlay_stats  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

SIZE = 1024


def main() -> None:
    print(
        f"{'scene':<10} {'configuration':<44} {'blend ms':>9} {'cycles mean':>12} {'max':>10} {'max/mean':>8}"
        f" {'skip mean':>9} {'skip max':>8} {'measure s':>9}"
    )
    for name in sys.argv[1:]:
        scene = build_scene(name)
        for choice in [*VARIANTS.configurations(), VARIANTS.parse("auto")]:
            if choice.name == "per-pixel" and scene.count > 10_000:
                continue  # seconds a frame: its cycles say what the table's other rows say
            renderer = CudaRenderer(choice)
            renderer.load(scene, SIZE, SIZE)
            for _ in range(3):
                renderer.clear()
                renderer.render()
            blend = renderer.stage_times_ms()["blending"]
            start = time.perf_counter()
            cycles = overlay_stats(renderer.block_cycles())
            skip = ""
            if renderer.resolved.name == "tile-warp":
                skips = overlay_stats(renderer.warp_skips())
                skip = f"{skips.mean:>9.3f} {skips.high:>8.3f}"
            else:
                skip = f"{'':>9} {'':>8}"
            took = time.perf_counter() - start
            label = choice.label() if choice.name != "auto" else f"auto ({renderer.resolved.label()})"
            print(
                f"{name:<10} {label:<44} {blend:>9.3f} {cycles.mean:>12.0f} {cycles.high:>10.0f}"
                f" {cycles.imbalance:>8.2f} {skip} {took:>9.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
