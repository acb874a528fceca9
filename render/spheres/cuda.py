"""The sphere tracer on the GPU: one module per registry variant (``shaders/spheres_*.cu``), with a
kernel for each view (``trace_*`` classic, ``shade_*`` shaded), timed with CUDA events. Device data:
the spheres as float32 (N, 7) records (r, g, b, radius, x, y, z) in global memory or in the
module's ``constant_spheres`` table; the shaded view's float32 (22,) ShadeParams; the image uint8
(size, size, 4), row 0 = y = 0 (bottom).
"""

from __future__ import annotations

import numpy as np

from render.core.gpu import gpu_problem
from render.core.kernels import load_module
from render.core.renderer import RendererUnavailable
from render.core.variants import parse_variant
from render.spheres.shading import PARAM_FLOATS, VIEWS, ShadeSettings
from scenes.spheres import SphereScene

MAX_CONSTANT_SPHERES = 2340  # shaders/sphere_constant_table.cuh
SPHERE_BYTES = 28
BLOCK = (16, 16)

_KERNELS = {  # variant -> (source, kernel name without the view's prefix)
    "global": ("spheres_global.cu", "global"),
    "readonly": ("spheres_readonly.cu", "readonly"),
    "shared-tiled": ("spheres_shared.cu", "shared"),
    "constant": ("spheres_constant.cu", "constant"),
    "constant-divergent": ("spheres_constant_divergent.cu", "constant_divergent"),
}


def constant_problem(variant: str, count: int) -> str | None:
    """Why a constant-memory variant cannot hold ``count`` spheres, or None."""
    if variant.startswith("constant") and count > MAX_CONSTANT_SPHERES:
        return (
            f"{variant}: {count} spheres need {count * SPHERE_BYTES} bytes of constant memory; it holds 65536 "
            f"bytes = {MAX_CONSTANT_SPHERES} spheres of {SPHERE_BYTES} bytes (use global, readonly or shared-tiled)"
        )
    return None


class SphereCudaRenderer:
    """One sphere variant in one view (classic or shaded): ``load(scene, size)``, then ``render()``
    (timed) and ``image()``; ``shading`` (shaded view only) may change between renders."""

    def __init__(self, variant: str, view: str = "classic") -> None:
        if view not in VIEWS:
            raise ValueError(f"unknown sphere view {view!r}; valid views are: {', '.join(VIEWS)}")
        problem = gpu_problem()
        if problem:
            raise RendererUnavailable(problem)
        self.choice = parse_variant(variant, "spheres")
        self.name = self.choice.label()
        self.view = view
        self.shading = ShadeSettings()
        source, kernel = _KERNELS[self.choice.name]
        self.module = load_module(source)
        self.kernel = self.module.get_function(("trace_" if view == "classic" else "shade_") + kernel)

    def load(self, scene: SphereScene, size: int) -> None:
        import cupy

        problem = constant_problem(self.choice.name, scene.count)
        if problem:
            raise RendererUnavailable(problem)
        records = scene.records()
        self.count, self.size = scene.count, size
        try:
            self.image_buffer = cupy.empty((size, size, 4), cupy.uint8)
            if self.choice.name.startswith("constant"):
                if records.size:
                    table = self.module.get_global("constant_spheres")  # a MemoryPointer to the symbol
                    table.copy_from_host(records.ctypes.data, records.nbytes)
                self.arguments = (np.int32(scene.count), self.image_buffer, np.int32(size))
            else:
                self.spheres = cupy.asarray(records if records.size else np.zeros((1, 7), np.float32))
                self.arguments = (self.spheres, np.int32(scene.count), self.image_buffer, np.int32(size))
            self.params = cupy.empty(PARAM_FLOATS, cupy.float32)
            self._uploaded_shading = None
        except cupy.cuda.memory.OutOfMemoryError as error:
            raise RendererUnavailable(
                f"{scene.count} spheres at {size}x{size} do not fit in GPU memory: {error}"
            ) from None
        self._events = (cupy.cuda.Event(), cupy.cuda.Event())

    def poison(self) -> None:
        """Fill the image with a value no pixel takes (alpha 0), so unwritten pixels show up."""
        self.image_buffer.fill(7)

    def render(self) -> None:
        grid = ((self.size + BLOCK[0] - 1) // BLOCK[0], (self.size + BLOCK[1] - 1) // BLOCK[1])
        arguments = self.arguments
        if self.view == "shaded":
            if self.shading != self._uploaded_shading:
                self.params.set(self.shading.params())
                self._uploaded_shading = self.shading
            arguments = (*arguments, self.params)
        start, stop = self._events
        start.record()
        self.kernel(grid, BLOCK, arguments)
        stop.record()

    def kernel_ms(self) -> float:
        """The last render's kernel time from CUDA events (waits for it)."""
        import cupy

        self._events[1].synchronize()
        return cupy.cuda.get_elapsed_time(*self._events)

    def image(self) -> np.ndarray:
        """uint8 (size, size, 4) RGBA, row 0 = bottom."""
        return self.image_buffer.get()
