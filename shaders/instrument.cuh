// What the measuring overlays read from inside a blend kernel, in a build made only for them:
// -DBLOCK_CYCLES=1 clocks each block (the cycles overlay), -DWARP_SKIP=1 counts what each warp of
// tile-warp tests and blends (the warp-skip overlay). Without those defines all of it compiles to
// nothing, so the builds that render and are timed are the code they were without it.
#pragma once

#ifndef BLOCK_CYCLES
#define BLOCK_CYCLES 0
#endif
#ifndef WARP_SKIP
#define WARP_SKIP 0
#endif

__device__ __forceinline__ int linear_block() { return blockIdx.y * gridDim.x + blockIdx.x; }

#if BLOCK_CYCLES
// Two per block of the launch, set by the host through the module's global before it launches:
// the earliest SM clock a thread of the block started at (filled with all ones first) and the
// latest one a thread ended at (zeros first). A block runs on one SM, so its clocks compare.
__device__ unsigned long long* block_clocks;

// One per thread for the kernel's whole body: the destructor runs on every return, early or not.
// Its slot is its block's, or where blocks take their tiles from an order, its tile's.
struct BlockClock {
    int slot;
    __device__ explicit BlockClock(int slot) : slot(slot) { atomicMin(block_clocks + 2 * slot, now()); }
    __device__ ~BlockClock() { atomicMax(block_clocks + 2 * slot + 1, now()); }
    __device__ static unsigned long long now() { return static_cast<unsigned long long>(clock64()); }
};
#define CLOCK_THIS_BLOCK BlockClock block_clock(linear_block())
#define CLOCK_THIS_TILE(tile) BlockClock block_clock(tile)
#else
#define CLOCK_THIS_BLOCK
#define CLOCK_THIS_TILE(tile)
#endif

// A warp's tally of the circles it tested against its region and of those that touched it.
#if WARP_SKIP
// Two per warp of the launch, written once by lane 0 at the end: tested, then touched.
__device__ unsigned long long* warp_tallies;

struct WarpTally {
    unsigned long long tested = 0, touched = 0;
    __device__ void add(int group_tested, unsigned touching) {
        tested += group_tested;
        touched += __popc(touching);
    }
    __device__ void write(int tile, int warp, int warps_per_block, int lane) const {
        if (lane != 0) return;
        unsigned long long* at = warp_tallies + 2 * (tile * warps_per_block + warp);
        at[0] = tested;
        at[1] = touched;
    }
};
#else
struct WarpTally {
    __device__ void add(int, unsigned) {}
    __device__ void write(int, int, int, int) const {}
};
#endif
