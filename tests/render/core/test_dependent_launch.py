"""Dependent launches' arguments, and their fallback to CuPy's launch without ``cuda.bindings``
(the launches themselves: tests/render/core/test_gpu_dependent_launch.py)."""

import ctypes

import numpy as np
import pytest

from render.core import dependent_launch


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        (np.int32(-5), ctypes.c_int32, -5),
        (np.uint32(2**32 - 1), ctypes.c_uint32, 2**32 - 1),
        (np.int64(-(2**40)), ctypes.c_int64, -(2**40)),
        (np.uint64(2**64 - 8), ctypes.c_uint64, 2**64 - 8),  # a device pointer's width
        (np.float32(0.1), ctypes.c_float, float(np.float32(0.1))),
    ],
)
def test_numpy_scalars_become_the_c_values_the_kernel_takes(value, kind, expected):
    argument = dependent_launch._argument(value)
    assert type(argument) is kind and argument.value == expected


@pytest.mark.parametrize("value", [3, 0.5, np.float64(0.5), np.int16(3), [1, 2], None])
def test_an_argument_of_no_kernel_type_is_refused_by_name(value):
    # A Python int or float has no size the kernel can be trusted to take: the caller says which.
    with pytest.raises(TypeError, match="CuPy array or a NumPy scalar"):
        dependent_launch._argument(value)


def test_without_cuda_bindings_the_launch_is_cupys(monkeypatch):
    calls = []
    monkeypatch.setattr(dependent_launch, "_driver", lambda: None)
    dependent_launch.launch_dependent(lambda *call: calls.append(call), [7, 2], [256], [np.int32(1), np.int64(2)])
    assert calls == [((7, 2), (256,), (np.int32(1), np.int64(2)))]
