"""Whether a CUDA GPU is usable here, and why not when it is not."""

from __future__ import annotations

import functools
import os
import threading

from render.core.address_space import limit_note

# CUDA refuses a device-wide synchronize while any thread of the process captures a CUDA graph, and
# the capture is lost: a race's frames synchronize in a thread of their own while the app loads a
# renderer, which captures its frame. Captures (render.core.frame_graph) and synchronize_device
# take turns.
CAPTURE_LOCK = threading.Lock()
# Where Linux's NVIDIA kernel driver shows itself.
NVIDIA_DRIVER = "/proc/driver/nvidia"


@functools.lru_cache(maxsize=1)
def gpu_problem() -> str | None:
    """None when a CUDA device can run our kernels, else one line saying why it cannot."""
    try:
        import cupy
    except ModuleNotFoundError as error:
        if error.name == "cupy":
            return "CuPy is not installed"
        return f"CuPy did not load ({first_line(error)}){limit_note()}"
    except Exception as error:  # a library of CuPy's that did not load: an ImportError, or a RuntimeError, ...
        # CuPy's own ImportError is pages of advice; what failed is the error it was raised from.
        return f"CuPy did not load ({first_line(error.__cause__ or error)}){limit_note()}"
    try:
        if not cupy.cuda.is_available():
            # A limit on address space stops CUDA's start where a GPU and its driver are there.
            note = limit_note() if os.path.exists(NVIDIA_DRIVER) else ""
            return f"no CUDA GPU is available (CuPy found no usable device or driver){note}"
        cupy.cuda.runtime.getDeviceProperties(0)
    except Exception as error:  # CuPy raises driver errors of several types
        return f"the CUDA GPU cannot be used ({first_line(error)}){limit_note()}"
    return None


def first_line(error: BaseException) -> str:
    """The first line of ``error``'s text that says anything (CuPy's run to pages, framed in ``=``)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip(" =")]
    return lines[0] if lines else type(error).__name__


def start_cuda() -> None:
    """Initialize the CUDA driver and the device's context now, where a GPU is usable (a quarter of
    a second or more, in CuPy's import and the first calls); a failure is ``gpu_problem``'s to
    report."""
    if gpu_problem() is None:
        import cupy

        cupy.cuda.runtime.free(0)  # frees nothing; makes the context, which the first frame needs


@functools.lru_cache(maxsize=1)
def gpu_name() -> str:
    import cupy

    return cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()


def gpu_failures() -> tuple[type[Exception], ...]:
    """The exception types CuPy raises when a CUDA call fails (a lost device, a kernel that faulted
    and left the context unusable, a driver error); empty without CuPy, so ``except`` catches none."""
    try:
        import cupy
    except Exception:  # no CuPy, or one that cannot load (gpu_problem says why): no CUDA call was made
        return ()
    return (cupy.cuda.driver.CUDADriverError, cupy.cuda.runtime.CUDARuntimeError)


def cuda_context_works() -> bool:
    """Whether CUDA still works in this process after a failure: a kernel that faulted loses the
    context for good, while a launch that could not be made (too many threads or registers, say)
    leaves it as it was."""
    import cupy

    try:
        synchronize_device()
        return int(cupy.arange(3).sum()) == 3
    except gpu_failures():
        return False


def is_out_of_memory(error: Exception) -> bool:
    """Whether a CUDA error says the GPU ran out of memory (which the app survives on the GPU)."""
    text = str(error)
    return "OUT_OF_MEMORY" in text or "cudaErrorMemoryAllocation" in text


def release_cached_gpu_memory() -> None:
    """Hand the blocks CuPy's pool keeps for reuse back to the driver: after a change of size they
    no longer fit what is allocated next, and a session of many sizes would pile them up."""
    import cupy

    cupy.get_default_memory_pool().free_all_blocks()


def synchronize_device() -> None:
    """Wait for all of the device's work (``cudaDeviceSynchronize``), never while another thread
    captures a CUDA graph."""
    import cupy

    with CAPTURE_LOCK:
        cupy.cuda.runtime.deviceSynchronize()
