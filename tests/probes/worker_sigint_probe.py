"""Run as a script by the reference renderer's tests: starts one process the way the renderer starts
its workers and prints whether SIGINT was ignored in it from its first instruction (before any
initializer of a pool could set it)."""

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from render.circles.reference import worker_context  # noqa: E402


def report(queue) -> None:
    queue.put(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


if __name__ == "__main__":  # the process started imports this file too, as __mp_main__
    context = worker_context()
    answers = context.Queue()
    process = context.Process(target=report, args=(answers,))
    process.start()
    print("ignored" if answers.get(timeout=120) else "handled")
    process.join(60)
