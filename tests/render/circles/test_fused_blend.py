"""The fused blend of tile-warp (``over_half_fused`` in shaders/circle_common.cuh) rounds exactly as
the reference's product-then-sum whenever ``fused_blend_is_exact`` says so, checked here in exact
rational arithmetic (no GPU needed)."""

from fractions import Fraction

import numpy as np
import pytest

from render.circles.tile_warp import fused_blend_is_exact

f32 = np.float32


def round_to_float32(x: Fraction) -> Fraction:
    """x rounded to the nearest float32 (ties to even), subnormals included."""
    if x == 0:
        return Fraction(0)
    exponent = max(abs(x).numerator.bit_length() - abs(x).denominator.bit_length() - 1, -126)
    while Fraction(2) ** (exponent + 1) <= abs(x):
        exponent += 1
    while exponent > -126 and Fraction(2) ** exponent > abs(x):
        exponent -= 1
    ulp = Fraction(2) ** (exponent - 23)
    quotient = x / ulp
    whole, rest = divmod(quotient, 1)
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
        whole += 1
    return whole * ulp


def reference_blend(pixel: f32, premultiplied: f32) -> Fraction:
    """fl(a + fl(1/2 * p)): the reference's two roundings."""
    return round_to_float32(Fraction(float(premultiplied)) + round_to_float32(Fraction(float(pixel)) / 2))


def fused_blend(pixel: f32, premultiplied: f32) -> Fraction:
    """fl(1/2 * p + a): one rounding, as fmaf."""
    return round_to_float32(Fraction(float(pixel)) / 2 + Fraction(float(premultiplied)))


def test_rounding_helper_agrees_with_numpy():
    rng = np.random.default_rng(1)
    values = rng.standard_normal(500) * np.exp2(rng.integers(-160, 20, 500))
    for value in values:
        assert round_to_float32(Fraction(float(value))) == Fraction(float(f32(value)))


def _pixels(rng, n):
    """Pixel values from 1 down through the subnormals (odd mantissas, where halving rounds)."""
    bits = rng.integers(1, 2**23, n, dtype=np.int64) | 1
    exponents = rng.integers(-149, 1, n)
    return [f32(np.ldexp(float(b) / 2**23, int(e))) for b, e in zip(bits, exponents, strict=True)]


def test_fused_equals_reference_for_every_color_it_allows():
    rng = np.random.default_rng(7)
    pixels = _pixels(rng, 400)
    channels = [f32(0)] + [f32(np.ldexp(rng.uniform(1, 2), int(e))) for e in rng.integers(-100, 1, 60)]
    channels += [-c for c in channels[1:10]]
    assert fused_blend_is_exact(np.array(channels, np.float32) * 2)
    for a in channels:
        for p in pixels:
            assert fused_blend(p, a) == reference_blend(p, a), (p, a)


def test_a_tiny_color_can_round_differently_so_it_is_refused():
    # The guard is needed: with a premultiplied channel under 2^-100 and a subnormal pixel the two
    # forms differ, and such a scene must take the two-rounding kernel.
    p, a = f32(np.ldexp(3.0, -149)), f32(np.ldexp(1.0, -149))
    assert fused_blend(p, a) != reference_blend(p, a)
    assert not fused_blend_is_exact(np.array([0.5, 2 * float(a)], np.float32))


@pytest.mark.parametrize(
    "color, exact",
    [([0.0, 0.1, 1.0], True), ([1e-35, 0.5, 0.5], False), ([np.nan, 0, 0], False), ([np.inf, 0, 0], True)],
)
def test_fused_blend_is_exact_on_colors(color, exact):
    assert fused_blend_is_exact(np.array(color, np.float32)) is exact
