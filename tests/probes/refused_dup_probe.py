"""Run as a script by the reference renderer's tests: renders rand100k at 64x64 with 4 workers asked
for, in two frames, where the first worker start of the first frame has its descriptor refused
(EMFILE) at the one ``dup`` the command makes after the forkserver has forked the worker, as where
the limit on open descriptors was lowered from outside at that instant. Prints for each frame
whether the image equals the one rendered in one thread.

    refused_dup_probe.py
"""

import errno
import os
import sys
from multiprocessing import popen_forkserver
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402

from render.circles.reference import clear_image, render_reference  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402


def refuse_first_dup() -> None:
    """The next ``os.dup`` that ``multiprocessing.popen_forkserver`` makes refused, once."""
    dup = os.dup
    refused = []

    def refusing(fd: int) -> int:
        if not refused and sys._getframe(1).f_globals is vars(popen_forkserver):
            refused.append(fd)
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))
        return dup(fd)

    os.dup = refusing


def main() -> None:
    scene = build_scene("rand100k")
    serial = clear_image(scene, 64, 64)
    render_reference(scene, serial, workers=1)
    refuse_first_dup()
    for _ in range(2):
        image = clear_image(scene, 64, 64)
        render_reference(scene, image, workers=4)
        print("same" if np.array_equal(image, serial) else "different", flush=True)


if __name__ == "__main__":
    main()
