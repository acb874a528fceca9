"""Whether frames reach OpenGL through CUDA interop at all, asked of a child process.

On lent H100s (driver 580.159, EGL), after an out-of-bounds kernel fault in another process, later
processes that showed frames through interop were seen to wait for ever, for as long as we watched
(7 minutes): on one machine in their first map, on another in the CUDA calls of the frame after the
first one shown, while CUDA alone and OpenGL alone (the host copy) went on working. A call stuck in
the driver cannot be stopped, and the map needs the GL context current on its thread, so the app
cannot try it aside; a child process can be killed. The child shows a few small frames with the
app's own display code. The check only ever says "stuck": a child that fails for any other reason
(no EGL, no GPU) leaves the choice to the app's own registration, which reports its own errors.

Run as ``python -m app.interop_check``: prints ``ready`` once started, then ``shown`` once its
frames went through interop.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

READY, SHOWN = "ready", "shown"
START_WAIT_S = 60.0  # for the child to be ready (imports, CUDA and EGL start, a kernel compiled)
SHOW_WAIT_S = 5.0  # for its frames, which take milliseconds where interop works
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
    """The child: say it is ready, show a few small frames through interop, say so."""
    os.environ["PYOPENGL_PLATFORM"] = "egl"  # before OpenGL's first import: no display needed
    try:
        _show_frames()
    except Exception as error:  # any failure but a hang leaves the choice to the app
        sys.exit(f"interop check: {error}")
    # Leave without the GL driver's teardown: there is nothing to keep, and nothing to wait for.
    os._exit(0)


def _show_frames() -> None:
    import cupy
    from OpenGL import GL

    from app.display import FrameDisplay
    from app.surfaces import EglSurface
    from render.core.kernels import load_module

    surface = EglSurface(CHECK_SIDE, CHECK_SIDE)
    display = FrameDisplay()
    image = cupy.zeros((CHECK_SIDE, CHECK_SIDE, 4), cupy.float32)
    load_module("to_rgba8.cu")  # compiled, or read from the cache, before the wait starts
    frame_done = cupy.cuda.Event()
    print(READY, flush=True)
    # The app's frames in small: CUDA work and an event on the app's stream, the frame through
    # interop, OpenGL's draw and swap. A stuck driver was seen to block in the first map on one
    # machine, and in the next frame's CUDA calls after an interop frame on another.
    for frame in range(3):
        image.data.memset_async(frame, image.nbytes)
        frame_done.record()
        display.upload(device_image=image)
        if display.path != "interop":
            raise RuntimeError(display.notice or "the frame did not go through interop")
        display.draw(0, 0, CHECK_SIDE, CHECK_SIDE)
        surface.swap()
        frame_done.synchronize()
    GL.glFinish()
    print(SHOWN, flush=True)


if __name__ == "__main__":
    main()
