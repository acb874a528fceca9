// A user kernel to start from: one thread per pixel blends every circle, in index order.
// Run it with:  rasterlab render --scene rand10k --variant file:shaders/user/per_pixel.cu
// and compare it with the reference:  rasterlab check --variants file:shaders/user/per_pixel.cu
//
// rasterlab: kernel = render_per_pixel
// rasterlab: grid = pixels
// rasterlab: block = 16x16
#include "rasterlab.cuh"

extern "C" __global__ void render_per_pixel(RASTERLAB_BLEND_PARAMS) {
    // The pixel this thread owns; the last blocks reach past the image's edge.
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    // Its center in the scene's units (0 to 1, y up), as the reference computes it.
    const float px = pixel_center(x, 1.f / static_cast<float>(width));
    const float py = pixel_center(y, 1.f / static_cast<float>(height));

    // Start from the background (or from the image, when the frame does not clear), keep the
    // pixel in registers while every circle blends over it, then write it once.
    float4 pixel = start_pixel(image, x, y, width, height, clear, snow, red, green, blue);
    for (int i = 0; i < count; ++i)
        blend_circle(pixel, px, py, load_circle(position, radius, color, i), snowflake);
    image[y * width + x] = pixel;
}
