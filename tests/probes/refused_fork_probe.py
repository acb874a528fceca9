"""Run as a script by the reference renderer's tests: renders rand100k at 64x64 with 4 workers asked
for, in FRAMES frames in this one process, where the forkserver's fork is refused (as the limit on
processes, ``ulimit -u``, refuses it to a user who is not root) for the first REFUSED worker starts.
Prints for each frame whether the image equals the one rendered in one thread, and how many worker
processes drew its bands (0 where the frame rendered in one thread).

    refused_fork_probe.py REFUSED FRAMES
"""

import errno
import os
import sys
from multiprocessing import forkserver
from pathlib import Path

REFUSED = "RASTERLAB_PROBE_REFUSED_FORKS"

if __name__ == "refused_fork_probe":
    # In the forkserver, which loads this script by name before its preload: its fork refused, as the system does.
    _fork = os.fork
    _refused = [int(os.environ[REFUSED])]

    def _refusing_fork() -> int:
        if _refused[0] > 0:
            _refused[0] -= 1
            raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        return _fork()

    os.fork = _refusing_fork

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402

from render.circles import band_pool  # noqa: E402
from render.circles.reference import clear_image, render_reference  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402


def main(refused: int, frames: int) -> None:
    # Before the forkserver starts, which inherits them and finds this script by its name.
    os.environ[REFUSED] = str(refused)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
    preload = forkserver.set_forkserver_preload
    forkserver.set_forkserver_preload = lambda names: preload([Path(__file__).stem, *names])
    scene = build_scene("rand100k")
    serial = clear_image(scene, 64, 64)
    render_reference(scene, serial, workers=1)
    drawers: set[int] = set()
    start = band_pool._Worker.__init__

    def counted(worker, *arguments) -> None:
        start(worker, *arguments)
        drawers.add(worker.process.pid)

    band_pool._Worker.__init__ = counted
    for _ in range(frames):
        drawers.clear()
        image = clear_image(scene, 64, 64)
        render_reference(scene, image, workers=4)
        print("same" if np.array_equal(image, serial) else "different", len(drawers), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
