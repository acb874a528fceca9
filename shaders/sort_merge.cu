// A stable merge sort of KEY_T keys in the structure of NVIDIA's CUDA samples (mergeSort):
//
// phase 1, merge_sort_segments: a block sorts each MERGE_SEGMENT keys in shared memory, merging
//   runs of 1, 2, 4, ... keys; a key's place in the merged run is its place in its own run plus
//   how many keys of the other run go before it, found by binary search (strictly less for a key
//   of the left run, less or equal for one of the right run: equal keys keep their order);
// phase 2, once per doubling of the sorted run length, for each pair of runs A (the left, `run`
//   keys) and B (the rest of the pair, at most `run` keys):
//   sample_ranks       every MERGE_SAMPLE_STRIDE-th key of A and of B, with its rank in the other
//                      run: each sample is a point (a, b) where the merge takes a keys of A and b
//                      of B before it;
//   merge_ranks        those points in merge order (a sample's place among all of them follows
//                      from its rank in the other run), as the limits of elementary intervals;
//   merge_intervals    a block per interval: at most MERGE_SAMPLE_STRIDE keys of each run, merged
//                      in shared memory like phase 1 and written to the pair's output.
//
// Any length: the host pads the keys to a whole number of segments with the largest key, which a
// stable sort keeps after every real key. Build with -DKEY_T=unsigned int|unsigned long long.
#if !defined(MERGE_SEGMENT) || !defined(MERGE_SAMPLE_STRIDE)
#error "build through render.circles.constants.load_circle_module, which defines the shared constants"
#endif

#define SEGMENT_THREADS (MERGE_SEGMENT / 2)

// How many of the `count` sorted keys are strictly less than `key`.
__device__ __forceinline__ int count_less(const KEY_T* keys, int count, KEY_T key) {
    int low = 0, high = count;
    while (low < high) {
        const int middle = (low + high) / 2;
        if (keys[middle] < key) low = middle + 1;
        else high = middle;
    }
    return low;
}

// How many of the `count` sorted keys are less than or equal to `key`.
__device__ __forceinline__ int count_not_greater(const KEY_T* keys, int count, KEY_T key) {
    int low = 0, high = count;
    while (low < high) {
        const int middle = (low + high) / 2;
        if (keys[middle] <= key) low = middle + 1;
        else high = middle;
    }
    return low;
}

// Where the key at `index` of a run goes when the run merges with `other` (`other_count` keys):
// its index in its own run plus the keys of the other run that go before it.
__device__ __forceinline__ int merged_place(int index, KEY_T key, const KEY_T* other, int other_count,
                                            bool left_run) {
    return index + (left_run ? count_less(other, other_count, key) : count_not_greater(other, other_count, key));
}

// Phase 1: sort each MERGE_SEGMENT keys of `keys` in place; SEGMENT_THREADS threads a block, two
// keys each. The host passes a whole number of segments.
extern "C" __global__ void __launch_bounds__(SEGMENT_THREADS) merge_sort_segments(KEY_T* keys) {
    __shared__ KEY_T run_keys[MERGE_SEGMENT];
    KEY_T* segment = keys + (long long)blockIdx.x * MERGE_SEGMENT;
    const int first = threadIdx.x, second = threadIdx.x + SEGMENT_THREADS;
    run_keys[first] = segment[first];
    run_keys[second] = segment[second];
    for (int run = 1; run < MERGE_SEGMENT; run *= 2) {
        __syncthreads();
        int places[2];
        KEY_T mine[2];
        for (int k = 0; k < 2; ++k) {
            const int index = k == 0 ? first : second;
            const int pair_start = index & ~(2 * run - 1);
            const bool left_run = (index & run) == 0;
            const KEY_T* other = run_keys + pair_start + (left_run ? run : 0);
            mine[k] = run_keys[index];
            places[k] = pair_start + merged_place(index & (run - 1), mine[k], other, run, left_run);
        }
        __syncthreads();
        run_keys[places[0]] = mine[0];
        run_keys[places[1]] = mine[1];
    }
    __syncthreads();
    segment[first] = run_keys[first];
    segment[second] = run_keys[second];
}

// The runs of the pair `pair` when sorted runs are `run` keys long: A at `start`, `count_a` keys,
// then B, `count_b` keys (0 for a last run with no partner).
struct RunPair {
    long long start;
    int count_a, count_b;
};

__device__ __forceinline__ RunPair run_pair(long long pair, int run, long long total) {
    RunPair p;
    p.start = pair * 2 * run;
    p.count_a = (int)min((long long)run, total - p.start);
    p.count_b = (int)max(0LL, min((long long)run, total - p.start - run));
    return p;
}

// Samples a pair can have: one every MERGE_SAMPLE_STRIDE keys of each run.
__device__ __forceinline__ int samples_of(int count) {
    return (count + MERGE_SAMPLE_STRIDE - 1) / MERGE_SAMPLE_STRIDE;
}

// Phase 2, step 1: for each sample of A, its rank in B (keys of B strictly less), and for each
// sample of B, its rank in A (keys of A less or equal). `per_pair` = run / MERGE_SAMPLE_STRIDE
// slots per run; a thread per slot of every pair's A and B.
extern "C" __global__ void sample_ranks(const KEY_T* keys, long long total, int run, long long pairs,
                                        int* rank_in_b, int* rank_in_a) {
    const int per_pair = run / MERGE_SAMPLE_STRIDE;
    const long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (slot >= pairs * per_pair) return;
    const long long pair = slot / per_pair;
    const int i = (int)(slot % per_pair);
    const RunPair p = run_pair(pair, run, total);
    const KEY_T* a = keys + p.start;
    const KEY_T* b = a + p.count_a;
    if (i < samples_of(p.count_a))
        rank_in_b[slot] = count_less(b, p.count_b, a[i * MERGE_SAMPLE_STRIDE]);
    if (i < samples_of(p.count_b))
        rank_in_a[slot] = count_not_greater(a, p.count_a, b[i * MERGE_SAMPLE_STRIDE]);
}

// Phase 2, step 2: every sample's point (a, b) at its place in merge order, in `limit_a` and
// `limit_b` (2 * per_pair + 1 slots a pair; the last point of a pair is the end of both runs). A
// sample of A with rank r in B follows the samples of B below r; a sample of B with rank r in A
// follows the samples of A below r (a sample of A at r itself goes after it: its key is greater).
extern "C" __global__ void merge_ranks(const int* rank_in_b, const int* rank_in_a, long long total, int run,
                                       long long pairs, int* limit_a, int* limit_b) {
    const int per_pair = run / MERGE_SAMPLE_STRIDE;
    const int limits = 2 * per_pair + 1;
    const long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (slot >= pairs * per_pair) return;
    const long long pair = slot / per_pair;
    const int i = (int)(slot % per_pair);
    const RunPair p = run_pair(pair, run, total);
    const int samples_a = samples_of(p.count_a), samples_b = samples_of(p.count_b);
    int* pair_a = limit_a + pair * limits;
    int* pair_b = limit_b + pair * limits;
    if (i < samples_a) {
        const int rank = rank_in_b[slot];
        const int place = i + min(samples_b, samples_of(rank));
        pair_a[place] = i * MERGE_SAMPLE_STRIDE;
        pair_b[place] = rank;
    }
    if (i < samples_b) {
        const int rank = rank_in_a[slot];
        const int place = i + min(samples_a, samples_of(rank));
        pair_a[place] = rank;
        pair_b[place] = i * MERGE_SAMPLE_STRIDE;
    }
    if (i == 0) {
        pair_a[samples_a + samples_b] = p.count_a;
        pair_b[samples_a + samples_b] = p.count_b;
    }
}

// Phase 2, step 3: a block of MERGE_SAMPLE_STRIDE threads per elementary interval (2 * per_pair a
// pair, the ones past a short pair's samples idle), from `keys` into `sorted`.
extern "C" __global__ void __launch_bounds__(MERGE_SAMPLE_STRIDE)
    merge_intervals(const KEY_T* keys, long long total, int run, const int* limit_a, const int* limit_b,
                    KEY_T* sorted) {
    __shared__ KEY_T part_a[MERGE_SAMPLE_STRIDE], part_b[MERGE_SAMPLE_STRIDE];
    const int per_pair = run / MERGE_SAMPLE_STRIDE;
    const long long pair = blockIdx.x / (2 * per_pair);
    const int interval = blockIdx.x % (2 * per_pair);
    const RunPair p = run_pair(pair, run, total);
    if (interval >= samples_of(p.count_a) + samples_of(p.count_b)) return;
    const int* pair_a = limit_a + pair * (2 * per_pair + 1);
    const int* pair_b = limit_b + pair * (2 * per_pair + 1);
    const int a0 = pair_a[interval], count_a = pair_a[interval + 1] - a0;
    const int b0 = pair_b[interval], count_b = pair_b[interval + 1] - b0;
    const int t = threadIdx.x;
    if (t < count_a) part_a[t] = keys[p.start + a0 + t];
    if (t < count_b) part_b[t] = keys[p.start + p.count_a + b0 + t];
    __syncthreads();
    KEY_T* out = sorted + p.start + a0 + b0;
    if (t < count_a) out[merged_place(t, part_a[t], part_b, count_b, true)] = part_a[t];
    if (t < count_b) out[merged_place(t, part_b[t], part_a, count_a, false)] = part_b[t];
}
