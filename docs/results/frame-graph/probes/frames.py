"""Per-frame and per-step wall times of the CS149 protocol for `auto`, to find what frame 0 pays.
Usage: python3 frames.py MODES SCENES FRAMES RUNS; MODES: comma list of main | upload | gc | sleep."""

import gc
import os
import sys
import time

import cupy

from render.circles.renderer import CudaRenderer
from render.circles.tile_warp import TileWarp
from render.circles.variants import variant_to_run
from scenes.lookup import scene_loader

modes, names, frames, runs = sys.argv[1].split(","), sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
if "upload" in modes:
    capture = TileWarp._capture_binning

    def capture_and_upload(self):
        capture(self)
        self._binning.upload()

    TileWarp._capture_binning = capture_and_upload


if "graph" in modes or "bingraph" in modes:
    import numpy as np
    from cuda.bindings import runtime as rt

    from render.circles.renderer import CudaRenderer as _R

    def _record(event, stream):
        (err,) = rt.cudaEventRecordWithFlags(event.ptr, stream.ptr, rt.cudaEventRecordExternal)
        assert err == rt.cudaError_t.cudaSuccess, err

    def _capture(self, clear, with_blend):
        s, ev = self.strategy, self.timer._events
        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            stream.begin_capture()
            if s.has_binning:
                _record(ev["binning"][0], stream)
                s._launch_binning()
                _record(ev["binning"][1], stream)
            if with_blend:
                _record(ev["blending"][0], stream)
                s.blend(self.scene, self.image_buffer, self.width, self.height, clear)
                _record(ev["blending"][1], stream)
            graph = stream.end_capture()
        graph.upload(stream)
        stream.synchronize()
        return graph

    whole = "graph" in modes

    def _render(self):
        s = self.strategy
        if s.has_binning:
            seen = int(self._seen[0])
            if seen > s.capacity:
                s._grow(seen)
        key = (self._clear_due, id(s.lists), s.capacity) if s.has_binning else (self._clear_due,)
        if s.has_binning or whole:
            graph = self._frames.get(key)
            if graph is None:
                graph = self._frames[key] = _capture(self, self._clear_arguments(), whole)
            graph.launch()
        t = self.timer
        if whole:
            self._clear_due = False
        else:
            t.start("blending")
            s.blend(self.scene, self.image_buffer, self.width, self.height, self._clear_arguments())
            self._clear_due = False
            t.stop("blending")
        for stage in ("binning", "blending") if s.has_binning else ("blending",):
            t._idle.discard(stage)
            t._recorded.add(stage)
        if not s.has_binning:
            t.idle("binning")

    _load = _R.load

    def _load_and_capture(self, scene, width, height):
        _load(self, scene, width, height)
        s = self.strategy
        self._frames = {}
        if s.has_binning:
            self._seen = np.frombuffer(s._entries_seen, np.int64, 1)
            key = (True, id(s.lists), s.capacity)
        else:
            key = (True,)
        if s.has_binning or whole:
            self._clear_due = True
            self._frames[key] = _capture(self, self._clear_arguments(), whole)
            self._clear_due = False

    _R.render = _render
    _R.load = _load_and_capture


def _cpu_of_thread():
    return int(open("/proc/thread-self/stat").read().rsplit(")", 1)[1].split()[36])


def _snap():
    cpu = _cpu_of_thread()
    sched = open("/proc/thread-self/schedstat").read().split()
    stat = [line for line in open("/proc/stat") if line.startswith(f"cpu{cpu} ")][0].split()
    irqs = 0
    for line in open("/proc/interrupts").read().splitlines()[1:]:
        cols = line.split()
        if len(cols) > cpu + 1 and cols[cpu + 1].isdigit():
            irqs += int(cols[cpu + 1])
    return cpu, int(sched[0]), int(sched[1]), [int(x) for x in stat[1:]], irqs, time.perf_counter_ns()


def _diff(a, b):
    return dict(
        cpu=(a[0], b[0]),
        run_us=(b[1] - a[1]) / 1e3,
        wait_us=(b[2] - a[2]) / 1e3,
        ticks=[y - x for x, y in zip(a[3], b[3], strict=True)],
        irqs=b[4] - a[4],
        wall_us=(b[5] - a[5]) / 1e3,
    )


fmt = lambda xs: " ".join(f"{x:.1f}" for x in xs)
loading = os.environ.get("CUDA_MODULE_LOADING", "default")
for name in names:
    scene = scene_loader(name, 0)()
    for run in range(runs):
        if "keep" not in modes:
            gc.collect()
            cupy.get_default_memory_pool().free_all_blocks()
        renderer = CudaRenderer(variant_to_run("auto"))
        renderer.load(scene, 1024, 1024)
        cupy.cuda.runtime.deviceSynchronize()
        if "gc" in modes:
            gc.collect()
            gc.disable()
        if "sleep" in modes:
            time.sleep(0.05)
        gc0 = gc.get_count()
        pokes = []
        if "poke" in modes:
            for _ in range(5):
                a = time.perf_counter()
                renderer.timer.idle("clear")
                pokes.append((time.perf_counter() - a) * 1e6)
        usage = []
        if "spin" in modes:
            end = time.perf_counter() + 0.002
            while time.perf_counter() < end:
                pass
        if "call" in modes:
            renderer.clear()
            renderer.advance()
            renderer._clear_due = False
        cpu0 = time.thread_time_ns()
        totals, steps, binning, blending = [], [], [], []
        for _ in range(frames):
            start = time.perf_counter()
            marks = []
            for step in (renderer.clear, renderer.advance, renderer.render):
                if "snap" in modes and not steps and step == renderer.clear:
                    s0 = _snap()
                c0 = time.thread_time_ns()
                step()
                usage.append(round((time.thread_time_ns() - c0) / 1e3, 1))
                if "snap" in modes and not steps and step == renderer.clear:
                    print("snap", name, run, _diff(s0, _snap()), flush=True)
                marks.append(time.perf_counter())
                cupy.cuda.runtime.deviceSynchronize()
                marks.append(time.perf_counter())
            totals.append((marks[-1] - start) * 1e6)
            steps.append([(b - a) * 1e6 for a, b in zip([start, *marks[:-1]], marks, strict=True)])
            st = renderer.stage_times_ms()
            binning.append(st.get("binning", 0) * 1e3)
            blending.append(st.get("blending", 0) * 1e3)
        gc.enable()
        import hashlib

        digest = hashlib.sha1(renderer.image().tobytes()).hexdigest()[:12]
        f4 = sum(totals[:4]) / 4
        rest = sum(totals[4:]) / max(1, len(totals) - 4)
        print(
            f"{name:10s} {'+'.join(modes):10s} {digest} {loading:7s} run{run} mean4 {f4:.1f} rest {rest:.1f}"
            f" gc {gc0}->{gc.get_count()} | total {fmt(totals)} | bin {fmt(binning)} | blend {fmt(blending)}"
            f" | pokes {fmt(pokes)} | f0 usage {usage[:3]} f1 {usage[3:6]}"
            f" | f0 steps {fmt(steps[0])} | f1 {fmt(steps[1])} | f5 {fmt(steps[5])}",
            flush=True,
        )
        del renderer
