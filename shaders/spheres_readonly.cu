// Spheres in global memory read through the read-only (texture) cache with __ldg.
#include "sphere_common.cuh"

__device__ __forceinline__ Sphere load_readonly(const Sphere* __restrict__ s) {
    return Sphere{__ldg(&s->r), __ldg(&s->g), __ldg(&s->b), __ldg(&s->radius), __ldg(&s->x), __ldg(&s->y), __ldg(&s->z)};
}

extern "C" __global__ void trace_readonly(const Sphere* __restrict__ spheres, int count, uchar4* __restrict__ image,
                                          int size) {
    trace_in_order(count, image, size, [=](int i) { return load_readonly(spheres + i); });
}
