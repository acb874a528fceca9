// One block per TILE x TILE screen tile. The block walks the circles in chunks of one circle per
// thread, tests each against the tile, compacts the hits in index order with a block-wide
// exclusive scan into shared memory, then every thread blends its own pixel through the list.
// Each pixel is owned by one thread and visited in index order: no atomics, order preserved.
// Build with -DTILE=16|32, -DSCAN_ALGORITHM=0|1|2 (block_scan.cuh), -DEXACT_TILE_TEST=0|1.
#include "block_scan.cuh"
#include "circle_common.cuh"

#define BLOCK (TILE * TILE)

extern "C" __global__ void __launch_bounds__(BLOCK)
    render_tile_scan(const float* position, const float* radius, const float* color,
                     float4* image, int width, int height, int count, int snowflake, int clear,
                     int snow, float red, float green, float blue) {
    CLOCK_THIS_BLOCK;
    __shared__ Circle hits[BLOCK];
    __shared__ int scratch[2 * BLOCK + 1];
    const TilePixel p = tile_pixel<TILE>(width, height);
    const int t = p.thread;
    const Box box = tile_box(blockIdx.x, blockIdx.y, TILE, width, height);
    float4 pixel = p.inside ? start_pixel(image, p.x, p.y, width, height, clear, snow, red, green, blue)
                            : make_float4(0.f, 0.f, 0.f, 0.f);
    for (int first = 0; first < count; first += BLOCK) {
        const int i = first + t;
        Circle c;
        int hit = 0;
        if (i < count) {
            c = load_circle(position, radius, color, i);
            hit = circle_touches_box(c, box);
        }
        int total;
        const int slot = block_exclusive_scan<BLOCK, SCAN_ALGORITHM>(hit, t, scratch, total);
        if (hit) hits[slot] = c;
        __syncthreads();
        if (p.inside)
            for (int k = 0; k < total; ++k) blend_circle(pixel, p.px, p.py, hits[k], snowflake);
        __syncthreads();
    }
    if (p.inside) image[p.y * width + p.x] = pixel;
}

// The candidates overlay: candidates[tile] = how many circles pass this build's tile test for the
// tile, the length of the list render_tile_scan compacts for it. Same grid and block.
extern "C" __global__ void __launch_bounds__(BLOCK)
    count_tile_candidates(const float* position, const float* radius, int width, int height, int count,
                          int* candidates) {
    const int t = threadIdx.y * TILE + threadIdx.x;
    const Box box = tile_box(blockIdx.x, blockIdx.y, TILE, width, height);
    int total = 0;
    for (int first = 0; first < count; first += BLOCK) {
        const int i = first + t;
        bool hit = false;
        if (i < count) {
            Circle c;
            c.x = position[3 * i];
            c.y = position[3 * i + 1];
            c.r = radius[i];
            hit = circle_touches_box(c, box);
        }
        total += __syncthreads_count(hit);
    }
    if (t == 0) candidates[blockIdx.y * gridDim.x + blockIdx.x] = total;
}
