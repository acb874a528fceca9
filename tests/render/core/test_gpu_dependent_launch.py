"""Dependent launches on the GPU: the kernel after runs while the kernel before is still running, and
still reads what it wrote once it waits, on a stream and in a captured CUDA graph; launched CuPy's
way, it runs only after."""

import numpy as np
import pytest

from render.core.dependent_launch import launch_dependent
from render.core.frame_graph import capture_graph
from render.core.kernels import nvrtc_options

pytestmark = pytest.mark.gpu

SOURCE = r"""
#include "dependent_launch.cuh"

__device__ unsigned long long clock_ns() {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

// Lets the next launch start, then waits for it to raise *flag, for at most `patience` ns of the
// GPU's clock; then writes its values, and whether it saw the flag.
extern "C" __global__ void before(long long patience, int value, int* out, volatile int* flag, int* saw) {
    let_next_launch_start();
    const unsigned long long start = clock_ns();
    while (*flag == 0 && clock_ns() - start < static_cast<unsigned long long>(patience)) {
    }
    out[threadIdx.x] = value + threadIdx.x;
    if (threadIdx.x == 0) *saw = *flag;
}

// Raises the flag, then waits for `before` and copies its values. The flag is written before the
// wait, against dependent_launch.cuh's rule, so that `before` can see this kernel start.
extern "C" __global__ void after(const int* in, int* copy, volatile int* flag) {
    if (threadIdx.x == 0) *flag = 1;
    wait_for_previous_launch();
    copy[threadIdx.x] = in[threadIdx.x];
}
"""

THREADS = 64


def _pair(dependent: bool, patience_ns: int):
    """(queue, read): queue() queues `before` then `after` on the current stream (after as a
    dependent or not); read(), once the stream has finished, gives (the values after copied, whether
    before saw after running)."""
    import cupy

    module = cupy.RawModule(code=SOURCE, options=nvrtc_options({}))
    before, after = module.get_function("before"), module.get_function("after")  # loaded before any capture
    out = cupy.full(THREADS, -1, cupy.int32)  # poisoned: a copy made before `before` wrote shows it
    copy = cupy.full(THREADS, -2, cupy.int32)
    flag = cupy.zeros(1, cupy.int32)
    saw = cupy.full(1, -3, cupy.int32)

    def queue():
        before((1,), (THREADS,), (np.int64(patience_ns), np.int32(1000), out, flag, saw))
        if dependent:
            launch_dependent(after, (1,), (THREADS,), (out, copy, flag))
        else:
            after((1,), (THREADS,), (out, copy, flag))

    def read():
        return copy.get(), int(saw.get()[0])

    return queue, read


EXPECTED = np.arange(THREADS, dtype=np.int32) + 1000
# Long enough for the host to queue the second launch while the first waits, many times over.
PATIENCE_NS = 2_000_000_000


def test_a_dependent_launch_runs_beside_the_kernel_before_and_waits_where_its_kernel_says():
    import cupy

    queue, read = _pair(dependent=True, patience_ns=PATIENCE_NS)
    queue()
    cupy.cuda.get_current_stream().synchronize()
    copied, saw = read()
    assert saw == 1, "the dependent kernel did not start before the one before it ended"
    assert np.array_equal(copied, EXPECTED)


def test_a_dependent_launch_captured_in_a_graph_runs_beside_the_kernel_before_and_waits():
    import cupy

    queue, read = _pair(dependent=True, patience_ns=PATIENCE_NS)
    graph = capture_graph(queue)
    graph.launch()
    cupy.cuda.get_current_stream().synchronize()
    copied, saw = read()
    assert saw == 1, "the graph's edge is not programmatic"
    assert np.array_equal(copied, EXPECTED)


def test_an_ordinary_launch_runs_only_after_the_kernel_before():
    # What the two tests above tell apart: a kernel that cannot start early is never seen waiting.
    import cupy

    queue, read = _pair(dependent=False, patience_ns=50_000_000)
    queue()
    cupy.cuda.get_current_stream().synchronize()
    copied, saw = read()
    assert saw == 0 and np.array_equal(copied, EXPECTED)
