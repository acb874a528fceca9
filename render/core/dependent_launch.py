"""Kernel launches that may start before the kernel queued ahead of them on the stream has ended
(programmatic dependent launch, compute capability 9.0 on): their blocks become resident, and do the
work that needs nothing from that kernel, while its last blocks still run. The kernel itself says
where it starts to depend on the one before (``wait_for_previous_launch`` in
``shaders/dependent_launch.cuh``).

Captured into a CUDA graph, such a launch becomes a node with a programmatic edge from the kernel
before it. Without ``cuda.bindings``, on an older GPU, or where the driver says it does not support
them (from then on, for that device), the launch is CuPy's, in plain stream order, and the kernel's
wait does nothing.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Sequence

import numpy as np

_SCALARS: dict[np.dtype, type[ctypes._SimpleCData]] = {
    np.dtype(np.int32): ctypes.c_int32,
    np.dtype(np.uint32): ctypes.c_uint32,
    np.dtype(np.int64): ctypes.c_int64,
    np.dtype(np.uint64): ctypes.c_uint64,
    np.dtype(np.float32): ctypes.c_float,
}


@functools.lru_cache(maxsize=1)
def _driver():
    """``cuda.bindings.driver``, or None where it is not installed."""
    try:
        from cuda.bindings import driver
    except ImportError:
        return None
    return driver


# Devices whose driver refused a dependent launch as not supported.
_REFUSED: set[int] = set()


@functools.cache
def _device_launches_dependents(device: int) -> bool:
    """Whether CUDA device ``device`` can start a kernel before the one ahead of it ends (9.0 on)."""
    import cupy

    return int(cupy.cuda.Device(device).compute_capability) >= 90


def _argument(value) -> ctypes._SimpleCData:
    """One kernel argument as the C value the kernel takes: a CuPy array as its device pointer, a
    NumPy scalar as its own C type."""
    import cupy

    if isinstance(value, cupy.ndarray):
        return ctypes.c_void_p(value.data.ptr)
    if isinstance(value, np.generic) and value.dtype in _SCALARS:
        return _SCALARS[value.dtype](value.item())
    accepted = ", ".join(str(dtype) for dtype in _SCALARS)
    raise TypeError(f"a kernel argument must be a CuPy array or a NumPy scalar of {accepted}, not {value!r}")


def launch_dependent(kernel, grid: Sequence[int], block: Sequence[int], arguments: Sequence) -> None:
    """Launch CuPy ``kernel`` (a ``RawKernel`` with no dynamic shared memory) on the current stream
    as a dependent of the kernel before it: ``grid`` and ``block`` of up to three sizes, ``arguments``
    CuPy arrays and NumPy scalars (of ``_SCALARS``' types) in the kernel's order."""
    import cupy

    driver = _driver()
    device = cupy.cuda.Device().id
    if driver is None or device in _REFUSED or not _device_launches_dependents(device):
        kernel(tuple(grid), tuple(block), tuple(arguments))
        return
    values = [_argument(value) for value in arguments]
    # The driver copies each argument from these addresses before cuLaunchKernelEx returns.
    pointers = (ctypes.c_void_p * max(1, len(values)))(*(ctypes.addressof(v) for v in values))
    config = driver.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = (*grid, 1, 1)[:3]
    config.blockDimX, config.blockDimY, config.blockDimZ = (*block, 1, 1)[:3]
    config.sharedMemBytes = 0
    config.hStream = driver.CUstream(cupy.cuda.get_current_stream().ptr)
    attribute = driver.CUlaunchAttribute()
    attribute.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    attribute.value.programmaticStreamSerializationAllowed = 1
    config.attrs = [attribute]
    config.numAttrs = 1
    (error,) = driver.cuLaunchKernelEx(config, driver.CUfunction(kernel.kernel.ptr), ctypes.addressof(pointers), 0)
    if error == driver.CUresult.CUDA_ERROR_NOT_SUPPORTED:
        # Where a graph is being captured, CUDA may lose it with the refusal; the renderer then
        # launches stage by stage, and this device's launches are CuPy's from now on.
        _REFUSED.add(device)
        kernel(tuple(grid), tuple(block), tuple(arguments))
    elif error != driver.CUresult.CUDA_SUCCESS:
        raise cupy.cuda.driver.CUDADriverError(int(error))
