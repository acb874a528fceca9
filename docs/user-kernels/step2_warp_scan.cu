// Step 2 of docs/user-kernels.md: shaders/user/tile_scan.cu with the Hillis-Steele scan (8 steps,
// each a __syncthreads) replaced by ballots. A warp's 32 hits are one 32-bit __ballot_sync; a
// thread's place in its warp is the number of set bits below its lane, and the warps' counts are
// summed after one barrier.
//
// rasterlab: kernel = render_warp_scan
// rasterlab: grid = tiles
// rasterlab: tile = 16
#include "rasterlab.cuh"

#define SIDE 16
#define THREADS (SIDE * SIDE)
#define WARPS (THREADS / 32)

extern "C" __global__ void render_warp_scan(RASTERLAB_BLEND_PARAMS) {
    __shared__ Circle packed[THREADS];
    __shared__ int warp_hits[WARPS];

    const int t = threadIdx.y * SIDE + threadIdx.x;
    const int lane = t % 32, warp = t / 32;
    const int x = blockIdx.x * SIDE + threadIdx.x;
    const int y = blockIdx.y * SIDE + threadIdx.y;
    const bool inside = x < width && y < height;
    const float px = pixel_center(x, 1.f / static_cast<float>(width));
    const float py = pixel_center(y, 1.f / static_cast<float>(height));
    const Box tile = tile_box(blockIdx.x, blockIdx.y, SIDE, width, height);
    float4 pixel = inside ? start_pixel(image, x, y, width, height, clear, snow, red, green, blue)
                          : make_float4(0.f, 0.f, 0.f, 0.f);

    for (int first = 0; first < count; first += THREADS) {
        const int i = first + t;
        Circle c;
        int hit = 0;
        if (i < count) {
            c = load_circle(position, radius, color, i);
            hit = circle_in_box_conservative(c, tile);
        }

        // The warp's hits as bits, lane k in bit k; this thread's place among them.
        const unsigned hits = __ballot_sync(0xffffffffu, hit);
        const int in_warp = __popc(hits & ((1u << lane) - 1u));
        if (lane == 0) warp_hits[warp] = __popc(hits);
        __syncthreads();

        // The hits of the warps before this one, and of all of them.
        int before = 0, total = 0;
        for (int w = 0; w < WARPS; ++w) {
            before += w < warp ? warp_hits[w] : 0;
            total += warp_hits[w];
        }
        if (hit) packed[before + in_warp] = c;
        __syncthreads();

        if (inside)
            for (int k = 0; k < total; ++k) blend_circle(pixel, px, py, packed[k], snowflake);
        __syncthreads();
    }
    if (inside) image[y * width + x] = pixel;
}
