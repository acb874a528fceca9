"""Run as a script by the GPU tests: the app in an offscreen EGL context on the CUDA backend, showing a
scene with each overlay in turn; prints JSON saying, per overlay, whether the texture holds the GPU
frame with the overlay's colours mixed in exactly, and whether the GPU's figures equal the CPU's.

Needs PYOPENGL_PLATFORM=egl before OpenGL is imported, hence a process of its own.
Usage: overlay_app_probe.py SCENE SIZE VARIANT
"""

import json
import os
import sys
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402

from render.circles.overlays import candidate_counts, depth_counts  # noqa: E402
from render.core.overlay_picture import overlaid_rgb8  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402


def main() -> None:
    scene_name, size, variant = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    app, folder = offscreen_app(scene_name, size, variant)
    report = {}
    try:
        for _ in range(3):
            app.frame()
        scene = build_scene(scene_name)  # static scenes: frame 0 is the scene as built
        rule = app.session.renderer.resolved
        for name in ("depth", "candidates", "tiles"):
            app.choose_overlay(name)
            for _ in range(3):
                app.frame()
            overlay = app.overlay.overlay
            texture = app.display.read_texture()[::-1, :, :3]
            expected = overlaid_rgb8(app.session.host_image(), overlay)
            figures = {
                "depth": lambda: depth_counts(scene, size, size),
                "candidates": lambda: candidate_counts(scene, rule, size, size),
            }
            report[name] = {
                "ready": app.overlay.ready(app.session),
                "texture_equal": bool(np.array_equal(texture, expected)),
                "figures_equal": name == "tiles" or bool(np.array_equal(overlay.values, figures[name]())),
                "cell": list(overlay.cell),
            }
        app.choose_overlay("none")
        for _ in range(3):
            app.frame()
        report["none"] = {"path": app.display.path, "rule": rule.label()}
    finally:
        app.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
