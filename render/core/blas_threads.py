"""NumPy's OpenBLAS kept to one thread in rasterlab's processes.

None of them multiplies matrices large enough to gain from more, and every thread OpenBLAS starts
counts against the limit on processes (``ulimit -u``): where that limit refuses one, OpenBLAS prints
four lines of its own and raises SIGINT, so that in the command NumPy's import ends as if stopped.
A user's own ``OPENBLAS_NUM_THREADS`` is kept, unless the limit leaves no room for its threads, or a
limit on address space (``ulimit -v``) is set, under which a thread or buffer OpenBLAS cannot have
ends the command: a stop, a loop that never ends, or a crash.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping

from render.core.address_space import limit_bytes, limit_words
from render.core.process_room import c_int, shortage

# Where OpenBLAS looks for its count of threads, in order: the first above 0 decides.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def openblas_threads(environ: Mapping[str, str], cpus: int) -> int:
    """The threads OpenBLAS starts beside the caller's on ``cpus`` CPUs (those the process may run
    on): the first of THREAD_VARIABLES above 0, read as its atoi reads it, else every CPU; at most
    the CPUs."""
    for name in THREAD_VARIABLES:
        wanted = c_int(environ.get(name, ""), 10) or 0
        if wanted > 0:
            return min(wanted, cpus) - 1
    return cpus - 1


def one_blas_thread(environ: MutableMapping[str, str] = os.environ) -> tuple[str, str] | None:
    """OpenBLAS asked for one thread, unless ``environ`` says otherwise, the limit on processes
    leaves room for what it says and no limit on address space is set; to take effect, called
    before the process first imports NumPy. Returns (the user's own value, why it was lowered to 1)
    where it was, else None."""
    own = environ.get("OPENBLAS_NUM_THREADS")
    if own is None:
        environ["OPENBLAS_NUM_THREADS"] = "1"
        return None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    threads = openblas_threads(environ, cpus)
    if threads == 0:
        return None
    reason = shortage(threads)
    if reason is None and (limit := limit_bytes()) is not None:
        # Each thread takes its buffers (tens of MiB) and a stack: where one cannot start, OpenBLAS
        # raises SIGINT, and where a buffer finds no room, it loops for good or ends the process.
        reason = f"{limit_words(limit)} may leave no room for its threads' buffers"
    if reason is None:
        return None
    environ["OPENBLAS_NUM_THREADS"] = "1"
    return own, reason
