"""The most device memory a piece of work holds at once, read from CuPy's pool."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


class Peak:
    """``bytes``: the most the pool had in use at once since the tracking began, beyond what was in
    use when it began (0 if it never went above)."""

    bytes = 0


@contextlib.contextmanager
def peak_device_bytes() -> Iterator[Peak]:
    """Track the pool's bytes in use after each allocation made inside the block, where any peak is;
    the work is synchronized before the figure is final. Yields the ``Peak``."""
    import cupy

    pool = cupy.get_default_memory_pool()
    # Arrays no longer reachable but not yet collected (held in reference cycles) would count in
    # the starting figure, and a collection inside the block, freeing them, would hide its peak.
    gc.collect()
    before, peak = pool.used_bytes(), Peak()

    def counting(size: int):
        memory = pool.malloc(size)
        peak.bytes = max(peak.bytes, pool.used_bytes() - before)
        return memory

    with cupy.cuda.using_allocator(counting):
        yield peak
        cupy.cuda.get_current_stream().synchronize()
