// Step 4 of docs/user-kernels.md: step 3 with 32-pixel tiles and 4 pixels a thread. Every block
// tests every circle against its tile, so the tests grow with the number of tiles: a quarter as many
// tiles is a quarter of the tests. The block keeps 256 threads; each owns a column of 4 pixels and
// blends each packed circle over all 4, which also spreads the circle's load from shared memory
// over 4 blends.
//
// rasterlab: kernel = render_four_pixels
// rasterlab: grid = tiles
// rasterlab: tile = 32
// rasterlab: block = 256
#include "rasterlab.cuh"

#define SIDE 32
#define THREADS 256
#define WARPS (THREADS / 32)
#define PIXELS (SIDE * SIDE / THREADS)  // a column of 4 pixels per thread

extern "C" __global__ void render_four_pixels(RASTERLAB_BLEND_PARAMS) {
    __shared__ Circle packed[THREADS];
    __shared__ int warp_hits[WARPS];

    const int t = threadIdx.x;
    const int lane = t % 32, warp = t / 32;
    // Thread t owns column t % 32 of the tile, rows (t / 32) * 4 to (t / 32) * 4 + 3.
    const int x = blockIdx.x * SIDE + t % SIDE;
    const int y0 = blockIdx.y * SIDE + t / SIDE * PIXELS;
    const float px = pixel_center(x, 1.f / static_cast<float>(width));
    float py[PIXELS];
    float4 pixel[PIXELS];
    for (int k = 0; k < PIXELS; ++k) {
        py[k] = pixel_center(y0 + k, 1.f / static_cast<float>(height));
        pixel[k] = x < width && y0 + k < height
                       ? start_pixel(image, x, y0 + k, width, height, clear, snow, red, green, blue)
                       : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    const Box tile = tile_box(blockIdx.x, blockIdx.y, SIDE, width, height);

    for (int first = 0; first < count; first += THREADS) {
        const int i = first + t;
        Circle c;
        int hit = 0;
        if (i < count) {
            c = load_circle(position, radius, color, i);
            hit = circle_in_box_exact(c, tile);
        }
        const unsigned hits = __ballot_sync(0xffffffffu, hit);
        const int in_warp = __popc(hits & ((1u << lane) - 1u));
        if (lane == 0) warp_hits[warp] = __popc(hits);
        __syncthreads();
        int before = 0, total = 0;
        for (int w = 0; w < WARPS; ++w) {
            before += w < warp ? warp_hits[w] : 0;
            total += warp_hits[w];
        }
        if (hit) packed[before + in_warp] = c;
        __syncthreads();

        for (int j = 0; j < total; ++j) {
            const Circle circle = packed[j];
            for (int k = 0; k < PIXELS; ++k) blend_circle(pixel[k], px, py[k], circle, snowflake);
        }
        __syncthreads();
    }
    for (int k = 0; k < PIXELS; ++k)
        if (x < width && y0 + k < height) image[(y0 + k) * width + x] = pixel[k];
}
