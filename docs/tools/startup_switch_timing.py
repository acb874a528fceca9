"""Measure the app's start-up and variant-switch times on a GPU machine; prints one JSON object.

    python3 docs/tools/startup_switch_timing.py [--scene rand10k] [--size 1024] [--cold-runs 2] [--warm-runs 3]

1. Start-up: ``python main.py gui --headless --frames 2 --no-settings --vsync off --stats F.json``
   (this checkout's ``rasterlab``, run by this script's interpreter), each in a process of its own:
   ``--cold-runs`` with a fresh, empty ``CUPY_CACHE_DIR`` each, then ``--warm-runs`` with the last
   cold run's folder again. The figure is the app's ``first_frame_s``: from the process's start as
   the kernel records it (``/proc/self/stat``, so the interpreter's start and every import count) to
   the first frame shown (after its buffer swap). The wall time of the whole process, exit
   included, is given beside it. Settings come from a fresh config folder, so none of yours is used.
2. Switches (GPU only): the kernels every variant of both tables needs are built into that cache
   folder by one process; a fresh one (warm disk cache, nothing in memory) then runs the headless
   app and, through the Session, switches to every variant of the circle table (each option
   combination, and ``auto``) on ``--scene``, and of the sphere table on ``classic``, each switch as
   soon as the last one has landed. A frame's wall time runs from one shown frame to the next, the
   switch call included; ``longest_frame_ms`` is the longest of them all.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SETTLE_FRAMES = 5  # frames shown after a switch lands, before the next switch
LAND_TIMEOUT_S = 120  # a switch still waiting after this long is reported as not landed
TARGETS = {"warm_first_frame_s": 1.0, "cold_first_frame_s": 5.0, "longest_switch_frame_ms": 50.0}


def start_up_command(options: argparse.Namespace, stats: str) -> list[str]:
    """The app, headless, from the default settings to its second frame, its stats to ``stats``."""
    command = [
        sys.executable,
        str(ROOT / "main.py"),
        "gui",
        "--headless",
        "--frames",
        "2",
        "--no-settings",
        "--vsync",
        "off",
    ]
    return command + [
        "--scene",
        options.scene,
        "--size",
        str(options.size),
        "--backend",
        options.backend,
        "--stats",
        stats,
    ]


def start_up(env: dict, folder: Path, run: int, options: argparse.Namespace) -> dict:
    """One start of the app to its first frame: ``first_frame_s`` and the process's wall time."""
    stats = folder / f"stats-{run}.json"
    command = start_up_command(options, str(stats))
    started = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)} exited with {result.returncode}: {result.stderr[-2000:]}")
    report = json.loads(stats.read_text())
    if report["first_frame_s"] is None:
        raise SystemExit("error: the app could not tell its start time (it reads /proc: Linux only)")
    return {
        "first_frame_s": round(report["first_frame_s"], 3),
        "process_wall_s": round(wall, 3),
        "variant": report["variant"],
    }


def inner(mode: str, env: dict, options: argparse.Namespace) -> dict:
    """This script in a process of its own, running ``mode``; its JSON answer."""
    command = [sys.executable, __file__, "--inner", mode, "--scene", options.scene, "--size", str(options.size)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        raise SystemExit(f"error: the {mode} step exited with {result.returncode}: {result.stderr[-2000:]}")
    return json.loads(result.stdout)


def choices_of(kind) -> list:
    """Every concrete variant of ``kind`` with every option combination, and the rows without a
    source (``auto``)."""
    table = kind.variants
    return [*table.configurations(), *(table.parse(name) for name in table if not table[name].source)]


def scene_of(kind, options):
    return kind.built_in_scene(options.scene if kind.name == "circles" else "classic", None, None)


def warm_every_variant(options) -> dict:
    from render.core import kernels
    from render.core.kind import Look
    from render.kinds import KINDS

    started = time.perf_counter()
    builds = [("to_rgba8.cu", {})]  # the display's conversion kernel
    for kind in KINDS.values():
        scene = scene_of(kind, options)
        for choice in choices_of(kind):
            builds += kind.kernel_builds(choice, scene, options.size, Look())
    kernels.warm(builds)
    return {"builds": len(builds), "seconds": round(time.perf_counter() - started, 2)}


def switch_through(kind_name: str, options) -> dict:
    """The headless app on ``kind_name``'s scene, switched through every variant of its table."""
    from app.session import Session
    from app.settings import Settings
    from app.surfaces import EglSurface
    from app.window import App
    from render.kinds import KINDS

    kind = KINDS[kind_name]
    settings = Settings(renderer=kind_name, size=options.size, vsync=False, export_folder=tempfile.gettempdir())
    setattr(settings, kind.settings_fields["scene"], options.scene if kind_name == "circles" else "classic")
    app = App(EglSurface(1280, 800), Session(settings, "cuda"))
    walls: list[float] = []
    last = time.perf_counter()

    def shown() -> None:
        nonlocal last
        app.frame()
        now = time.perf_counter()
        walls.append((now - last) * 1000)
        last = now

    for _ in range(3):  # the first frames: start-up, not switches
        shown()
    walls.clear()
    switches = []
    for choice in choices_of(kind):
        first = len(walls)
        called = time.perf_counter()
        app.session.set_variant(choice)
        waited = app.session.compiling is not None
        while app.session.compiling is not None and time.perf_counter() - called < LAND_TIMEOUT_S:
            shown()
        landed = app.session.compiling is None and app.session.variant == choice
        landed_after = time.perf_counter() - called
        for _ in range(SETTLE_FRAMES):
            shown()
        switches.append(
            {
                "variant": choice.label(),
                "running": app.session.variant_label(),
                "waited_for_compile": waited,
                "landed": landed,
                "landed_after_ms": round(landed_after * 1000, 2),
                "longest_frame_ms": round(max(walls[first:]), 2),
                "status": app.session.status,
            }
        )
    report = {
        "scene": app.session.scene_name,
        "size": options.size,
        "display_path": app.display.path,
        "frames": len(walls),
        "median_frame_ms": round(statistics.median(walls), 3),
        "longest_frame_ms": round(max(walls), 2),
        "switches": switches,
    }
    app.close()
    return report


def measure(options: argparse.Namespace) -> dict:
    work = Path(tempfile.mkdtemp(prefix="rasterlab-timing-"))
    try:
        return measure_in(work, options)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure_in(work: Path, options: argparse.Namespace) -> dict:
    """The start-ups, then (GPU) the switches, with kernel caches and settings under ``work``."""
    base = {**os.environ, "RASTERLAB_CONFIG_DIR": str(work / "config"), "PYTHONUNBUFFERED": "1"}
    cold, caches = [], []
    for run in range(options.cold_runs):
        caches.append(work / f"kernel-cache-{run}")
        env = {**base, "CUPY_CACHE_DIR": str(caches[-1])}
        cold.append(start_up(env, work, len(cold), options))
        print(f"cold start {run + 1}: {cold[-1]}", file=sys.stderr)
    env = {**base, "CUPY_CACHE_DIR": str(caches[-1])}
    warm = []
    for run in range(options.warm_runs):
        warm.append(start_up(env, work, options.cold_runs + run, options))
        print(f"warm start {run + 1}: {warm[-1]}", file=sys.stderr)
    report: dict = {
        "command": " ".join(start_up_command(options, "F.json")),
        "backend": options.backend,
        "scene": options.scene,
        "size": options.size,
        "targets": TARGETS,
        "start_up": {
            "cold": cold,
            "warm": warm,
            "cold_first_frame_s_median": statistics.median(run["first_frame_s"] for run in cold),
            "warm_first_frame_s_median": statistics.median(run["first_frame_s"] for run in warm),
        },
    }
    if options.backend == "cuda":
        report["warmed_cache"] = inner("warm", env, options)
        report["switches"] = {name: inner(f"switch-{name}", env, options) for name in ("circles", "spheres")}
        report["longest_switch_frame_ms"] = max(part["longest_frame_ms"] for part in report["switches"].values())
        from render.core.gpu import gpu_name

        report["gpu"] = gpu_name()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="rand10k", help="the circle scene (default rand10k)")
    parser.add_argument("--size", type=int, default=1024, help="render size (default 1024)")
    parser.add_argument("--cold-runs", type=int, default=2, help="starts with an empty kernel cache (default 2)")
    parser.add_argument("--warm-runs", type=int, default=3, help="starts with that cache again (default 3)")
    parser.add_argument("--backend", choices=("cuda", "cpu"), default="cuda", help="cpu: start-up only")
    parser.add_argument("--inner", help=argparse.SUPPRESS)  # a step run in a process of its own
    options = parser.parse_args()
    if min(options.cold_runs, options.warm_runs) < 1:
        parser.error("--cold-runs and --warm-runs must be at least 1")
    if options.inner == "warm":
        result = warm_every_variant(options)
    elif options.inner:
        os.environ["PYOPENGL_PLATFORM"] = "egl"  # before OpenGL is imported: no display needed
        result = switch_through(options.inner.removeprefix("switch-"), options)
    else:
        result = measure(options)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
