"""The sphere tracer's variant table. The variants differ only in where the sphere array lives and
how warps read it; each source has a kernel per view, ``trace_<kernel>`` (classic) and
``shade_<kernel>`` (shaded). ``launch`` says how the spheres reach it: ``array`` as a global-memory
argument, ``constant`` copied into the module's ``constant_spheres`` table."""

from __future__ import annotations

from render.core.variants import VariantSpec, VariantTable

VARIANTS = VariantTable(
    (
        VariantSpec(
            "global",
            "spheres in a global-memory buffer (the book's first version)",
            source="spheres_global.cu",
            launch="array",
            kernel="global",
        ),
        VariantSpec(
            "constant",
            "spheres in __constant__ memory, broadcast to a warp (at most 2340)",
            source="spheres_constant.cu",
            launch="constant",
            kernel="constant",
        ),
        VariantSpec(
            "shared-tiled",
            "each block stages chunks of spheres in shared memory",
            source="spheres_shared.cu",
            launch="array",
            kernel="shared",
        ),
        VariantSpec(
            "readonly",
            "global memory read through the read-only cache (__ldg)",
            source="spheres_readonly.cu",
            launch="array",
            kernel="readonly",
        ),
        VariantSpec(
            "constant-divergent",
            "constant memory with lanes reading different spheres (serializes)",
            source="spheres_constant_divergent.cu",
            launch="constant",
            kernel="constant_divergent",
        ),
    ),
    what="spheres variant",
)
