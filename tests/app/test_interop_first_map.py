"""The interop buffer's first map, without a GPU: a map that never returns (a driver stuck after an
out-of-bounds fault) costs the app its interop, with a notice, and not its life; a map that fails
unregisters the buffer. cuda.bindings, CuPy and the kernel loader stand in."""

import sys
import threading
import time
import types

import pytest

import app.display as display_module
from app.display import FrameDisplay, InteropUnavailable, _InteropBuffer


class FakeRuntime:
    """cuda.bindings.runtime's calls as (error, *values); ``map_outcome`` "ok", "error" or "never"."""

    class cudaGraphicsRegisterFlags:  # noqa: N801 (the binding's name)
        cudaGraphicsRegisterFlagsWriteDiscard = 2

    def __init__(self, map_outcome: str) -> None:
        self.map_outcome, self.calls = map_outcome, []
        self.release_stuck_map = threading.Event()

    def cudaGraphicsGLRegisterBuffer(self, pbo, flags):  # noqa: N802
        self.calls.append("register")
        return 0, "resource"

    def cudaGraphicsMapResources(self, count, resource, stream):  # noqa: N802
        self.calls.append("map")
        if self.map_outcome == "never":
            self.release_stuck_map.wait()  # the test's end lets the thread go
        return ((999 if self.map_outcome == "error" else 0),)

    def cudaGraphicsUnmapResources(self, count, resource, stream):  # noqa: N802
        self.calls.append("unmap")
        return (0,)

    def cudaGraphicsUnregisterResource(self, resource):  # noqa: N802
        self.calls.append("unregister")
        return (0,)


@pytest.fixture
def runtime_with(monkeypatch):
    made = []

    def make(map_outcome: str) -> FakeRuntime:
        runtime = FakeRuntime(map_outcome)
        made.append(runtime)
        monkeypatch.setitem(sys.modules, "cuda.bindings", types.SimpleNamespace(runtime=runtime))
        stream = types.SimpleNamespace(ptr=0, synchronize=lambda: None)
        cuda = types.SimpleNamespace(Stream=lambda non_blocking: stream)
        monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(cuda=cuda))
        kernels = types.SimpleNamespace(load_module=lambda name: types.SimpleNamespace(get_function=lambda n: n))
        monkeypatch.setitem(sys.modules, "render.core.kernels", kernels)
        monkeypatch.setattr(display_module, "FIRST_MAP_WAIT_S", 0.2)
        return runtime

    yield make
    for runtime in made:
        runtime.release_stuck_map.set()


def test_a_buffer_whose_first_map_returns_is_registered_and_mapped_once(runtime_with):
    runtime = runtime_with("ok")
    buffer = _InteropBuffer(7, 4)
    assert buffer.resource == "resource" and runtime.calls == ["register", "map", "unmap"]


def test_a_first_map_that_never_returns_refuses_interop_in_bounded_time_and_leaves_the_buffer(runtime_with):
    runtime = runtime_with("never")
    released_before = _InteropBuffer.released
    started = time.monotonic()
    with pytest.raises(InteropUnavailable, match="did not map the OpenGL buffer for CUDA within 0.2 s"):
        _InteropBuffer(7, 4)
    assert 0.2 <= time.monotonic() - started < 2
    # unregistering would wait on the stuck map
    assert runtime.calls == ["register", "map"] and _InteropBuffer.released == released_before


def test_a_first_map_that_fails_unregisters_the_buffer(runtime_with):
    runtime = runtime_with("error")
    with pytest.raises(InteropUnavailable, match="cudaGraphicsMapResources failed"):
        _InteropBuffer(7, 4)
    assert runtime.calls == ["register", "map", "unregister"]


def test_the_display_goes_on_by_host_copy_and_says_why(runtime_with):
    runtime_with("never")
    display = object.__new__(FrameDisplay)  # no GL context: only the choice of path is under test
    display._pbo, display._size, display._interop, display._interop_failed = 7, (2, 2), None, False
    display.notice = None
    assert display._try_interop() is None
    assert display.notice.startswith("CUDA-GL interop unavailable, showing frames through a host copy: the GPU driver")
    assert display._try_interop() is None  # not tried again: each try would leave a thread behind
