// Spheres in global memory read through the read-only (texture) cache with __ldg.
#include "sphere_common.cuh"

__device__ __forceinline__ Sphere load_readonly(const Sphere* __restrict__ s) {
    return Sphere{__ldg(&s->r), __ldg(&s->g), __ldg(&s->b), __ldg(&s->radius), __ldg(&s->x), __ldg(&s->y), __ldg(&s->z)};
}

extern "C" __global__ void trace_readonly(const Sphere* __restrict__ spheres, int count, uchar4* __restrict__ image,
                                          int size) {
    int x, y;
    float ox, oy;
    if (!sphere_pixel(size, &x, &y, &ox, &oy)) return;
    NearestHit hit;
    for (int i = 0; i < count; ++i) hit.consider_in_order(load_readonly(spheres + i), ox, oy);
    write_hit(image, size, x, y, hit);
}
