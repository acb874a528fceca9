// Spheres in a global-memory buffer passed as an argument (the book's first version).
#include "sphere_common.cuh"

extern "C" __global__ void trace_global(const Sphere* spheres, int count, uchar4* image, int size) {
    trace_in_order(count, image, size, [=](int i) { return spheres[i]; });
}
