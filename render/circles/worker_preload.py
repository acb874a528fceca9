"""Loaded by the forkserver that starts the reference renderer's worker processes (its preload).

The stops a terminal or a supervisor sends to the whole process group (Ctrl-C, SIGTERM, SIGHUP) are
ignored here, before the renderer is loaded: the forkserver starts with them blocked
(``band_pool.worker_context``) and every worker it starts inherits the ignoring, from its first
instant. A worker the signal killed would turn the command's one line about the stop into a failed
frame (or, while it started, a traceback); the command stops its workers through a flag instead.
The forkserver is also kept alive where descriptors or processes run short (``forkserver_guard``). The
renderer's modules are loaded here once, not in each worker; each worker loads the compiled
blend from Numba's cache, which the command's own load wrote (a compile here, started while a stop
came, held the command's exit).
"""

import signal

from render.core.blas_threads import one_blas_thread
from render.core.stops import SIGNALS

one_blas_thread()  # before the renderer loads NumPy, below

for stop in SIGNALS:
    signal.signal(stop, signal.SIG_IGN)
# Ignored first, so that a stop which arrived while they were blocked is dropped, not delivered.
signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)

from render.circles import forkserver_guard  # noqa: E402

forkserver_guard.guard()

import render.circles.reference  # noqa: E402, F401
