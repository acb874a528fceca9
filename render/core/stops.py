"""Steps that a stop (Ctrl-C, SIGTERM, SIGHUP) must not cut in half.

A command's signal handler hands its stop (a function that raises) to ``deliver``. Outside an
``uncut`` block it raises at once; inside one, entered by the thread the handler runs in (Python
runs signal handlers in the main thread), it raises when the block ends. The reference renderer
starts its worker processes in such a block: a stop between a process's start and the pool noting
it would leave a worker that nobody waits for, which fails noisily once the command has exited.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

# What stops a command: a terminal's Ctrl-C, a supervisor's SIGTERM, a closed terminal's SIGHUP.
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

# Per thread inside an uncut block: the stops that arrived meanwhile.
_HELD: dict[int, list[Callable[[], None]]] = {}


@contextlib.contextmanager
def uncut() -> Iterator[None]:
    """Hold the stops that arrive in this block until its end; nested blocks end with the outer."""
    thread = threading.get_ident()
    if thread in _HELD:
        yield
        return
    _HELD[thread] = []
    try:
        yield
    except BaseException:
        if held := _HELD.pop(thread):
            held[0]()  # the stop, not what the block raised, ends the command
        raise
    if held := _HELD.pop(thread):
        held[0]()


def deliver(stop: Callable[[], None]) -> None:
    """Run ``stop`` (which raises) now, or at the end of the uncut block this thread is in."""
    held = _HELD.get(threading.get_ident())
    if held is None:
        stop()
    else:
        held.append(stop)
