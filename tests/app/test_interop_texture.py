"""The interop texture's steps without a GPU: the 8-bit conversion, then the copy into the mapped
texture, row 0 first at the texture's row 0 (its bottom, as OpenGL's upload had it), each row
width x 4 bytes; the unmap even when the copy fails; a frame of the wrong shape refused before
anything is mapped. CuPy and cuda.bindings stand in as a log of steps."""

import sys
import types

import numpy as np
import pytest

import app.display as display_module
from app.display import InteropUnavailable

WIDTH, HEIGHT = 3, 2


def texture_and_log(monkeypatch, copy_error=0):
    log: list = []
    stream = types.SimpleNamespace(ptr=77)
    cuda = types.SimpleNamespace(get_current_stream=lambda: stream)
    cupy = types.SimpleNamespace(uint8=np.uint8, float32=np.float32, ascontiguousarray=lambda a: a, cuda=cuda)
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    runtime = types.SimpleNamespace(
        cudaMemcpyKind=types.SimpleNamespace(cudaMemcpyDeviceToDevice="device to device"),
        cudaGraphicsMapResources=lambda count, resource, on: log.append(("map", resource, on)) or (0,),
        cudaGraphicsSubResourceGetMappedArray=lambda resource, index, level: (0, "array"),
        cudaMemcpy2DToArrayAsync=lambda *arguments: log.append(("copy", arguments)) or (copy_error,),
        cudaGraphicsUnmapResources=lambda count, resource, on: log.append(("unmap", resource, on)) or (0,),
    )
    texture = object.__new__(display_module._InteropTexture)  # no GPU: only the steps are under test
    texture._runtime, texture.resource, texture.width, texture.height = runtime, "texture", WIDTH, HEIGHT
    texture._rgba8 = types.SimpleNamespace(data=types.SimpleNamespace(ptr=1000))
    texture._convert = lambda grid, block, arguments: log.append(("convert", grid, block, int(arguments[2])))
    return texture, log


def test_a_float_frame_is_converted_then_copied_into_the_texture_row_by_row(monkeypatch):
    texture, log = texture_and_log(monkeypatch)
    texture.write(np.zeros((HEIGHT, WIDTH, 4), np.float32))
    row = WIDTH * 4
    assert log == [
        ("convert", (1,), (256,), WIDTH * HEIGHT),
        ("map", "texture", 77),
        ("copy", ("array", 0, 0, 1000, row, row, HEIGHT, "device to device", 77)),
        ("unmap", "texture", 77),
    ]


def test_a_failing_copy_still_unmaps_and_is_reported(monkeypatch):
    texture, log = texture_and_log(monkeypatch, copy_error=1)
    with pytest.raises(InteropUnavailable, match="cudaMemcpy2DToArrayAsync failed"):
        texture.write(np.zeros((HEIGHT, WIDTH, 4), np.float32))
    assert log[-1] == ("unmap", "texture", 77)


@pytest.mark.parametrize(
    "shape,dtype", [((HEIGHT, WIDTH, 3), np.uint8), ((WIDTH, HEIGHT, 4), np.float32), ((HEIGHT, WIDTH, 4), np.float64)]
)
def test_a_frame_of_the_wrong_shape_or_type_is_refused_before_the_map(monkeypatch, shape, dtype):
    texture, log = texture_and_log(monkeypatch)
    with pytest.raises(ValueError, match=r"the display takes \(2, 3, 4\) float32 or uint8 frames"):
        texture.write(np.zeros(shape, dtype))
    assert log == []


class OutOfMemory(RuntimeError):  # as CuPy's CUDARuntimeError, which the display turns into the host copy
    pass


def allocator(monkeypatch, failures):
    """CuPy's Memory and pool as stand-ins: Memory fails ``failures`` times, then succeeds."""
    log: list = []

    def memory(nbytes):
        if len([entry for entry in log if entry[0] == "malloc"]) < failures:
            log.append(("malloc", nbytes, "failed"))
            raise OutOfMemory("cudaErrorMemoryAllocation")
        log.append(("malloc", nbytes, "ok"))
        return "memory"

    pool = types.SimpleNamespace(free_all_blocks=lambda: log.append(("free the pool's cached blocks",)))
    cuda = types.SimpleNamespace(Memory=memory, runtime=types.SimpleNamespace(CUDARuntimeError=OutOfMemory))
    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(cuda=cuda, get_default_memory_pool=lambda: pool))
    return log


def test_the_frame_buffer_is_allocated_outside_the_pool_at_once_where_memory_allows(monkeypatch):
    log = allocator(monkeypatch, failures=0)
    assert display_module._unpooled(48) == "memory" and log == [("malloc", 48, "ok")]


def test_a_full_device_gives_the_pools_cached_blocks_back_then_tries_once_more(monkeypatch):
    log = allocator(monkeypatch, failures=1)
    assert display_module._unpooled(48) == "memory"
    assert log == [("malloc", 48, "failed"), ("free the pool's cached blocks",), ("malloc", 48, "ok")]


def test_a_device_still_full_after_that_raises_for_the_host_copy_to_take_over(monkeypatch):
    log = allocator(monkeypatch, failures=2)
    with pytest.raises(OutOfMemory):
        display_module._unpooled(48)
    assert len(log) == 3
