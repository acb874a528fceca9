"""tile-sort's own sorts against ``cupy.sort``, bit for bit: 32- and 64-bit keys, lengths around the
merge sort's segment and sample sizes up to 2^24, and keys that are random, all equal, sorted,
reversed, or differ only in their high or only in their low bits; Onesweep with fewer passes for
keys of fewer bits. Every buffer the sorts allocate starts poisoned, so a key left unwritten shows."""

import numpy as np
import pytest

from render.circles.constants import ONESWEEP_MAX_LOOK_BACK, ONESWEEP_RING
from render.circles.sorts import SORTS, OnesweepSort, key_dtype, make_sorter
from render.circles.variants import SORT_KEYS

pytestmark = pytest.mark.gpu

OURS = [sort for sort in SORTS if sort != "cub"]
LENGTHS = [0, 1, 2, 1023, 1024, 1025, 4097, 2**20 + 3, 2**24]
PATTERNS = ["random", "equal", "all ones", "sorted", "reversed", "high bits", "low bits"]


def make_keys(pattern: str, count: int, dtype, seed: int = 5) -> np.ndarray:
    """``count`` keys of ``dtype`` (uint32 or uint64) in one of PATTERNS."""
    bits = np.dtype(dtype).itemsize * 8
    top = np.uint64(bits - 4)
    rng = np.random.default_rng(seed)
    random = (rng.integers(0, 2**63, count, dtype=np.uint64) << np.uint64(1)) | rng.integers(0, 2, count, np.uint64)
    if bits == 32:
        random &= np.uint64(0xFFFFFFFF)
    if pattern == "equal":
        keys = np.full(count, 0x5A5A5A5A, np.uint64)
    elif pattern == "all ones":  # the largest key, which the merge sort pads with
        keys = np.full(count, 2**bits - 1, np.uint64)
    elif pattern == "high bits":  # the top four bits differ, the rest are equal
        keys = (random >> top << top) | np.uint64(0x123)
    elif pattern == "low bits":  # the low four bits differ, the rest are equal
        keys = (random & np.uint64(0xF)) | np.uint64(0x7700)
    else:
        keys = {"random": random, "sorted": np.sort(random), "reversed": np.sort(random)[::-1]}[pattern]
    return np.ascontiguousarray(keys.astype(dtype))


@pytest.mark.parametrize("sort", OURS)
@pytest.mark.parametrize("key_defines", SORT_KEYS, ids=["32-bit", "64-bit"])
@pytest.mark.parametrize("count", LENGTHS)
def test_our_sorts_equal_cupy_sort(sort, key_defines, count, poisoned_allocations):
    import cupy

    dtype = key_dtype(key_defines)
    sorter = make_sorter(sort, key_defines)
    for pattern in PATTERNS if count <= 2**20 + 3 else ["random", "reversed"]:
        host = make_keys(pattern, count, dtype)
        keys = cupy.asarray(host)
        got = sorter(keys)
        assert got.dtype == dtype and got.shape == (count,)
        assert np.array_equal(cupy.asnumpy(got), cupy.asnumpy(cupy.sort(keys))), (sort, pattern, count)
        assert np.array_equal(cupy.asnumpy(keys), host), "the input must stay as it was"


@pytest.mark.parametrize("key_defines", SORT_KEYS, ids=["32-bit", "64-bit"])
@pytest.mark.parametrize("key_bits", [1, 8, 9, 20, 33])
def test_onesweep_sorts_keys_below_a_bit_width_in_fewer_passes(key_defines, key_bits, poisoned_allocations):
    import cupy

    dtype = key_dtype(key_defines)
    if key_bits > np.dtype(dtype).itemsize * 8:
        pytest.skip("wider than the key type")
    rng = np.random.default_rng(key_bits)
    host = rng.integers(0, 2**key_bits, 300_007, dtype=np.uint64).astype(dtype)
    keys = cupy.asarray(host)
    got = make_sorter("onesweep", key_defines, key_bits)(keys)
    assert np.array_equal(cupy.asnumpy(got), np.sort(host))


def test_the_sort_bench_times_every_sort_on_random_and_scene_keys():
    from render.circles.sort_bench import run_sort_bench

    rows = run_sort_bench(counts=(2**16,), scenes=("rand10k",), runs=2)
    assert [(row.keys, row.sort) for row in rows] == [("random", s) for s in SORTS] + [("rand10k", s) for s in SORTS]
    assert all(row.ms > 0 and row.extra_bytes >= row.count * 4 for row in rows)


def test_onesweeps_look_back_ring_takes_the_same_memory_for_more_keys():
    from render.circles.sort_bench import run_sort_bench

    counts = (2**24, 2**25)  # 2048 and 4096 partitions: twice and four times the ring
    rows = run_sort_bench(counts=counts, scenes=(), sorts=("onesweep",), runs=1)
    beside_keys = [row.extra_bytes - 2 * row.count * 4 for row in rows]  # less its two arrays of keys
    assert beside_keys[0] == beside_keys[1] <= ONESWEEP_RING * 256 * 8 + 2**16, beside_keys


@pytest.mark.parametrize("key_defines", SORT_KEYS, ids=["32-bit", "64-bit"])
def test_onesweep_with_the_smallest_ring_reuses_it_and_still_sorts(key_defines, poisoned_allocations):
    import cupy

    dtype = key_dtype(key_defines)
    sorter = OnesweepSort(key_defines, ring=ONESWEEP_MAX_LOOK_BACK + 1).sort
    for pattern in PATTERNS:
        host = make_keys(pattern, 2**20 + 3, dtype)  # 129 (32-bit) or 257 partitions through a ring of 65
        got = sorter(cupy.asarray(host))
        assert np.array_equal(cupy.asnumpy(got), np.sort(host, kind="stable")), pattern
