"""The sphere tracer behind the frame protocol the app drives (``load``, ``clear``, ``advance``,
``render``, ``image``): a registry variant on the GPU, or the NumPy reference on the CPU, in the
classic or the shaded view. In the shaded view every advance after the first turns the camera by
``ORBIT_STEP_DEGREES``, so frame k (rendered after k + 1 advances) shows the camera k steps on from
where it was set (``camera``), in one rounding: a camera set at frame k gives the frame that a new
renderer replaying k frames from that camera gives. The classic view is static.
"""

from __future__ import annotations

import time

import numpy as np

from render.core.renderer import Renderer
from render.core.variants import VariantChoice
from render.spheres.constants import POISON_BYTE
from render.spheres.shading import ORBIT_STEP_DEGREES, VIEWS, ShadeSettings, reference_image
from scenes.spheres import SphereScene


class SphereView(Renderer):
    """``choice`` None renders with the CPU reference. ``camera``, frame 0's camera and material,
    may be replaced between frames (also while another thread advances: frames read it afresh)."""

    def __init__(self, choice: VariantChoice | None, view: str, shading: ShadeSettings) -> None:
        if view not in VIEWS:
            raise ValueError(f"unknown sphere view {view!r}; valid views are: {', '.join(VIEWS)}")
        self.view = view
        self.camera = shading
        self.name = choice.label() if choice is not None else "reference"
        self.resolved = choice
        self._gpu = None
        if choice is not None:
            from render.spheres.cuda import SphereCudaRenderer

            self._gpu = SphereCudaRenderer(choice, view)
        self._bytes: np.ndarray | None = None
        self._stage = "trace" if view == "classic" else "shade"
        self._cpu_ms = 0.0
        self._advances = 0

    def load(self, scene: SphereScene, width: int, height: int) -> None:
        """Keep ``scene`` for square frames of ``width`` pixels (raises ValueError otherwise)."""
        if width != height:
            raise ValueError(f"the sphere tracer renders square images, got {width}x{height}")
        self.scene, self.size = scene, width
        if self._gpu is not None:
            self._gpu.load(scene, width)

    def clear(self) -> None:
        """Nothing to do: every render writes every pixel."""

    def advance(self) -> None:
        self._advances += 1

    @property
    def shading(self) -> ShadeSettings:
        """This frame's camera and material: ``camera`` turned one step per advance after the first."""
        turns = self._advances - 1 if self.view == "shaded" else 0
        # Frame 0 is the camera as given (an azimuth of -30 stays -30, not 330).
        return self.camera.orbited(ORBIT_STEP_DEGREES * turns) if turns > 0 else self.camera

    @property
    def animated(self) -> bool:
        """The shaded view's camera orbits one step per frame; the classic view is one picture."""
        return self.view == "shaded"

    def render(self) -> None:
        if self._gpu is not None:
            self._gpu.shading = self.shading
            self._gpu.render()
            return
        started = time.perf_counter()
        self._bytes = reference_image(self.scene, self.size, self.view, self.shading)
        self._cpu_ms = (time.perf_counter() - started) * 1000

    def device_image(self):
        """The GPU image, cupy uint8 (size, size, 4), row 0 = bottom; None on the CPU."""
        return self._gpu.image_buffer if self._gpu is not None else None

    def poison(self) -> None:
        if self._gpu is not None:
            self._gpu.image_buffer.fill(POISON_BYTE)
        else:
            self._bytes = np.full((self.size, self.size, 4), POISON_BYTE, np.uint8)

    def image_bytes(self) -> np.ndarray:
        """uint8 (size, size, 4) RGBA, row 0 = bottom."""
        if self._gpu is not None:
            return self._gpu.image()
        assert self._bytes is not None, "image_bytes() before the first render() or poison()"
        return self._bytes

    def image(self) -> np.ndarray:
        """float32 (size, size, 4): the 8-bit values / 255 (exact: 255 * (v / 255) truncates to v)."""
        return self.image_bytes().astype(np.float32) / np.float32(255)

    def stage_times_ms(self) -> dict[str, float]:
        """The last render's kernel time from CUDA events (or the CPU reference's wall time)."""
        return {self._stage: self._gpu.kernel_ms() if self._gpu is not None else self._cpu_ms}
