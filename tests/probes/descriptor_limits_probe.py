"""Run as a script by the reference renderer's tests: renders rand100k at 64x64 with 16 workers asked
for, under each soft limit on open descriptors given, in that order, in this one process (so that
the forkserver a frame starts keeps the limit it started under for the frames after it), and prints
for each limit whether the image equals the one rendered in one thread. With ``--lowered``, each
frame's limit is set only once the frame has counted its descriptors, as a limit lowered from outside
meanwhile (``prlimit``) would be.

    descriptor_limits_probe.py [--lowered] SOFT...
"""

import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402

from render.circles import band_pool  # noqa: E402
from render.circles.reference import clear_image, render_reference  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402


def _limit(soft: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def main(arguments: list[str]) -> None:
    lowered = arguments[:1] == ["--lowered"]
    limits = [int(soft) for soft in arguments[lowered:]]
    scene = build_scene("rand100k")
    serial = clear_image(scene, 64, 64)
    render_reference(scene, serial, workers=1)
    start = band_pool.worker_context
    own = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    for soft in limits:
        if lowered:
            band_pool.worker_context = lambda soft=soft: _limit(soft) or start()
        else:
            _limit(soft)
        image = clear_image(scene, 64, 64)
        render_reference(scene, image, workers=16)
        _limit(own)
        print(soft, "same" if np.array_equal(image, serial) else "different", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
