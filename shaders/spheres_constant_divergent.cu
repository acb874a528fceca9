// Constant memory read the wrong way: lane k of a warp starts at sphere k, so the 32 lanes ask for
// 32 different addresses at once and the constant cache serves them one after another. The visit
// order changes, not the image: ties go to the lower index (NearestHit::consider_any_order).
#include "sphere_constant_table.cuh"

extern "C" __global__ void trace_constant_divergent(int count, uchar4* image, int size) {
    int x, y;
    float ox, oy;
    if (!sphere_pixel(size, &x, &y, &ox, &oy)) return;
    int lane = (threadIdx.y * blockDim.x + threadIdx.x) % 32;
    NearestHit hit;
    int i = count > 0 ? lane % count : 0;
    for (int visited = 0; visited < count; ++visited) {
        hit.consider_any_order(constant_spheres[i], i, ox, oy);
        i = (i + 1 == count) ? 0 : i + 1;
    }
    write_hit(image, size, x, y, hit);
}
