"""Whether the GPU driver hands frames from CUDA to OpenGL at all, asked of a child process
(``app/interop_child.py``) that the app starts beside its own CUDA start.

On lent H100s (driver 580.159, EGL), after an out-of-bounds kernel fault in another process, later
processes that showed frames through interop were seen to wait for ever, for as long as we watched
(7 minutes), while CUDA alone and OpenGL alone (the host copy) went on working: on one machine in
their first map, on another in the CUDA calls of the frame after the first one shown. A call stuck
in the driver cannot be stopped, and the map needs the GL context current on its thread, so the app
cannot try it aside; a child process can be killed. The child shows three small frames through the
app's own display code, which meets both stalls (docs/reliability.md).

The verdict is "stuck" for a child that is still running when it should be done: not ready within
START_WAIT_S, or ready and not done within SHOW_WAIT_S. A child that fails for any other reason (no
EGL, no GPU, a GPU in an exclusive compute mode) leaves the choice to the app's own registration,
which reports its own errors.
"""

from __future__ import annotations

import os
import queue
import site
import subprocess
import sys
import threading
import time
from pathlib import Path

READY, SHOWN = "ready", "shown"
PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])  # the folder holding the app package
PARENT_ENV = "RASTERLAB_INTEROP_CHECK_PARENT"  # the app's pid: the child ends if the app has gone
START_WAIT_S = 60.0  # for the child to be ready (imports, CUDA and EGL start, the kernel loaded)
SHOW_WAIT_S = 2.0  # for its three frames, the registration among them: milliseconds where interop works
STUCK_NOTE = (
    "a helper process's CUDA-to-OpenGL hand-over {what} (seen on some GPU drivers after an "
    "out-of-bounds kernel fault in another process)"
)


def nvidia_driver_present() -> bool:
    """Whether an NVIDIA kernel driver is loaded (its control device exists): without one there is
    no interop to check, and no child is started."""
    return os.path.exists("/dev/nvidiactl")


def child_command() -> list[str]:
    """The child's command line: -P keeps the working folder off sys.path, so that a folder named
    app (or OpenGL, or cuda) where the user started rasterlab is never imported in its place."""
    return [sys.executable, "-P", "-m", "app.interop_child"]


def start_interop_check() -> InteropCheck | None:
    """The check, started; None where there is no NVIDIA driver or the child cannot be started."""
    if not nvidia_driver_present():
        return None
    try:
        return InteropCheck()
    except OSError:  # no such interpreter, out of processes or memory: the app goes on without it
        return None


def _child_pythonpath() -> str:
    """PYTHONPATH for the child: the folder holding the ``app`` package first, where Python would not
    find it by itself (a checkout run as ``python main.py``), never a site folder (which would then
    come before the standard library); the parent's own entries made absolute (the child runs in
    another folder)."""
    sites = {*site.getsitepackages(), site.getusersitepackages()}
    paths = [os.path.abspath(entry) for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    return os.pathsep.join(paths if PACKAGE_ROOT in sites else [PACKAGE_ROOT, *paths])


class InteropCheck:
    """Starts the child at once; ``decided(wait_s)`` says whether its verdict is in, ``stuck_reason``
    is that verdict (None: nothing found). Make it on a thread that outlives the check (run_gui's
    own): the child's parent-death signal comes when the thread that started it ends."""

    def __init__(self, command: list[str] | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": _child_pythonpath(), PARENT_ENV: str(os.getpid())}
        self._child = subprocess.Popen(
            command or child_command(),
            cwd=PACKAGE_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
            errors="replace",
        )
        self.stuck_reason: str | None = None
        self._watcher = threading.Thread(target=self._watch, name="rasterlab-interop-check", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            try:
                for line in self._child.stdout:
                    lines.put(line.strip())
            finally:
                # Closed here, not by close(): a read holds the stream's lock until the pipe ends.
                self._child.stdout.close()
                lines.put(None)  # the child ended, or its output cannot be read: not stuck

        threading.Thread(target=read, name="rasterlab-interop-check-reader", daemon=True).start()
        deadline, ready, line = time.monotonic() + START_WAIT_S, False, ""
        while line not in (SHOWN, None):
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                if ready:
                    late = f"did not finish within {SHOW_WAIT_S:g} s"
                else:
                    late = f"did not start within {START_WAIT_S:g} s"
                self.stuck_reason = STUCK_NOTE.format(what=late)
                break
            if line == READY:
                ready, deadline = True, time.monotonic() + SHOW_WAIT_S
        self.close()

    def decided(self, wait_s: float) -> bool:
        """Wait up to ``wait_s`` for the verdict; whether it is in (at most START_WAIT_S +
        SHOW_WAIT_S after the start, and a second to stop the child)."""
        self._watcher.join(wait_s)
        return not self._watcher.is_alive()

    def close(self) -> None:
        """Stop the child if it still runs (a child stuck in the driver ends only when killed)."""
        if self._child.poll() is None:
            self._child.kill()
        try:
            self._child.wait(timeout=1)
        except subprocess.TimeoutExpired:  # not reaped yet (still in the driver); Popen reaps it later
            pass
