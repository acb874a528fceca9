// Spheres in __constant__ memory (the book's "after" version): a warp reads one sphere at a time,
// which the constant cache broadcasts to all its lanes.
#include "sphere_constant_table.cuh"

template <class Pixel>
__device__ __forceinline__ void constant_loop(int count, uchar4* image, int size, const ShadeParams* params) {
    Pixel pixel;
    if (!pixel.start(size, params)) return;
    for (int i = 0; i < count; ++i) pixel.consider_in_order(constant_spheres[i], i);
    pixel.write(image, size);
}

extern "C" __global__ void trace_constant(int count, uchar4* image, int size) {
    constant_loop<ClassicPixel>(count, image, size, nullptr);
}

extern "C" __global__ void shade_constant(int count, uchar4* image, int size, const ShadeParams* params) {
    constant_loop<ShadedPixel>(count, image, size, params);
}
