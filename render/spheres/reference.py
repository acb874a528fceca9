"""The NumPy reference of the "CUDA by Example" ray tracer: the oracle for the sphere variants.

Orthographic rays along z through ox = x - DIM/2, oy = y - DIM/2 (integer halves, as the book's int
arithmetic) at DIM = BOOK_SIZE, the book's; at other sizes those offsets times BOOK_SIZE / size, so
the whole picture is shown scaled (times 1.0, the book's exactly, at BOOK_SIZE). The nearest hit
(largest dz + z, the first sphere on ties) colours the pixel by its colour times dz / radius,
truncated to 8 bits. float32 throughout, in the book's order.
"""

from __future__ import annotations

import numpy as np

from render.core import progress
from render.spheres.constants import BOOK_SIZE
from scenes.spheres import SphereScene

f32 = np.float32
SPHERE_INF = f32(2e10)


def trace_reference(scene: SphereScene, size: int) -> np.ndarray:
    """uint8 (size, size, 4) RGBA, alpha 255, row 0 = y = 0 (the bottom of the picture)."""
    maxz = np.full((size, size), -SPHERE_INF, np.float32)
    rgb = np.zeros((size, size, 3), np.float32)
    trace_into(scene, maxz, rgb)
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = (rgb * f32(255)).astype(np.int32).astype(np.uint8)
    out[..., 3] = 255
    return out


def trace_into(scene: SphereScene, maxz: np.ndarray, rgb: np.ndarray) -> None:
    """Trace every sphere of ``scene`` in order into the nearest depths ``maxz`` float32 (size,
    size) and colours ``rgb`` float32 (size, size, 3), in place."""
    size = maxz.shape[0]
    half = size // 2
    scale = f32(BOOK_SIZE) / f32(size)  # float32 division, as the kernels' 1024.0f / size
    tick = progress.ticker(scene.count)
    for index in range(scene.count):
        tick(index)
        radius = scene.radius[index]
        cx, cy, cz = scene.center[index]
        # Only pixels whose offset is within one radius can hit; one pixel of margin keeps it safe.
        x0 = max(int(np.floor((cx - radius) / scale)) + half - 1, 0)
        x1 = min(int(np.ceil((cx + radius) / scale)) + half + 2, size)
        y0 = max(int(np.floor((cy - radius) / scale)) + half - 1, 0)
        y1 = min(int(np.ceil((cy + radius) / scale)) + half + 2, size)
        if x0 >= x1 or y0 >= y1:
            continue
        ox = (np.arange(x0, x1) - half).astype(np.float32)[None, :] * scale
        oy = (np.arange(y0, y1) - half).astype(np.float32)[:, None] * scale
        dx, dy = ox - cx, oy - cy
        r2 = radius * radius
        hit = dx * dx + dy * dy < r2
        # Pixels that miss take no part below; their square roots are of negative numbers, and a
        # radius whose square underflows to 0 divides 0 by 0.
        with np.errstate(invalid="ignore", divide="ignore"):
            dz = np.sqrt(r2 - dx * dx - dy * dy)
            shade = dz / np.sqrt(r2)
        depth = np.where(hit, dz + cz, -SPHERE_INF)
        window = maxz[y0:y1, x0:x1]
        nearer = depth > window
        window[nearer] = depth[nearer]
        rgb[y0:y1, x0:x1][nearer] = scene.color[index] * shade[nearer][:, None]
    tick(scene.count)
