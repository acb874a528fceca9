"""Numbers the sphere tracer's Python and CUDA sides must agree on. The kernels get them as ``-D``
defines (``CUDA_DEFINES``), refuse to build without them, and check their struct layouts against
them with ``static_assert``."""

from __future__ import annotations

from render.core.kernels import module_loader

SPHERE_FLOATS = 7  # a Sphere record: r, g, b, radius, x, y, z
SPHERE_BYTES = SPHERE_FLOATS * 4
CONSTANT_MEMORY_BYTES = 65536  # __constant__ memory a module may declare
MAX_CONSTANT_SPHERES = CONSTANT_MEMORY_BYTES // SPHERE_BYTES  # 2340
SHADE_PARAM_FLOATS = 22  # the shaded view's ShadeParams block
# The size the book's picture is drawn for: exact there; other sizes show the same picture scaled.
BOOK_SIZE = 1024
POISON_BYTE = 7  # fills an image before a checked render: alpha 7, where every rendered pixel has 255

CUDA_DEFINES = dict(
    SPHERE_FLOATS=SPHERE_FLOATS,
    MAX_CONSTANT_SPHERES=MAX_CONSTANT_SPHERES,
    SHADE_PARAM_FLOATS=SHADE_PARAM_FLOATS,
    BOOK_SIZE=BOOK_SIZE,
)


# ``shaders/<source>`` compiled with the shared constants and ``defines`` (cached).
load_sphere_module = module_loader(CUDA_DEFINES)
