// Onesweep (Adinets & Merrill, 2022): a least-significant-digit radix sort of KEY_T keys with 8-bit
// digits, as many passes as the keys have bits, and one kernel per pass.
//
// onesweep_histogram  reads the keys once and counts every pass's digits (per block in shared
//                     memory, then into the global counts);
// onesweep_offsets    turns each pass's counts into the exclusive offsets where its digits start;
// onesweep_pass       a block per partition of ONESWEEP_ITEMS * ONESWEEP_THREADS keys (numbered in
//                     the order blocks start, by a ticket): each warp ranks its keys by digit
//                     (__match_any_sync groups a round's lanes of one digit; a warp's counters in
//                     shared memory carry the rank over rounds), the block publishes how many keys
//                     of each digit it has, and finds how many keys of each digit the partitions
//                     before it hold by a chained scan with decoupled look-back; the keys are then
//                     placed in shared memory in digit order and written to consecutive addresses.
//
// The look-back's status table is a ring of `slots` partitions (ONESWEEP_RING, fewer for fewer
// partitions; see the circle constants), so its memory does not grow with the number of keys. A word per (slot,
// digit): flag (2 bits: aggregate or inclusive prefix), the partition's number + 1 (30 bits) and
// a count (32 bits). A look-back goes at most ONESWEEP_MAX_LOOK_BACK partitions back: there it
// waits for an inclusive prefix. The tail counts the partitions that are finished, in groups of
// ONESWEEP_TAIL_GROUP: a group's partitions add themselves in any order, once every earlier group
// has (one wait per group, not per partition, keeps the tail from becoming a chain of waits). A
// partition writes a slot only once the tail has passed every partition that may still read the
// slot's previous owner, so a look-back never finds its word overwritten.
//
// Stable: within a partition keys are ranked in index order (warp, round, lane), and partitions
// in their order. Build with -DKEY_T=unsigned int|unsigned long long.
#include "block_scan.cuh"

#if !defined(ONESWEEP_THREADS) || !defined(ONESWEEP_ITEMS) || !defined(ONESWEEP_RING) || \
    !defined(ONESWEEP_MAX_LOOK_BACK) || !defined(ONESWEEP_TAIL_GROUP)
#error "build through render.circles.constants.load_circle_module, which defines the shared constants"
#endif

#define RADIX 256
#define WARPS (ONESWEEP_THREADS / 32)
#define PARTITION (ONESWEEP_THREADS * ONESWEEP_ITEMS)
#define MAX_PASSES ((int)sizeof(KEY_T))

#define FLAG_AGGREGATE 1ULL
#define FLAG_INCLUSIVE 2ULL

static_assert(ONESWEEP_THREADS == RADIX, "a thread per digit publishes and looks back");
static_assert((ONESWEEP_TAIL_GROUP & (ONESWEEP_TAIL_GROUP - 1)) == 0, "the tail's group is a power of two");
// A partition that waits for a slot then waits only for earlier partitions (no deadlock).
static_assert(ONESWEEP_RING >= ONESWEEP_MAX_LOOK_BACK + ONESWEEP_TAIL_GROUP, "a ring too small for the look-back");

__device__ __forceinline__ unsigned long long status_word(unsigned long long flag, int partition, unsigned count) {
    return (flag << 62) | ((unsigned long long)(partition + 1) << 32) | count;
}

__device__ __forceinline__ int digit_of(KEY_T key, int shift) {
    return (int)((key >> shift) & (RADIX - 1));
}

// Every pass's digit counts: `counts` holds passes * RADIX zeroed counters.
extern "C" __global__ void __launch_bounds__(ONESWEEP_THREADS)
    onesweep_histogram(const KEY_T* keys, long long count, int passes, unsigned* counts) {
    __shared__ unsigned local[MAX_PASSES * RADIX];
    for (int i = threadIdx.x; i < passes * RADIX; i += blockDim.x) local[i] = 0;
    __syncthreads();
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        const KEY_T key = keys[i];
        for (int pass = 0; pass < passes; ++pass) atomicAdd(&local[pass * RADIX + digit_of(key, 8 * pass)], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < passes * RADIX; i += blockDim.x)
        if (local[i]) atomicAdd(&counts[i], local[i]);
}

// A block per pass: its RADIX counts become exclusive offsets, in place.
extern "C" __global__ void __launch_bounds__(RADIX) onesweep_offsets(unsigned* counts) {
    __shared__ unsigned warp_sums[33];
    unsigned* pass = counts + blockIdx.x * RADIX;
    unsigned total;
    const unsigned offset = block_exclusive_sum<RADIX>(pass[threadIdx.x], threadIdx.x, warp_sums, total);
    pass[threadIdx.x] = offset;
}

// How many keys of digit `digit` the partitions before `partition` hold: the decoupled look-back
// over a ring of `slots` partitions.
__device__ unsigned look_back(const unsigned long long* ring, int slots, int partition, int digit) {
    unsigned before = 0;
    for (int q = partition - 1; q >= 0;) {
        const unsigned long long word = *(volatile const unsigned long long*)&ring[(q % slots) * RADIX + digit];
        const unsigned long long flag = word >> 62;
        const bool published = (int)((word >> 32) & 0x3FFFFFFF) == q + 1;  // else an earlier owner's
        if (!published || (flag != FLAG_INCLUSIVE && partition - q >= ONESWEEP_MAX_LOOK_BACK)) continue;
        before += (unsigned)word;
        if (flag == FLAG_INCLUSIVE) break;
        --q;
    }
    return before;
}

// One pass over the digit at `shift`: `keys` into `sorted`. `offsets` are the pass's RADIX digit
// offsets; `ring` is slots * RADIX zeroed status words; `counters` two zeroed ints (the next
// partition to hand out, and the tail).
extern "C" __global__ void __launch_bounds__(ONESWEEP_THREADS)
    onesweep_pass(const KEY_T* keys, KEY_T* sorted, long long count, int shift, const unsigned* offsets,
                  unsigned long long* ring, int slots, int* counters) {
    __shared__ KEY_T staged[PARTITION];
    __shared__ unsigned warp_counts[WARPS][RADIX + 1];  // the last bin: keys past the end
    __shared__ unsigned digit_start[RADIX];  // where each digit's keys start in `staged`
    __shared__ unsigned long long digit_base[RADIX];  // where they go in `sorted`, less digit_start
    __shared__ unsigned warp_sums[33];
    __shared__ int ticket;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    if (t == 0) ticket = atomicAdd(&counters[0], 1);
    for (int i = t; i < WARPS * (RADIX + 1); i += ONESWEEP_THREADS) (&warp_counts[0][0])[i] = 0;
    __syncthreads();
    const int partition = ticket;

    // Each warp ranks its ONESWEEP_ITEMS rounds of 32 consecutive keys, in index order.
    const long long first = (long long)partition * PARTITION + warp * (ONESWEEP_ITEMS * 32);
    const unsigned lower_lanes = (1u << lane) - 1u;
    KEY_T key[ONESWEEP_ITEMS];
    int digit[ONESWEEP_ITEMS];
    unsigned rank[ONESWEEP_ITEMS];
#pragma unroll
    for (int round = 0; round < ONESWEEP_ITEMS; ++round) {
        const long long index = first + round * 32 + lane;
        key[round] = index < count ? keys[index] : (KEY_T)0;
        digit[round] = index < count ? digit_of(key[round], shift) : RADIX;
        const unsigned peers = __match_any_sync(0xffffffffu, digit[round]);
        const unsigned before = warp_counts[warp][digit[round]];
        __syncwarp();
        if (lane == __ffs(peers) - 1) warp_counts[warp][digit[round]] = before + __popc(peers);
        __syncwarp();
        rank[round] = before + __popc(peers & lower_lanes);
    }
    // The slot's previous owner may be read by the partitions up to ONESWEEP_MAX_LOOK_BACK after it:
    // all of them must be finished (the tail's whole groups count, as only they are in order).
    if (t == 0 && partition >= slots) {
        const int finished = partition - slots + ONESWEEP_MAX_LOOK_BACK + 1;
        while ((*(volatile int*)&counters[1] & -ONESWEEP_TAIL_GROUP) < finished) {
        }
        __threadfence();  // pairs with the fence before the tail moves: their reads came first
    }
    __syncthreads();

    // Thread t owns digit t: the warps' counts become exclusive prefixes, and the block's count.
    unsigned mine = 0;
    for (int w = 0; w < WARPS; ++w) {
        const unsigned c = warp_counts[w][t];
        warp_counts[w][t] = mine;
        mine += c;
    }
    unsigned long long* slot = &ring[(partition % slots) * RADIX + t];
    if (partition == 0) {
        atomicExch(slot, status_word(FLAG_INCLUSIVE, partition, mine));
        digit_base[t] = offsets[t];
    } else {
        atomicExch(slot, status_word(FLAG_AGGREGATE, partition, mine));
        const unsigned before = look_back(ring, slots, partition, t);
        atomicExch(slot, status_word(FLAG_INCLUSIVE, partition, before + mine));
        digit_base[t] = (unsigned long long)offsets[t] + before;
    }
    unsigned block_total;
    const unsigned start = block_exclusive_sum<ONESWEEP_THREADS>(mine, t, warp_sums, block_total);
    digit_start[t] = start;
    digit_base[t] -= start;
    __syncthreads();

    // The keys in digit order in shared memory, then out to consecutive addresses.
#pragma unroll
    for (int round = 0; round < ONESWEEP_ITEMS; ++round)
        if (digit[round] < RADIX) staged[digit_start[digit[round]] + warp_counts[warp][digit[round]] + rank[round]] = key[round];
    __syncthreads();
    for (unsigned i = t; i < block_total; i += ONESWEEP_THREADS) {
        const KEY_T k = staged[i];
        sorted[digit_base[digit_of(k, shift)] + i] = k;
    }

    // Finished: the tail moves on once every earlier group has (the look-back's reads come first).
    if (t == 0) {
        while ((*(volatile int*)&counters[1] & -ONESWEEP_TAIL_GROUP) != (partition & -ONESWEEP_TAIL_GROUP)) {
        }
        __threadfence();
        atomicAdd(&counters[1], 1);
    }
}
