"""NumPy's OpenBLAS kept to one thread in rasterlab's processes.

None of them multiplies matrices large enough to gain from more, and every thread OpenBLAS starts
counts against the limit on processes (``ulimit -u``): where that limit refuses one, OpenBLAS prints
four lines of its own and raises SIGINT, so that in the command NumPy's import ends as if stopped.
A user's own ``OPENBLAS_NUM_THREADS`` is kept, unless the limit leaves no room for its threads.
"""

import os
import re

from render.core.process_room import has_room


def openblas_threads(value: str, cpus: int) -> int:
    """The threads OpenBLAS starts beside the caller's on ``cpus`` CPUs for ``OPENBLAS_NUM_THREADS``
    ``value``: the variable read as C's atoi reads it, at most the CPUs, all of them for 0 or less."""
    number = re.match(r"\s*([+-]?\d*)", value)
    wanted = int(number.group(1)) if number and number.group(1).lstrip("+-") else 0
    return min(wanted if wanted > 0 else cpus, cpus) - 1


def one_blas_thread() -> str | None:
    """OpenBLAS asked for one thread, unless the environment says otherwise and the limit on
    processes leaves room for what it says; to take effect, called before the process first imports
    NumPy. Returns the user's own value where it was lowered to 1, else None."""
    own = os.environ.get("OPENBLAS_NUM_THREADS")
    if own is None:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        return None
    threads = openblas_threads(own, os.cpu_count() or 1)
    if threads == 0 or has_room(threads):
        return None
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    return own
