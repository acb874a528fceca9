// Programmatic dependent launch (compute capability 9.0 on): a kernel launched as a dependent
// (render/core/dependent_launch.py) may start while the kernel queued before it on the stream still
// runs, so that its blocks are resident and its independent work done by the time that kernel ends.
// Before wait_for_previous_launch it may touch only memory that no kernel still running writes, and
// write none that such a kernel reads: the kernel before it, and any it lets start early in turn.
// Launched the ordinary way, or built for an older GPU, both calls do nothing.
#pragma once

// Blocks until the kernel before this one on the stream has ended and its writes are visible.
__device__ __forceinline__ void wait_for_previous_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next kernel on the stream, if launched as a dependent, start its blocks once every block
// of this one has called this or ended; it still waits for this one to end before using its results.
__device__ __forceinline__ void let_next_launch_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
