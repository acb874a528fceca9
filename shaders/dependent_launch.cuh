// Programmatic dependent launch (Hopper): a kernel launched with it (render/core/dependent_launch.py)
// may start while the kernel queued before it on the stream still runs, so that its blocks are
// resident and its independent work done by the time that kernel ends. Such a kernel must call
// wait_for_previous_launch before it reads or writes any memory the launches before it write or
// read. Launched the ordinary way, the wait returns at once.
#pragma once

// Blocks until the kernel before this one on the stream has ended and its writes are visible.
__device__ __forceinline__ void wait_for_previous_launch() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// Lets the next kernel on the stream, if launched as a dependent, start its blocks once every block
// of this one has called this or ended; it still waits for this one to end before using its results.
__device__ __forceinline__ void let_next_launch_start() { asm volatile("griddepcontrol.launch_dependents;" :::); }
