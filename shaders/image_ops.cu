// Clearing the image, counting covered (pixel, circle) pairs for a scene's blend floor, and the
// depth overlay's count of circles per pixel.
#include "circle_common.cuh"

// Every pixel to (red, green, blue, 1), or with snow != 0 to the course's vertical gray ramp.
extern "C" __global__ void clear_image(float4* image, int width, int height, int snow, float red,
                                       float green, float blue) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    image[y * width + x] = background_pixel(y, height, snow, red, green, blue);
}

// One thread per circle walks its pixel box and adds the covered pixels to *pairs.
extern "C" __global__ void count_covered_pairs(const float* position, const float* radius,
                                               int count, int width, int height,
                                               unsigned long long* pairs) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const float cx = position[3 * i], cy = position[3 * i + 1], r = radius[i];
    int x0, x1, y0, y1;
    pixel_span(cx, r, width, x0, x1);
    pixel_span(cy, r, height, y0, y1);
    const float inv_w = 1.f / static_cast<float>(width), inv_h = 1.f / static_cast<float>(height);
    unsigned long long covered = 0;
    for (int y = y0; y < y1; ++y) {
        const float dy = pixel_center(y, inv_h) - cy;
        for (int x = x0; x < x1; ++x) {
            const float dx = pixel_center(x, inv_w) - cx;
            covered += (dx * dx + dy * dy <= r * r);
        }
    }
    if (covered) atomicAdd(pairs, covered);
}

// The depth overlay: depth[y * width + x] += 1 for every circle covering the pixel's center, by
// the blend's test over the reference's pixel box. A warp per circle, its lanes along the box's
// pixels in row-major order (a big circle's box is shared by 32 lanes, not left to one thread).
extern "C" __global__ void count_depth(const float* position, const float* radius, int count,
                                       int width, int height, int* depth) {
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (i >= count) return;
    const float cx = position[3 * i], cy = position[3 * i + 1], r = radius[i];
    int x0, x1, y0, y1;
    pixel_span(cx, r, width, x0, x1);
    pixel_span(cy, r, height, y0, y1);
    if (x0 >= x1 || y0 >= y1) return;
    const float inv_w = 1.f / static_cast<float>(width), inv_h = 1.f / static_cast<float>(height);
    const long long box_w = x1 - x0, pixels = box_w * (y1 - y0);
    for (long long k = lane; k < pixels; k += 32) {
        const int x = x0 + static_cast<int>(k % box_w), y = y0 + static_cast<int>(k / box_w);
        const float dx = pixel_center(x, inv_w) - cx;
        const float dy = pixel_center(y, inv_h) - cy;
        if (dx * dx + dy * dy <= r * r) atomicAdd(&depth[y * width + x], 1);
    }
}
