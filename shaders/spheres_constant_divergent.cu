// Constant memory read the wrong way: lane k of a warp starts at sphere k, so the 32 lanes ask for
// 32 different addresses at once and the constant cache serves them one after another. The visit
// order changes, not the image: ties go to the lower index (consider_any_order).
#include "sphere_constant_table.cuh"

template <class Pixel>
__device__ __forceinline__ void constant_divergent_loop(int count, uchar4* image, int size, const ShadeParams* params) {
    Pixel pixel;
    if (!pixel.start(size, params)) return;
    int lane = (threadIdx.y * blockDim.x + threadIdx.x) % 32;
    int i = count > 0 ? lane % count : 0;
    for (int visited = 0; visited < count; ++visited) {
        pixel.consider_any_order(constant_spheres[i], i);
        i = (i + 1 == count) ? 0 : i + 1;
    }
    pixel.write(image, size);
}

extern "C" __global__ void trace_constant_divergent(int count, uchar4* image, int size) {
    constant_divergent_loop<ClassicPixel>(count, image, size, nullptr);
}

extern "C" __global__ void shade_constant_divergent(int count, uchar4* image, int size, const ShadeParams* params) {
    constant_divergent_loop<ShadedPixel>(count, image, size, params);
}
