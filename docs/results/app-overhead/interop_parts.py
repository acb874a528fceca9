"""Where the app's display copy goes on the GPU machine: the offscreen app (EGL, interop) on
rand100k at 1024 under auto, then 300 copies of its frame timed part by part with CUDA events
(map, convert, unmap) and the host clock (each CUDA call, the GL upload from the buffer, a glFinish).
Prints medians in ms as JSON. Run from the repository root: python3 docs/results/app-overhead/interop_parts.py
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
import numpy as np  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402
from OpenGL import GL  # noqa: E402


def main() -> None:
    app, _ = offscreen_app("rand100k", 1024)
    for _ in range(30):
        app.frame()
    display, image = app.display, app.session.device_image()
    interop = display._interop
    runtime, resource, stream = interop._runtime, interop.resource, cupy.cuda.get_current_stream().ptr
    events = [cupy.cuda.Event() for _ in range(4)]
    gpu, host = {"map": [], "convert": [], "unmap": []}, {k: [] for k in ("map", "convert", "unmap", "tex", "finish")}
    threads, pixels = 256, interop.pixels
    for _ in range(300):
        t0 = time.perf_counter()
        events[0].record()
        runtime.cudaGraphicsMapResources(1, resource, stream)
        events[1].record()
        t1 = time.perf_counter()
        pointer, size = runtime.cudaGraphicsResourceGetMappedPointer(resource)[1:]
        memory = cupy.cuda.UnownedMemory(int(pointer), int(size), interop)
        target = cupy.ndarray((pixels, 4), cupy.uint8, cupy.cuda.MemoryPointer(memory, 0))
        interop._convert(((pixels + threads - 1) // threads,), (threads,), (image, target, np.int32(pixels)))
        events[2].record()
        t2 = time.perf_counter()
        runtime.cudaGraphicsUnmapResources(1, resource, stream)
        events[3].record()
        t3 = time.perf_counter()
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, display._pbo)
        display._tex_sub_image(GL.GL_RGBA, None)
        GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
        t4 = time.perf_counter()
        GL.glFinish()
        t5 = time.perf_counter()
        events[3].synchronize()
        for name, (a, b) in {"map": (0, 1), "convert": (1, 2), "unmap": (2, 3)}.items():
            gpu[name].append(cupy.cuda.get_elapsed_time(events[a], events[b]))
        for name, ms in zip(host, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            host[name].append(ms * 1000)
    report = {
        "gpu_ms": {k: statistics.median(v) for k, v in gpu.items()},
        "host_ms": {k: statistics.median(v) for k, v in host.items()},
    }
    app.close()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
