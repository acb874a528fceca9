// A user kernel to start from: the CS149 exercise. One block per 16x16 screen tile. The block
// reads the circles 256 at a time (one per thread), keeps those that touch its tile, and packs
// them, still in index order, into shared memory with a prefix sum (a scan); then each thread
// blends the packed circles over its own pixel. Order is kept, every pixel has one owner: no
// atomics, and the picture equals the reference's bit for bit.
// Run it with:  rasterlab check --variants file:shaders/user/tile_scan.cu
//
// rasterlab: kernel = render_tile_scan
// rasterlab: grid = tiles
// rasterlab: tile = 16
#include "rasterlab.cuh"

#define SIDE 16                // pixels per side of a tile (the declaration's tile)
#define THREADS (SIDE * SIDE)  // one thread per pixel of the tile, and one per circle of a chunk

extern "C" __global__ void render_tile_scan(RASTERLAB_BLEND_PARAMS) {
    __shared__ Circle packed[THREADS];  // the chunk's circles that touch the tile, in index order
    __shared__ int sums[2][THREADS];    // the scan's two buffers

    // 1. The pixel this thread owns, and the tile's box in the scene's units.
    const int t = threadIdx.y * SIDE + threadIdx.x;
    const int x = blockIdx.x * SIDE + threadIdx.x;
    const int y = blockIdx.y * SIDE + threadIdx.y;
    const bool inside = x < width && y < height;  // the last tiles may reach past the edge
    const float px = pixel_center(x, 1.f / static_cast<float>(width));
    const float py = pixel_center(y, 1.f / static_cast<float>(height));
    const Box tile = tile_box(blockIdx.x, blockIdx.y, SIDE, width, height);
    float4 pixel = inside ? start_pixel(image, x, y, width, height, clear, snow, red, green, blue)
                          : make_float4(0.f, 0.f, 0.f, 0.f);

    for (int first = 0; first < count; first += THREADS) {
        // 2. Each thread tests one circle of the chunk against the tile: 1 if it may touch it.
        const int i = first + t;
        Circle c;
        int hit = 0;
        if (i < count) {
            c = load_circle(position, radius, color, i);
            hit = circle_in_box_conservative(c, tile);
        }

        // 3. An inclusive prefix sum of the hits (Hillis-Steele: log2(256) = 8 steps of "add the
        // value `step` places to the left"), in two buffers so no step reads what it writes.
        int read = 0;
        sums[read][t] = hit;
        __syncthreads();
        for (int step = 1; step < THREADS; step *= 2) {
            const int left = t >= step ? sums[read][t - step] : 0;
            sums[1 - read][t] = sums[read][t] + left;
            read = 1 - read;
            __syncthreads();
        }
        const int total = sums[read][THREADS - 1];  // hits in the chunk
        const int slot = sums[read][t] - hit;       // hits before this thread's: its place

        // 4. Pack the hits in index order; wait until every thread has written its own.
        if (hit) packed[slot] = c;
        __syncthreads();

        // 5. Blend the packed circles over this pixel, in order.
        if (inside)
            for (int k = 0; k < total; ++k) blend_circle(pixel, px, py, packed[k], snowflake);

        // 6. The next chunk overwrites sums and packed: wait until everyone is done with them.
        __syncthreads();
    }
    if (inside) image[y * width + x] = pixel;
}
