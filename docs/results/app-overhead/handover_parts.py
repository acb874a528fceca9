"""How the frame's hand-over from CUDA to OpenGL can be ordered, timed in the offscreen app (EGL,
interop) on rand100k at 1024 under auto: ms a pass of ``app.frame`` (median of 600 after 100 to
warm up), each way twice, in turn. The ways:

* in the pass, waited: map, convert, wait for the copy on the host, unmap, texture from the buffer
  (OpenGL never waits on CUDA work that might not end; the app's way until 747c59e was the same
  wait after the texture's fill);
* two buffers in turn, waited: the same, into the buffer the pass before did not use;
* a frame late, two buffers: the texture from the buffer written the pass before, after a host wait
  for that copy (done long since, so nearly free); then this pass's image into the other buffer,
  not waited for;
* in the pass, not waited: map, convert, unmap, texture from the buffer; OpenGL waits on the GPU;
* the app's own ``FrameDisplay.upload``, for comparison (since 747c59e: not waited, the copy's time
  read at the next copy).

``handover-parts-e6d474d.txt`` was made before the last way existed, when the app's upload was the
first way.

Run from the repository root: python3 docs/results/app-overhead/handover_parts.py
"""

import json
import os
import sys
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "probes"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cupy  # noqa: E402
import numpy as np  # noqa: E402
from frame_parts import timed  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402
from OpenGL import GL  # noqa: E402

from app.display import _check_cuda, _InteropBuffer  # noqa: E402


def write(interop: _InteropBuffer, image, stop, wait: bool) -> None:
    """map, convert ``image`` (cupy float32 (H, W, 4)) into the buffer, record ``stop``, wait for it
    on the host when ``wait``, unmap."""
    runtime, stream = interop._runtime, cupy.cuda.get_current_stream().ptr
    _check_cuda(runtime.cudaGraphicsMapResources(1, interop.resource, stream), "map")
    pointer, size = _check_cuda(runtime.cudaGraphicsResourceGetMappedPointer(interop.resource), "pointer")
    memory = cupy.cuda.UnownedMemory(int(pointer), int(size), interop)
    target = cupy.ndarray((interop.pixels, 4), cupy.uint8, cupy.cuda.MemoryPointer(memory, 0))
    blocks = ((interop.pixels + 255) // 256,)
    interop._convert(blocks, (256,), (image, target, np.int32(interop.pixels)))
    stop.record()
    if wait:
        stop.synchronize()
    _check_cuda(runtime.cudaGraphicsUnmapResources(1, interop.resource, stream), "unmap")


class Buffers:
    """The display's buffer and one more of its size, registered with CUDA, with events for each."""

    def __init__(self, display) -> None:
        self.display = display
        width, height = display.size
        extra = int(GL.glGenBuffers(1))
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, extra)
        GL.glBufferData(GL.GL_PIXEL_UNPACK_BUFFER, width * height * 4, None, GL.GL_STREAM_DRAW)
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
        self.pbos = [display._pbo, extra]
        self.interops = [display._interop, _InteropBuffer(extra, width * height)]
        self.events = [(cupy.cuda.Event(), cupy.cuda.Event()) for _ in self.pbos]
        self.turn, self.pending = 0, None

    def texture_from(self, index: int) -> None:
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, self.pbos[index])
        self.display._tex_sub_image(GL.GL_RGBA, None)
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)

    def in_pass_waited(self, device_image=None, host_image=None) -> None:
        write(self.interops[0], device_image, self.events[0][1], wait=True)
        self.texture_from(0)

    def in_turn_waited(self, device_image=None, host_image=None) -> None:
        write(self.interops[self.turn], device_image, self.events[self.turn][1], wait=True)
        self.texture_from(self.turn)
        self.turn ^= 1

    def late(self, device_image=None, host_image=None) -> None:
        if self.pending is not None:
            self.events[self.pending][1].synchronize()
            self.texture_from(self.pending)
        write(self.interops[self.turn], device_image, self.events[self.turn][1], wait=False)
        self.pending, self.turn = self.turn, self.turn ^ 1

    def in_pass_unwaited(self, device_image=None, host_image=None) -> None:
        write(self.interops[0], device_image, self.events[0][1], wait=False)
        self.texture_from(0)

    def release(self) -> None:
        self.interops[1].release()
        GL.glDeleteBuffers(1, [self.pbos[1]])


def main() -> None:
    app, _ = offscreen_app("rand100k", 1024)
    for _ in range(30):
        app.frame()
    display = app.display
    buffers = Buffers(display)
    ways = {
        "in the pass, waited": buffers.in_pass_waited,
        "two buffers in turn, waited": buffers.in_turn_waited,
        "a frame late, two buffers": buffers.late,
        "in the pass, not waited": buffers.in_pass_unwaited,
        "the app's upload": display.upload,
    }
    for run in (1, 2):
        for name, upload in ways.items():
            display.upload = upload
            buffers.pending = None
            print(json.dumps({"way": name, "run": run, **timed(app.frame)}), flush=True)
    display.upload = ways["the app's upload"]
    buffers.release()
    app.close()


if __name__ == "__main__":
    main()
