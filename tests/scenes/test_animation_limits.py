"""The snow rule's noise where its float-to-int conversions leave int32's range: converted as CUDA
converts (toward zero, saturated, NaN to 0), without NumPy's warning."""

import warnings

import numpy as np

from scenes.animation import advance, to_int32
from scenes.model import CircleScene, empty_arrays


def test_floats_beyond_int32_saturate_as_cuda_converts_them():
    values = np.array([0.5, -0.5, 2.9, -2.9, 2.0**31, -(2.0**31), 3e9, -3e9, 1e18, np.inf, -np.inf, np.nan], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        converted = to_int32(values)
    int_max, int_min = 2**31 - 1, -(2**31)
    assert converted.tolist() == [0, 0, 2, -2, int_max, int_min, int_max, int_min, int_max, int_max, int_min, 0]


def test_snow_far_beyond_int32_advances_without_a_warning():
    arrays = empty_arrays(3)
    arrays["position"][:] = np.array([(0.5, 0.5, 3e7), (2e8, -2e8, 0.5), (1e18, 1e18, 1e18)], np.float32)
    arrays["radius"][:] = np.float32(0.1)
    scene = CircleScene("far snow", **arrays, shading="snowflake", background="snow", animation="snow")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        advance(scene)
    assert np.isfinite(scene.position).all()
