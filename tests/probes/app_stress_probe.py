"""Run as a script by the robustness tests: drives the whole app (session, display, panel)
in an offscreen EGL context and prints one JSON report on stdout.

    app_stress_probe.py resize BACKEND RESIZES      window resizes, minimizes, resolution changes
    app_stress_probe.py soak FRAMES SWITCH_EVERY    an animated scene, switching variants (CUDA)
    app_stress_probe.py gpu-loss                    a kernel fault that leaves CUDA unusable
    app_stress_probe.py interop-lost                interop failing mid-run (injected)

Needs PYOPENGL_PLATFORM=egl before OpenGL is imported, hence a process of its own. On a machine
without a GPU, EGL is Mesa's and only ``resize cpu`` makes sense.
"""

import ctypes
import json
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402

from app.display import _InteropTexture  # noqa: E402
from app.session import Session  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.surfaces import EglSurface  # noqa: E402
from app.window import App  # noqa: E402
from render.circles.reference import ReferenceRenderer  # noqa: E402
from render.core.renderer import render_frame  # noqa: E402

MiB = 2**20


def make_app(backend: str, scene: str, size: int, window=(900, 600), fit=False, tmp="/tmp") -> App:
    settings = Settings(scene=scene, size=size, vsync=False, fit_to_window=fit, export_folder=tmp)
    return App(EglSurface(*window), Session(settings, backend))


def memory() -> dict:
    """Host RSS, and on the GPU CuPy's pool (in use, held) and the device's used memory, in MiB.

    glibc is asked to hand freed heap back first, so that RSS follows what is still allocated.
    """
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as stream:
        rss = int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MiB
    figures = {"host_rss": round(rss, 1)}
    if tracemalloc.is_tracing():
        figures["python_heap"] = round(tracemalloc.get_traced_memory()[0] / MiB, 2)
    try:
        import cupy

        if cupy.cuda.is_available():
            pool = cupy.get_default_memory_pool()
            free, total = cupy.cuda.runtime.memGetInfo()
            figures.update(
                pool_used=round(pool.used_bytes() / MiB, 2),
                pool_held=round(pool.total_bytes() / MiB, 2),
                device_used=round((total - free) / MiB, 1),
            )
    except ImportError:
        pass
    return figures


def settle(app: App, timeout: float = 120.0) -> None:
    """Run frames until the CPU backend has shown its latest frame (one frame on the GPU)."""
    deadline = time.monotonic() + timeout
    app.frame()
    while app.session.frame_outstanding and time.monotonic() < deadline:
        app.frame()
        time.sleep(0.002)


def exact(app: App) -> bool:
    """Whether the shown frame equals the CPU reference's frame at the current size."""
    session = app.session
    reference = ReferenceRenderer()
    reference.load(session.scene, session.settings.size, session.settings.size)
    return bool(np.array_equal(session.host_image(), render_frame(reference, session.frame)))


def texture_equals_frame(app: App) -> bool:
    """Whether the window's texture holds the session's latest frame, as 8-bit RGB (read back
    through GL: a GL context stuck behind CUDA work that never ends would hang here)."""
    from render.core.image_io import quantize_rgb8

    texture = app.display.read_texture()
    return bool(np.array_equal(texture[..., :3], quantize_rgb8(app.session.host_image())))


def interop_counts() -> dict:
    return {"registered": _InteropTexture.registered, "released": _InteropTexture.released}


def resize(backend: str, resizes: int) -> dict:
    """``resizes`` window sizes while playing, every 25th a minimize for 3 frames; every 10th an
    explicit render resolution instead of fit-to-window. Memory is sampled every 50 resizes: the
    allocators keep a high-water mark, so a leak shows as growth that goes on, not as growth."""
    tracemalloc.start()
    app = make_app(backend, "hypnosis", 512, fit=True)
    app.session.toggle_play()
    settle(app)
    start_size = app.settings.size
    samples = [{"resizes": 0, **memory()}]
    rng = random.Random(6)
    sizes, minimized_frames = set(), 0
    for step in range(resizes):
        if step % 25 == 24:
            app.surface.set_size(0, 0)
            for _ in range(3):
                app.frame()
                minimized_frames += app.surface.framebuffer_size() == (0, 0)
        width, height = rng.randint(600, 1800), rng.randint(300, 1200)
        app.surface.set_size(width, height)
        app.settings.fit_to_window = step % 10 != 9
        if not app.settings.fit_to_window:
            app.session.set_size(rng.randint(256, 1500))
        app.frame()
        sizes.add(app.settings.size)
        if step % 50 == 49:
            samples.append({"resizes": step + 1, **memory()})
    app.surface.set_size(900, 600)
    app.settings.fit_to_window = True
    frame_before, deadline = app.session.frame, time.monotonic() + 60
    while app.session.frame < frame_before + 3 and time.monotonic() < deadline:
        app.frame()
    app.session.playing = False
    settle(app)
    samples.append({"resizes": resizes, "back_to_900x600": True, **memory()})
    report = {
        "resizes": resizes,
        "render_sizes": len(sizes),
        "minimized_frames": minimized_frames,
        "frames_played_after": app.session.frame - frame_before,
        "frame": app.session.frame,
        "start_size": start_size,
        "size": app.settings.size,
        "display_path": app.display.path,
        "status": app.session.status,
        "exact": exact(app),
        "memory": samples,
        "interop": interop_counts(),
    }
    app.close()
    report["interop_after_close"] = interop_counts()
    return report


def soak(frames: int, switch_every: int) -> dict:
    """``frames`` shown frames of fireworks, playing, cycling through every variant."""
    from render.circles.variants import VARIANTS

    labels = [choice.label() for choice in VARIANTS.configurations()] + ["auto"]
    tracemalloc.start()
    app = make_app("cuda", "fireworks", 512)
    app.session.toggle_play()
    samples, failures, switches = [], [], 0
    started = time.perf_counter()
    for shown in range(frames):
        if shown and shown % switch_every == 0:
            switches += 1
            if not app.session.set_variant(labels[switches % len(labels)]):
                failures.append(app.session.status)
            app.session.playing = True
        if not app.frame():
            failures.append("the loop stopped")
            break
        if shown % 1000 == 0 or shown == frames - 1:
            samples.append({"shown": shown, "frame": app.session.frame, **memory(), **interop_counts()})
    seconds = time.perf_counter() - started
    app.session.playing = False
    report = {
        "frames": frames,
        "first_pass_frames": len(labels) * switch_every,  # every variant shown once by then
        "switches": switches,
        "seconds": round(seconds, 1),
        "scene_frame": app.session.frame,
        "variant": app.session.variant_label(),
        "display_path": app.display.path,
        "backend": app.session.backend,
        "failures": failures,
        "exact": exact(app),
        "samples": samples,
    }
    app.close()
    return report


def running_on_the_gpu(frames: int) -> tuple[App, str]:
    """The app on rand10k at 512 after ``frames`` frames on the GPU, and its display path then."""
    app = make_app("cuda", "rand10k", 512)
    for _ in range(frames):
        app.frame()
    return app, app.display.path


def gpu_loss() -> dict:
    """A kernel executes ``trap``: the context is unusable from then on, as when a GPU is lost."""
    import cupy

    app, path_before = running_on_the_gpu(10)
    fault = cupy.RawKernel('extern "C" __global__ void fault() { asm("trap;"); }', "fault")
    fault((1,), (1,), ())
    # The texture holds the last GPU frame, which equals the CPU's: overwrite it, so that only a
    # frame shown after the fault can make it equal again.
    from OpenGL import GL

    width, height = app.display.size
    app.display._tex_sub_image(GL.GL_RGBA, np.full((height, width, 4), 77, np.uint8))
    started = time.monotonic()
    for _ in range(5):
        app.frame()
    settle(app)
    report = {
        "path_before": path_before,
        "backend": app.session.backend,
        "status": app.session.status,
        "backend_note": app.session.backend_note,
        "display_path": app.display.path,
        "seconds_to_recover": round(time.monotonic() - started, 2),
        "exact": exact(app),
        "texture_equals_frame": texture_equals_frame(app),
    }
    app.close()
    return report


def interop_lost() -> dict:
    """Interop works, then mapping the buffer fails (injected): the display goes on by host copy."""
    from app.display import InteropUnavailable

    app, path_before = running_on_the_gpu(3)

    def failing_write(image):
        raise InteropUnavailable("cudaGraphicsMapResources failed: injected (999)")

    app.display._interop.write = failing_write
    for _ in range(3):
        app.frame()
    report = {
        "path_before": path_before,
        "display_path": app.display.path,
        "notice": app.display.notice,
        "texture_equals_frame": texture_equals_frame(app),
        "interop": interop_counts(),
    }
    app.close()
    return report


if __name__ == "__main__":
    mode, arguments = sys.argv[1], sys.argv[2:]
    if mode == "resize":
        result = resize(arguments[0], int(arguments[1]))
    elif mode == "soak":
        result = soak(int(arguments[0]), int(arguments[1]))
    elif mode == "gpu-loss":
        result = gpu_loss()
    else:
        result = interop_lost()
    print(json.dumps(result))
