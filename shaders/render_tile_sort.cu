// Global binning: each circle counts the TILE x TILE tiles its pixel box touches (count_tiles),
// the host scans the counts into offsets, each circle writes one key per tile (emit_tile_keys),
// key = tile * count + circle, so one sort of the keys groups circles by tile and keeps each
// tile's circles in index order. tile_ranges finds where each tile's keys start, and
// render_tile_sort blends each tile's range, staging chunks of circles in shared memory.
// Build with -DTILE=16|32, -DEXACT_TILE_TEST=0|1, -DKEY_T=unsigned int|unsigned long long.
#include "circle_common.cuh"

#define BLOCK (TILE * TILE)

// The tiles [tx0, tx1] x [ty0, ty1] that hold pixels of the circle's box; false if none.
__device__ __forceinline__ bool tile_span(const Circle& c, int width, int height, int& tx0,
                                          int& tx1, int& ty0, int& ty1) {
    int x0, x1, y0, y1;
    pixel_span(c.x, c.r, width, x0, x1);
    pixel_span(c.y, c.r, height, y0, y1);
    if (x0 >= x1 || y0 >= y1) return false;
    tx0 = x0 / TILE;
    tx1 = (x1 - 1) / TILE;
    ty0 = y0 / TILE;
    ty1 = (y1 - 1) / TILE;
    return true;
}

// Visits the tiles of circle i that pass the tile test, in row-major tile order.
template <typename Visit>
__device__ __forceinline__ void for_each_tile(const float* position, const float* radius, int i,
                                              int width, int height, Visit visit) {
    Circle c;
    c.x = position[3 * i];
    c.y = position[3 * i + 1];
    c.r = radius[i];
    int tx0, tx1, ty0, ty1;
    if (!tile_span(c, width, height, tx0, tx1, ty0, ty1)) return;
    const int tiles_x = (width + TILE - 1) / TILE;
    for (int ty = ty0; ty <= ty1; ++ty)
        for (int tx = tx0; tx <= tx1; ++tx)
            if (circle_touches_box(c, tile_box(tx, ty, TILE, width, height)))
                visit(ty * tiles_x + tx);
}

extern "C" __global__ void count_tiles(const float* position, const float* radius, int count,
                                       int width, int height, int* tiles_per_circle) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    int n = 0;
    for_each_tile(position, radius, i, width, height, [&](int) { ++n; });
    tiles_per_circle[i] = n;
}

// ends: the inclusive scan of count_tiles' counts. Circle i's keys fill [ends[i] - n, ends[i]),
// written from the end down (their order does not matter: the sort orders them).
extern "C" __global__ void emit_tile_keys(const float* position, const float* radius, int count,
                                          int width, int height, const long long* ends,
                                          KEY_T* keys) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    KEY_T* out = keys + ends[i];
    for_each_tile(position, radius, i, width, height, [&](int tile) {
        *--out = static_cast<KEY_T>(tile) * static_cast<KEY_T>(count) + static_cast<KEY_T>(i);
    });
}

// tile_first[t] = the index of the first sorted key >= t * count, for t in [0, tiles]: where
// tile t's keys start (tile_first[tiles] = pairs). One thread per tile, a binary search each.
extern "C" __global__ void tile_ranges(const KEY_T* keys, long long pairs, int count, int tiles,
                                       long long* tile_first) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > tiles) return;
    const KEY_T bound = static_cast<KEY_T>(t) * static_cast<KEY_T>(count);
    long long lo = 0, hi = pairs;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (keys[mid] < bound)
            lo = mid + 1;
        else
            hi = mid;
    }
    tile_first[t] = lo;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
    render_tile_sort(const float* position, const float* radius, const float* color,
                     float4* image, int width, int height, int count, int snowflake, int clear,
                     int snow, float red, float green, float blue, const KEY_T* keys,
                     const long long* tile_first) {
    CLOCK_THIS_BLOCK;
    __shared__ Circle staged[BLOCK];
    const TilePixel p = tile_pixel<TILE>(width, height);
    const int t = p.thread;
    const int tile = blockIdx.y * gridDim.x + blockIdx.x;
    const long long begin = tile_first[tile], end = tile_first[tile + 1];
    const KEY_T tile_base = static_cast<KEY_T>(tile) * static_cast<KEY_T>(count);
    float4 pixel = p.inside ? start_pixel(image, p.x, p.y, width, height, clear, snow, red, green, blue)
                            : make_float4(0.f, 0.f, 0.f, 0.f);
    for (long long first = begin; first < end; first += BLOCK) {
        const int n = static_cast<int>(min(static_cast<long long>(BLOCK), end - first));
        if (t < n) {
            const int i = static_cast<int>(keys[first + t] - tile_base);
            staged[t] = load_circle(position, radius, color, i);
        }
        __syncthreads();
        if (p.inside)
            for (int k = 0; k < n; ++k) blend_circle(pixel, p.px, p.py, staged[k], snowflake);
        __syncthreads();
    }
    if (p.inside) image[p.y * width + p.x] = pixel;
}
