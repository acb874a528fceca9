"""The app's estimate of a CPU reference frame (what the slow-change prompt says) beside the frame's
real time, measured right after it on the same machine.

Usage: python docs/tools/cpu_estimates.py SIZE SCENE [...]
SCENE: a circle scene name (rand1M), or spheres:COUNT:VIEW (spheres:65536:shaded, the random scene).
Each row: the estimate, the real frame (advance, clear, render, image: what the app's worker does),
and real / estimate.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from render.core.kind import Look  # noqa: E402
from render.core.renderer import render_frame  # noqa: E402
from render.kinds import KINDS  # noqa: E402
from render.spheres.shading import ShadeSettings  # noqa: E402


def frame_seconds(spec: str, size: int) -> tuple[float, float]:
    """(estimate, real) seconds of one CPU frame of ``spec`` at ``size``."""
    if spec.startswith("spheres:"):
        _, count, view = spec.split(":")
        kind, look = KINDS["spheres"], Look(view, ShadeSettings() if view == "shaded" else None)
        scene = kind.built_in_scene("random", None, int(count))
    else:
        kind, look = KINDS["circles"], Look()
        scene = kind.built_in_scene(spec, None, None)
    estimate = kind.cpu_seconds(scene, size, look)
    renderer = kind.make_renderer(None, look)
    renderer.load(scene, size, size)
    started = time.perf_counter()
    render_frame(renderer, 0)
    return estimate, time.perf_counter() - started


def main() -> None:
    size = int(sys.argv[1])
    print(f"{'scene':<22}{'size':>6}{'estimate s':>12}{'real s':>9}{'real/est':>10}")
    for spec in sys.argv[2:]:
        estimate, real = frame_seconds(spec, size)
        print(f"{spec:<22}{size:>6}{estimate:>12.1f}{real:>9.1f}{real / estimate:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
