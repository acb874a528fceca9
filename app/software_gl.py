"""Mesa's software OpenGL (llvmpipe) under a limit on processes.

llvmpipe starts a rasterizer thread per CPU when its first context draws, and where the system
refuses one (the limit on processes, ``ulimit -u``, counts threads) it waits for that thread
forever: the app hangs in its first texture upload, deaf to Ctrl-C and SIGTERM, whose handlers run
only between Python's instructions. So before any OpenGL library loads, where the limit leaves too
few free processes for those threads, llvmpipe is asked to draw in the calling thread
(``LP_NUM_THREADS=0``). Other drivers ignore the variable; a user's own value is kept.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

from render.core.process_room import has_room


def fit_software_gl_to_process_limit(environ: MutableMapping[str, str] = os.environ) -> None:
    """Sets ``LP_NUM_THREADS=0`` in ``environ`` where the soft limit on processes leaves no room
    for llvmpipe's rasterizers, one a CPU (process_room.has_room); call it before any OpenGL library
    loads."""
    if "LP_NUM_THREADS" not in environ and not has_room(os.cpu_count() or 1):
        environ["LP_NUM_THREADS"] = "0"
