"""Dependent launches' arguments and configuration as the driver receives them, and their fallback
to CuPy's launch (the launches themselves: tests/render/core/test_gpu_dependent_launch.py)."""

import ctypes
import types

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


@pytest.mark.parametrize("value", [3, 0.5, np.float64(0.5), np.int16(3), np.bool_(True), [1, 2], None])
def test_an_argument_of_no_kernel_type_is_refused_naming_the_types_taken(value):
    # A Python int or float has no size the kernel can be trusted to take: the caller says which.
    with pytest.raises(TypeError, match=r"NumPy scalar of int32, uint32, int64, uint64, float32, not"):
        dependent_launch._argument(value)


class _RecordingDriver:
    """cuda.bindings.driver's structures, with a cuLaunchKernelEx that reads back what it is given."""

    def __init__(self, result):
        from cuda.bindings import driver

        self._driver, self._result, self.launches = driver, result, []

    def __getattr__(self, name):
        return getattr(self._driver, name)

    def cuLaunchKernelEx(self, config, function, parameters, extra):  # noqa: N802 (the driver's name)
        addresses = ctypes.cast(parameters, ctypes.POINTER(ctypes.c_void_p))
        kinds = (ctypes.c_int32, ctypes.c_int64, ctypes.c_float, ctypes.c_uint64)
        values = [ctypes.cast(addresses[i], ctypes.POINTER(kind))[0] for i, kind in enumerate(kinds)]
        attribute = config.attrs[0]
        self.launches.append(
            {
                "grid": (config.gridDimX, config.gridDimY, config.gridDimZ),
                "block": (config.blockDimX, config.blockDimY, config.blockDimZ),
                "stream": int(config.hStream),
                "function": int(function),
                "attributes": config.numAttrs,
                "programmatic": (attribute.id, attribute.value.programmaticStreamSerializationAllowed),
                "values": values,
                "extra": extra,
            }
        )
        return (self._result,)


def _fake_gpu(monkeypatch, result, device_launches_dependents=True):
    pytest.importorskip("cuda.bindings")
    import cupy

    driver = _RecordingDriver(result)
    monkeypatch.setattr(dependent_launch, "_REFUSED", set())
    monkeypatch.setattr(dependent_launch, "_driver", lambda: driver)
    monkeypatch.setattr(dependent_launch, "_device_launches_dependents", lambda device: device_launches_dependents)
    monkeypatch.setattr(cupy.cuda, "Device", lambda: types.SimpleNamespace(id=0))
    monkeypatch.setattr(cupy.cuda, "get_current_stream", lambda: types.SimpleNamespace(ptr=0x5150))
    return driver


ARGUMENTS = [np.int32(-7), np.int64(2**40 + 3), np.float32(0.25), np.uint64(0xDEAD0000)]
KERNEL = types.SimpleNamespace(kernel=types.SimpleNamespace(ptr=0xF00D))


def test_the_driver_gets_the_arguments_in_order_the_sizes_the_stream_and_the_programmatic_attribute(monkeypatch):
    driver = _fake_gpu(monkeypatch, result=None)
    driver._result = driver.CUresult.CUDA_SUCCESS
    dependent_launch.launch_dependent(KERNEL, (7, 2), (256,), ARGUMENTS)
    (launch,) = driver.launches
    assert launch["grid"] == (7, 2, 1) and launch["block"] == (256, 1, 1)
    assert launch["stream"] == 0x5150 and launch["function"] == 0xF00D and launch["extra"] == 0
    assert launch["values"] == [-7, 2**40 + 3, 0.25, 0xDEAD0000]
    kind = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    assert launch["attributes"] == 1 and launch["programmatic"] == (kind, 1)


def test_a_launch_the_driver_refuses_raises_cupys_driver_error_with_its_code(monkeypatch):
    import cupy

    class DriverError(Exception):  # CuPy's asks the driver for the code's name, and there is none here
        pass

    monkeypatch.setattr(cupy.cuda.driver, "CUDADriverError", DriverError)
    driver = _fake_gpu(monkeypatch, result=None)
    driver._result = driver.CUresult.CUDA_ERROR_INVALID_VALUE
    with pytest.raises(DriverError) as raised:
        dependent_launch.launch_dependent(KERNEL, (1,), (32,), ARGUMENTS)
    assert raised.value.args == (int(driver.CUresult.CUDA_ERROR_INVALID_VALUE),)


@pytest.mark.parametrize("why", ["no cuda.bindings", "a GPU older than 9.0"])
def test_otherwise_the_launch_is_cupys(monkeypatch, why):
    calls = []
    driver = _fake_gpu(monkeypatch, result=None, device_launches_dependents=why != "a GPU older than 9.0")
    if why == "no cuda.bindings":
        monkeypatch.setattr(dependent_launch, "_driver", lambda: None)
    dependent_launch.launch_dependent(lambda *call: calls.append(call), [7, 2], [256], ARGUMENTS)
    assert calls == [((7, 2), (256,), tuple(ARGUMENTS))] and driver.launches == []


class _CountingKernel:
    """A CuPy kernel's stand-in: its function handle, and the launches made through CuPy."""

    def __init__(self):
        self.kernel = types.SimpleNamespace(ptr=0xF00D)
        self.calls = []

    def __call__(self, *call):
        self.calls.append(call)


def test_a_driver_that_does_not_support_them_gets_cupys_launches_from_then_on(monkeypatch):
    kernel = _CountingKernel()
    driver = _fake_gpu(monkeypatch, result=None)
    driver._result = driver.CUresult.CUDA_ERROR_NOT_SUPPORTED
    for _ in range(3):
        dependent_launch.launch_dependent(kernel, (4,), (64,), ARGUMENTS)
    assert kernel.calls == [((4,), (64,), tuple(ARGUMENTS))] * 3
    assert len(driver.launches) == 1  # asked once, then remembered for the device
