"""How the command answers the signals that stop it (Ctrl-C, SIGTERM, SIGHUP; ``stops.SIGNALS``),
from the first instant its entry point runs to the process's end.

While it works (``unwinding``), the first stop raises Stopped in the main thread, so every write in
progress cleans up and the command says so in one line; later ones, even ones already on their way,
are swallowed until the process exits, so the cleanup is never cut short. Once the exit code is
decided (``guard_exit``), no stop can change it or break into the interpreter's teardown.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import signal
import threading

from render.core import stops


class Stopped(BaseException):
    """A stop arrived: unwinds like Ctrl-C, so every write in progress cleans up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def note(self) -> str:
        """The command's one line about it."""
        return "interrupted" if self.signum == signal.SIGINT else f"stopped by {signal.Signals(self.signum).name}"


def _raise(error: BaseException) -> None:
    raise error


def _swallow(_signum, _frame) -> None:
    pass


def _stop(signum, _frame) -> None:
    # A Python no-op rather than SIG_IGN: a signal that arrived meanwhile still finds a handler.
    for number in stops.SIGNALS:
        signal.signal(number, _swallow)
    stops.deliver(functools.partial(_raise, Stopped(signum)))


@contextlib.contextmanager
def unwinding():
    """While the block runs, the first stop raises Stopped; the handlers before it come back at its
    end, unless a stop came (here or in a block inside it). Only the main thread receives signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _stop) for number in stops.SIGNALS}
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is not _swallow:
            for number, handler in previous.items():
                signal.signal(number, handler)


def _ignore_stops() -> None:
    for number in stops.SIGNALS:
        signal.signal(number, signal.SIG_IGN)


def guard_exit(code: int) -> None:
    """From here to the process's end, a stop ends it at once with ``code``, the exit code decided:
    it can neither print a traceback from the interpreter's exit nor end the process by the signal.
    The interpreter's teardown, once its exit calls begin, runs no Python handler: the stops are
    ignored from then on (this exit call, registered last, runs first)."""

    def end(_signum, _frame) -> None:
        os._exit(code)

    for number in stops.SIGNALS:
        signal.signal(number, end)
    atexit.register(_ignore_stops)
