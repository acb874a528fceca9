// The constant-memory sphere table shared by the constant variants; the host fills it through the
// module's global symbol "constant_spheres".
#pragma once
#include "sphere_shaded.cuh"

static_assert(MAX_CONSTANT_SPHERES * sizeof(Sphere) <= 65536, "the table must fit in constant memory");

__constant__ Sphere constant_spheres[MAX_CONSTANT_SPHERES];
