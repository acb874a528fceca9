"""The sphere tracer on the GPU: one module per registry variant (``shaders/spheres_*.cu``), with a
kernel for each view (``trace_*`` classic, ``shade_*`` shaded), timed with CUDA events. Device data:
the spheres as float32 (N, 7) records (r, g, b, radius, x, y, z) in global memory or in the
module's ``constant_spheres`` table; the shaded view's float32 (22,) ShadeParams; the image uint8
(size, size, 4), row 0 = y = 0 (bottom).
"""

from __future__ import annotations

import numpy as np

from render.core.gpu import gpu_problem
from render.core.grids import BLOCK_2D, grid_2d
from render.core.renderer import NoGpu, RendererUnavailable
from render.core.variants import VariantChoice
from render.spheres.constants import (
    CONSTANT_MEMORY_BYTES,
    MAX_CONSTANT_SPHERES,
    POISON_BYTE,
    SHADE_PARAM_FLOATS,
    SPHERE_BYTES,
    SPHERE_FLOATS,
    load_sphere_module,
)
from render.spheres.shading import VIEWS, ShadeSettings
from render.spheres.variants import VARIANTS
from scenes.spheres import SphereScene


def constant_problem(variant: str, count: int) -> str | None:
    """Why ``variant`` cannot hold ``count`` spheres (a constant-memory one past its table), or None."""
    if VARIANTS[variant].launch == "constant" and count > MAX_CONSTANT_SPHERES:
        return (
            f"{variant}: {count} spheres need {count * SPHERE_BYTES} bytes of constant memory; it holds "
            f"{CONSTANT_MEMORY_BYTES} bytes = {MAX_CONSTANT_SPHERES} spheres of {SPHERE_BYTES} bytes "
            "(use global, readonly or shared-tiled)"
        )
    return None


class SphereCudaRenderer:
    """One sphere variant in one view (classic or shaded): ``load(scene, size)``, then ``render()``
    (timed) and ``image()``; ``shading`` (shaded view only) may change between renders."""

    def __init__(self, choice: VariantChoice, view: str = "classic") -> None:
        if view not in VIEWS:
            raise ValueError(f"unknown sphere view {view!r}; valid views are: {', '.join(VIEWS)}")
        problem = gpu_problem()
        if problem:
            raise NoGpu(problem)
        self.choice = choice
        self.name = choice.label()
        self.view = view
        self.shading = ShadeSettings()
        spec = VARIANTS[choice.name]
        assert spec.source is not None, f"sphere variant {choice.name!r} has no source"
        self.in_constant_memory = spec.launch == "constant"
        self.module = load_sphere_module(spec.source)
        self.kernel = self.module.get_function(("trace_" if view == "classic" else "shade_") + spec.kernel)

    def load(self, scene: SphereScene, size: int) -> None:
        import cupy

        problem = constant_problem(self.choice.name, scene.count)
        if problem:
            raise RendererUnavailable(problem)
        records = scene.records()
        self.count, self.size = scene.count, size
        try:
            self.image_buffer = cupy.empty((size, size, 4), cupy.uint8)
            if self.in_constant_memory:
                if records.size:
                    table = self.module.get_global("constant_spheres")  # a MemoryPointer to the symbol
                    table.copy_from_host(records.ctypes.data, records.nbytes)
                self.arguments: tuple[object, ...] = (np.int32(scene.count), self.image_buffer, np.int32(size))
            else:
                self.spheres = cupy.asarray(records if records.size else np.zeros((1, SPHERE_FLOATS), np.float32))
                self.arguments = (self.spheres, np.int32(scene.count), self.image_buffer, np.int32(size))
            self.params = cupy.empty(SHADE_PARAM_FLOATS, cupy.float32)
            self._uploaded_shading: ShadeSettings | None = None
        except cupy.cuda.memory.OutOfMemoryError as error:
            raise RendererUnavailable(
                f"{scene.count} spheres at {size}x{size} do not fit in GPU memory: {error}"
            ) from None
        self._events = (cupy.cuda.Event(), cupy.cuda.Event())

    def poison(self) -> None:
        """Fill the image with a value no pixel takes (alpha 7), so unwritten pixels show up."""
        self.image_buffer.fill(POISON_BYTE)

    def render(self) -> None:
        grid = grid_2d(self.size, self.size, BLOCK_2D)
        arguments = self.arguments
        if self.view == "shaded":
            if self.shading != self._uploaded_shading:
                self.params.set(self.shading.params())
                self._uploaded_shading = self.shading
            arguments = (*arguments, self.params)
        start, stop = self._events
        start.record()
        self.kernel(grid, BLOCK_2D, arguments)
        stop.record()

    def kernel_ms(self) -> float:
        """The last render's kernel time from CUDA events (waits for it)."""
        import cupy

        self._events[1].synchronize()
        return cupy.cuda.get_elapsed_time(*self._events)

    def image(self) -> np.ndarray:
        """uint8 (size, size, 4) RGBA, row 0 = bottom."""
        return self.image_buffer.get()
