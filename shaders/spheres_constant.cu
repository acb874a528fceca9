// Spheres in __constant__ memory (the book's "after" version): a warp reads one sphere at a time,
// which the constant cache broadcasts to all its lanes.
#include "sphere_constant_table.cuh"

extern "C" __global__ void trace_constant(int count, uchar4* image, int size) {
    int x, y;
    float ox, oy;
    if (!sphere_pixel(size, &x, &y, &ox, &oy)) return;
    NearestHit hit;
    for (int i = 0; i < count; ++i) hit.consider_in_order(constant_spheres[i], ox, oy);
    write_hit(image, size, x, y, hit);
}
