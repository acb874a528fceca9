"""Where a frame of the app goes on the GPU machine: the offscreen app (EGL, interop) on rand100k at
1024 under auto, its loop timed whole (ms a pass, median of 600 after 100 to warm up), with parts of
it left out, the least a shown frame needs (no ImGui), and with the display a frame late (the
texture filled from the buffer CUDA wrote the pass before, through one buffer or two in turn), to
tell the GPU's share from the host's and CUDA's from OpenGL's. Prints one JSON line a configuration.
Run from the repository root: python3 docs/results/app-overhead/frame_parts.py
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "probes"))

import cupy  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402
from OpenGL import GL  # noqa: E402

from app.display import _InteropBuffer  # noqa: E402


def timed(step, passes: int = 600, warm: int = 100) -> dict:
    walls = []
    for index in range(warm + passes):
        started = time.perf_counter()
        step()
        if index >= warm:
            walls.append((time.perf_counter() - started) * 1000)
    return {"median_ms": round(statistics.median(walls), 4), "mean_ms": round(statistics.fmean(walls), 4)}


class LateDisplay:
    """The display's upload a frame late: fill the texture from a buffer written a pass before, then
    write this pass's image into the next buffer (one buffer, or two in turn)."""

    def __init__(self, display, buffers: int) -> None:
        self.display, self.upload = display, display.upload
        self.pbos = [display._pbo] + [GL.glGenBuffers(1) for _ in range(buffers - 1)]
        width, height = display.size
        for pbo in self.pbos[1:]:
            GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, pbo)
            GL.glBufferData(GL.GL_PIXEL_UNPACK_BUFFER, width * height * 4, None, GL.GL_STREAM_DRAW)
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
        self.interops = [display._interop] + [_InteropBuffer(int(p), width * height) for p in self.pbos[1:]]
        self.turn = 0

    def late_upload(self, device_image=None, host_image=None) -> None:
        shown = self.pbos[(self.turn - 1) % len(self.pbos)]
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, shown)
        self.display._tex_sub_image(GL.GL_RGBA, None)
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
        self.interops[self.turn % len(self.pbos)].write(device_image)
        self.turn += 1

    def release(self) -> None:
        for interop in self.interops[1:]:
            interop.release()
        GL.glDeleteBuffers(len(self.pbos) - 1, self.pbos[1:])


def main() -> None:
    app, _ = offscreen_app("rand100k", 1024)
    for _ in range(30):
        app.frame()
    session, display, panel = app.session, app.display, app.panel
    rows = {}

    def report(name, row):
        rows[name] = row
        print(json.dumps({"configuration": name, **row}), flush=True)

    report("app", timed(app.frame))
    draw = panel.draw
    panel.draw = lambda width, height: None
    report("app, empty panel", timed(app.frame))
    panel.draw = draw
    update = session.update
    session.update = lambda: False
    report("OpenGL alone: panel and last texture, no CUDA", timed(app.frame))
    session.update = update
    report("CUDA render alone", timed(session.update))

    def render_and_copy():
        session.update()
        display.upload(device_image=session.device_image())
        GL.glFlush()

    report("CUDA render and display copy, no drawing", timed(render_and_copy))
    image = session.device_image()

    def shown(render: bool):
        def step():
            if render:
                session.update()
            display.upload(device_image=session.device_image() if render else image)
            GL.glViewport(0, 0, *app.surface.framebuffer_size())
            display.draw(*app.view_rect())
            app.surface.swap()

        return step

    # What any shown frame needs through interop, without ImGui or the app's loop around it: the
    # least a pass can cost on this machine by this path.
    report("the least a shown frame needs: render, copy, the frame's quad, swap", timed(shown(True)))
    report("the hand-over alone: the last image copied, its quad, swap (no render)", timed(shown(False)))

    def serial():
        app.frame()
        GL.glFinish()
        cupy.cuda.get_current_stream().synchronize()

    report("app, each pass finished before the next", timed(serial))
    for buffers in (1, 2):
        late = LateDisplay(display, buffers)
        display.upload = late.late_upload
        report(f"app, display a frame late, {buffers} buffer(s)", timed(app.frame))
        display.upload = late.upload
        late.release()
    report("app again", timed(app.frame))
    app.close()


if __name__ == "__main__":
    main()
