// Spheres in global memory read through the read-only (texture) cache with __ldg.
#include "sphere_shaded.cuh"

__device__ __forceinline__ Sphere load_readonly(const Sphere* __restrict__ s) {
    return Sphere{__ldg(&s->r), __ldg(&s->g), __ldg(&s->b), __ldg(&s->radius), __ldg(&s->x), __ldg(&s->y), __ldg(&s->z)};
}

template <class Pixel>
__device__ __forceinline__ void readonly_loop(const Sphere* __restrict__ spheres, int count, uchar4* __restrict__ image,
                                              int size, const ShadeParams* params) {
    Pixel pixel;
    if (!pixel.start(size, params)) return;
    for (int i = 0; i < count; ++i) pixel.consider_in_order(load_readonly(spheres + i), i);
    pixel.write(image, size);
}

extern "C" __global__ void trace_readonly(const Sphere* __restrict__ spheres, int count, uchar4* __restrict__ image,
                                          int size) {
    readonly_loop<ClassicPixel>(spheres, count, image, size, nullptr);
}

extern "C" __global__ void shade_readonly(const Sphere* __restrict__ spheres, int count, uchar4* __restrict__ image,
                                          int size, const ShadeParams* params) {
    readonly_loop<ShadedPixel>(spheres, count, image, size, params);
}
