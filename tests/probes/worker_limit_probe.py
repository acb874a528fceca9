"""Run as a script by the reference renderer's tests: lowers this process's soft limit on open
descriptors to 64, renders a frame in two band workers whose blend writes the soft limit each worker
has into its band, and prints the limits found.

    worker_limit_probe.py
"""

import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402

from render.circles import band_pool  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402


def blend_limit(scene, planes, row0, full_height):
    planes[...] = resource.getrlimit(resource.RLIMIT_NOFILE)[0]


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    planes = np.zeros((4, 8, 8), np.float32)
    band_pool.render_bands(blend_limit, build_scene("rand100k"), planes, [(0, 4), (4, 8)], 2)
    print(*sorted({int(value) for value in planes.ravel()}))
