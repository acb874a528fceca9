"""Run as a script by the reference renderer's tests, in a process group of its own: starts the
workers' forkserver the way the renderer does and at once sends SIGNAL to the whole group, as a
terminal or a supervisor does, while the forkserver and multiprocessing's resource tracker are still
starting; then starts one process the way the renderer starts its workers. Prints which stops that
process ignored from its first instruction (before any initializer could set them) and whether the
resource tracker still runs.

    worker_signals_probe.py SIGNAL
"""

import multiprocessing.forkserver
import os
import signal
import sys
from multiprocessing import resource_tracker
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from render.circles.band_pool import worker_context  # noqa: E402

NAMES = ("SIGINT", "SIGTERM", "SIGHUP")


def report(queue) -> None:
    queue.put(" ".join(name for name in NAMES if signal.getsignal(getattr(signal, name)) == signal.SIG_IGN))


def swallow(_signum, _frame) -> None:
    pass


if __name__ == "__main__":  # the process started imports this file too, as __mp_main__
    # Handled the way the command handles them: a Python handler, which no process started inherits.
    for name in NAMES:
        signal.signal(getattr(signal, name), swallow)
    context = worker_context()
    multiprocessing.forkserver.ensure_running()  # where the renderer had not started it yet
    os.killpg(0, getattr(signal, sys.argv[1]))
    answers = context.Queue()
    process = context.Process(target=report, args=(answers,))
    process.start()
    print("ignored:", answers.get(timeout=120))
    process.join(60)
    print("tracker:", "running" if resource_tracker._resource_tracker._check_alive() else "dead")
