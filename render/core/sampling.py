"""How long a CPU reference frame takes on this machine, as loaded now: time a random sample of the
frame's circles or spheres and extrapolate. The app asks before a change this estimate calls slow,
so the timing must stay short (SAMPLE_SECONDS) whatever the scene."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

import numpy as np

SAMPLE_SECONDS = 0.15  # what one estimate may spend timing its sample
MAX_SAMPLE = 4096  # enough items for a mean within a few percent on the built-in scenes


def seconds_per_item(count: int, run: Callable[[np.ndarray], float], budget: float = SAMPLE_SECONDS) -> float:
    """The mean seconds per item of ``run(indices)`` over items of ``range(count)``.

    ``run`` renders the items at ``indices`` (int64 (k,)) and returns the seconds its rendering took
    (without its own setup). The items come in chunks, each sized to fit what is left of ``budget``,
    until the budget or MAX_SAMPLE items are spent: all items in random order when there are at
    most MAX_SAMPLE, else random ones (fixed seed, with replacement). 0 when ``count`` is 0.
    """
    if count <= 0:
        return 0.0
    rng = np.random.default_rng(0)
    order = rng.permutation(count) if count <= MAX_SAMPLE else rng.integers(0, count, MAX_SAMPLE)
    timed, done, chunk = 0.0, 0, 8
    deadline = time.perf_counter() + budget
    while done < len(order):
        timed += run(order[done : done + chunk])
        done = min(done + chunk, len(order))
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        per_item = timed / done
        # Double while the items are quick; never more than the budget's rest is likely to hold.
        chunk = max(1, min(2 * chunk, int(left / per_item) if per_item > 0 else 2 * chunk))
    return timed / done


def timed(work: Callable[[], object]) -> float:
    """Seconds that ``work()`` takes."""
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def parallel_speedup(workers: int) -> float:
    """How much faster ``workers`` processes finish than the one thread a sample was timed in, with
    the machine as loaded now.

    Linux shares the CPU between sessions first, so on a busy machine the workers of one frame
    together get about what one thread would; the cores that the last minute's load leaves free
    (between 1 and ``workers``) say how busy it is, but a minute's average lags: the geometric mean
    of that and ``workers`` errs by at most sqrt(workers) whichever way the load has gone since.
    """
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average here: assume an idle machine
        load = 0.0
    free = min(float(workers), max(1.0, (os.cpu_count() or 1) - load))
    return math.sqrt(workers * free)
