"""Mesa's software OpenGL (llvmpipe) under a limit on processes.

When its first context draws, llvmpipe starts a rasterizer thread per CPU, a compute thread per
CPU and one more, and where the system refuses a rasterizer (the limit on processes, ``ulimit -u``,
counts threads) it waits for that thread forever: the app hangs in its first texture upload, deaf
to Ctrl-C and SIGTERM, whose handlers run only between Python's instructions. So before any OpenGL
library loads, where the limit leaves too few free processes for those threads, llvmpipe is asked
to draw in the calling thread (``LP_NUM_THREADS=0``), which starts one thread at most, one it goes
on without. Other drivers ignore the variable. A user's own value is kept where its threads fit.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

from render.core.process_room import c_int, shortage

# The most rasterizers llvmpipe starts, whatever LP_NUM_THREADS asks (LP_MAX_THREADS).
MOST_RASTERIZERS = 64


def rasterizers(value: str | None, cpus: int) -> int:
    """The rasterizer threads llvmpipe starts for ``LP_NUM_THREADS`` ``value`` (None: not set) on
    ``cpus`` CPUs: the number Mesa reads from it (strtol's, base 0, kept as an unsigned int), its
    default of one a CPU where it finds no digits; at most MOST_RASTERIZERS."""
    number = c_int(value, 0) if value is not None else None
    if number is None:
        return min(cpus, MOST_RASTERIZERS)
    return MOST_RASTERIZERS if number < 0 else min(number, MOST_RASTERIZERS)


def fit_software_gl_to_process_limit(environ: MutableMapping[str, str] = os.environ) -> tuple[str, str] | None:
    """Sets ``LP_NUM_THREADS=0`` in ``environ`` where the soft limit on processes leaves no room
    for the threads llvmpipe would start (process_room.shortage); call it before any OpenGL library
    loads. Returns (the user's own value, why it was replaced) where there was one, else None."""
    own = environ.get("LP_NUM_THREADS")
    count = rasterizers(own, os.cpu_count() or 1)
    reason = shortage(2 * count + 1) if count > 0 else None
    if reason is None:
        return None
    environ["LP_NUM_THREADS"] = "0"
    return None if own is None else (own, reason)
