"""CUDA's start (CuPy's import, the driver, the device's context) in a thread of its own, begun as
the app starts, so that it overlaps the window's creation and the GUI's imports instead of following
them on the way to the first frame."""

from __future__ import annotations

import threading

from render.core.gpu import start_cuda


class CudaStart:
    """Runs ``render.core.gpu.start_cuda`` in a thread. The thread is not a daemon: a process that
    ended while it was inside CUDA could crash in CUDA's teardown, so the interpreter waits for it
    at exit. It says nothing; the session asks ``gpu_problem`` and reports what went wrong."""

    def __init__(self) -> None:
        self._thread = threading.Thread(target=self._run, name="rasterlab-cuda-start")
        self._thread.start()

    def _run(self) -> None:
        try:
            start_cuda()
        except Exception:  # a context that cannot be made: the session's own check says why
            pass

    def join(self) -> None:
        """Wait for the start to be over (the session then finds ``gpu_problem``'s answer ready)."""
        self._thread.join()
