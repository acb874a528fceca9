"""Run as a script by the GPU tests: the app in an offscreen EGL context on the CUDA backend with the
A/B view on; prints JSON saying what differed against the CPU reference, against another variant,
and against a variant broken on purpose (one tile of its image changed), and whether the texture
shows exactly the A/B picture.

Needs PYOPENGL_PLATFORM=egl before OpenGL is imported, hence a process of its own.
Usage: ab_app_probe.py SCENE SIZE
"""

import json
import os
import sys
import time
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402

from app.ab_view import ab_picture  # noqa: E402

BROKEN = "tile-sort:sort=merge,test=exact,tile=32"  # B whose image gets one tile changed
BROKEN_TILE = (slice(32, 48), slice(48, 64))  # rows, columns (row 0 = bottom)


def broken_renderers(kind):
    """``kind.make_renderer``, except that BROKEN's image has BROKEN_TILE's red channel raised."""
    make = kind.make_renderer

    def make_renderer(choice, look):
        renderer = make(choice, look)
        if choice is None or choice.label() != BROKEN:
            return renderer
        image = renderer.image

        def broken_image():
            pixels = image()
            pixels[BROKEN_TILE[0], BROKEN_TILE[1], 0] += 0.5
            return pixels

        renderer.image = broken_image
        return renderer

    return make_renderer


def main() -> None:
    scene, size = sys.argv[1], int(sys.argv[2])
    app, folder = offscreen_app(scene, size, "auto")
    app.session.kind.make_renderer = broken_renderers(app.session.kind)
    report = {}
    try:
        for _ in range(3):
            app.frame()
        for b, mode in (("reference", "difference"), ("tile-scan", "split"), (BROKEN, "difference")):
            app.set_ab(on=True, b=b, mode=mode, divider=0.3)
            deadline = time.monotonic() + 120  # the reference renders in the worker thread
            while not (app.ab.ready(app.session) or app.ab.error) and time.monotonic() < deadline:
                app.frame()
                time.sleep(0.005)
            app.frame()
            diff = app.ab.diff
            texture = app.display.read_texture()[..., :3]
            b_image = app.ab.image_b if app.ab.image_b is not None else app.session.host_image()
            expected = ab_picture(app.session.host_image(), b_image, mode, 0.3, False)[..., :3]
            where = np.argwhere(diff.per_pixel > 0) if diff is not None else np.zeros((0, 2))
            report[b] = {
                "ready": app.ab.ready(app.session),
                "error": app.ab.error,
                "differing_values": None if diff is None else diff.values,
                "largest": None if diff is None else diff.largest,
                "rows": [int(where[:, 0].min()), int(where[:, 0].max())] if len(where) else None,
                "columns": [int(where[:, 1].min()), int(where[:, 1].max())] if len(where) else None,
                "texture_equal": bool(np.array_equal(texture, expected)),
            }
    finally:
        app.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
