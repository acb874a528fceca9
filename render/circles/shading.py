"""Per-pixel shading of the reference renderer: coverage, flat and snowflake colors, "over" blending.

Float32 throughout, in the operation order of the course's renderer (``shared/spec/circles.md``
section 5), so that the CUDA kernels (built without FMA contraction) reproduce it.
"""

from __future__ import annotations

import numpy as np

f32 = np.float32

FLAT_ALPHA = f32(0.5)

# The snowflake color ramp T0..T4, padded with T4 so that t == 1 (index 4, weight 0) reads T4.
SNOW_RAMP = np.array([(1, 1, 1), (1, 1, 1), (0.8, 0.9, 1), (0.8, 0.9, 1), (0.8, 0.8, 1), (0.8, 0.8, 1)], np.float32)


def pixel_centers(count: int) -> np.ndarray:
    """Normalized centers of ``count`` pixels along one axis, float32 (count,)."""
    inv = f32(1) / f32(count)
    return inv * (np.arange(count, dtype=np.float32) + f32(0.5))


def pixel_bounds(position: np.ndarray, radius: np.ndarray, width: int, height: int) -> np.ndarray:
    """Each circle's clamped pixel box [x0, x1) x [y0, y1) as int64 (N, 4) columns x0, x1, y0, y1.

    The box contains every pixel center the circle covers (the reference visits only these).
    """
    x, y, r = position[:, 0], position[:, 1], radius
    w, h = f32(width), f32(height)
    with np.errstate(over="ignore"):  # a huge circle's box overflows to +-inf, then clips to the image
        x0 = np.clip(np.trunc((x - r) * w), 0, width)
        x1 = np.clip(np.trunc((x + r) * w) + 1, 0, width)
        y0 = np.clip(np.trunc((y - r) * h), 0, height)
        y1 = np.clip(np.trunc((y + r) * h) + 1, 0, height)
    return np.stack([x0, x1, y0, y1], axis=1).astype(np.int64)


def snowflake_rgba(dist2: np.ndarray, radius: np.float32, depth: np.float32):
    """Color and alpha of a snowflake at squared distances ``dist2`` float32 (...).

    Returns (rgb float32 (..., 3), alpha float32 (...)). expf is evaluated in float64 and rounded,
    which is within an ulp of glibc's and CUDA's expf.
    """
    t = np.sqrt(dist2) / radius
    s = t * f32(4)
    base = np.minimum(s.astype(np.int32), 4)
    weight = s - base.astype(np.float32)
    rgb = (f32(1) - weight)[..., None] * SNOW_RAMP[base] + weight[..., None] * SNOW_RAMP[base + 1]
    max_alpha = f32(0.6) + f32(0.4) * (f32(1) - depth)
    max_alpha = f32(0.5) * min(max(max_alpha, f32(0)), f32(1))
    falloff = (f32(-4) * t) * t
    alpha = max_alpha * np.exp(falloff.astype(np.float64)).astype(np.float32)
    return rgb, alpha
