"""The interop check's child (``app/interop_check.py``): registers a small OpenGL buffer with CUDA,
prints ``ready``, hands it from CUDA to OpenGL and back twice, prints ``shown``. Any failure is one
line on stderr and exit status 1; a hang is the parent's to see. Ends with the app that started it.

Run as ``python -P -m app.interop_child`` (the app does); alone it prints the same lines.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from app.interop_check import PARENT_ENV, READY, SHOWN

SIDE = 16  # pixels a side of the buffer handed over
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def main() -> None:
    """The child's whole run."""
    _end_with_parent()
    os.environ["PYOPENGL_PLATFORM"] = "egl"  # before OpenGL's first import: no display needed
    try:
        _refuse_an_exclusive_gpu()
        _round_trip()
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


def _round_trip() -> None:
    from cuda.bindings import runtime
    from OpenGL import GL

    from app.display import check_cuda
    from app.surfaces import EglSurface

    EglSurface(SIDE, SIDE)
    buffer = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, buffer)
    GL.glBufferData(GL.GL_PIXEL_UNPACK_BUFFER, SIDE * SIDE * 4, None, GL.GL_STREAM_DRAW)
    GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
    flags = runtime.cudaGraphicsRegisterFlags.cudaGraphicsRegisterFlagsWriteDiscard
    resource = check_cuda(runtime.cudaGraphicsGLRegisterBuffer(int(buffer), flags), "cudaGraphicsGLRegisterBuffer")
    texture = GL.glGenTextures(1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, texture)
    GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, SIDE, SIDE, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, None)
    print(READY, flush=True)
    # The app's hand-over, twice: CUDA writes the buffer, OpenGL copies it into a texture, CUDA maps
    # it again; each turn waits for the stream and for OpenGL.
    for _ in range(2):
        check_cuda(runtime.cudaGraphicsMapResources(1, resource, 0), "cudaGraphicsMapResources")
        mapped = runtime.cudaGraphicsResourceGetMappedPointer(resource)
        pointer, size = check_cuda(mapped, "cudaGraphicsResourceGetMappedPointer")
        check_cuda(runtime.cudaMemsetAsync(pointer, 77, size, 0), "cudaMemsetAsync")
        check_cuda(runtime.cudaGraphicsUnmapResources(1, resource, 0), "cudaGraphicsUnmapResources")
        check_cuda(runtime.cudaStreamSynchronize(0), "cudaStreamSynchronize")
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, buffer)
        GL.glTexSubImage2D(GL.GL_TEXTURE_2D, 0, 0, 0, SIDE, SIDE, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, ctypes.c_void_p(0))
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
        GL.glFinish()
    print(SHOWN, flush=True)


if __name__ == "__main__":
    main()
