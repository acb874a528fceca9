// Onesweep (Adinets & Merrill, 2022): a least-significant-digit radix sort of KEY_T keys with 8-bit
// digits, as many passes as the keys have bits, and one kernel per pass.
//
// onesweep_histogram  reads the keys once and counts every pass's digits (per block in shared
//                     memory, then into the global counts);
// onesweep_offsets    turns each pass's counts into the exclusive offsets where its digits start;
// onesweep_pass       a block per partition of ONESWEEP_ITEMS * ONESWEEP_THREADS keys (numbered in
//                     the order blocks start, by a ticket): each warp ranks its keys by digit
//                     (eight ballots and one for past-the-end keys group a round's lanes of one
//                     digit; a warp's counters in shared memory carry the rank over rounds), the block publishes how many keys
//                     of each digit it has, and finds how many keys of each digit the partitions
//                     before it hold by a chained scan with decoupled look-back; the keys are then
//                     placed in shared memory in digit order and written to consecutive addresses.
//
// The look-back's status table is a ring of `slots` partitions (ONESWEEP_RING, fewer for fewer
// partitions; see the circle constants), so its memory does not grow with the number of keys. A
// word per (slot, digit): flag (2 bits: aggregate or inclusive prefix), the partition's number + 1
// (30 bits) and a count (32 bits). A look-back goes at most ONESWEEP_MAX_LOOK_BACK partitions back:
// there it waits for an inclusive prefix. The ring's tail is a mark per slot: the number + 1 of the
// last partition there to finish its look-back. A partition writes a slot only once the partitions
// that may still read the slot's previous owner (the ONESWEEP_MAX_LOOK_BACK after it) are marked,
// so a look-back never finds its word overwritten, and no partition waits for a later one. (A
// tail counter moved in partition order cost about a microsecond a partition, a chain of waits:
// 45 ms for 2^26 keys; moved in groups of 32, still 0.6 ms of 3.)
//
// Stable: within a partition keys are ranked in index order (warp, round, lane), and partitions
// in their order. Build with -DKEY_T=unsigned int|unsigned long long.
#include "block_scan.cuh"

#if !defined(ONESWEEP_THREADS) || !defined(ONESWEEP_ITEMS) || !defined(ONESWEEP_RING) || !defined(ONESWEEP_MAX_LOOK_BACK)
#error "build through render.circles.constants.load_circle_module, which defines the shared constants"
#endif

#define RADIX 256
#define WARPS (ONESWEEP_THREADS / 32)
#define PARTITION (ONESWEEP_THREADS * ONESWEEP_ITEMS)
#define MAX_PASSES ((int)sizeof(KEY_T))

#define FLAG_AGGREGATE 1ULL
#define FLAG_INCLUSIVE 2ULL

static_assert(ONESWEEP_THREADS == RADIX, "a thread per digit publishes and looks back");
static_assert(ONESWEEP_MAX_LOOK_BACK <= ONESWEEP_THREADS, "a thread per partition checks the marks");
// A partition that waits for a slot then waits only for earlier partitions (no deadlock).
static_assert(ONESWEEP_RING > ONESWEEP_MAX_LOOK_BACK, "a ring too small for the look-back");

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
// offsets; `ring` is slots * RADIX zeroed status words and `marks` slots zeroed ints (the tail);
// `ticket` a zeroed int, the next partition to hand out.
extern "C" __global__ void __launch_bounds__(ONESWEEP_THREADS)
    onesweep_pass(const KEY_T* keys, KEY_T* sorted, long long count, int shift, const unsigned* offsets,
                  unsigned long long* ring, int* marks, int slots, int* ticket_counter) {
    __shared__ KEY_T staged[PARTITION];
    __shared__ unsigned warp_counts[WARPS][RADIX + 1];  // the last bin: keys past the end
    __shared__ unsigned digit_start[RADIX];  // where each digit's keys start in `staged`
    __shared__ unsigned long long digit_base[RADIX];  // where they go in `sorted`, less digit_start
    __shared__ unsigned warp_sums[33];
    __shared__ int ticket;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    if (t == 0) ticket = atomicAdd(ticket_counter, 1);
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
        unsigned peers = 0xffffffffu;  // the lanes whose digit is this lane's (nine bits: RADIX too)
#pragma unroll
        for (int bit = 0; bit < 9; ++bit) {
            const bool set = (digit[round] >> bit) & 1;
            const unsigned votes = __ballot_sync(0xffffffffu, set);
            peers &= set ? votes : ~votes;
        }
        // The group's first lane adds the group to the warp's counter; every lane gets the old count.
        const int leader = __ffs(peers) - 1;
        unsigned old = 0;
        if (lane == leader) old = atomicAdd(&warp_counts[warp][digit[round]], __popc(peers));
        const unsigned before = __shfl_sync(0xffffffffu, old, leader);
        rank[round] = before + __popc(peers & lower_lanes);
    }
    // The slot's previous owner may be read by the ONESWEEP_MAX_LOOK_BACK partitions after it, a
    // thread checks each one's mark (or a later owner's, which came after it).
    if (partition >= slots && t < ONESWEEP_MAX_LOOK_BACK) {
        const int reader = partition - slots + 1 + t;
        while (*(volatile int*)&marks[reader % slots] <= reader) {
        }
        __threadfence();  // pairs with the fence before the mark: their reads came first
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
    if (t == 0) {  // the look-back is over: the slots it read may be reused
        __threadfence();
        atomicExch(&marks[partition % slots], partition + 1);
    }

    // The keys in digit order in shared memory, then out to consecutive addresses.
#pragma unroll
    for (int round = 0; round < ONESWEEP_ITEMS; ++round)
        if (digit[round] < RADIX) staged[digit_start[digit[round]] + warp_counts[warp][digit[round]] + rank[round]] = key[round];
    __syncthreads();
    for (unsigned i = t; i < block_total; i += ONESWEEP_THREADS) {
        const KEY_T k = staged[i];
        sorted[digit_base[digit_of(k, shift)] + i] = k;
    }
}
