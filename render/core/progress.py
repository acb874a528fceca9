"""How far a long CPU frame has come, told to whoever listens (the command line's bar), without
the renderers knowing who that is.

A caller wraps the work in ``reporting(listener)``; the CPU references rendered in that block, in
that thread, then call ``listener(fraction)`` (0..1) now and then, at most every REPORT_SECONDS.
A listener may raise to stop the work: the references call it between small units of work (a
circle, a sphere), so that is how a band in a worker process learns that the command was stopped.

A ``BandCounter`` handed to ``counting`` hears the same frames in bands: the horizontal bands of
rows that worker processes render, or, for a frame rendered in one thread, SERIAL_BANDS equal shares
of its circles or spheres in order. Each frame starts the counter again; any thread may read it.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import dataclasses
import threading
import time
from collections.abc import Callable, Iterator

Listener = Callable[[float], None]

# Often enough for a bar and for a stop to land well within a second; rare enough to cost nothing.
REPORT_SECONDS = 0.1
# A frame rendered in one thread counts this many bands (fewer when it has fewer steps).
SERIAL_BANDS = 16
# The rate of a frame's work is taken over this long: worker processes start one after another, so
# the rate since the start would understate the pace all of them keep together.
RATE_SECONDS = 1.0

_LISTENER: contextvars.ContextVar[Listener | None] = contextvars.ContextVar("frame progress", default=None)


@dataclasses.dataclass(frozen=True)
class Bands:
    """A frame's bands: ``done`` of ``total`` finished, ``fraction`` (0..1) of the frame's work done,
    the bands under way included, and ``rate``, the fraction done per second over the last
    RATE_SECONDS (0 until the work has begun); ``at_once`` bands render at the same time (one per
    worker process). ``total`` 0: no frame has started its bands yet."""

    done: int = 0
    total: int = 0
    fraction: float = 0.0
    rate: float = 0.0
    at_once: int = 1


class BandCounter:
    """How many bands of the frame rendering now are done; written by the reference rendering it,
    read from any thread (``bands``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bands = Bands()
        self._recent: collections.deque[tuple[float, float]] = collections.deque()

    def start(self, total: int, at_once: int = 1) -> None:
        """A frame of ``total`` bands, ``at_once`` of them rendering at a time, starts: none done."""
        with self._lock:
            self._bands = Bands(0, total, at_once=at_once)
            self._recent = collections.deque([(time.monotonic(), 0.0)])

    def reach(self, done: int, fraction: float) -> None:
        """``done`` bands are finished and ``fraction`` of the work is done (neither goes back)."""
        now = time.monotonic()
        with self._lock:
            bands, recent = self._bands, self._recent
            done = min(max(done, bands.done), bands.total)
            fraction = min(max(fraction, bands.fraction), 1.0)
            if fraction <= 0:
                # Nothing done yet (worker processes starting): the rate counts from the last look.
                recent.clear()
            recent.append((now, fraction))
            # The oldest look kept is the newest at least RATE_SECONDS old: a rate of recent work.
            while len(recent) > 2 and now - recent[1][0] >= RATE_SECONDS:
                recent.popleft()
            then, before = recent[0]
            rate = (fraction - before) / (now - then) if now > then and fraction > before else bands.rate
            self._bands = Bands(done, bands.total, fraction, rate, bands.at_once)

    @property
    def bands(self) -> Bands:
        with self._lock:
            return self._bands


_COUNTER: contextvars.ContextVar[BandCounter | None] = contextvars.ContextVar("frame bands", default=None)


@contextlib.contextmanager
def _holding(variable: contextvars.ContextVar, value) -> Iterator[None]:
    """``variable`` set to ``value`` for the block (in this thread), then back to what it was."""
    token = variable.set(value)
    try:
        yield
    finally:
        variable.reset(token)


def counting(counter: BandCounter) -> contextlib.AbstractContextManager[None]:
    """Count the bands of the CPU frames rendered in this block (in this thread) on ``counter``."""
    return _holding(_COUNTER, counter)


def counter() -> BandCounter | None:
    """The band counter of this block, None when no one counts."""
    return _COUNTER.get()


def reporting(listener: Listener) -> contextlib.AbstractContextManager[None]:
    """Hand the progress of the CPU frames rendered in this block (in this thread) to ``listener``."""
    return _holding(_LISTENER, listener)


def listener() -> Listener | None:
    """The listener of this block, None when no one listens."""
    return _LISTENER.get()


def ticker(total: int) -> Callable[[int], None]:
    """For a loop of ``total`` steps: ``tick(done)`` before each step, and ``tick(total)`` after the
    last, tells the listener the fraction done (at once on the first call, then at most every
    REPORT_SECONDS, and always at the end) and the counter, started here, the loop's bands done;
    a no-op when neither listens."""
    report, bands = _LISTENER.get(), _COUNTER.get()
    if report is None and bands is None:
        return _ignore
    parts = min(SERIAL_BANDS, total)
    if bands is not None:
        bands.start(parts)
    due = 0.0

    def tick(done: int) -> None:
        nonlocal due
        now = time.monotonic()
        if now < due and done < total:
            return
        due = now + REPORT_SECONDS
        fraction = done / total if total else 1.0
        if bands is not None:
            bands.reach(done * parts // total if total else 0, fraction)
        if report is not None:
            report(fraction)

    return tick


def _ignore(done: int) -> None:
    pass
