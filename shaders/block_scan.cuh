// Block-wide exclusive scans of 0/1 flags, one per thread, over BLOCK threads (a power of two,
// <= 1024), with linear thread index t. Each returns the thread's exclusive prefix and writes the
// block's total. `scratch` is shared memory of at least 2 * BLOCK + 1 ints. Every thread of the
// block must call; the caller must __syncthreads() before the next call reuses scratch.
#pragma once

#define SCAN_HILLIS_STEELE 0
#define SCAN_BLELLOCH 1
#define SCAN_WARP 2

// The inclusive sum of `value` over lanes 0..lane of a full warp, by shuffles.
template <typename T>
__device__ __forceinline__ T warp_inclusive_sum(T value, int lane) {
    for (int offset = 1; offset < 32; offset <<= 1) {
        const T left = __shfl_up_sync(0xffffffffu, value, offset);
        if (lane >= offset) value += left;
    }
    return value;
}

// log2(BLOCK) steps of "add the value `offset` to the left", double-buffered: O(n log n) adds.
template <int BLOCK>
__device__ __forceinline__ int scan_hillis_steele(int flag, int t, int* scratch, int& total) {
    int read = 0;
    scratch[t] = flag;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        int value = scratch[read * BLOCK + t];
        if (t >= offset) value += scratch[read * BLOCK + t - offset];
        read ^= 1;
        scratch[read * BLOCK + t] = value;
        __syncthreads();
    }
    total = scratch[read * BLOCK + BLOCK - 1];
    return scratch[read * BLOCK + t] - flag;
}

// Up-sweep builds partial sums in a tree, down-sweep pushes prefixes back down: O(n) adds.
template <int BLOCK>
__device__ __forceinline__ int scan_blelloch(int flag, int t, int* scratch, int& total) {
    scratch[t] = flag;
    __syncthreads();
    for (int stride = 1; stride < BLOCK; stride <<= 1) {
        const int i = (t + 1) * 2 * stride - 1;
        if (i < BLOCK) scratch[i] += scratch[i - stride];
        __syncthreads();
    }
    if (t == 0) {
        scratch[BLOCK] = scratch[BLOCK - 1];
        scratch[BLOCK - 1] = 0;
    }
    __syncthreads();
    for (int stride = BLOCK / 2; stride >= 1; stride >>= 1) {
        const int i = (t + 1) * 2 * stride - 1;
        if (i < BLOCK) {
            const int left = scratch[i - stride];
            scratch[i - stride] = scratch[i];
            scratch[i] += left;
        }
        __syncthreads();
    }
    total = scratch[BLOCK];
    return scratch[t];
}

// A ballot gives each warp its flags as a bit mask; popcounts give the in-warp prefix, and the
// first warp scans the per-warp counts with shuffles. Two barriers in all; it uses only the
// first 65 ints of scratch.
template <int BLOCK>
__device__ __forceinline__ int scan_warp_ballot(int flag, int t, int* scratch, int& total) {
    constexpr int kWarps = BLOCK / 32;
    const int lane = t & 31;
    const int warp = t >> 5;
    const unsigned mask = __ballot_sync(0xffffffffu, flag);
    const int in_warp = __popc(mask & ((1u << lane) - 1u));
    if (lane == 0) scratch[warp] = __popc(mask);
    __syncthreads();
    if (warp == 0) {
        const int count = lane < kWarps ? scratch[lane] : 0;
        const int inclusive = warp_inclusive_sum(count, lane);
        scratch[32 + lane] = inclusive - count;
        if (lane == 31) scratch[64] = inclusive;
    }
    __syncthreads();
    total = scratch[64];
    return scratch[32 + warp] + in_warp;
}

template <int BLOCK, int ALGORITHM>
__device__ __forceinline__ int block_exclusive_scan(int flag, int t, int* scratch, int& total) {
    static_assert(BLOCK >= 64 && (BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two >= 64");
    if (ALGORITHM == SCAN_HILLIS_STEELE) return scan_hillis_steele<BLOCK>(flag, t, scratch, total);
    if (ALGORITHM == SCAN_BLELLOCH) return scan_blelloch<BLOCK>(flag, t, scratch, total);
    return scan_warp_ballot<BLOCK>(flag, t, scratch, total);
}

// Block-wide exclusive sum of one value per thread (any values, not just flags): shuffles within
// each warp, then the first warp scans the warp totals. `warp_sums` is shared memory of at least
// 33 values; every thread must call; the caller must __syncthreads() before reusing warp_sums.
template <int BLOCK, typename T>
__device__ __forceinline__ T block_exclusive_sum(T value, int t, T* warp_sums, T& total) {
    constexpr int kWarps = BLOCK / 32;
    const int lane = t & 31;
    const int warp = t >> 5;
    const T inclusive = warp_inclusive_sum(value, lane);
    if (lane == 31) warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const T sum = lane < kWarps ? warp_sums[lane] : T(0);
        const T before = warp_inclusive_sum(sum, lane);
        if (lane < kWarps) warp_sums[lane] = before - sum;
        if (lane == 31) warp_sums[32] = before;
    }
    __syncthreads();
    total = warp_sums[32];
    return warp_sums[warp] + inclusive - value;
}
