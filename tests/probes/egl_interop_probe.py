"""Run as a script by the GPU tests: renders with CUDA, shows the frame through the app's display in
an offscreen EGL context, reads the texture back and prints JSON comparing it with the kernel's image.
The scene is a circle scene, or ``spheres:classic`` / ``spheres:shaded`` (the classic sphere scene
in that view, whose uint8 image the display copies as it is).

Needs PYOPENGL_PLATFORM=egl before OpenGL is imported, hence a process of its own.
"""

import json
import os
import sys
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402

from app.display import FrameDisplay  # noqa: E402
from app.surfaces import EglSurface  # noqa: E402
from render.circles.renderer import CudaRenderer  # noqa: E402
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.image_io import quantize_rgb8  # noqa: E402
from render.core.renderer import render_frame  # noqa: E402
from render.spheres.shading import ShadeSettings  # noqa: E402
from render.spheres.variants import VARIANTS as SPHERE_VARIANTS
from render.spheres.view import SphereView  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402
from scenes.spheres import build_sphere_scene  # noqa: E402


def texture_matches(display: FrameDisplay, renderer, expected: np.ndarray) -> dict:
    display.upload(device_image=renderer.device_image())
    texture = display.read_texture()
    return {
        "path": display.path,
        "equal": bool(np.array_equal(texture[..., :3], expected) and (texture[..., 3] == 255).all()),
        "differing_values": int(np.count_nonzero(texture[..., :3] != expected)),
        "notice": display.notice,
    }


def main() -> None:
    scene, size = sys.argv[1], int(sys.argv[2])
    surface = EglSurface(64, 64)
    display = FrameDisplay()
    if scene.startswith("spheres:"):
        renderer = SphereView(SPHERE_VARIANTS.parse("constant"), scene.partition(":")[2], ShadeSettings())
        renderer.load(build_sphere_scene("classic"), size, size)
        render_frame(renderer, 0)
        expected = renderer.image_bytes()[..., :3]
    else:
        renderer = CudaRenderer(CIRCLE_VARIANTS.parse("auto"))
        renderer.load(build_scene(scene), size, size)
        expected = quantize_rgb8(render_frame(renderer, 0))
    results = {"interop": texture_matches(display, renderer, expected)}
    display.force_host_copy = True
    results["host copy"] = texture_matches(display, renderer, expected)
    display.release()
    surface.close()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
