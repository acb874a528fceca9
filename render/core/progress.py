"""How far a long CPU frame has come, told to whoever listens (the command line's bar), without
the renderers knowing who that is.

A caller wraps the work in ``reporting(listener)``; the CPU references rendered in that block, in
that thread, then call ``listener(fraction)`` (0..1) now and then, at most every REPORT_SECONDS.
A listener may raise to stop the work: the references call it between small units of work (a
circle, a sphere), so that is how a band in a worker process learns that the command was stopped.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator

Listener = Callable[[float], None]

# Often enough for a bar and for a stop to land well within a second; rare enough to cost nothing.
REPORT_SECONDS = 0.1

_LISTENER: contextvars.ContextVar[Listener | None] = contextvars.ContextVar("frame progress", default=None)


@contextlib.contextmanager
def reporting(listener: Listener) -> Iterator[None]:
    """Hand the progress of the CPU frames rendered in this block (in this thread) to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def listener() -> Listener | None:
    """The listener of this block, None when no one listens."""
    return _LISTENER.get()


def ticker(total: int) -> Callable[[int], None]:
    """For a loop of ``total`` steps: ``tick(done)`` before each step tells the listener the fraction
    done, at once on the first call and then at most every REPORT_SECONDS; a no-op without one."""
    current = _LISTENER.get()
    if current is None:
        return _ignore
    report: Listener = current
    due = 0.0

    def tick(done: int) -> None:
        nonlocal due
        now = time.monotonic()
        if now >= due:
            due = now + REPORT_SECONDS
            report(done / total)

    return tick


def _ignore(done: int) -> None:
    pass
