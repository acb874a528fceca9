// tile-warp: a block per TILE x TILE tile; each thread owns a column of PIXELS pixels, and each
// warp a 16 x (2 * PIXELS) region of the tile. The block stages the circles that touch its tile
// (in index order, by a ballot scan), then every warp tests 32 staged circles at once against its
// own region and blends only those that touch it, PIXELS pixels per circle per thread. Shape and
// premultiplied color are computed once per circle, not once per pixel; a circle that covers a
// warp's whole region skips the per-pixel test (and leaves its alpha step to the end of the tile,
// where a warp takes all such steps in one addition), the squared row distances that a test shares
// with the other columns of the region are computed once per warp and group of 32 circles (in
// 32-pixel tiles: WarpRows), and flat colors blend with one fused multiply-add per channel where
// that rounds exactly as the reference (over_half_fused). With CELLS, each cell of 4 lanes (8 at
// TILE 64) walks instead the staged circles that may cover its pixels, from bit lists built per
// batch (mark_cells): for circles a few pixels wide, which touch a warp's region but cover few of
// its pixels.
//
// Candidates are every circle, or (use_bins != 0) the list of the coarse bin holding the tile.
// Bin lists are built without a sort and without a host round trip: count_bin_entries counts each
// bin's entries per block of circles (shared counters), scan_bin_counts scans them per bin and
// places each bin's list after the lists before it, emit_bin_entries writes the lists; the scan and
// the emission are launched as dependents of the launch before them (dependent_launch.cuh). A binning
// block holds one group of `group` consecutive bins (at most MAX_BINS, in shared memory),
// blockIdx.y naming the group: each group's blocks read every circle of their chunks again and
// keep the bins of their group. The host takes groups smaller than MAX_BINS where there are few
// chunks, so that the binning still fills the GPU (render.circles.tile_warp.bin_group). Inside a
// block, a 1024-circle chunk marks bit (circle % 32) of word (circle / 32 % 32) of each bin it
// touches in shared memory, so every bin's bits read in word order are its circles in index order:
// the lists come out sorted by circle, as blending needs; where the bins get few entries a chunk,
// four threads a bin read only its words that hold any. An entry carries the circle's x, y and r
// beside its index, so staging reads each candidate with one coalesced load instead of an index
// and dependent gathers; with -DENTRY_INDEX=1 (scenes of millions of circles) an entry is the
// index alone, a quarter of the memory, and staging gathers x, y and r from the scene's arrays.
//
// Build with -DTILE=32|64, -DPIXELS=4|8, -DCELLS=0|1, -DSNOWFLAKE=0|1, -DFUSED=0|1 (1 only if
// every circle's premultiplied color passes render.circles.tile_warp.fused_blend_is_exact),
// -DENTRY_INDEX=0|1; for the overlays only, -DBLOCK_CYCLES=1 or -DWARP_SKIP=1 (instrument.cuh).
#include "block_scan.cuh"
#include "circle_common.cuh"
#include "dependent_launch.cuh"

// CHUNK, MAX_BINS, SCAN_BLOCKS, BIN_ENTRY_FLOATS, WARP_REGION_WIDTH and ORDER_STEPS are
// render/circles/constants.py's, as -D defines.
#if !defined(CHUNK) || !defined(MAX_BINS) || !defined(SCAN_BLOCKS) || !defined(BIN_ENTRY_FLOATS) || \
    !defined(WARP_REGION_WIDTH) || !defined(ORDER_STEPS)
#error "build through render.circles.constants.load_circle_module, which defines the shared constants"
#endif

#define THREADS (TILE * TILE / PIXELS)
#define REGION_W WARP_REGION_WIDTH
// Row groups: a warp's lanes in sets of REGION_W, one a column, that share their PIXELS pixel rows.
#define ROW_GROUPS (32 / REGION_W)
#define REGION_H (ROW_GROUPS * PIXELS)
#define WARPS_X (TILE / REGION_W)
static_assert(WARPS_X * (TILE / REGION_H) * 32 == THREADS, "warp regions must tile the block");
// A 32-pixel tile of 4 pixels a thread is held to 64 registers a thread, four blocks an SM: left
// free, the candidates loaded a round ahead take more, three blocks an SM, which is slower. At 8
// pixels a thread (128 threads), flat circles walked by warps run eight blocks an SM (64 registers,
// 32 bytes spilled), which measured faster than five to seven: 1,024 tiles at 1024x1024 then fit
// one wave of an H100's 132 SMs. The two-rounding blend runs six, cell walks and snowflakes five:
// the most at which they spill nothing. A 64-pixel tile keeps its 8 pixels a thread in registers
// at one block an SM.
#if TILE == 64
#define MIN_BLOCKS 1
#elif PIXELS == 4
#define MIN_BLOCKS 4
#elif CELLS || SNOWFLAKE
#define MIN_BLOCKS 5
#else
#define MIN_BLOCKS (FUSED ? 8 : 6)
#endif
// Whether the blend's blocks take scan_bin_counts' tile order (fullest bin first) rather than launch
// order, in the builds where it measured faster: snowflakes, whose tiles' costs differ most
// (snowsingle's by up to 2.6 times their mean), and flat circles walked by warps at 8 pixels a thread
// in 32-pixel tiles with the fused blend, eight blocks an SM, whose 1,024 tiles at 1024 x 1024 run in
// one wave, where an SM ends its youngest blocks last. The flat builds of 4 pixels a thread measured
// slower with it, as their registers then spill; the others were not measured with it
// (docs/performance.md, "Tiles fullest first at 8 pixels a thread"). The host reads it at load and
// has the binning write an order only for the builds that take one.
#define TAKES_TILE_ORDER (SNOWFLAKE || (TILE == 32 && PIXELS == 8 && !CELLS && FUSED))
__device__ int takes_tile_order = TAKES_TILE_ORDER;
// Two binning blocks an SM (32 registers a thread): at one, 245 blocks of a million circles or more
// run in two waves on an H100's 132 SMs.
#define BINNING_BLOCKS 2
#define CHUNK_WORDS (CHUNK / 32)
static_assert(CHUNK_WORDS * 32 == CHUNK && CHUNK_WORDS == 32, "a warp reads a chunk's mask words, one per lane");

#if ENTRY_INDEX
// One entry of a bin list: the circle's index (4 bytes).
typedef int BinEntry;

__device__ __forceinline__ BinEntry make_entry(float3, int index) { return index; }

// The entry's circle index, its (x, y, r) gathered into shape.xyz.
__device__ __forceinline__ int entry_circle(BinEntry e, const float* position, const float* radius, float4& shape) {
    shape = make_float4(position[3 * e], position[3 * e + 1], radius[e], 0.f);
    return e;
}
#else
// One entry of a bin list (16 bytes, one vector load): the circle's center, radius and index.
struct __align__(16) BinEntry {
    float x, y, r;
    int index;
};
static_assert(sizeof(BinEntry) == BIN_ENTRY_FLOATS * 4, "the host sizes bin lists in BIN_ENTRY_FLOATS floats");

__device__ __forceinline__ BinEntry make_entry(float3 shape, int index) { return {shape.x, shape.y, shape.z, index}; }

__device__ __forceinline__ int entry_circle(BinEntry e, const float*, const float*, float4& shape) {
    shape = make_float4(e.x, e.y, e.r, 0.f);
    return e.index;
}
#endif

// ---- Binning ------------------------------------------------------------------------------

// The bins a binning block keeps: those of its group (blockIdx.y, `group` <= MAX_BINS consecutive
// bins), [lo, hi), which lie in bin rows [row_first, row_last]. Bins are (1 << shift)-pixel
// squares, bins_x to a row, numbered row by row; the shift spares an integer division per bin
// bound and circle, which would otherwise take most of the binning's instructions.
struct BinGroup {
    int lo, hi, row_first, row_last, shift, bins_x;
};

__device__ __forceinline__ BinGroup group_bins(int bins, int bins_x, int group, int shift) {
    BinGroup g;
    g.lo = blockIdx.y * group;
    g.hi = min(g.lo + group, bins);
    g.row_first = g.lo / bins_x;
    g.row_last = (g.hi - 1) / bins_x;
    g.shift = shift;
    g.bins_x = bins_x;
    return g;
}

// Calls visit(bin - g.lo) for every bin of the group that circle (cx, cy, r) touches, in no
// particular order.
template <typename Visit>
__device__ __forceinline__ void for_each_bin(float cx, float cy, float r, int width, int height, const BinGroup& g,
                                             Visit visit) {
    int x0, x1, y0, y1;
    pixel_span(cx, r, width, x0, x1);
    pixel_span(cy, r, height, y0, y1);
    if (x0 >= x1 || y0 >= y1) return;
    const int size = 1 << g.shift;
    const int row_first = max(y0 >> g.shift, g.row_first);
    const int row_last = min((y1 - 1) >> g.shift, g.row_last);
    // Not unrolled: most circles reach one bin, and unrolled loops compute the boxes of the bins
    // beside it ahead.
#pragma unroll 1
    for (int by = row_first; by <= row_last; ++by)
#pragma unroll 1
        for (int bx = x0 >> g.shift; bx <= (x1 - 1) >> g.shift; ++bx) {
            const int bin = by * g.bins_x + bx;
            if (bin >= g.lo && bin < g.hi &&
                disc_in_box_exact(cx, cy, r, pixel_box(bx * size, by * size, size, size, width, height)))
                visit(bin - g.lo);
        }
}

// Per bin of the block's group, how many entries the block's circles (chunks_per_block chunks of
// CHUNK from blockIdx.x * chunks_per_block * CHUNK) make, into counts[bin * gridDim.x + block].
// Counts need no order, so shared counters take the place of the emitting pass's bit masks.
extern "C" __global__ void __launch_bounds__(CHUNK, BINNING_BLOCKS)
    count_bin_entries(const float* position, const float* radius, int count, int width, int height,
                      int bin_shift, int bins_x, int bins, int chunks_per_block, int group, int* counts) {
    __shared__ int entries[MAX_BINS];
    const int t = threadIdx.x;
    const BinGroup g = group_bins(bins, bins_x, group, bin_shift);
    const int local = g.hi - g.lo;
    if (t < local) entries[t] = 0;
    __syncthreads();
    const int first = blockIdx.x * chunks_per_block * CHUNK;
    const int end = min(first + chunks_per_block * CHUNK, count);
    for (int i = first + t; i < end; i += CHUNK)
        for_each_bin(position[3 * i], position[3 * i + 1], radius[i], width, height, g,
                     [&](int bin) { atomicAdd(&entries[bin], 1); });
    __syncthreads();
    if (t < local) counts[(g.lo + t) * gridDim.x + blockIdx.x] = entries[t];
}

static_assert(ORDER_STEPS <= 32, "order_tiles scans the steps' counts in one warp");

// Bin b's step of entries (0 for the fullest bins), from its total and ORDER_STEPS / (fullest + 1).
__device__ __forceinline__ int order_step(long long total, float per_step) {
    return ORDER_STEPS - 1 - min(static_cast<int>(static_cast<float>(total) * per_step), ORDER_STEPS - 1);
}

// tile_order[0 .. tiles) = every tile's row-major index, the tiles of the bins with the most
// entries first (bins ranked in ORDER_STEPS steps of the fullest bin's count, in no set order
// within a step), so that the blend starts its longest tiles first instead of leaving them to its
// last wave. By one block, after the lists are placed; `fullest` is the most entries of a bin
// among those this thread placed.
__device__ __forceinline__ void order_tiles(const long long* bin_total, int bins, int bins_x, int tiles_x,
                                            int tiles_y, int tiles_per_bin, unsigned fullest, int* tile_order) {
    __shared__ unsigned most;
    __shared__ int step_start[ORDER_STEPS];
    const int t = threadIdx.x, lane = t & 31;
    if (t == 0) most = 0;
    if (t < ORDER_STEPS) step_start[t] = 0;
    __syncthreads();
    fullest = __reduce_max_sync(0xffffffffu, fullest);
    if (lane == 0) atomicMax(&most, fullest);
    __syncthreads();
    const float per_step = static_cast<float>(ORDER_STEPS) / (static_cast<float>(most) + 1.f);
    // A bin's tiles, cut at the image's edge: columns [x0, x1) and rows [y0, y1).
    auto tiles_of = [&](int b, int& x0, int& x1, int& y0, int& y1) {
        x0 = b % bins_x * tiles_per_bin;
        y0 = b / bins_x * tiles_per_bin;
        x1 = min(x0 + tiles_per_bin, tiles_x);
        y1 = min(y0 + tiles_per_bin, tiles_y);
        return max(x1 - x0, 0) * max(y1 - y0, 0);
    };
    int x0, x1, y0, y1;
    for (int b = t; b < bins; b += blockDim.x)
        atomicAdd(&step_start[order_step(__ldcg(bin_total + b), per_step)], tiles_of(b, x0, x1, y0, y1));
    __syncthreads();
    if (t < 32) {
        const int n = t < ORDER_STEPS ? step_start[t] : 0;
        const int before = warp_inclusive_sum(n, lane) - n;
        if (t < ORDER_STEPS) step_start[t] = before;
    }
    __syncthreads();
    for (int b = t; b < bins; b += blockDim.x) {
        const int n = tiles_of(b, x0, x1, y0, y1);
        int at = atomicAdd(&step_start[order_step(__ldcg(bin_total + b), per_step)], n);
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) tile_order[at++] = y * tiles_x + x;
    }
}

// A block per bin (at most SCAN_BLOCKS binning blocks): within[b * blocks + k] = the entries of
// bin b from binning blocks before k; bin_total[b] = all of bin b's entries. The last block to
// finish then places the lists, which saves the binning graph a launch: bin_start[b] = the entries
// of the bins before b (each list follows the lists before it); bin_start[bins] and *entries_seen
// (host memory, read by the host a frame later to grow the lists) = all entries. *finished counts
// the blocks done; the last one sets it back to 0 for the next binning. Given a tile_order (the
// blend's tiles, tiles_x x tiles_y, tiles_per_bin to a bin's side), it also writes order_tiles'.
extern "C" __global__ void __launch_bounds__(SCAN_BLOCKS)
    scan_bin_counts(const int* counts, int blocks, long long* within, long long* bin_total, long long* bin_start,
                    unsigned* finished, long long* entries_seen, int* tile_order, int tiles_x, int tiles_y,
                    int tiles_per_bin, int bins_x) {
    __shared__ long long warp_sums[33];
    __shared__ bool last;
    const int t = threadIdx.x, b = blockIdx.x, bins = gridDim.x;
    wait_for_previous_launch();  // the counts
    long long total;
    const long long before = block_exclusive_sum<SCAN_BLOCKS>(
        t < blocks ? static_cast<long long>(counts[b * blocks + t]) : 0ll, t, warp_sums, total);
    if (t < blocks) within[b * blocks + t] = before;
    if (t == 0) {
        bin_total[b] = total;
        __threadfence();  // this bin's total is visible before the block counts as finished
        last = atomicAdd(finished, 1u) == bins - 1;
    }
    __syncthreads();
    if (!last) return;
    // The emission's blocks may start once the other blocks have ended: they mark their first chunk
    // while this block places the lists.
    let_next_launch_start();
    if (t == 0) *finished = 0;
    long long carried = 0;
    unsigned fullest = 0;  // a bin lists each circle once at most: its entries fit 32 bits
    for (int base = 0; base < bins; base += SCAN_BLOCKS) {
        long long all;
        // __ldcg: other blocks' totals, read from L2 rather than this SM's L1
        const long long value = base + t < bins ? __ldcg(bin_total + base + t) : 0ll;
        fullest = max(fullest, static_cast<unsigned>(value));
        const long long placed = block_exclusive_sum<SCAN_BLOCKS>(value, t, warp_sums, all);
        if (base + t < bins) bin_start[base + t] = carried + placed;
        carried += all;
        __syncthreads();  // the next segment's sum writes warp_sums again
    }
    if (t == 0) bin_start[bins] = *entries_seen = carried;
    if (tile_order) order_tiles(bin_total, bins, bins_x, tiles_x, tiles_y, tiles_per_bin, fullest, tile_order);
}

// Threads a bin where the bins are sparse, each reading a quarter of the bin's mask words.
#define EMIT_LANES (CHUNK / MAX_BINS)
#define EMIT_WORDS (CHUNK_WORDS / EMIT_LANES)
static_assert(EMIT_LANES * EMIT_WORDS == CHUNK_WORDS && 32 % EMIT_LANES == 0 && EMIT_WORDS < 32,
              "a bin's threads share a warp, each a part of its words");

// A chunk's bins, in the shared memory of emit_bin_entries: bit (k % 32) of word (k / 32) of
// words[bin * CHUNK_WORDS ...] says that circle k touches the bin; bit w of filled[bin] that word w
// has a bit (kept only for sparse bins); running[bin] is the bin's next position in the lists.
struct ChunkBins {
    unsigned* words;
    unsigned* filled;
    long long* running;
};

// The entries of the chunk's circles in `word` (bit j: circle w * 32 + j), written from list
// position `at` on; returns the position after them.
__device__ __forceinline__ long long emit_word(unsigned word, int w, long long at, long long capacity,
                                               const float3* shapes, int first, BinEntry* lists) {
    for (; word; word &= word - 1, ++at) {
        const int k = w * 32 + __ffs(word) - 1;
        if (at < capacity) lists[at] = make_entry(shapes[k], first + k);
    }
    return at;
}

// A warp a bin, a word a lane: every word of every bin is read, and cleared for the next chunk.
__device__ __forceinline__ void emit_by_warps(ChunkBins bins, int local, int t, long long capacity,
                                              const float3* shapes, int first, BinEntry* lists) {
    const int lane = t & 31;
    for (int b = t >> 5; b < local; b += CHUNK / 32) {
        const unsigned word = bins.words[b * CHUNK_WORDS + lane];
        bins.words[b * CHUNK_WORDS + lane] = 0;
        const int n = __popc(word);
        const int inclusive = warp_inclusive_sum(n, lane);
        emit_word(word, lane, bins.running[b] + inclusive - n, capacity, shapes, first, lists);
        // Every lane has read running[b] once all reach this shuffle; only this warp touches bin b.
        const int total = __shfl_sync(0xffffffffu, inclusive, 31);
        if (lane == 0) bins.running[b] += total;
    }
}

// EMIT_LANES neighbouring threads a bin, each reading only the filled words of its share: they
// count their entries, then each writes its own after the shares before it.
__device__ __forceinline__ void emit_sparse(ChunkBins bins, int local, int t, long long capacity,
                                            const float3* shapes, int first, BinEntry* lists) {
    const int b = t / EMIT_LANES, share = t % EMIT_LANES;
    unsigned which = 0;
    if (b < local) which = bins.filled[b] & (((1u << EMIT_WORDS) - 1) << (share * EMIT_WORDS));
    int n = 0;
    for (unsigned rest = which; rest; rest &= rest - 1) n += __popc(bins.words[b * CHUNK_WORDS + __ffs(rest) - 1]);
    int inclusive = n;
    for (int offset = 1; offset < EMIT_LANES; offset <<= 1) {
        const int left = __shfl_up_sync(0xffffffffu, inclusive, offset, EMIT_LANES);
        if (share >= offset) inclusive += left;
    }
    const int total = __shfl_sync(0xffffffffu, inclusive, EMIT_LANES - 1, EMIT_LANES);
    long long at = b < local ? bins.running[b] + inclusive - n : 0;
    __syncwarp();  // every thread of the bin has read running[b] and filled[b]
    if (b < local && share == 0) {
        bins.running[b] += total;
        bins.filled[b] = 0;
    }
    // Each word is cleared as it is read, ready for the next chunk.
    for (; which; which &= which - 1) {
        const int w = __ffs(which) - 1;
        const unsigned word = bins.words[b * CHUNK_WORDS + w];
        bins.words[b * CHUNK_WORDS + w] = 0;
        at = emit_word(word, w, at, capacity, shapes, first, lists);
    }
}

// The block's entries in the bins of its group, in list order, from the same chunks as
// count_bin_entries (positions at or past `capacity` are dropped; the blend kernel then ignores
// the lists). Inside a chunk, each circle marks its bins (ChunkBins), and each bin's words are
// read in order: by a warp a bin, or (sparse != 0: scenes of a few entries a bin a chunk, whose
// words are mostly empty, so that a warp's pass over all of them would cost more than the entries)
// by EMIT_LANES threads a bin that read only the filled ones.
extern "C" __global__ void __launch_bounds__(CHUNK, BINNING_BLOCKS)
    emit_bin_entries(const float* position, const float* radius, int count, int width, int height,
                     int bin_shift, int bins_x, int bins, int chunks_per_block, int group,
                     const long long* within, const long long* bin_start, long long capacity, int sparse,
                     BinEntry* lists) {
    __shared__ unsigned words[MAX_BINS * CHUNK_WORDS];
    __shared__ unsigned filled[MAX_BINS];
    __shared__ long long running[MAX_BINS];
    __shared__ float3 shapes[CHUNK];  // the chunk's (x, y, r), for its entries
    const ChunkBins chunk_bins = {words, filled, running};
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const BinGroup g = group_bins(bins, bins_x, group, bin_shift);
    const int local = g.hi - g.lo;
    if (t < local) filled[t] = 0;
    for (int k = t; k < local * CHUNK_WORDS; k += CHUNK) words[k] = 0;
    __syncthreads();
    const unsigned bit = 1u << lane, warp_bit = 1u << warp;
    // The first chunk is marked while the scan may still run (a dependent launch). It reads the scene's
    // arrays, which no kernel still running writes: the scan's blocks let this one start only after
    // their wait for the count, an ordinary launch queued after the step that moves the circles.
    // The host launches a block for every chunks_per_block chunks, so no block breaks before its wait.
    for (int c = 0; c < chunks_per_block; ++c) {
        const int first = (blockIdx.x * chunks_per_block + c) * CHUNK;
        if (first >= count) break;
        if (first + t < count) {
            const float3 shape = make_float3(position[3 * (first + t)], position[3 * (first + t) + 1],
                                             radius[first + t]);
            shapes[t] = shape;
            for_each_bin(shape.x, shape.y, shape.z, width, height, g, [&](int bin) {
                atomicOr(&words[bin * CHUNK_WORDS + warp], bit);
                if (sparse) atomicOr(&filled[bin], warp_bit);
            });
        }
        // From here the scan's results are read. A bin's first entry from this block: after the lists
        // before it, and after the bin's entries from the blocks before this one.
        if (c == 0) {
            wait_for_previous_launch();
            if (t < local) running[t] = bin_start[g.lo + t] + within[(g.lo + t) * gridDim.x + blockIdx.x];
        }
        __syncthreads();
        if (sparse)
            emit_sparse(chunk_bins, local, t, capacity, shapes, first, lists);
        else
            emit_by_warps(chunk_bins, local, t, capacity, shapes, first, lists);
        __syncthreads();
    }
}

// ---- Blending -----------------------------------------------------------------------------

// What a warp needs of a staged circle: shape = (x, y, r, r * r); paint = (alpha * color, r * r)
// for flat circles, and (max alpha, radius_reciprocal(r), -, -) for snowflakes. A flat circle's
// r * r rides in its paint so that a 32-pixel tile's warp walk, whose row squares are in shared
// memory, reads one word of the shape for a tested hit (x) instead of all of it.
struct Staged {
    float4 shape;
    float4 paint;
};

// What circle i's paint is made from, read from the scene's arrays: its color, or a snowflake's
// depth (in x).
__device__ __forceinline__ float3 circle_look(const float* position, const float* color, int i) {
#if SNOWFLAKE
    return make_float3(position[3 * i + 2], 0.f, 0.f);
#else
    return make_float3(color[3 * i], color[3 * i + 1], color[3 * i + 2]);
#endif
}

// The paint of a circle whose circle_look is `look`.
__device__ __forceinline__ float4 circle_paint(float3 look) {
#if SNOWFLAKE
    return make_float4(snowflake_max_alpha(look.x), 0.f, 0.f, 0.f);
#else
    return make_float4(FLAT_ALPHA * look.x, FLAT_ALPHA * look.y, FLAT_ALPHA * look.z, 0.f);
#endif
}

// A tile's candidate: its (x, y, r) in shape.xyz and its index.
struct Candidate {
    float4 shape;
    int index;
};

// Candidate k of a tile: entry k of its bin list (`listed`), else circle k.
__device__ __forceinline__ Candidate load_candidate(bool listed, const BinEntry* list, long long k, const float* position,
                                                    const float* radius) {
    Candidate c;
    if (listed) {
        c.index = entry_circle(list[k], position, radius, c.shape);
    } else {
        c.index = static_cast<int>(k);
        c.shape = make_float4(position[3 * k], position[3 * k + 1], radius[k], 0.f);
    }
    return c;
}

// A region's pixel centers span [x_min, x_max] x [y_min, y_max].
struct Span {
    float x_min, x_max, y_min, y_max;
};

// True if every pixel center of the span passes the coverage test, in the test's own float
// arithmetic: rounding is monotonic, so no center's rounded distance exceeds the one computed
// from the farthest of the extreme centers along each axis.
__device__ __forceinline__ bool disc_covers_span(float x, float y, float r2, const Span& s) {
    const float left = s.x_min - x, right = s.x_max - x;
    const float bottom = s.y_min - y, top = s.y_max - y;
    return fmaxf(left * left, right * right) + fmaxf(bottom * bottom, top * top) <= r2;
}

// (py[k] - y)^2 for this thread's PIXELS rows, rounded as the reference's test rounds them: the
// part of a pixel's squared distance from a circle centered at height y that its column shares
// with the other columns of the warp's region.
__device__ __forceinline__ void row_squares(const float* py, float y, float* dy2) {
#pragma unroll
    for (int k = 0; k < PIXELS; ++k) {
        const float dy = py[k] - y;
        dy2[k] = dy * dy;
    }
}

#if SNOWFLAKE
// One staged snowflake (shape, paint) over this thread's column of pixels, dy2 its rows'
// row_squares.
__device__ __forceinline__ void blend_tested(const float4& shape, const float4& paint, float px, const float* dy2,
                                             float4* pixel) {
    const float dx = px - shape.x;
    const float dx2 = dx * dx;
#pragma unroll
    for (int k = 0; k < PIXELS; ++k) {
        const float dist2 = dx2 + dy2[k];
        if (dist2 <= shape.w) {
            float red, green, blue, alpha;
            // The same in the whole warp: a staged circle's reciprocal.
            const float t = paint.y != 0.f ? divide_by_reciprocal(sqrtf(dist2), shape.z, paint.y)
                                           : sqrtf(dist2) / shape.z;
            snowflake_paint_at(t, paint.x, red, green, blue, alpha);
            over(pixel[k], alpha, red, green, blue);
        }
    }
}
#else
__device__ __forceinline__ void over_flat(float4& pixel, const float4& paint) {
#if FUSED
    over_half_fused(pixel, paint.x, paint.y, paint.z);
#else
    over_premultiplied(pixel, FLAT_ALPHA, 1.f - FLAT_ALPHA, paint.x, paint.y, paint.z);
#endif
}

// A staged flat circle's paint over the color channels of every pixel of this thread's column: for
// a circle that covers the warp's whole region, which skips the per-pixel test. Its alpha step is
// left to take_alpha_steps, so that a warp takes its covering circles' steps at once.
__device__ __forceinline__ void blend_covered(const float4& paint, float4* pixel) {
#pragma unroll
    for (int k = 0; k < PIXELS; ++k) {
        const float alpha = pixel[k].w;
        over_flat(pixel[k], paint);
        pixel[k].w = alpha;
    }
}

// The n alpha steps that covering circles left (blend_covered) taken on this thread's pixels; n is
// the same in the whole warp. Every flat blend's alpha step is the same function, w -> FLAT_ALPHA +
// w rounded, whatever the circle, so steps taken later give the same w as steps taken in order. They
// are taken in one addition where every one is exact for the warp's pixels (FLAT_ALPHA is 1/2, and
// a multiple of 1/2 under 2^23 in magnitude is a float), else one at a time.
__device__ __forceinline__ void take_alpha_steps(float4* pixel, int n) {
    if (n == 0) return;  // w + 0 would turn -0 into +0
    bool exact = n <= 4194304;
#pragma unroll
    for (int k = 0; k < PIXELS; ++k)
        exact = exact && fabsf(pixel[k].w) <= 4194304.f && 2.f * pixel[k].w == rintf(2.f * pixel[k].w);
    if (__all_sync(0xffffffffu, exact)) {
#pragma unroll
        for (int k = 0; k < PIXELS; ++k) pixel[k].w += FLAT_ALPHA * static_cast<float>(n);
        return;
    }
    for (int i = 0; i < n; ++i)
#pragma unroll
        for (int k = 0; k < PIXELS; ++k) pixel[k].w = FLAT_ALPHA + pixel[k].w;
}

// One staged flat circle (shape, of which x alone is read, and paint) over the pixels of this
// thread's column it covers, dy2 their rows' row_squares.
__device__ __forceinline__ void blend_tested(const float4& shape, const float4& paint, float px, const float* dy2,
                                             float4* pixel) {
    const float dx = px - shape.x;
    const float dx2 = dx * dx;
#pragma unroll
    for (int k = 0; k < PIXELS; ++k)
        if (dx2 + dy2[k] <= paint.w) over_flat(pixel[k], paint);
}
#endif

// A float4 at shared address `at`, read into registers here, on every path: left to itself the
// compiler sinks a staged circle's loads into each pixel's conditional blend, where their latency
// is exposed once per pixel.
__device__ __forceinline__ float4 load_now(unsigned at) {
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(at));
    return v;
}

// The number of leading zero bits of a nonzero word in one instruction (__clz takes two, as it
// must also handle 0).
__device__ __forceinline__ int leading_zeros(unsigned word) {
    int n;
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(n) : "r"(word));
    return n;
}

// A 32-pixel tile's warps keep their rows in shared memory (WarpRows below); a 64-pixel tile's
// would take its static shared memory past 48 KB, so they keep them in registers.
#define SHARED_ROW_SQUARES (TILE == 32)

#if SHARED_ROW_SQUARES
// A lane's rows come in float4s: ROW_QUADS of them.
#define ROW_QUADS (PIXELS / 4)
static_assert(PIXELS % 4 == 0, "a lane's rows are whole float4s");

// A warp's rows in shared memory, ROW_QUADS float4s per slot and row group: slots 0-31 the
// row_squares of the 32 circles of the group being walked, then the row group's pixel centers,
// the warp's region and its span (in the first float4; a copy per row group, so that each slot
// lies at one offset from a lane's slot 0).
enum DeskSlot { DESK_PY = 32, DESK_REGION, DESK_SPAN, DESK_SLOTS };
struct WarpDesk {
    float4 slots[DESK_SLOTS][ROW_GROUPS][ROW_QUADS];
};

// What a warp's walk knows of its pixel rows, kept in its WarpDesk: the row squares of a group of
// circles, computed once for the warp instead of once per column, and the rows' centers, region
// and span, read once per group. Kept in registers, these would push the walk past its registers.
struct WarpRows {
    unsigned at;  // the shared address of this lane's squares of a group's circle 0

    // The rows of this lane's warp, whose desk is `desk`. Lanes of a row group's first column
    // write their group's part; a barrier must follow before the walk.
    __device__ WarpRows(WarpDesk* desk, int lane, const float* py, const Box& region, const Span& span) {
        const int group = lane / REGION_W;
        at = static_cast<unsigned>(__cvta_generic_to_shared(&desk->slots[0][group][0]));
        // Pinned in a register: left to itself the compiler recomputes it from the thread index for
        // each group of circles.
        asm volatile("mov.u32 %0, %0;" : "+r"(at));
        if (lane % REGION_W == 0) {
#pragma unroll
            for (int q = 0; q < ROW_QUADS; ++q)
                desk->slots[DESK_PY][group][q] = make_float4(py[4 * q], py[4 * q + 1], py[4 * q + 2], py[4 * q + 3]);
            desk->slots[DESK_REGION][group][0] = make_float4(region.left, region.right, region.bottom, region.top);
            desk->slots[DESK_SPAN][group][0] = make_float4(span.x_min, span.x_max, span.y_min, span.y_max);
        }
    }
    // The shared address of this lane's row group's float4 in slot s.
    __device__ unsigned slot(int s) const {
        return at + s * static_cast<unsigned>(ROW_GROUPS * ROW_QUADS * sizeof(float4));
    }
    __device__ Box region() const {
        const float4 b = load_now(slot(DESK_REGION));
        return {b.x, b.y, b.z, b.w};
    }
    __device__ Span span() const {
        const float4 b = load_now(slot(DESK_SPAN));
        return {b.x, b.y, b.z, b.w};
    }
    // Squares the rows of every row group for the group's 32 circles, from y (lane j: circle j's
    // center's height). Lane j of a pass takes circle j % REGION_W of the pass and its own group's
    // rows.
    __device__ void square(float y, int lane) const {
        float py[PIXELS];
#pragma unroll
        for (int q = 0; q < ROW_QUADS; ++q) {
            const float4 centers = load_now(slot(DESK_PY) + q * sizeof(float4));
            py[4 * q] = centers.x, py[4 * q + 1] = centers.y, py[4 * q + 2] = centers.z, py[4 * q + 3] = centers.w;
        }
        float* squares = static_cast<float*>(__cvta_shared_to_generic(at));
#pragma unroll
        for (int pass = 0; pass < ROW_GROUPS; ++pass) {
            const int circle = pass * REGION_W + lane % REGION_W;
            float dy2[PIXELS];
            row_squares(py, __shfl_sync(0xffffffffu, y, circle), dy2);
#pragma unroll
            for (int q = 0; q < ROW_QUADS; ++q)
                reinterpret_cast<float4*>(squares)[circle * ROW_GROUPS * ROW_QUADS + q] =
                    make_float4(dy2[4 * q], dy2[4 * q + 1], dy2[4 * q + 2], dy2[4 * q + 3]);
        }
        __syncwarp();
    }
    // What blend_tested reads of the shape of the staged circle at shared address `circle`: all
    // of it for a snowflake, a flat circle's x alone (one 4-byte load).
    __device__ float4 tested_shape(unsigned circle) const {
#if SNOWFLAKE
        return load_now(circle);
#else
        float x;
        asm volatile("ld.shared.f32 %0, [%1];" : "=f"(x) : "r"(circle));
        return make_float4(x, 0.f, 0.f, 0.f);
#endif
    }
    // The row squares of circle j of the group (whose tested_shape is unused here).
    __device__ void squares_of(int j, const float4&, float* dy2) const {
#pragma unroll
        for (int q = 0; q < ROW_QUADS; ++q) {
            const float4 four = load_now(slot(j) + q * sizeof(float4));
            dy2[4 * q] = four.x, dy2[4 * q + 1] = four.y, dy2[4 * q + 2] = four.z, dy2[4 * q + 3] = four.w;
        }
    }
};
#else
struct WarpDesk {};  // nothing: the rows stay in registers

// What a warp's walk knows of its pixel rows, in registers: it squares a circle's rows at each
// hit.
struct WarpRows {
    float py[PIXELS];
    Box region_;
    Span span_;

    __device__ WarpRows(WarpDesk*, int, const float* centers, const Box& region, const Span& span)
        : region_(region), span_(span) {
#pragma unroll
        for (int k = 0; k < PIXELS; ++k) py[k] = centers[k];
    }
    __device__ Box region() const { return region_; }
    __device__ Span span() const { return span_; }
    __device__ void square(float, int) const {}
    __device__ float4 tested_shape(unsigned circle) const { return load_now(circle); }
    __device__ void squares_of(int, const float4& shape, float* dy2) const { row_squares(py, shape.y, dy2); }
};
#endif

// The hits of a group of 32 staged circles (at shared address `batch`), in order, over this
// thread's column of pixels: `rest` has bit 31 - j for each circle j that touches the warp's
// region, `covering` for each that covers it whole (read only with kCovering). A tested hit's
// shape and squares are loaded after its paint, and where no hit of the group covers the region
// (kCovering false), right after it, so that their latencies overlap. Loading them before the
// covering branch for every hit, covering hits that need only their paint among them, measured
// slower on scenes of many covering hits. `steps` counts the covering hits, whose alpha steps are
// left to take_alpha_steps: one by one, as a count of the group's ballot bits made the compiler
// lengthen the chain of uniform instructions before every group's walk, which measured slower.
template <bool kCovering>
__device__ __forceinline__ void walk_hits(unsigned batch, unsigned rest, unsigned covering, const WarpRows& rows,
                                          float px, float4* pixel, int& steps) {
    while (rest) {
        const int j = leading_zeros(rest);
        const unsigned lane_bit = 0x80000000u >> j;
        rest ^= lane_bit;
        const unsigned at = batch + j * static_cast<unsigned>(sizeof(Staged));
        const float4 paint = load_now(at + sizeof(float4));
#if !SNOWFLAKE
        if (kCovering && (covering & lane_bit)) {
            blend_covered(paint, pixel);
            ++steps;
            continue;
        }
#endif
        const float4 shape = rows.tested_shape(at);
        float dy2[PIXELS];
        rows.squares_of(j, shape, dy2);
        blend_tested(shape, paint, px, dy2, pixel);
    }
}

// The staged circles [0, staged), in order, over this thread's column of pixels. Each warp tests
// 32 circles at a time against its region and walks the ones that touch it. The circles that cover
// the region leave their alpha steps to the caller: `steps` counts them (the same in the warp).
__device__ __forceinline__ void blend_staged(const Staged* circles, int staged, int lane, const WarpRows& rows,
                                             float px, float4* pixel, WarpTally& tally, int& steps) {
    for (int group = 0; group < staged; group += 32) {
        bool touches = false, covers = false;
        float y = 0.f;
        const Box region = rows.region();
        const Span span = rows.span();
        if (group + lane < staged) {
            const Staged& c = circles[group + lane];
            touches = disc_in_box_exact(c.shape.x, c.shape.y, c.shape.z, region);
            covers = !SNOWFLAKE && disc_covers_span(c.shape.x, c.shape.y, c.shape.w, span);
            y = c.shape.y;
        }
        const unsigned covers_ballot = __ballot_sync(0xffffffffu, covers);
        const unsigned touching = __ballot_sync(0xffffffffu, touches);
        // Only circles that touch the region without covering it are tested pixel by pixel.
        if (touching & ~covers_ballot) rows.square(y, lane);
        const unsigned batch = static_cast<unsigned>(__cvta_generic_to_shared(circles + group));
        tally.add(min(32, staged - group), touching);
        // Ballots reversed, so that lane j is bit 31 - j: finding the next lane is one instruction.
        // Two walks in 32-pixel tiles, so that a group of tested hits alone loads each hit's operands
        // at once; 64-pixel tiles, whose squares are made at each hit, keep the single walk they
        // were measured with.
        if (!SNOWFLAKE && (!SHARED_ROW_SQUARES || (touching & covers_ballot)))
            walk_hits<true>(batch, __brev(touching), __brev(covers_ballot), rows, px, pixel, steps);
        else
            walk_hits<false>(batch, __brev(touching), 0u, rows, px, pixel, steps);
        __syncwarp();  // every lane has read the group's squares (in a desk) before the next group's are written
    }
}

#if CELLS
// With cell lists, a tile is 8 x 8 cells of CELL_W x PIXELS pixels, each the pixels of CELL_W
// neighbouring lanes of one warp. Before a batch is blended, every staged circle marks the cells
// its disc may cover in a bit list per cell (bit 31 - s % 32 of word s / 32 for staged circle s,
// so that the walk finds the next circle in index order with one instruction), and each lane then
// walks its own cell's list: a circle a few pixels wide costs the lanes of the cells it reaches,
// not a pass of the whole warp over every pixel of the region it touches.
#define CELL_W (TILE / 8)
#define CELL_H PIXELS
#define CELLS_X (TILE / CELL_W)
#define CELLS_Y (TILE / CELL_H)
#define BATCH_WORDS (2 * THREADS / 32)
static_assert(REGION_W % CELL_W == 0 && CELLS_Y * CELL_H == TILE, "cells must tile the warps' regions");
static_assert(BATCH_WORDS <= 32, "a cell's filled words fit one word");

// Marks staged circle s (c) in the list of every cell of the tile at (tile_x, tile_y) (its first
// pixel) holding a pixel center the disc may cover, and the list's word in the cell's `filled` word
// (bit 31 - s / 32), so that the walk skips a list's empty words in one step. A cell row at a time,
// the disc's reach across the row is taken from the row's pixel center nearest the circle's center,
// with a margin on the squared radius and a pixel on each side, so that rounding never drops a
// covered pixel; the reference's own pixel box bounds it.
__device__ __forceinline__ void mark_cells(const Staged& c, int s, int tile_x, int tile_y, int width, int height,
                                           unsigned* cells, unsigned* filled) {
    int x0, x1, y0, y1;
    pixel_span(c.shape.x, c.shape.z, width, x0, x1);
    pixel_span(c.shape.y, c.shape.z, height, y0, y1);
    x0 = max(x0 - tile_x, 0);
    x1 = min(x1 - tile_x, TILE);
    y0 = max(y0 - tile_y, 0);
    y1 = min(y1 - tile_y, TILE);
    if (x0 >= x1 || y0 >= y1) return;
    const float w = static_cast<float>(width), inv_h = 1.f / static_cast<float>(height);
    const unsigned bit = 0x80000000u >> (s & 31), word_bit = 0x80000000u >> (s / 32);
    unsigned* word = cells + s / 32;
    for (int row = y0 / CELL_H; row <= (y1 - 1) / CELL_H; ++row) {
        const float bottom = pixel_center(tile_y + row * CELL_H, inv_h);
        const float top = pixel_center(tile_y + row * CELL_H + CELL_H - 1, inv_h);
        const float dy = fminf(fmaxf(c.shape.y, bottom), top) - c.shape.y;
        const float reach2 = c.shape.w * 1.0001f - dy * dy;
        if (reach2 < 0.f) continue;
        // A reach past float32's range (inf, or NaN where both squares overflow, as they do in the
        // reference's test, which then covers every pixel of its box) takes the row's whole span.
        int first = x0, last = x1 - 1;
        if (reach2 <= 3.402823466e38f) {
            const float reach = sqrtf(reach2);
            // Clamped before the int conversion, which is then defined.
            const float lo = fminf(fmaxf((c.shape.x - reach) * w, -2.f), w + 2.f);
            const float hi = fminf(fmaxf((c.shape.x + reach) * w, -2.f), w + 2.f);
            first = max(static_cast<int>(floorf(lo)) - 1 - tile_x, x0);
            last = min(static_cast<int>(floorf(hi)) + 1 - tile_x, x1 - 1);
        }
        for (int cell = row * CELLS_X + first / CELL_W; cell <= row * CELLS_X + last / CELL_W && first <= last; ++cell) {
            atomicOr(word + cell * BATCH_WORDS, bit);
            atomicOr(filled + cell, word_bit);
        }
    }
}

// The staged circles of this thread's cell list, in order, over its column of pixels; `filled`
// says which of the list's words hold any.
__device__ __forceinline__ void blend_cell(const Staged* circles, const unsigned* list, unsigned filled, float px,
                                           const float* py, float4* pixel) {
    const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(circles));
    int w = 0;
    unsigned word = 0;
    for (;;) {
        if (word == 0) {
            if (filled == 0) return;
            w = leading_zeros(filled);
            filled ^= 0x80000000u >> w;
            word = list[w];
        }
        const int j = leading_zeros(word);
        word ^= 0x80000000u >> j;
        const unsigned at = base + (w * 32 + j) * static_cast<unsigned>(sizeof(Staged));
        const Staged c = {load_now(at), load_now(at + sizeof(float4))};
        float dy2[PIXELS];
        row_squares(py, c.shape.y, dy2);
        blend_tested(c.shape, c.paint, px, dy2, pixel);
    }
}
#endif

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    render_tile_warp(const float* position, const float* radius, const float* color, float4* image,
                     int width, int height, int count, int clear, int snow, float red, float green,
                     float blue, const BinEntry* lists, const long long* bin_start, long long capacity,
                     int use_bins, int tiles_per_bin, int bins_x, int bins, const int* tile_order) {
    // A block blends the tile tile_order names, in the builds that take an order (TAKES_TILE_ORDER):
    // an SM issues for its oldest blocks first, so the tiles launched last end last, and fullest first
    // those are the light ones. The other builds keep blockIdx's tile, which the compiler recomputes
    // where it needs it instead of holding a tile read from memory in a register.
#if TAKES_TILE_ORDER
    const int tile_index = tile_order ? tile_order[linear_block()] : linear_block();
    const int tile_x = tile_index % gridDim.x, tile_y = tile_index / gridDim.x;
#else
    const int tile_index = linear_block(), tile_x = blockIdx.x, tile_y = blockIdx.y;
#endif
    CLOCK_THIS_TILE(tile_index);
    __shared__ Staged circles[2 * THREADS];
    __shared__ int scratch[65];
#if !CELLS
    __shared__ WarpDesk desks[THREADS / 32];
#endif
#if CELLS
    // The cells' lists, then each cell's word of filled words.
    __shared__ unsigned cell_lists[CELLS_X * CELLS_Y * (BATCH_WORDS + 1)];
    unsigned* const filled = cell_lists + CELLS_X * CELLS_Y * BATCH_WORDS;
    for (int k = threadIdx.x; k < CELLS_X * CELLS_Y * (BATCH_WORDS + 1); k += THREADS) cell_lists[k] = 0;
#endif
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int region_x0 = tile_x * TILE + (warp % WARPS_X) * REGION_W;
    const int region_y0 = tile_y * TILE + (warp / WARPS_X) * REGION_H;
    const int x = region_x0 + lane % REGION_W;
    const int y0 = region_y0 + lane / REGION_W * PIXELS;
    const float px = pixel_center(x, 1.f / static_cast<float>(width));
    float py[PIXELS];
    float4 pixel[PIXELS];
#pragma unroll
    for (int k = 0; k < PIXELS; ++k) {
        py[k] = pixel_center(y0 + k, 1.f / static_cast<float>(height));
        pixel[k] = x < width && y0 + k < height
                       ? start_pixel(image, x, y0 + k, width, height, clear, snow, red, green, blue)
                       : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    const Box tile = tile_box(tile_x, tile_y, TILE, width, height);
    const Box region = pixel_box(region_x0, region_y0, REGION_W, REGION_H, width, height);
    const float inv_w = 1.f / static_cast<float>(width), inv_h = 1.f / static_cast<float>(height);
    const Span span = {pixel_center(region_x0, inv_w), pixel_center(region_x0 + REGION_W - 1, inv_w),
                       pixel_center(region_y0, inv_h), pixel_center(region_y0 + REGION_H - 1, inv_h)};
#if !CELLS
    const WarpRows rows(&desks[warp], lane, py, region, span);  // the barrier before each blend follows
#endif

    // Overflowed lists (more entries than capacity) are ignored: every circle is a candidate.
    const bool listed = use_bins && bin_start[bins] <= capacity;
    long long begin = 0, candidates = count;
    if (listed) {
        const int bin = (tile_y / tiles_per_bin) * bins_x + tile_x / tiles_per_bin;
        begin = bin_start[bin];
        candidates = bin_start[bin + 1] - begin;
    }
    int staged = 0;  // the same in every thread
#if !CELLS
    int steps = 0;  // the alpha steps of the covering circles walked, not yet taken (the same in a warp)
#endif
    WarpTally tally;
    // Each round's candidate is loaded a round ahead, so that its latency overlaps the round before.
    Candidate ahead = {};
    if (t < candidates) ahead = load_candidate(listed, lists + begin, t, position, radius);
    for (long long first = 0; first < candidates; first += THREADS) {
        const Candidate now = ahead;
        if (first + THREADS + t < candidates)
            ahead = load_candidate(listed, lists + begin, first + THREADS + t, position, radius);
        int hit = 0;
        Staged c;
        float3 look;
        if (first + t < candidates) {
            c.shape = now.shape;
            c.shape.w = c.shape.z * c.shape.z;
            hit = disc_in_box_exact(c.shape.x, c.shape.y, c.shape.z, tile);
            if (hit) look = circle_look(position, color, now.index);
            if (hit && SNOWFLAKE) {
                c.paint = circle_paint(look);
                c.paint.y = radius_reciprocal(c.shape.z);
            }
        }
        int total;
        // A flat circle's paint is made after the scan's barriers, so that its color's load overlaps
        // the block's wait there; a snowflake's at once, which measured faster for snowflakes.
        const int slot = scan_warp_ballot<THREADS>(hit, t, scratch, total);
        if (hit) {
            if (!SNOWFLAKE) {
                c.paint = circle_paint(look);
                c.paint.w = c.shape.w;
            }
            circles[staged + slot] = c;
        }
        staged += total;
        // Blend in batches of at least THREADS circles, so sparse tiles do not pay a pass per chunk.
        if (staged >= THREADS || first + THREADS >= candidates) {
            __syncthreads();
#if CELLS
            for (int s = t; s < staged; s += THREADS)
                mark_cells(circles[s], s, tile_x * TILE, tile_y * TILE, width, height, cell_lists, filled);
            __syncthreads();
            const int cell = (y0 - tile_y * TILE) / CELL_H * CELLS_X + (x - tile_x * TILE) / CELL_W;
            blend_cell(circles, cell_lists + cell * BATCH_WORDS, filled[cell], px, py, pixel);
            __syncthreads();
            // Cleared for the next batch, whose marks follow the next barrier.
            for (int k = t; k < CELLS_X * CELLS_Y * (BATCH_WORDS + 1); k += THREADS) cell_lists[k] = 0;
#else
            blend_staged(circles, staged, lane, rows, px, pixel, tally, steps);
            __syncthreads();
#endif
            staged = 0;
        }
    }
#if !SNOWFLAKE && !CELLS
    take_alpha_steps(pixel, steps);
#endif
#pragma unroll
    for (int k = 0; k < PIXELS; ++k)
        if (x < width && y0 + k < height) image[(y0 + k) * width + x] = pixel[k];
    tally.write(tile_index, warp, THREADS / 32, lane);
}
