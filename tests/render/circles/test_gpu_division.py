"""``divide_by_reciprocal`` (shaders/circle_common.cuh), the division of tile-warp's snowflake
shading by a staged radius's reciprocal, against the division itself, bit for bit, built with the
renderer's own options: every significand of the divisor at several exponents of
``radius_reciprocal``'s range, each against dividends from the same binade down to 2^-40 of it."""

import numpy as np
import pytest

from render.core.kernels import nvrtc_options

pytestmark = pytest.mark.gpu

SOURCE = r"""
#include "circle_common.cuh"

__device__ unsigned mix(unsigned x) {  // a bijective integer hash: dividends spread over the significands
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

// Case i: divisor significand i % 2^23 at exponent exponents[(i >> 23) % n], dividend of a hashed
// significand at the divisor's exponent minus drops[mix(i) % 5]. Counts the quotients that differ.
extern "C" __global__ void compare(long long cases, const int* exponents, int n, unsigned long long* wrong,
                                   unsigned long long* first) {
    const int drops[5] = {0, 1, 2, 20, 40};
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < cases; i += stride) {
        const int e = exponents[(i >> 23) % n];
        const float b = __uint_as_float((unsigned)(e + 127) << 23 | (unsigned)(i & 0x7fffff));
        const unsigned h = mix((unsigned)i * 2654435761u + (unsigned)(i >> 32));
        const float a = __uint_as_float((unsigned)(e - drops[h % 5] + 127) << 23 | (mix(h) & 0x7fffff));
        const float y = radius_reciprocal(b);
        const float fast = divide_by_reciprocal(a, b, y);
        if (y == 0.f || __float_as_uint(fast) != __float_as_uint(a / b)) {
            if (atomicAdd(wrong, 1ull) == 0) *first = i;
        }
    }
}
"""


def _compare(exponents):
    import cupy

    module = cupy.RawModule(code=SOURCE, options=nvrtc_options({}))
    wrong = cupy.zeros(1, cupy.uint64)
    first = cupy.zeros(1, cupy.uint64)
    cases = (1 << 23) * 8 * len(exponents)
    module.get_function("compare")(
        (4096,), (256,), (np.int64(cases), cupy.asarray(exponents, cupy.int32), np.int32(len(exponents)), wrong, first)
    )
    return int(wrong[0]), int(first[0]), cases


def test_the_reciprocal_divides_as_the_division_does():
    # 2^-60 and 2^59 are the range's ends (radius_reciprocal), the others its radii in practice.
    wrong, first, cases = _compare([-60, -30, -12, -7, -4, -1, 0, 3, 30, 59])
    assert cases > 6e8 and wrong == 0, f"{wrong} quotients differ, the first at case {first}"


def test_radii_outside_the_range_take_the_division():
    import cupy

    code = r"""
    #include "circle_common.cuh"
    extern "C" __global__ void reciprocals(const float* r, float* y, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = radius_reciprocal(r[i]);
    }
    """
    module = cupy.RawModule(code=code, options=nvrtc_options({}))
    radii = np.array([0.0, -1.0, 1e-20, 2.0**-61, 2.0**61, np.inf, np.nan, 2.0**-60, 0.05, 2.0**60], np.float32)
    out = cupy.full(len(radii), -1, cupy.float32)
    module.get_function("reciprocals")((1,), (32,), (cupy.asarray(radii), out, np.int32(len(radii))))
    got = cupy.asnumpy(out)
    assert np.all(got[:7] == 0)  # the division itself
    assert np.array_equal(got[7:], (np.float32(1) / radii[7:]).astype(np.float32))
