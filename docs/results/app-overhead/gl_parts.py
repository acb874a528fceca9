"""What OpenGL alone costs the app a pass on the GPU machine, by window size: the offscreen app (EGL)
on rand100k at 1024 with no CUDA work in the pass, its drawing done with parts left out (the clear,
the frame's quad, ImGui's draw lists), each pass also timed to a glFinish. ms a pass, median of 400
after 50 to warm up. Prints one JSON line a row.
Run from the repository root: python3 docs/results/app-overhead/gl_parts.py
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

from imgui_bundle import imgui  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402
from OpenGL import GL  # noqa: E402

PARTS = {
    "all": ("clear", "frame", "imgui"),
    "no clear": ("frame", "imgui"),
    "no frame": ("clear", "imgui"),
    "no imgui": ("clear", "frame"),
    "nothing drawn": (),
}


def gl_pass(app, parts, finish: bool) -> None:
    fb_w, fb_h = app.surface.framebuffer_size()
    imgui.backends.opengl3_new_frame()
    imgui.get_io().display_size = imgui.ImVec2(fb_w, fb_h)
    imgui.new_frame()
    app.panel.draw(*app.surface.window_size())
    imgui.render()
    GL.glViewport(0, 0, fb_w, fb_h)
    if "clear" in parts:
        GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    if "frame" in parts:
        app.display.draw(*app.view_rect())
    GL.glViewport(0, 0, fb_w, fb_h)
    if "imgui" in parts:
        imgui.backends.opengl3_render_draw_data(imgui.get_draw_data())
    app.surface.swap()
    if finish:
        GL.glFinish()


def main() -> None:
    app, _ = offscreen_app("rand100k", 1024)
    for _ in range(30):
        app.frame()
    for width, height in ((640, 400), (1280, 800), (1920, 1200)):
        app.surface.set_size(width, height)
        for _ in range(5):
            app.frame()
        for name, parts in PARTS.items():
            row = {"window": f"{width}x{height}", "drawn": name}
            for finish in (False, True):
                walls = []
                for index in range(450):
                    started = time.perf_counter()
                    gl_pass(app, parts, finish)
                    if index >= 50:
                        walls.append((time.perf_counter() - started) * 1000)
                row["finished ms" if finish else "ms"] = round(statistics.median(walls), 4)
            print(json.dumps(row), flush=True)
    app.close()


if __name__ == "__main__":
    main()
