"""Comparing a rendered image with the reference: our exactness bar and the course's rule."""

from __future__ import annotations

import dataclasses

import numpy as np

EXACT_TOLERANCE = 1e-4  # max |diff| over RGB for a variant to count as exact
COURSE_THRESHOLD = 0.1  # the course counts a channel value as wrong above this |diff|
COURSE_ALLOWED_BAD = 5  # ... and fails an image with more wrong values than this


@dataclasses.dataclass(frozen=True)
class Comparison:
    max_abs_diff: float  # over RGB; inf when any value is not finite
    bad_values: int  # RGB values not finite or off by more than COURSE_THRESHOLD

    @property
    def exact(self) -> bool:
        return self.max_abs_diff <= EXACT_TOLERANCE

    @property
    def course_pass(self) -> bool:
        return self.bad_values <= COURSE_ALLOWED_BAD

    @property
    def passed(self) -> bool:
        return self.exact and self.course_pass


def compare_images(reference: np.ndarray, candidate: np.ndarray) -> Comparison:
    """Compare RGB of two float32 (H, W, 4) images; alpha is ignored, like the course's checker."""
    if reference.shape != candidate.shape:
        raise ValueError(f"image shapes differ: {reference.shape} vs {candidate.shape}")
    ref, got = reference[..., :3], candidate[..., :3]
    finite = np.isfinite(got)
    diff = np.abs(np.where(finite, got, 0) - ref)
    bad = int(np.count_nonzero(~finite | (diff > COURSE_THRESHOLD)))
    max_diff = float(diff.max()) if finite.all() else float("inf")
    return Comparison(max_diff, bad)
