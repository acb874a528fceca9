"""tile-sort's sorts of its (tile, circle) keys, chosen by its ``sort`` option.

``cub`` is CuPy's sort (Thrust, which runs CUB's radix sort); ``onesweep`` the radix sort of
Adinets and Merrill (``shaders/sort_onesweep.cu``) and ``merge`` the merge sort of NVIDIA's CUDA
samples (``shaders/sort_merge.cu``), both written for this project. Each takes a CuPy array of
``KEY_T`` keys, uint32 or uint64 (N,), and returns them sorted, ascending, in a new array (a view of
a longer one for ``merge``); the input is not changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from render.circles.constants import (
    CUDA_DEFINES,
    MERGE_SAMPLE_STRIDE,
    MERGE_SEGMENT,
    ONESWEEP_ITEMS_32,
    ONESWEEP_ITEMS_64,
    ONESWEEP_MAX_LOOK_BACK,
    ONESWEEP_RING,
    ONESWEEP_THREADS,
    load_circle_module,
)
from render.circles.variants import SORT_KEYS
from render.core.grids import THREADS_1D, grid_1d
from render.core.kernels import LIBRARY
from render.core.module_cache import Build
from render.core.variants import Defines

SORTS = ("cub", "onesweep", "merge")
SOURCES = {"onesweep": "sort_onesweep.cu", "merge": "sort_merge.cu"}
RADIX_BITS = 8  # Onesweep's digit

Sorter = Callable[[Any], Any]  # keys (CuPy, KEY_T (N,)) -> the same keys sorted (N,)


def sort_builds(sort: str, key_defines: Defines) -> list[Build]:
    """What the sort ``sort`` of keys ``key_defines`` (one of ``SORT_KEYS``) compiles or loads."""
    if sort == "cub":
        return [(LIBRARY + "sort", dict(key_defines))]
    return [(SOURCES[sort], {**CUDA_DEFINES, **key_defines})]


def key_dtype(key_defines: Defines) -> type[np.unsignedinteger]:
    """The NumPy (and CuPy) type of the kernels' ``KEY_T``."""
    return (np.uint32, np.uint64)[SORT_KEYS.index(key_defines)]


def make_sorter(sort: str, key_defines: Defines, key_bits: int | None = None) -> Sorter:
    """The function that sorts keys of ``key_defines`` with ``sort`` (its kernels loaded now);
    ``key_bits``: the keys are below 2**key_bits (None: any key of the type), which saves
    Onesweep the passes over digits that are zero in every key."""
    if sort == "cub":
        import cupy

        return cupy.sort
    if sort == "onesweep":
        return OnesweepSort(key_defines, key_bits).sort
    return MergeSort(key_defines).sort


class KernelSort:
    """A sort of ours: the kernels of ``shaders/SOURCES[name]`` for keys of ``key_defines``."""

    name = ""

    def __init__(self, key_defines: Defines) -> None:
        self.module = load_circle_module(SOURCES[self.name], **key_defines)
        self.dtype = key_dtype(key_defines)

    def sort(self, keys):
        """``keys`` (CuPy, this sort's key type, (N,)) sorted ascending, stable, in a new array."""
        # The kernels read the keys as one block of memory, and count them in 32 bits.
        assert keys.dtype == self.dtype and keys.ndim == 1 and keys.flags.c_contiguous, (keys.dtype, keys.shape)
        assert len(keys) < 2**31, "at most 2^31 - 1 keys"
        return keys.copy() if len(keys) < 2 else self.sorted(keys)

    def sorted(self, keys):
        """``keys``, at least two, sorted (the sort itself)."""
        raise NotImplementedError


class MergeSort(KernelSort):
    """The CUDA samples' merge sort (see ``shaders/sort_merge.cu``) of keys of ``key_defines``."""

    name = "merge"

    def __init__(self, key_defines: Defines) -> None:
        super().__init__(key_defines)
        module = self.module
        self.segments = module.get_function("merge_sort_segments")
        self.sample_ranks = module.get_function("sample_ranks")
        self.merge_ranks = module.get_function("merge_ranks")
        self.merge_intervals = module.get_function("merge_intervals")

    def sorted(self, keys):
        import cupy

        count = len(keys)
        width = keys.dtype.itemsize
        padded = -(-count // MERGE_SEGMENT) * MERGE_SEGMENT
        work, other = cupy.empty(padded, keys.dtype), cupy.empty(padded, keys.dtype)
        work.data.copy_from_device_async(keys.data, count * width)
        # The largest key, all bits set: a stable sort keeps the padding after every real key.
        (work.data + count * width).memset_async(0xFF, (padded - count) * width)
        self.segments((padded // MERGE_SEGMENT,), (MERGE_SEGMENT // 2,), (work,))
        total = np.int64(padded)
        run = MERGE_SEGMENT
        while run < padded:
            pairs = -(-padded // (2 * run))
            per_pair = run // MERGE_SAMPLE_STRIDE
            slots = pairs * per_pair
            rank_in_b, rank_in_a = cupy.empty(slots, cupy.int32), cupy.empty(slots, cupy.int32)
            limit_a = cupy.empty(pairs * (2 * per_pair + 1), cupy.int32)
            limit_b = cupy.empty_like(limit_a)
            step = (total, np.int32(run), np.int64(pairs))
            self.sample_ranks(grid_1d(slots), (THREADS_1D,), (work, *step, rank_in_b, rank_in_a))
            self.merge_ranks(grid_1d(slots), (THREADS_1D,), (rank_in_b, rank_in_a, *step, limit_a, limit_b))
            merge = (work, total, np.int32(run), limit_a, limit_b, other)
            self.merge_intervals((pairs * 2 * per_pair,), (MERGE_SAMPLE_STRIDE,), merge)
            work, other = other, work
            run *= 2
        return work[:count]


class OnesweepSort(KernelSort):
    """Onesweep (see ``shaders/sort_onesweep.cu``) of keys of ``key_defines`` below 2**``key_bits``,
    with a look-back ring of ``ring`` partitions (the tests take a small one, to reuse it often)."""

    name = "onesweep"

    def __init__(self, key_defines: Defines, key_bits: int | None = None, ring: int = ONESWEEP_RING) -> None:
        super().__init__(key_defines)
        assert ONESWEEP_MAX_LOOK_BACK < ring <= ONESWEEP_RING, ring
        self.ring = ring
        module = self.module
        width = np.dtype(self.dtype).itemsize * 8
        assert key_bits is None or 0 <= key_bits <= width, (key_bits, width)
        bits = key_bits if key_bits is not None else width
        self.passes = max(1, -(-bits // RADIX_BITS))
        self.histogram = module.get_function("onesweep_histogram")
        self.offsets = module.get_function("onesweep_offsets")
        self.one_pass = module.get_function("onesweep_pass")

    def sorted(self, keys):
        import cupy

        count = len(keys)
        total = np.int64(count)
        counts = cupy.zeros(self.passes * 256, cupy.uint32)
        blocks = min(-(-count // ONESWEEP_THREADS), 4096)
        self.histogram((blocks,), (ONESWEEP_THREADS,), (keys, total, np.int32(self.passes), counts))
        self.offsets((self.passes,), (256,), (counts,))
        items = ONESWEEP_ITEMS_32 if keys.dtype.itemsize == 4 else ONESWEEP_ITEMS_64
        partitions = -(-count // (ONESWEEP_THREADS * items))
        slots = min(partitions, self.ring)
        # The look-back's words (a ring of partitions), the ring's tail (who last finished a
        # look-back in each slot) and the next partition to hand out: one block, zeroed each pass.
        ring_bytes, marks_bytes = slots * 256 * 8, slots * 4
        table = cupy.empty(ring_bytes + marks_bytes + 4, cupy.uint8)
        ring = table[:ring_bytes].view(cupy.uint64)
        marks = table[ring_bytes : ring_bytes + marks_bytes].view(cupy.int32)
        ticket = table[ring_bytes + marks_bytes :].view(cupy.int32)
        buffers = [cupy.empty(count, keys.dtype), cupy.empty(count, keys.dtype)]
        source = keys
        for step in range(self.passes):
            table.data.memset_async(0, table.nbytes)
            target = buffers[step % 2]
            digits = (np.int32(RADIX_BITS * step), counts[step * 256 :])
            look_back = (ring, marks, np.int32(slots), ticket)
            self.one_pass((partitions,), (ONESWEEP_THREADS,), (source, target, total, *digits, *look_back))
            source = target
        return source
