"""GlibcRand, the course's random numbers: the spec's vectors, seed 0 as seed 1, this machine's glibc
``rand()`` across block boundaries, and float32 values that can reach one."""

import ctypes

import numpy as np
import pytest

from scenes.glibc_rand import GlibcRand


def test_spec_vectors():
    assert GlibcRand(0).ints(5).tolist() == [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
    assert GlibcRand(12345).ints(5).tolist() == [383100999, 858300821, 357768173, 455528251, 133005921]


def test_seed_zero_is_seed_one():
    assert GlibcRand(0).ints(100).tolist() == GlibcRand(1).ints(100).tolist()


@pytest.mark.parametrize("seed", [1, 42, 99999, 2**31 + 7])
def test_matches_this_machines_glibc_across_blocks(seed):
    libc = ctypes.CDLL("libc.so.6")
    libc.srand(ctypes.c_uint(seed))
    expected = [libc.rand() for _ in range(9000)]
    rng = GlibcRand(seed)
    got = rng.ints(7).tolist() + rng.ints(4100).tolist() + rng.ints(4893).tolist()
    assert got == expected


def test_floats_are_float32_rounded_and_can_reach_one():
    values = GlibcRand(0).floats(1000)
    assert values.dtype == np.float32
    ints = GlibcRand(0).ints(1000)
    assert np.array_equal(values, ints.astype(np.float32) * np.float32(2.0**-31))
    # 2**31 - 1 rounds to 2**31 as a float, so the largest rand() gives exactly 1.0.
    assert np.float32(2147483647) * np.float32(2.0**-31) == np.float32(1.0)
