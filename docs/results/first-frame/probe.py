"""Where frame 0's extra time goes: the bench's protocol (load, synchronize, then frames of clear,
advance and render, each synchronized) with each step's wall time, the thread's CPU time and its
context switches and page faults, after different things done between the load and frame 0 (the
modes named as arguments: bench, python, gpu, sleep, spin, collect, frame; gcoff runs with the
collector off).
Run from the repository root on a GPU: python3 docs/results/first-frame/probe.py [MODE ...]"""

import gc
import os
import resource
import statistics
import sys
import threading
import time

sys.path.insert(0, os.getcwd())

from render.circles.renderer import CudaRenderer  # noqa: E402
from render.circles.variants import VARIANTS  # noqa: E402
from render.core.gpu import synchronize_device  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

FRAMES, RUNS = 6, 5
MODES = sys.argv[1:] or ["bench", "python", "gpu", "sleep", "spin"]


def usage():
    r = resource.getrusage(resource.RUSAGE_THREAD)
    return r.ru_nvcsw, r.ru_nivcsw, r.ru_minflt, r.ru_majflt


def before_frames(mode, renderer):
    import cupy

    if mode == "sleep":
        time.sleep(0.001)
    elif mode == "spin":
        end = time.perf_counter() + 0.002
        while time.perf_counter() < end:
            pass
    elif mode == "python":
        renderer.clear()
        renderer.advance()
        renderer.stage_times_ms()
    elif mode == "collect":
        gc.collect()
    elif mode == "frame":
        gc.collect()
        renderer.clear()
        renderer.render()
        synchronize_device()
    elif mode == "gpu":
        cupy.zeros(1, cupy.float32).sum()
        synchronize_device()


def run(scene, mode):
    renderer = CudaRenderer(VARIANTS.parse("auto"))
    renderer.load(scene, 1024, 1024)
    synchronize_device()
    before_frames(mode, renderer)
    steps = (renderer.clear, renderer.advance, renderer.render)
    frames = []
    for _ in range(FRAMES):
        row = []
        start = time.perf_counter()
        for step in steps:
            t0, c0, u0 = time.perf_counter(), time.thread_time(), usage()
            step()
            t1 = time.perf_counter()
            synchronize_device()
            t2, c1, u1 = time.perf_counter(), time.thread_time(), usage()
            delta = tuple(b - a for a, b in zip(u0, u1, strict=True))
            row.append(((t1 - t0) * 1e6, (t2 - t1) * 1e6, (c1 - c0) * 1e6, delta))
        total = (time.perf_counter() - start) * 1e6
        renderer.stage_times_ms()
        frames.append((total, row))
    return frames


def main():
    print("threads:", [t.name for t in threading.enumerate()], "tasks:", len(os.listdir("/proc/self/task")))
    for name in ("rgb", "rand10k", "rand100k", "micro2M"):
        scene = build_scene(name)
        for mode in MODES:
            totals = []
            for r in range(RUNS):
                if mode == "gcoff":
                    gc.disable()
                frames = run(scene, mode)
                gc.enable()
                totals.append([f[0] for f in frames])
                if r == RUNS - 1:
                    for k in (0, 1):
                        steps = " ".join(
                            f"{s}: call {c:.1f} sync {w:.1f} cpu {u:.1f} csw {d[0]}/{d[1]} flt {d[2]}"
                            for s, (c, w, u, d) in zip(("clear", "advance", "render"), frames[k][1], strict=True)
                        )
                        print(f"  {name} {mode} last run, frame {k}: {steps}")
            f0 = [t[0] for t in totals]
            rest = [statistics.mean(t[1:4]) for t in totals]
            mean4 = [statistics.mean(t[:4]) for t in totals]
            print(
                f"{name:9s} {mode:6s} frame 0 us {' '.join(f'{x:.0f}' for x in f0)} | frames 1-3 mean "
                f"{' '.join(f'{x:.0f}' for x in rest)} | mean of 0-3 {' '.join(f'{x:.0f}' for x in mean4)}"
                f" best {min(mean4):.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
