"""Whether the GPU driver hands frames from CUDA to OpenGL at all, asked of a child process.

On lent H100s (driver 580.159, EGL), after an out-of-bounds kernel fault in another process, later
processes that showed frames through interop were seen to wait for ever, for as long as we watched
(7 minutes), while CUDA alone and OpenGL alone (the host copy) went on working: on one machine in
their first map, on another in the CUDA calls of the frame after the first one shown. A call stuck
in the driver cannot be stopped, and the map needs the GL context current on its thread, so the app
cannot try it aside; a child process can be killed. The child registers a small buffer and hands it
from CUDA to OpenGL and back twice. That catches a stuck map; on the second machine it did not
catch the stall (docs/reliability.md). The check only ever says "stuck": a child that fails for any
other reason (no EGL, no GPU) leaves the choice to the app's own registration, which reports its
own errors.

Run as ``python -m app.interop_check``: prints ``ready`` once its buffer is registered, then
``shown`` once the hand-overs are done.
"""

from __future__ import annotations

import ctypes
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

READY, SHOWN = "ready", "shown"
START_WAIT_S = 60.0  # for the child to be ready (imports, CUDA and EGL start, the registration)
SHOW_WAIT_S = 5.0  # for its hand-overs, which take milliseconds where interop works
CHECK_SIDE = 16  # pixels a side of the buffer the child maps


def nvidia_driver_present() -> bool:
    """Whether an NVIDIA kernel driver is loaded (its control device exists): without one there is
    no interop to check, and no child is started."""
    return os.path.exists("/dev/nvidiactl")


def check_command() -> list[str]:
    """The child's command line."""
    return [sys.executable, "-m", "app.interop_check"]


class InteropCheck:
    """Starts the child at once; ``stuck()`` waits for its verdict."""

    def __init__(self, command: list[str] | None = None) -> None:
        root = str(Path(__file__).resolve().parents[1])
        paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        self._child = subprocess.Popen(
            command or check_command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        self._verdict: str | None = None
        self._watcher = threading.Thread(target=self._watch, name="rasterlab-interop-check", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            for line in self._child.stdout:
                lines.put(line.strip())
            lines.put(None)

        threading.Thread(target=read, name="rasterlab-interop-check-reader", daemon=True).start()
        deadline, ready, timed_out, line = time.monotonic() + START_WAIT_S, False, False, ""
        while line not in (SHOWN, None):  # None: the child ended
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                timed_out = True
                break
            if line == READY:
                ready, deadline = True, time.monotonic() + SHOW_WAIT_S
        if ready and timed_out:
            self._verdict = (
                f"frames did not get through CUDA-GL interop within {SHOW_WAIT_S:g} s in a test process "
                "(seen on some drivers after an out-of-bounds kernel fault in another process)"
            )
        self.close()

    def stuck(self) -> str | None:
        """Wait for the verdict (at most START_WAIT_S + SHOW_WAIT_S): why interop would hang, or None."""
        self._watcher.join()
        return self._verdict

    def close(self) -> None:
        """Stop the child if it still runs (a child stuck in the driver ends only when killed)."""
        if self._child.poll() is None:
            self._child.kill()
        try:
            self._child.wait(timeout=10)
        except subprocess.TimeoutExpired:  # the kernel has not reaped it yet; nothing waits on it
            pass


def main() -> None:
    """The child: register a small buffer, say so, hand it from CUDA to OpenGL and back, say so."""
    os.environ["PYOPENGL_PLATFORM"] = "egl"  # before OpenGL's first import: no display needed
    try:
        _round_trip()
    except Exception as error:  # any failure but a hang leaves the choice to the app
        sys.exit(f"interop check: {error}")
    # Leave without the GL driver's teardown: there is nothing to keep, and nothing to wait for.
    os._exit(0)


def _round_trip() -> None:
    from cuda.bindings import runtime
    from OpenGL import GL

    from app.surfaces import EglSurface

    EglSurface(CHECK_SIDE, CHECK_SIDE)
    buffer = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, buffer)
    GL.glBufferData(GL.GL_PIXEL_UNPACK_BUFFER, CHECK_SIDE * CHECK_SIDE * 4, None, GL.GL_STREAM_DRAW)
    GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
    flags = runtime.cudaGraphicsRegisterFlags.cudaGraphicsRegisterFlagsWriteDiscard
    resource = _cuda(runtime, "cudaGraphicsGLRegisterBuffer", int(buffer), flags)
    texture = GL.glGenTextures(1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, texture)
    GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, CHECK_SIDE, CHECK_SIDE, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, None)
    print(READY, flush=True)
    # The app's hand-over, twice: CUDA writes the buffer, OpenGL copies it into a texture, CUDA maps
    # it again; each turn waits for the stream and for OpenGL.
    for _ in range(2):
        _cuda(runtime, "cudaGraphicsMapResources", 1, resource, 0)
        pointer, size = _cuda(runtime, "cudaGraphicsResourceGetMappedPointer", resource)
        _cuda(runtime, "cudaMemsetAsync", pointer, 77, size, 0)
        _cuda(runtime, "cudaGraphicsUnmapResources", 1, resource, 0)
        _cuda(runtime, "cudaStreamSynchronize", 0)
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, buffer)
        GL.glTexSubImage2D(
            GL.GL_TEXTURE_2D, 0, 0, 0, CHECK_SIDE, CHECK_SIDE, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, ctypes.c_void_p(0)
        )
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
        GL.glFinish()
    print(SHOWN, flush=True)


def _cuda(runtime, name: str, *arguments):
    """runtime.name(*arguments)'s values; an error raises RuntimeError naming the call."""
    error, *values = getattr(runtime, name)(*arguments)
    if int(error):
        raise RuntimeError(f"{name} failed: {error}")
    return values[0] if len(values) == 1 else values


if __name__ == "__main__":
    main()
