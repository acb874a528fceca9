"""A frame's GPU launches recorded once as a CUDA graph, then launched with one host call a frame.

Launched one by one, a frame of tile-warp is the binning graph's launch and the blend's (a CuPy
launch is about 13 us of host time on the H100 machine) between four event records, and the GPU
waits for the host wherever a stage is shorter than the calls that queue the next. A graph
captured at load, with its stage events as event nodes, costs one call, and its upload at capture
spares the first frame the graph's first-launch setup (docs/performance.md, "One graph a frame").
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from render.core.gpu import CAPTURE_LOCK, gpu_failures

Frame = TypeVar("Frame")


def graphs_available() -> bool:
    """Whether frames can be captured here: timing events inside a graph need ``cuda.bindings``."""
    try:
        from cuda.bindings import runtime  # noqa: F401
    except ImportError:
        return False
    return True


class CaptureFailed(RuntimeError):
    """CUDA refused to capture or upload a frame's graph (out of memory, or a device-wide synchronize
    from outside ``render.core.gpu.synchronize_device``); its launches still run one by one."""


def record_event_node(event: Any, stream: Any) -> None:
    """Record CuPy ``event`` (a ``cupy.cuda.Event``) on CuPy ``stream``, which is capturing, as an
    event node of the graph: it is then recorded, with its timestamp, each time the graph runs. A
    plain record while capturing would only order the graph's nodes."""
    from cuda.bindings import runtime

    (error,) = runtime.cudaEventRecordWithFlags(event.ptr, stream.ptr, runtime.cudaEventRecordExternal)
    if error != runtime.cudaError_t.cudaSuccess:
        raise CaptureFailed(f"cannot record a timing event in a CUDA graph: {error}")


def capture_graph(launch: Callable[[], None]):
    """The CUDA graph of the GPU work that ``launch`` queues on the current stream, captured on a
    stream of its own and uploaded to the device: a ``cupy.cuda.graph.Graph`` whose ``launch()``
    queues that work on the current stream. Raises CaptureFailed where CUDA refuses."""
    import cupy

    stream = cupy.cuda.Stream(non_blocking=True)
    try:
        with CAPTURE_LOCK, stream:
            stream.begin_capture()
            try:
                launch()
            except BaseException:
                with contextlib.suppress(Exception):  # the stream leaves capture; launch's error is the one to report
                    stream.end_capture()
                raise
            graph = stream.end_capture()
            graph.upload(stream)
            stream.synchronize()
    except gpu_failures() as error:
        raise CaptureFailed(f"cannot capture a frame as a CUDA graph: {error}") from error
    return graph


class FrameGraphs(Generic[Frame]):
    """A renderer's captured frames, one per clear state (the clear is folded into the blend's
    arguments), for the strategy's current ``key`` (what else the launches' arguments depend on,
    such as a buffer that can be reallocated). A new key drops the frames of the old: they point
    at buffers that may be gone. It holds no reference to the renderer, so that a renderer let go
    frees its GPU memory at once, not at the next collection of reference cycles."""

    def __init__(self) -> None:
        self._key: Hashable = None
        self._frames: dict[bool, Frame] = {}

    def get(self, clear_due: bool, key: Hashable, capture: Callable[[], Frame]) -> Frame:
        """The frame captured for ``clear_due`` and ``key``; if there is none, ``capture()``'s,
        called with the renderer in that state."""
        if key != self._key:
            self._frames.clear()
            self._key = key
        frame = self._frames.get(clear_due)
        if frame is None:
            frame = self._frames[clear_due] = capture()
        return frame
