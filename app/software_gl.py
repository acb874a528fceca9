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
import resource
from collections.abc import MutableMapping

# Free processes kept beyond llvmpipe's rasterizers: Mesa's other threads (three here; it goes on
# without any of them) and the app's own, whose refusal the command reports in one line.
RESERVE = 8


def system_tasks() -> int:
    """The processes and threads of every user (/proc/loadavg's count): at least one user's.
    Raises OSError or ValueError where it cannot be read."""
    with open("/proc/loadavg", "rb") as loadavg:
        return int(loadavg.read().split()[3].split(b"/")[1])


def user_tasks(uid: int) -> int:
    """The processes and threads of real user ``uid`` that /proc shows: what the limit counts.
    Raises OSError where /proc cannot be listed."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as status:
                fields = dict(line.split(b":", 1) for line in status.read().splitlines() if b":" in line)
            if int(fields[b"Uid"].split()[0]) == uid:
                total += int(fields[b"Threads"])
        except (OSError, KeyError, ValueError, IndexError):  # ended meanwhile, hidden, or unreadable
            continue
    return total


def rasterizer_threads(limit: int, tasks: int | None, cpus: int) -> int | None:
    """``LP_NUM_THREADS`` under a limit of ``limit`` processes with ``tasks`` in use (None: not
    known) on ``cpus`` CPUs: 0 where llvmpipe's rasterizers, one a CPU, would not fit beside
    RESERVE more, else None (llvmpipe's own choice)."""
    if tasks is not None and limit - tasks >= cpus + RESERVE:
        return None
    return 0


def fit_software_gl_to_process_limit(environ: MutableMapping[str, str] = os.environ) -> None:
    """Sets ``LP_NUM_THREADS`` in ``environ`` where the soft limit on processes leaves no room for
    llvmpipe's rasterizers (rasterizer_threads); call it before any OpenGL library loads."""
    if "LP_NUM_THREADS" in environ:
        return
    limit = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    if limit == resource.RLIM_INFINITY:
        return
    cpus = os.cpu_count() or 1
    try:
        # The whole system's count first, one read: where even it leaves room, the user's does.
        if rasterizer_threads(limit, system_tasks(), cpus) is None:
            return
    except (OSError, ValueError, IndexError):
        pass
    try:
        tasks: int | None = user_tasks(os.getuid())
    except OSError:
        tasks = None
    threads = rasterizer_threads(limit, tasks, cpus)
    if threads is not None:
        environ["LP_NUM_THREADS"] = str(threads)
