// Each block stages chunks of SPHERE_CHUNK spheres from global into shared memory, then every
// thread tests its pixel against the chunk; one global read per sphere per block.
#include "sphere_common.cuh"

#ifndef SPHERE_CHUNK
#define SPHERE_CHUNK 256
#endif

extern "C" __global__ void trace_shared(const Sphere* __restrict__ spheres, int count, uchar4* image, int size) {
    __shared__ Sphere chunk[SPHERE_CHUNK];
    int x, y;
    float ox, oy;
    bool inside = sphere_pixel(size, &x, &y, &ox, &oy);
    int thread = threadIdx.y * blockDim.x + threadIdx.x;
    int threads = blockDim.x * blockDim.y;
    NearestHit hit;
    for (int base = 0; base < count; base += SPHERE_CHUNK) {
        int in_chunk = min(SPHERE_CHUNK, count - base);
        for (int k = thread; k < in_chunk; k += threads) chunk[k] = spheres[base + k];
        __syncthreads();
        if (inside)
            for (int k = 0; k < in_chunk; ++k) hit.consider_in_order(chunk[k], ox, oy);
        __syncthreads();
    }
    if (inside) write_hit(image, size, x, y, hit);
}
