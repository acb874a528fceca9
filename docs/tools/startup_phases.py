"""Where one start of the app spends its time: run it with its phases marked (GPU machine).

    python3 docs/tools/startup_phases.py [--compiles] gui --headless --frames 2 --no-settings \\
        --vsync off --size 1024 --backend cuda --scene rand10k --stats F.json --overwrite

The arguments after the tool's own are rasterlab's. After the app exits, one line per mark:
seconds since the process started (the kernel's record of it, as ``first_frame_s``) and what
happened: the surface made, the session started, each module load (``ModuleCache.load``), the
App made and run, and when ``cupyx`` and SciPy were first looked for (with the call stack that
looked for them, on stderr). The tool imports the app's launch, surface, session and window
modules before the app starts, to mark their functions, so those imports are not where the app
does them. With ``--compiles``, each NVRTC compile (CuPy's own kernels and ours) prints a line on
stderr as it ends: its seconds, its callers in this repository and its first kernel's signature.
"""

import json
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.startup_clock import seconds_since_process_start  # noqa: E402

CLOCK_ZERO = time.perf_counter()
AGE_AT_ZERO = seconds_since_process_start() or 0.0
MARKS: list[tuple[float, str]] = []
WATCHED_IMPORTS = ("cupyx", "cupyx.scipy", "scipy")


def mark(what: str) -> None:
    MARKS.append((AGE_AT_ZERO + time.perf_counter() - CLOCK_ZERO, what))


class ImportWatch:
    """A finder that finds nothing: it notes when a watched module is first looked for, and who looked."""

    def find_spec(self, name, path=None, target=None):
        if name in WATCHED_IMPORTS:
            mark(f"import {name}")
            print(f"--- {name} looked for from:", file=sys.stderr)
            traceback.print_stack(file=sys.stderr, limit=14)
        return None


def marked(owner, attribute: str, label: str) -> None:
    """Replace ``owner.attribute`` by a function that marks its start and end."""
    real = getattr(owner, attribute)

    def call(*args, **kwargs):
        mark(f"{label} start")
        try:
            return real(*args, **kwargs)
        finally:
            mark(f"{label} end")

    setattr(owner, attribute, call)


def log_compiles() -> None:
    """Print a line for each NVRTC compile as it ends (CuPy's cache misses: its kernels and ours)."""
    from cupy.cuda import compiler

    real = compiler._compile_using_nvrtc_no_warning

    def logged(source, *args, **kwargs):
        started = time.perf_counter()
        try:
            return real(source, *args, **kwargs)
        finally:
            ours = [frame for frame in traceback.extract_stack() if frame.filename.startswith(str(ROOT))]
            callers = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(ours[-4:-1]))
            kernel = next((line.strip() for line in source.splitlines() if "__global__" in line), "?")
            print(f"NVRTC {time.perf_counter() - started:6.3f}s  {callers}  {kernel[:90]}", file=sys.stderr)

    compiler._compile_using_nvrtc_no_warning = logged


def main() -> int:
    arguments = sys.argv[1:]
    if arguments[:1] == ["--compiles"]:
        arguments = arguments[1:]
        log_compiles()
    mark("tool started")
    sys.meta_path.insert(0, ImportWatch())
    if "--headless" in arguments:
        os.environ["PYOPENGL_PLATFORM"] = "egl"  # as the app sets it, before OpenGL's first import
    import app.launch
    import app.session
    import app.surfaces
    import app.window
    from render.core import module_cache

    mark("launch, surface, session and window modules imported")
    marked(app.surfaces.EglSurface, "__init__", "EglSurface")
    marked(app.surfaces.GlfwWindow, "__init__", "GlfwWindow")
    marked(app.launch, "_start_session", "session")
    marked(app.session.Session, "select_scene", "Session.select_scene")
    marked(module_cache.ModuleCache, "load", "ModuleCache.load")
    marked(app.window.App, "__init__", "App.__init__")
    marked(app.window.App, "run", "App.run")
    from app.entry import main as rasterlab

    sys.argv = ["rasterlab", *arguments]
    code = rasterlab()
    for seconds, what in MARKS:
        print(f"{seconds:8.3f}  {what}")
    stats = [argument for argument in arguments if argument.endswith(".json")]
    if stats and Path(stats[0]).is_file():
        print("first_frame_s", json.loads(Path(stats[0]).read_text())["first_frame_s"])
    return code


if __name__ == "__main__":
    sys.exit(main())
