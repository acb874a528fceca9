// Each block stages chunks of SPHERE_CHUNK spheres from global into shared memory, then every
// thread tests its pixel against the chunk; one global read per sphere per block.
#include "sphere_shaded.cuh"

#ifndef SPHERE_CHUNK
#define SPHERE_CHUNK 256
#endif

template <class Pixel>
__device__ __forceinline__ void shared_loop(const Sphere* __restrict__ spheres, int count, uchar4* image, int size,
                                            const ShadeParams* params) {
    __shared__ Sphere chunk[SPHERE_CHUNK];
    Pixel pixel;
    bool inside = pixel.start(size, params);
    int thread = threadIdx.y * blockDim.x + threadIdx.x;
    int threads = blockDim.x * blockDim.y;
    for (int base = 0; base < count; base += SPHERE_CHUNK) {
        int in_chunk = min(SPHERE_CHUNK, count - base);
        for (int k = thread; k < in_chunk; k += threads) chunk[k] = spheres[base + k];
        __syncthreads();
        if (inside)
            for (int k = 0; k < in_chunk; ++k) pixel.consider_in_order(chunk[k], base + k);
        __syncthreads();
    }
    if (inside) pixel.write(image, size);
}

extern "C" __global__ void trace_shared(const Sphere* __restrict__ spheres, int count, uchar4* image, int size) {
    shared_loop<ClassicPixel>(spheres, count, image, size, nullptr);
}

extern "C" __global__ void shade_shared(const Sphere* __restrict__ spheres, int count, uchar4* image, int size,
                                        const ShadeParams* params) {
    shared_loop<ShadedPixel>(spheres, count, image, size, params);
}
