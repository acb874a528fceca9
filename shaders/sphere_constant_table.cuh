// The constant-memory sphere table shared by the constant variants; the host fills it through the
// module's global symbol "constant_spheres".
#pragma once
#include "sphere_shaded.cuh"

#define MAX_CONSTANT_SPHERES 2340  // 2340 * 28 bytes = 65520 of the 65536 bytes of constant memory

__constant__ Sphere constant_spheres[MAX_CONSTANT_SPHERES];
