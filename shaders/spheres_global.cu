// Spheres in a global-memory buffer passed as an argument (the book's "before" version).
#include "sphere_shaded.cuh"

template <class Pixel>
__device__ __forceinline__ void global_loop(const Sphere* spheres, int count, uchar4* image, int size,
                                            const ShadeParams* params) {
    Pixel pixel;
    if (!pixel.start(size, params)) return;
    for (int i = 0; i < count; ++i) pixel.consider_in_order(spheres[i], i);
    pixel.write(image, size);
}

extern "C" __global__ void trace_global(const Sphere* spheres, int count, uchar4* image, int size) {
    global_loop<ClassicPixel>(spheres, count, image, size, nullptr);
}

extern "C" __global__ void shade_global(const Sphere* spheres, int count, uchar4* image, int size,
                                        const ShadeParams* params) {
    global_loop<ShadedPixel>(spheres, count, image, size, params);
}
