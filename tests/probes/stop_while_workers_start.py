"""Run as a script by the stop tests, in a process group of its own: ``render`` of a CPU frame in
worker processes, with a signal sent to the whole group right after the first worker process starts
and before the pool has noted it (the moment a terminal's Ctrl-C, or a supervisor's SIGTERM to the
group, can land in). Prints what the command prints; exits with its code.

    stop_while_workers_start.py OUT.png [SIGNAL]   (SIGINT by default)
"""

import multiprocessing.process
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from app.cli import main  # noqa: E402

_real_start = multiprocessing.process.BaseProcess.start
_started = []


def _start_then_stop(process) -> None:
    _real_start(process)
    _started.append(process)
    if len(_started) == 1:
        os.killpg(0, getattr(signal, sys.argv[2] if len(sys.argv) > 2 else "SIGINT"))


if __name__ == "__main__":  # the worker processes import this file too, as __mp_main__
    multiprocessing.process.BaseProcess.start = _start_then_stop
    sys.exit(main(["render", "--backend", "cpu", "--scene", "rand100k", "--size", "512", "--out", sys.argv[1]]))
