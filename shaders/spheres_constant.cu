// Spheres in __constant__ memory (the book's second version): a warp reads one sphere at a time,
// which the constant cache broadcasts to all its lanes.
#include "sphere_constant_table.cuh"

extern "C" __global__ void trace_constant(int count, uchar4* image, int size) {
    trace_in_order(count, image, size, [](int i) { return constant_spheres[i]; });
}
