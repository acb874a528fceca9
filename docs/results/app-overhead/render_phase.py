"""Where the app's `render` phase goes, in the offscreen app (EGL, interop) on rand100k at 1024 under
auto: per pass, the host's time to launch the frame's kernels and its wait for their stage times,
and on the GPU's time line the time from the pass's start (a CUDA event recorded before the launch,
which the GPU reaches once its earlier CUDA work is done) to the frame's last stage, less the
stages: what the GPU spent meanwhile on other work, OpenGL's pass among it. Medians of 600 passes
after 100 to warm up; prints one JSON line.
Run from the repository root: python3 docs/results/app-overhead/render_phase.py
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "probes"))

import cupy  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402

WARM, PASSES = 100, 600


def main() -> None:
    app, _ = offscreen_app("rand100k", 1024)
    for _ in range(30):
        app.frame()
    renderer = app.session.renderer
    render, stage_times = renderer.render, renderer.stage_times_ms
    pass_start, frame_end = cupy.cuda.Event(), cupy.cuda.Event()
    rows: list[dict[str, float]] = []
    current: dict[str, float] = {}

    def timed_render() -> None:
        pass_start.record()
        started = time.perf_counter()
        render()
        frame_end.record()
        current["launch"] = (time.perf_counter() - started) * 1000

    def timed_stage_times() -> dict[str, float]:
        started = time.perf_counter()
        times = stage_times()
        current["wait"] = (time.perf_counter() - started) * 1000
        frame_end.synchronize()
        gpu = cupy.cuda.get_elapsed_time(pass_start, frame_end)
        current["gpu from the pass's start"] = gpu
        current["gpu on other work"] = gpu - sum(times.values())
        return times

    renderer.render, renderer.stage_times_ms = timed_render, timed_stage_times
    for index in range(WARM + PASSES):
        current.clear()
        started = time.perf_counter()
        app.frame()
        current["pass"] = (time.perf_counter() - started) * 1000
        if index >= WARM and "wait" in current:
            rows.append(dict(current))
    medians = {key: round(statistics.median(row[key] for row in rows), 4) for key in rows[0]}
    print(json.dumps({"passes": len(rows), "median_ms": medians}))
    renderer.render, renderer.stage_times_ms = render, stage_times
    app.close()


if __name__ == "__main__":
    main()
