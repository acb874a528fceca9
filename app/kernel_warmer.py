"""The app's background compiler: one daemon thread that compiles kernel modules while the window
keeps drawing. A switch waiting for its modules goes first, and only the latest one (a newer switch
replaces it); when none waits, the warm-up lists compile one at a time, in the order given.

A compile that has started cannot be interrupted (NVRTC has no way to stop), so ``close`` empties
the queues and, unless asked to wait for it, returns at once. The app waits at exit: a process that
ends while a thread is inside CUDA can crash in its teardown. The thread is a daemon, so a compile
that outlasts the wait does not keep the process alive.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import threading
from collections.abc import Iterable, Sequence
from typing import Protocol

from render.core.module_cache import Build


class BuildCache(Protocol):
    """Where modules are compiled and kept (``render.core.module_cache.ModuleCache``)."""

    def ready(self, builds: Iterable[Build]) -> bool: ...
    def warm(self, builds: Iterable[Build]) -> None: ...


@dataclasses.dataclass(frozen=True)
class Finished:
    """The compile that ticket ``ticket`` asked for is over: ``error`` None when every module built."""

    ticket: int
    error: Exception | None


class KernelWarmer:
    """Compiles ``cache``'s modules in a thread of its own; ``want`` and ``warm`` queue work,
    ``finished`` reports on the latest ``want``."""

    def __init__(self, cache: BuildCache) -> None:
        self.cache = cache
        self._changed = threading.Condition()
        self._tickets = itertools.count(1)
        self._wanted: tuple[int, Sequence[Build]] | None = None
        self._latest = 0  # the ticket of the newest want
        self._finished: Finished | None = None
        self._warm_ups: collections.deque[Sequence[Build]] = collections.deque()
        self._busy = False
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="rasterlab-kernels", daemon=True)
        self._thread.start()

    def ready(self, builds: Iterable[Build]) -> bool:
        """Whether every one of ``builds`` is compiled already."""
        return self.cache.ready(builds)

    def want(self, builds: Sequence[Build]) -> int:
        """Compile ``builds`` next, ahead of any warm-up, in place of an earlier want that has not
        started; returns the ticket that ``finished`` will name."""
        with self._changed:
            ticket = next(self._tickets)
            self._wanted, self._latest, self._finished = (ticket, builds), ticket, None
            self._changed.notify()
        return ticket

    def finished(self) -> Finished | None:
        """The outcome of the latest ``want`` once its compile is over (reported once), else None."""
        with self._changed:
            outcome, self._finished = self._finished, None
        return outcome

    def warm(self, jobs: Iterable[Sequence[Build]]) -> None:
        """Compile each job's builds when nothing is wanted (low priority)."""
        with self._changed:
            self._warm_ups.extend(jobs)
            self._changed.notify()

    @property
    def idle(self) -> bool:
        """True when nothing is compiling or queued."""
        with self._changed:
            return not (self._busy or self._wanted or self._warm_ups)

    def close(self, wait_s: float = 0.0) -> None:
        """Drop everything queued and let the thread end after the compile it may be running,
        waiting up to ``wait_s`` seconds for that."""
        with self._changed:
            self._closed = True
            self._wanted = None
            self._warm_ups.clear()
            self._changed.notify()
        if wait_s > 0:
            self._thread.join(wait_s)

    def _next_job(self) -> tuple[int | None, Sequence[Build]] | None:
        """The wanted job (with its ticket) or else the next warm-up (ticket None); None once closed."""
        with self._changed:
            while not (self._closed or self._wanted or self._warm_ups):
                self._busy = False
                self._changed.wait()
            if self._closed:
                return None
            self._busy = True
            if self._wanted is not None:
                job, self._wanted = self._wanted, None
                return job
            return None, self._warm_ups.popleft()

    def _work(self) -> None:
        while (job := self._next_job()) is not None:
            ticket, builds = job
            error = None
            try:
                self.cache.warm(builds)
            except Exception as failure:  # a compile error, of whatever type the compiler raises
                error = failure
            # A warm-up's error is not reported: a switch to that variant compiles it again and says why.
            if ticket is not None:
                with self._changed:
                    if ticket == self._latest:
                        self._finished = Finished(ticket, error)
