"""The app's pass on the GPU's own clock: the offscreen app (EGL, interop) on rand100k at 1024 under
auto, 1280x800, with CUDA stamps (a one-thread kernel reading %globaltimer, ns) around the render and
the interop copy (CUDA's conversion and copy into the texture), and OpenGL timestamp queries
(GL_TIMESTAMP, ns) around the clear and the frame's quad, ImGui's draw and the swap. Every pass has its
own stamps and queries, read after the last pass, so reading them does not stall the loop. Prints the
medians of 600 passes after 100, in ms:
each part's length on its own API's clock, and the gaps between the APIs (meaningful only if both
clocks are the same timer; the first line says whether they look so).
Run from the repository root: python3 docs/results/app-overhead/gpu_timeline.py
"""

import ctypes
import json
import os
import statistics
import sys
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "probes"))

import cupy  # noqa: E402
import numpy as np  # noqa: E402
from imgui_bundle import imgui  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402
from OpenGL import GL  # noqa: E402
from OpenGL.raw.GL.VERSION import GL_3_3  # noqa: E402

import app.display as display_module  # noqa: E402

WARM, PASSES = 100, 600
CUDA_MARKS = ("render start", "render end", "copy end")
GL_MARKS = ("clear start", "clear end", "quad end", "imgui end", "swap end")

STAMP = cupy.RawKernel(
    r"""extern "C" __global__ void stamp(unsigned long long* out, int at) {
        unsigned long long now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        out[at] = now;
    }""",
    "stamp",
)


def gl_time(query) -> int:
    """A timestamp query's result in ns (waits for it: read passes later, it is long done)."""
    value = ctypes.c_uint64()
    GL_3_3.glGetQueryObjectui64v(int(query), GL.GL_QUERY_RESULT, ctypes.byref(value))
    return value.value


def main() -> None:
    app, _ = offscreen_app("rand100k", 1024)
    app.surface.set_size(1280, 800)
    for _ in range(30):
        app.frame()
    total = WARM + PASSES
    cuda_stamps = cupy.zeros((total, len(CUDA_MARKS)), cupy.uint64)
    queries = np.array(GL.glGenQueries(total * len(GL_MARKS)), np.uint32).reshape(total, len(GL_MARKS))
    slot = [0]

    def cuda_mark(name: str) -> None:
        STAMP((1,), (1,), (cuda_stamps[slot[0]], np.int32(CUDA_MARKS.index(name))))

    def gl_mark(name: str) -> None:
        GL.glQueryCounter(int(queries[slot[0], GL_MARKS.index(name)]), GL.GL_TIMESTAMP)

    def wrapped(function, before: str | None, after: str | None, mark):
        def call(*arguments, **options):
            if before:
                mark(before)
            result = function(*arguments, **options)
            if after:
                mark(after)
            return result

        return call

    renderer = app.session.renderer
    renderer.render = wrapped(renderer.render, "render start", "render end", cuda_mark)
    write = display_module._InteropTexture.write
    display_module._InteropTexture.write = wrapped(write, None, "copy end", cuda_mark)
    GL.glClear = wrapped(GL.glClear, "clear start", "clear end", gl_mark)  # the window's one clear a pass
    app.display.draw = wrapped(app.display.draw, None, "quad end", gl_mark)
    imgui.backends.opengl3_render_draw_data = wrapped(
        imgui.backends.opengl3_render_draw_data, None, "imgui end", gl_mark
    )
    app.surface.swap = wrapped(app.surface.swap, None, "swap end", gl_mark)

    for index in range(total):
        slot[0] = index
        app.frame()
    stamps = cuda_stamps.get()
    rows = []
    for index in range(WARM, total):
        cuda = {name: int(value) for name, value in zip(CUDA_MARKS, stamps[index], strict=True)}
        gl = {name: gl_time(queries[index, k]) for k, name in enumerate(GL_MARKS)}
        rows.append((cuda, gl))

    def ms(pairs):
        return round(statistics.median((b - a) / 1e6 for a, b in pairs), 4)

    parts = {
        "cuda render": ms((c["render start"], c["render end"]) for c, _ in rows),
        "cuda render end to copy end": ms((c["render end"], c["copy end"]) for c, _ in rows),
        "gl clear": ms((g["clear start"], g["clear end"]) for _, g in rows),
        "gl quad": ms((g["clear end"], g["quad end"]) for _, g in rows),
        "gl imgui": ms((g["quad end"], g["imgui end"]) for _, g in rows),
        "gl swap": ms((g["imgui end"], g["swap end"]) for _, g in rows),
        "gl whole": ms((g["clear start"], g["swap end"]) for _, g in rows),
        "copy end to gl clear start": ms((c["copy end"], g["clear start"]) for c, g in rows),
        "gl swap end to next render start": ms(
            (rows[k][1]["swap end"], rows[k + 1][0]["render start"]) for k in range(len(rows) - 1)
        ),
        "render start to next render start": ms(
            (rows[k][0]["render start"], rows[k + 1][0]["render start"]) for k in range(len(rows) - 1)
        ),
    }
    first_cuda, first_gl = rows[0][0]["render start"], rows[0][1]["clear start"]
    print(json.dumps({"clocks": {"cuda first ns": first_cuda, "gl first ns": first_gl}}))
    print(json.dumps({"passes": len(rows), "median_ms": parts}))
    app.close()


if __name__ == "__main__":
    main()
