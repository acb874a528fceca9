// Step 5 of docs/user-kernels.md: step 4 with a binning kernel, so that a tile stops testing the
// circles that are nowhere near it. The image is cut into bins of 128 x 128 pixels, and for each bin
// the scratch memory holds one bit per circle: bit i of bin b is set when circle i may touch b. The
// bits come out in index order with no sort, so the blend still meets the circles in order. A tile
// reads its bin's bits 256 circles at a time and skips, with one barrier, every group in which no
// bit is set: most of them, when circles are small.
//
// rasterlab: kernel = render_bins
// rasterlab: grid = tiles
// rasterlab: tile = 32
// rasterlab: block = 256
// rasterlab: binning = mark_bins
// rasterlab: binning_grid = circles
// rasterlab: binning_block = 256
// rasterlab: scratch = 4 * ((width + 127) / 128) * ((height + 127) / 128) * ((count + 31) / 32)
#include "rasterlab.cuh"

#define SIDE 32
#define THREADS 256
#define WARPS (THREADS / 32)
#define PIXELS (SIDE * SIDE / THREADS)
#define BIN 128  // pixels per side of a bin: a whole number of tiles

// One thread per circle: set its bit in each bin its disc may touch, within its pixel box (the
// pixels the reference visits). The scratch memory is zeroed before each frame's binning.
extern "C" __global__ void mark_bins(RASTERLAB_BINNING_PARAMS) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const float x = position[3 * i], y = position[3 * i + 1], r = radius[i];
    int x0, x1, y0, y1;
    pixel_span(x, r, width, x0, x1);
    pixel_span(y, r, height, y0, y1);
    if (x0 >= x1 || y0 >= y1) return;
    unsigned* bits = reinterpret_cast<unsigned*>(scratch);
    const int words = (count + 31) / 32, bins_x = (width + BIN - 1) / BIN;
    for (int by = y0 / BIN; by <= (y1 - 1) / BIN; ++by)
        for (int bx = x0 / BIN; bx <= (x1 - 1) / BIN; ++bx)
            if (disc_in_box_exact(x, y, r, pixel_box(bx * BIN, by * BIN, BIN, BIN, width, height)))
                atomicOr(&bits[(by * bins_x + bx) * words + i / 32], 1u << (i % 32));
}

extern "C" __global__ void render_bins(RASTERLAB_BLEND_PARAMS) {
    __shared__ Circle packed[THREADS];
    __shared__ int warp_hits[WARPS];

    const int t = threadIdx.x;
    const int lane = t % 32, warp = t / 32;
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
    // This tile's bin, and its bits.
    const int words = (count + 31) / 32, bins_x = (width + BIN - 1) / BIN;
    const int bin = (blockIdx.y * SIDE / BIN) * bins_x + blockIdx.x * SIDE / BIN;
    const unsigned* bits = reinterpret_cast<const unsigned*>(scratch) + static_cast<long long>(bin) * words;

    for (int first = 0; first < count; first += THREADS) {
        const int i = first + t;
        const bool listed = i < count && (bits[i / 32] >> (i % 32)) & 1u;
        if (!__syncthreads_or(listed)) continue;  // none of these 256 circles is in the bin
        Circle c;
        int hit = 0;
        if (listed) {
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
