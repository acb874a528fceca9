// Spheres in a global-memory buffer passed as an argument (the book's "before" version).
#include "sphere_common.cuh"

extern "C" __global__ void trace_global(const Sphere* spheres, int count, uchar4* image, int size) {
    int x, y;
    float ox, oy;
    if (!sphere_pixel(size, &x, &y, &ox, &oy)) return;
    NearestHit hit;
    for (int i = 0; i < count; ++i) hit.consider_in_order(spheres[i], ox, oy);
    write_hit(image, size, x, y, hit);
}
