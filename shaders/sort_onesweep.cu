// Onesweep (Adinets & Merrill, 2022): a least-significant-digit radix sort of KEY_T keys with 8-bit
// digits, as many passes as the keys have bits, and one kernel per pass.
//
// onesweep_histogram  reads the keys once and counts every pass's digits (per block in shared
//                     memory, then into the global counts);
// onesweep_offsets    turns each pass's counts into the exclusive offsets where its digits start;
// onesweep_pass       a block per partition of ITEMS * ONESWEEP_THREADS keys (numbered in
//                     the order blocks start, by a ticket). Its keys are loaded once into registers.
//                     Each warp counts its keys per digit, and the block publishes how many keys of
//                     each digit it has before it ranks them ("early counts"): the partitions after
//                     it can add that count while it works. Each warp then ranks its keys round by
//                     round (eight ballots group a round's lanes of one digit; the group's first
//                     lane moves the warp's counter of that digit) and puts each key straight at its
//                     place in shared memory, in digit order. Only then does the block look back (a
//                     chained scan with decoupled look-back) for how many keys of each digit the
//                     partitions before it hold: by then those have mostly published their
//                     inclusive prefixes. The keys go out to consecutive addresses.
//
// The look-back's status table is a ring of `slots` partitions (ONESWEEP_RING, fewer for fewer
// partitions; see the circle constants), so its memory does not grow with the number of keys. A
// word per (slot, digit): flag (2 bits: aggregate or inclusive prefix), the partition's number + 1
// (30 bits) and a count (32 bits). A look-back reads LOOK_BACK_READS words at a time and goes at
// most ONESWEEP_MAX_LOOK_BACK partitions back: there it waits for an inclusive prefix. The ring's
// tail is a mark per slot: the number + 1 of the last partition there to finish its look-back. A
// partition writes a slot only once the partitions that may still read the slot's previous owner
// (the ONESWEEP_MAX_LOOK_BACK after it) are marked, so a look-back never finds its word
// overwritten, and no partition waits for a later one. (A tail counter moved in partition order
// cost about a microsecond a partition, a chain of waits: 45 ms for 2^26 keys; moved in groups of
// 32, still 0.6 ms of 3.) The marks are read when the block starts and checked only before it
// first publishes, so a mark that is already there costs no wait.
//
// Stable: within a partition keys are ranked in index order (warp, round, lane), and partitions
// in their order. Build with -DKEY_T=unsigned int|unsigned long long.
#include "block_scan.cuh"

#if !defined(ONESWEEP_THREADS) || !defined(ONESWEEP_ITEMS_32) || !defined(ONESWEEP_ITEMS_64) || \
    !defined(ONESWEEP_RING) || !defined(ONESWEEP_MAX_LOOK_BACK)
#error "build through render.circles.constants.load_circle_module, which defines the shared constants"
#endif

#define RADIX 256
#define WARPS (ONESWEEP_THREADS / 32)
#define ITEMS (sizeof(KEY_T) == 4 ? ONESWEEP_ITEMS_32 : ONESWEEP_ITEMS_64)  // keys a thread ranks
#define PARTITION (ONESWEEP_THREADS * ITEMS)
#define MAX_PASSES ((int)sizeof(KEY_T))
#define LOOK_BACK_READS 4  // status words a look-back has in flight at once

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

// How many keys of digit `digit` the partitions before `partition` (> 0) hold: the decoupled
// look-back over a ring of `slots` partitions, LOOK_BACK_READS words in flight at a time.
__device__ unsigned look_back(const unsigned long long* ring, int slots, int partition, int digit) {
    unsigned before = 0;
    int q = partition - 1;  // the next partition to add; partition 0 publishes an inclusive prefix
    for (;;) {
        unsigned long long word[LOOK_BACK_READS];
        const int slot = q % slots;
#pragma unroll
        for (int i = 0; i < LOOK_BACK_READS; ++i) {
            const int s = slot - i < 0 ? slot - i + slots : slot - i;
            word[i] = q - i >= 0 ? *(volatile const unsigned long long*)&ring[s * RADIX + digit] : 0ULL;
        }
#pragma unroll
        for (int i = 0; i < LOOK_BACK_READS; ++i) {
            const unsigned long long flag = word[i] >> 62;
            const bool published = (int)((word[i] >> 32) & 0x3FFFFFFF) == q + 1;  // else an earlier owner's
            if (!published || (flag != FLAG_INCLUSIVE && partition - q >= ONESWEEP_MAX_LOOK_BACK)) break;
            before += (unsigned)word[i];
            if (flag == FLAG_INCLUSIVE) return before;
            --q;
        }
    }
}

// One pass over the digit at `shift`: `keys` into `sorted`. `offsets` are the pass's RADIX digit
// offsets; `ring` is slots * RADIX zeroed status words and `marks` slots zeroed ints (the tail);
// `ticket` a zeroed int, the next partition to hand out.
extern "C" __global__ void __launch_bounds__(ONESWEEP_THREADS)
    onesweep_pass(const KEY_T* __restrict__ keys, KEY_T* __restrict__ sorted, long long count, int shift,
                  const unsigned* __restrict__ offsets, unsigned long long* ring, int* marks, int slots,
                  int* ticket_counter) {
    __shared__ KEY_T staged[PARTITION];
    // Per warp and digit: first the warp's count, then where its next key of the digit goes in `staged`.
    __shared__ unsigned warp_next[WARPS][RADIX];
    // Per digit: where its keys go in `sorted` less where they start in `staged` (modulo 2^32).
    __shared__ unsigned digit_base[RADIX];
    __shared__ unsigned warp_sums[33];
    __shared__ int ticket;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    if (t == 0) ticket = atomicAdd(ticket_counter, 1);
#pragma unroll
    for (int w = 0; w < WARPS; ++w) warp_next[w][t] = 0;
    const unsigned digit_offset = offsets[t];
    __syncthreads();
    const int partition = ticket;

    // The slot's previous owner may be read by the ONESWEEP_MAX_LOOK_BACK partitions after it: a
    // thread reads each one's mark now (or a later owner's, which came after it) and checks it later.
    const bool guards = partition >= slots && t < ONESWEEP_MAX_LOOK_BACK;
    const int reader = partition - slots + 1 + t;
    int mark = guards ? *(volatile int*)&marks[reader % slots] : 0;

    // Each warp's ITEMS rounds of 32 consecutive keys, all loads in flight at once.
    const long long first = (long long)partition * PARTITION + warp * (ITEMS * 32) + lane;
    const bool full = (long long)(partition + 1) * PARTITION <= count;
    KEY_T key[ITEMS];
#pragma unroll
    for (int round = 0; round < ITEMS; ++round) {
        const long long index = first + round * 32;
        key[round] = full || index < count ? keys[index] : (KEY_T)0;
    }
#pragma unroll
    for (int round = 0; round < ITEMS; ++round)
        if (full || first + round * 32 < count) atomicAdd(&warp_next[warp][digit_of(key[round], shift)], 1u);
    if (guards) {
        while (mark <= reader) mark = *(volatile int*)&marks[reader % slots];
        __threadfence();  // pairs with the fence before the mark: their reads came first
    }
    __syncthreads();

    // Thread t owns digit t: it publishes the block's count, and turns the warps' counts into
    // where each warp's keys of the digit start in `staged`.
    unsigned mine = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        const unsigned c = warp_next[w][t];
        warp_next[w][t] = mine;
        mine += c;
    }
    unsigned long long* slot = &ring[(partition % slots) * RADIX + t];
    atomicExch(slot, status_word(partition == 0 ? FLAG_INCLUSIVE : FLAG_AGGREGATE, partition, mine));
    unsigned block_total;
    const unsigned start = block_exclusive_sum<ONESWEEP_THREADS>(mine, t, warp_sums, block_total);
#pragma unroll
    for (int w = 0; w < WARPS; ++w) warp_next[w][t] += start;
    __syncthreads();

    // Rank each round's keys in index order and put them at their place in `staged`.
    const unsigned lower_lanes = (1u << lane) - 1u;
#pragma unroll
    for (int round = 0; round < ITEMS; ++round) {
        const bool valid = full || first + round * 32 < count;
        const int digit = digit_of(key[round], shift);
        unsigned peers = 0xffffffffu;  // the lanes with a key of this lane's digit (or none, alike)
        if (!full) {
            const unsigned valid_lanes = __ballot_sync(0xffffffffu, valid);
            peers = valid ? valid_lanes : ~valid_lanes;
        }
#pragma unroll
        for (int bit = 0; bit < 8; ++bit) {
            const bool set = (digit >> bit) & 1;
            const unsigned votes = __ballot_sync(0xffffffffu, set);
            peers &= set ? votes : ~votes;
        }
        // The group's first lane moves the warp's counter past the group; every lane gets the old value.
        const int leader = __ffs(peers) - 1;
        unsigned place = 0;
        if (valid && lane == leader) place = atomicAdd(&warp_next[warp][digit], __popc(peers));
        place = __shfl_sync(0xffffffffu, place, leader);
        if (valid) staged[place + __popc(peers & lower_lanes)] = key[round];
    }

    // The keys of each digit before this partition's: in the ring, then in the pass's offsets.
    unsigned before = 0;
    if (partition > 0) {
        before = look_back(ring, slots, partition, t);
        atomicExch(slot, status_word(FLAG_INCLUSIVE, partition, before + mine));
    }
    digit_base[t] = digit_offset + before - start;
    __syncthreads();
    if (t == 0) {  // the look-back is over: the slots it read may be reused
        __threadfence();
        atomicExch(&marks[partition % slots], partition + 1);
    }
#pragma unroll
    for (int round = 0; round < ITEMS; ++round) {
        const unsigned i = round * ONESWEEP_THREADS + t;
        if (i < block_total) {
            const KEY_T k = staged[i];
            sorted[digit_base[digit_of(k, shift)] + i] = k;
        }
    }
}
