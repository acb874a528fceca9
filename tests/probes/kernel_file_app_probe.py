"""Run as a script by the GPU tests: the app in an offscreen EGL context on the CUDA backend running
a copy of the per-pixel template as ``file:PATH``, edited while it runs: a comment (it reloads and
checks out exact; how long from the save to the new build drawing), a change that skips every circle
(it reloads and the check fails), a syntax error (the log, while the previous build keeps drawing),
and a write far out of bounds (reported, and the app goes on). Prints one JSON object a line, each
part as soon as it is known (a hang later still leaves the earlier parts), the last once the app
has closed.

Needs PYOPENGL_PLATFORM=egl before OpenGL is imported, hence a process of its own.
Usage: kernel_file_app_probe.py [--host-copy]   (--host-copy: frames reach the window through the
host, not interop: whether GPU processes started later still hang after the fault)
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

import numpy as np  # noqa: E402
from offscreen_app import offscreen_app  # noqa: E402

from shaders import SHADER_DIR  # noqa: E402

TEMPLATE = (SHADER_DIR / "user" / "per_pixel.cu").read_text()
BLEND = "for (int i = 0; i < count; ++i)"


def frames_until(app, done, timeout=20.0) -> float:
    """Run the window until ``done()``; the seconds it took (inf if it never came)."""
    start = time.monotonic()
    while not done():
        if time.monotonic() - start > timeout:
            return float("inf")
        app.frame()
    return time.monotonic() - start


def say(part: str, value) -> None:
    print(json.dumps({part: value}), flush=True)


def main() -> None:
    kernel = Path(tempfile.mkdtemp()) / "mine.cu"
    kernel.write_text(TEMPLATE)
    app, _ = offscreen_app("rgb", 256, f"file:{kernel}")
    app.set_force_host_copy("--host-copy" in sys.argv[1:])
    session, watch = app.session, app.kernel_watch
    try:
        frames_until(app, lambda: len(session.history) >= 3)
        start = {"variant": session.variant.label(), "backend": session.backend, "display_path": app.display.path}
        say("start", start)

        kernel.write_text(TEMPLATE + "// an edit that changes nothing drawn\n")
        seconds = frames_until(app, lambda: watch.reloads == 1)
        frames_until(app, lambda: session.last_check is not None)
        say("comment", {"reload_s": seconds, "check": session.last_check.summary()})

        session.last_check = None
        kernel.write_text(TEMPLATE.replace(BLEND, "for (int i = 0; i < 0; ++i)"))
        frames_until(app, lambda: watch.reloads == 2 and session.last_check is not None)
        blank = session.host_image()
        skipped = {"check": session.last_check.summary(), "passed": session.last_check.passed}
        say("skips_circles", skipped | {"background_only": bool(np.all(blank == blank[0, 0]))})

        kernel.write_text(TEMPLATE.replace(BLEND, "for (int i = 0; i < count; ++i) nonsense"))
        frames_until(app, lambda: bool(watch.error))
        before = len(session.history)
        frames_until(app, lambda: len(session.history) >= before + 10)
        say(
            "syntax_error",
            {
                "error": watch.error,
                "log_names_the_line": f"{kernel}(" in watch.log,
                "frames_kept_coming": len(session.history) >= before + 10,
                "previous_build_draws": bool(np.array_equal(session.host_image(), blank)),
                "variant": session.variant.label(),
            },
        )

        kernel.write_text(TEMPLATE.replace("image[y * width + x] = pixel;", "image[(1ll << 40) + x] = pixel;"))
        frames_until(app, lambda: session.backend == "cpu", timeout=30)
        before = len(session.history)
        frames_until(app, lambda: session.host_image() is not None and len(session.history) > before, timeout=60)
        say(
            "out_of_bounds",
            {"backend": session.backend, "status": session.status, "frames_after": len(session.history) - before},
        )
    finally:
        app.close()
    say("closed", {"gl_abandoned": app.gl_abandoned})
    if app.gl_abandoned:
        os._exit(0)  # as the app ends after a GPU failure: no GL teardown at exit


if __name__ == "__main__":
    main()
