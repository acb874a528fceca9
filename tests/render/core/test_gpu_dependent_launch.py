"""Dependent launches on the GPU: the kernel after starts before the kernel before has ended, and
still reads what it wrote, on a stream and in a captured CUDA graph; launched CuPy's way, it waits."""

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

// Lets the next launch start, spends `spin` ns, then writes its values and when it wrote them.
extern "C" __global__ void before(long long spin, int value, int* out, unsigned long long* ended) {
    let_next_launch_start();
    const unsigned long long start = clock_ns();
    unsigned long long now = start;
    while (now - start < static_cast<unsigned long long>(spin)) now = clock_ns();
    out[threadIdx.x] = value + threadIdx.x;
    if (threadIdx.x == 0) *ended = clock_ns();
}

// Notes when it started, then waits for `before` and copies its values.
extern "C" __global__ void after(const int* in, int* copy, unsigned long long* started) {
    if (threadIdx.x == 0) *started = clock_ns();
    wait_for_previous_launch();
    copy[threadIdx.x] = in[threadIdx.x];
}
"""

THREADS = 64
SPIN_NS = 200_000


def _pair(dependent: bool):
    """Queues `before` then `after` on the current stream; returns a function that reads, once the
    stream has finished, (values after copied, when after started, when before ended)."""
    import cupy

    module = cupy.RawModule(code=SOURCE, options=nvrtc_options({}))
    before, after = module.get_function("before"), module.get_function("after")  # loaded before any capture
    out = cupy.full(THREADS, -1, cupy.int32)  # poisoned: a copy made before `before` wrote shows it
    copy = cupy.full(THREADS, -2, cupy.int32)
    stamps = cupy.zeros(2, cupy.uint64)
    after_arguments = (out, copy, stamps[1:])

    def queue():
        before((1,), (THREADS,), (np.int64(SPIN_NS), np.int32(1000), out, stamps[:1]))
        if dependent:
            launch_dependent(after, (1,), (THREADS,), after_arguments)
        else:
            after((1,), (THREADS,), after_arguments)

    def read():
        ended, started = (int(v) for v in stamps.get())
        return copy.get(), started, ended

    return queue, read


def _expected():
    return np.arange(THREADS, dtype=np.int32) + 1000


def test_a_dependent_launch_starts_early_and_waits_where_its_kernel_says():
    import cupy

    queue, read = _pair(dependent=True)
    queue()
    cupy.cuda.get_current_stream().synchronize()
    copied, started, ended = read()
    assert started < ended, "the dependent kernel did not start before the one before it ended"
    assert np.array_equal(copied, _expected())


def test_a_dependent_launch_captured_in_a_graph_starts_early_and_waits():
    import cupy

    queue, read = _pair(dependent=True)
    graph = capture_graph(queue)
    graph.launch()
    cupy.cuda.get_current_stream().synchronize()
    copied, started, ended = read()
    assert started < ended, "the graph's edge is not programmatic"
    assert np.array_equal(copied, _expected())


def test_an_ordinary_launch_starts_after_the_kernel_before_ends():
    # What the two tests above tell apart: the clock says when a launch started.
    import cupy

    queue, read = _pair(dependent=False)
    queue()
    cupy.cuda.get_current_stream().synchronize()
    copied, started, ended = read()
    assert started >= ended and np.array_equal(copied, _expected())
