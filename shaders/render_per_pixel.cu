// Baseline: one thread per pixel blends every circle in index order.
#include "circle_common.cuh"

extern "C" __global__ void render_per_pixel(const float* position, const float* radius,
                                            const float* color, float4* image, int width,
                                            int height, int count, int snowflake, int clear,
                                            int snow, float red, float green, float blue) {
    CLOCK_THIS_BLOCK;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const float px = pixel_center(x, 1.f / static_cast<float>(width));
    const float py = pixel_center(y, 1.f / static_cast<float>(height));
    float4 pixel = start_pixel(image, x, y, width, height, clear, snow, red, green, blue);
    for (int i = 0; i < count; ++i)
        blend_circle(pixel, px, py, load_circle(position, radius, color, i), snowflake);
    image[y * width + x] = pixel;
}
