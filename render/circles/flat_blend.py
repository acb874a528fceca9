"""The reference's blend of flat-shaded circles, compiled with Numba.

``reference.blend_rows`` blends a circle with a few NumPy passes over its box: tens of microseconds
of Python a circle, which is most of a frame of a million small circles (rand1M at 1024: about 31
seconds in one process, where this takes about 4). Here each covered pixel gets the same float32
operations in the same order (a product and a sum per colour channel, a sum for alpha, the coverage
test ``dx * dx + dy * dy <= r * r``), compiled without fast-math so nothing is contracted or
reordered: the pixels are the NumPy passes', bit for bit, which the tests check.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from collections.abc import Callable
from types import TracebackType

import numpy as np

from render.core.address_space import MIB, ensure_room
from render.core.gpu import first_line
from render.core.renderer import RendererUnavailable

try:
    import numba
except ValueError as error:  # a NUMBA_* variable Numba's import cannot take (NUMBA_NUM_THREADS=0)
    variables = ", ".join(f"{name}={value!r}" for name, value in sorted(os.environ.items()) if name[:6] == "NUMBA_")
    raise RendererUnavailable(
        f"the CPU reference cannot run: Numba did not load ({first_line(error)})"
        + (f"; the environment sets {variables}" if variables else "")
    ) from None

# Circles are blended in runs of at most this many box pixels between progress reports, which also
# check whether the frame was given up: about 10 ms each.
RUN_PIXELS = 1 << 22
# The address space LLVM takes to compile the blend or load it from Numba's cache (tests measure it:
# 11-17 MiB), with some room to spare: where an allocation fails, LLVM aborts the process.
COMPILE_ROOM = 32 * MIB
# The address space SciPy's BLAS takes as Numba loads it, with OpenBLAS kept to one thread as the
# command keeps it under a limit on address space (render.core.blas_threads; 82 MiB here).
SCIPY_BLAS_ROOM = 112 * MIB


@numba.njit(cache=True, nogil=True)
def _blend_flat(planes, box, position, radius2, alpha_color, keep, alpha, centers_x, centers_y):
    for k in range(box.shape[0]):
        x = position[k, 0]
        y = position[k, 1]
        r2 = radius2[k]
        for row in range(box[k, 2], box[k, 3]):
            dy = centers_y[row] - y
            dy2 = dy * dy
            for column in range(box[k, 0], box[k, 1]):
                dx = centers_x[column] - x
                if dx * dx + dy2 <= r2:
                    for channel in range(3):
                        planes[channel, row, column] = planes[channel, row, column] * keep + alpha_color[k, channel]
                    planes[3, row, column] = planes[3, row, column] + alpha


def blend_flat(
    planes: np.ndarray,
    box: np.ndarray,
    position: np.ndarray,
    radius2: np.ndarray,
    alpha_color: np.ndarray,
    centers: tuple[np.ndarray, np.ndarray],
    keep: np.float32,
    alpha: np.float32,
    tick: Callable[[int], None],
) -> None:
    """Blend N flat circles, in index order, over ``planes`` float32 (4, rows, width) in place.

    ``box`` int64 (N, 4): each circle's columns [x0, x1) and rows [y0, y1) of ``planes``;
    ``position`` float32 (N, 3); ``radius2`` float32 (N,) = r * r; ``alpha_color`` float32 (N, 3) =
    alpha * colour; ``centers`` float32 (width,) and (rows,): the pixel centers of the columns and
    rows; ``keep`` = 1 - alpha. ``tick(k)`` hears of each run as it starts, ``k`` circles done.
    """
    area = np.maximum(box[:, 1] - box[:, 0], 0) * np.maximum(box[:, 3] - box[:, 2], 0)
    ends = np.cumsum(area)
    start = 0
    while start < len(box):
        before = ends[start] - area[start]
        end = max(start + 1, int(np.searchsorted(ends, before + RUN_PIXELS, side="right")))
        tick(start)
        run = slice(start, end)
        _blend_flat(planes, box[run], position[run], radius2[run], alpha_color[run], keep, alpha, *centers)
        start = end


def compile_now() -> None:
    """Compile (or load from Numba's cache) the blend, so that no frame pays for it; AddressSpaceShort
    where the limit on address space leaves LLVM too little room. A cache that cannot be read (a
    file cut short) is emptied and the blend compiled again, with a warning."""
    # None with NUMBA_DISABLE_JIT=1: the blend is plain Python, with nothing to compile.
    if getattr(_blend_flat, "signatures", None) != []:  # or compiled already in this process
        return
    # What Numba's first compile loads besides LLVM's work, first: where SciPy is installed, its
    # BLAS, a library and OpenBLAS's buffers (82 MiB with one thread, about 700 MiB with 16), which
    # loops for good where its buffers find no room. The room checked next is then LLVM's own.
    if "numba.np.arraymath" not in sys.modules and importlib.util.find_spec("scipy") is not None:
        ensure_room(SCIPY_BLAS_ROOM, "load SciPy's BLAS, which Numba loads")
    importlib.import_module("numba.np.arraymath")
    ensure_room(COMPILE_ROOM, "compile the CPU reference's blend")
    planes = np.zeros((4, 1, 1), np.float32)
    no = np.zeros((0, 3), np.float32)
    one = np.zeros(1, np.float32)
    empty = np.zeros((0, 4), np.int64)
    arguments = (planes, empty, no, np.zeros(0, np.float32), no, np.float32(0.5), np.float32(0.5), one, one)
    try:
        _blend_flat(*arguments)
    except Exception as error:
        # A file that cannot be opened (another user's cache) is not damaged: not Numba's to empty.
        if isinstance(error, OSError) or not _from_numba_cache(error.__traceback__):
            raise
        _blend_flat._cache.flush()  # type: ignore[attr-defined]  # an empty index: the next call compiles afresh
        warnings.warn(
            f"Numba's cache of the CPU reference's blend could not be read ({first_line(error)}):"
            " it was compiled again",
            RuntimeWarning,
            stacklevel=2,
        )
        _blend_flat(*arguments)


def _from_numba_cache(frame: TracebackType | None) -> bool:
    """Whether the traceback from ``frame`` on passed through Numba's cache."""
    while frame is not None:
        if frame.tb_frame.f_code.co_filename.endswith(os.path.join("numba", "core", "caching.py")):
            return True
        frame = frame.tb_next
    return False
