"""Run as a script by the GPU tests: the app in an offscreen EGL context on the CUDA backend, showing a
scene with each overlay in turn; prints JSON saying, per overlay, whether the texture holds the GPU
frame with the overlay's colours mixed in exactly, and whether the GPU's figures equal the CPU's
(cycles, which the CPU has not: whether there is a positive count per block), or the error shown.

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

from render.circles.overlays import candidate_counts, depth_counts, variant_grid  # noqa: E402
from render.circles.warp_skip import warp_skip_fractions  # noqa: E402
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
        figures = {
            "depth": lambda: depth_counts(scene, size, size),
            "candidates": lambda: candidate_counts(scene, rule, size, size),
            "warp-skip": lambda: warp_skip_fractions(scene, rule, size, size),
        }
        for name in app.session.kind.overlays:
            app.choose_overlay(name)
            for _ in range(3):
                app.frame()
            overlay = app.overlay.overlay
            if overlay is None:
                report[name] = {"error": app.overlay.error}
                continue
            texture = app.display.read_texture()[::-1, :, :3]
            expected = overlaid_rgb8(app.session.host_image(), overlay)
            report[name] = {
                "ready": app.overlay.ready(app.session),
                "texture_equal": bool(np.array_equal(texture, expected)),
                "cell": list(overlay.cell),
            }
            if name in figures:
                report[name]["figures_equal"] = bool(np.array_equal(overlay.values, figures[name]()))
            if name == "cycles":
                grid = variant_grid(rule, size, size)
                report[name]["shape_is_the_grid"] = overlay.values.shape == (grid.rows, grid.cols)
                report[name]["all_positive"] = bool((overlay.values > 0).all())
        app.choose_overlay("none")
        for _ in range(3):
            app.frame()
        report["none"] = {"path": app.display.path, "rule": rule.label()}
    finally:
        app.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
