"""Whether the GPU driver maps an OpenGL buffer for CUDA at all, asked of a child process.

On lent H100s (driver 580.159, EGL), after an out-of-bounds kernel fault in another process, a later
process's first ``cudaGraphicsMapResources`` was seen never to return, on some machines and for as
long as we watched (7 minutes), while CUDA alone and OpenGL alone went on working. The map needs the
GL context current on the calling thread, so the app cannot try it aside on a thread of its own, and
a thread stuck in the driver cannot be stopped; a child process can. The check only ever says
"stuck": a child that fails for any other reason (no EGL, no GPU) leaves the choice to the app's own
registration, which reports its own errors.

Run as ``python -m app.interop_check``: prints ``registered``, then ``mapped`` once the map, the unmap
and the work they put on the stream are done.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

REGISTERED, MAPPED = "registered", "mapped"
START_WAIT_S = 60.0  # for the child to get as far as the map (imports, CUDA and EGL start)
MAP_WAIT_S = 5.0  # for the map itself, which returns in milliseconds where it works
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
        deadline, registered, timed_out, line = time.monotonic() + START_WAIT_S, False, False, ""
        while line not in (MAPPED, None):  # None: the child ended
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                timed_out = True
                break
            if line == REGISTERED:
                registered, deadline = True, time.monotonic() + MAP_WAIT_S
        if registered and timed_out:
            self._verdict = (
                f"the GPU driver did not map an OpenGL buffer for CUDA within {MAP_WAIT_S:g} s in a test "
                "process (seen on some drivers after an out-of-bounds kernel fault in another process)"
            )
        self.close()

    def stuck(self) -> str | None:
        """Wait for the verdict (at most START_WAIT_S + MAP_WAIT_S): why interop would hang, or None."""
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
    """The child: register a small GL buffer with CUDA, say so, map and unmap it, say so."""
    os.environ["PYOPENGL_PLATFORM"] = "egl"  # before OpenGL's first import: no display needed
    try:
        _register_and_map()
    except Exception as error:  # any failure but a hang leaves the choice to the app
        sys.exit(f"interop check: {error}")
    # Leave without the GL driver's teardown: there is nothing to keep, and nothing to wait for.
    os._exit(0)


def _register_and_map() -> None:
    from cuda.bindings import runtime
    from OpenGL import GL

    from app.surfaces import EglSurface

    EglSurface(CHECK_SIDE, CHECK_SIDE)
    buffer = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, buffer)
    GL.glBufferData(GL.GL_PIXEL_UNPACK_BUFFER, CHECK_SIDE * CHECK_SIDE * 4, None, GL.GL_STREAM_DRAW)
    GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
    flags = runtime.cudaGraphicsRegisterFlags.cudaGraphicsRegisterFlagsWriteDiscard
    error, resource = runtime.cudaGraphicsGLRegisterBuffer(int(buffer), flags)
    if int(error):
        raise RuntimeError(f"cudaGraphicsGLRegisterBuffer failed: {error}")
    print(REGISTERED, flush=True)
    # A stuck map was seen both to block in the call and to return, leaving the stream's next work
    # waiting for ever: the check waits for the stream too.
    for name, arguments in (
        ("cudaGraphicsMapResources", (1, resource, 0)),
        ("cudaGraphicsUnmapResources", (1, resource, 0)),
        ("cudaStreamSynchronize", (0,)),
    ):
        result = getattr(runtime, name)(*arguments)
        error = result[0] if isinstance(result, tuple) else result
        if int(error):
            raise RuntimeError(f"{name} failed: {error}")
    print(MAPPED, flush=True)


if __name__ == "__main__":
    main()
