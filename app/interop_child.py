"""The interop check's child (``app/interop_check.py``): starts the app's display offscreen, prints
``ready``, shows three small frames through interop as the app does, prints ``shown``. Any failure
is one line on stderr and exit status 1; a hang is the parent's to see. Ends with the app that
started it.

Run as ``python -P -m app.interop_child`` (the app does); alone it prints the same lines.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from app.interop_check import PARENT_ENV, READY, SHOWN

SIDE = 16  # pixels a side of the frames shown
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def main() -> None:
    """The child's whole run."""
    _end_with_parent()
    os.environ["PYOPENGL_PLATFORM"] = "egl"  # before OpenGL's first import: no display needed
    try:
        _refuse_an_exclusive_gpu()
        _show_frames()
    except Exception as error:  # any failure but a hang leaves the choice to the app
        sys.exit(f"interop check: {error}")
    # Leave without the GL driver's teardown: there is nothing to keep, and nothing to wait for.
    os._exit(0)


def _end_with_parent() -> None:
    """Linux: the kernel kills this process when the app ends, however it ends (a child stuck in
    the driver would otherwise outlive it, holding a GPU context)."""
    parent = os.environ.get(PARENT_ENV)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the app's close() is the only stop
        return
    if parent is not None and os.getppid() != int(parent):  # the app ended before the prctl
        print("interop check: the app that started it has ended", file=sys.stderr, flush=True)
        os._exit(1)


def _refuse_an_exclusive_gpu() -> None:
    """In an exclusive compute mode a second context could take the GPU from the app: no check."""
    from cuda.bindings import driver

    from app.display import check_cuda

    check_cuda(driver.cuInit(0), "cuInit")
    device = check_cuda(driver.cuDeviceGet(0), "cuDeviceGet")
    attribute = driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_MODE
    mode = check_cuda(driver.cuDeviceGetAttribute(attribute, device), "cuDeviceGetAttribute")
    if int(mode) != int(driver.CUcomputemode.CU_COMPUTEMODE_DEFAULT):
        raise RuntimeError(f"the GPU's compute mode is {int(mode)}, not shared: not checked")


def _show_frames() -> None:
    import cupy
    from OpenGL import GL

    from app.display import FrameDisplay
    from app.surfaces import EglSurface
    from render.core.kernels import load_module

    surface = EglSurface(SIDE, SIDE)
    display = FrameDisplay()
    image = cupy.zeros((SIDE, SIDE, 4), cupy.float32)
    load_module("to_rgba8.cu")  # compiled, or read from the cache, before the wait starts
    frame_done = cupy.cuda.Event()
    print(READY, flush=True)
    # The app's frames in small: CUDA work and an event on the app's stream, the frame through
    # interop, OpenGL's draw and swap. One stuck driver blocked in the first map, another in the
    # next frame's CUDA calls after an interop frame: three frames meet both.
    for frame in range(3):
        image.data.memset_async(frame, image.nbytes)
        frame_done.record()
        display.upload(device_image=image)
        if display.path != "interop":
            raise RuntimeError(display.notice or "the frame did not go through interop")
        display.draw(0, 0, SIDE, SIDE)
        surface.swap()
        frame_done.synchronize()
    GL.glFinish()
    print(SHOWN, flush=True)


if __name__ == "__main__":
    main()
