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
import re
from collections.abc import MutableMapping

from render.core.process_room import has_room

# The most rasterizers llvmpipe starts, whatever LP_NUM_THREADS asks (LP_MAX_THREADS).
MOST_RASTERIZERS = 64

# strtol(text, &end, 0)'s number: a sign, then hexadecimal after 0x, octal after 0, else decimal.
_NUMBER = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")


def rasterizers(value: str | None, cpus: int) -> int:
    """The rasterizer threads llvmpipe starts for ``LP_NUM_THREADS`` ``value`` (None: not set) on
    ``cpus`` CPUs: the number Mesa reads from it (as strtol does, its default of one a CPU where it
    finds no digits), at most MOST_RASTERIZERS, which a negative number also gives."""
    number = _NUMBER.match(value) if value is not None else None
    if number is None:
        return min(cpus, MOST_RASTERIZERS)
    sign, digits = number.groups()
    base = 16 if digits[:2] in ("0x", "0X") else 8 if digits.startswith("0") else 10
    wanted = int(digits, base) * (-1 if sign == "-" else 1)
    return MOST_RASTERIZERS if wanted < 0 else min(wanted, MOST_RASTERIZERS)


def fit_software_gl_to_process_limit(environ: MutableMapping[str, str] = os.environ) -> str | None:
    """Sets ``LP_NUM_THREADS=0`` in ``environ`` where the soft limit on processes leaves no room
    for the threads llvmpipe would start (process_room.has_room); call it before any OpenGL library
    loads. Returns the user's own value where it was replaced, else None."""
    own = environ.get("LP_NUM_THREADS")
    count = rasterizers(own, os.cpu_count() or 1)
    if count == 0 or has_room(2 * count + 1):
        return None
    environ["LP_NUM_THREADS"] = "0"
    return own
