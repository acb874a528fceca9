"""The command line: ``render``, ``check``, ``bench``, ``gui`` and ``scene save``.

Every user error exits with code 2 and one line ``error: ...`` on stderr, after the command's usage
when the arguments are what is wrong; a failed check exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from app.cli_spheres import SphereUsageError
from app.outputs import OutputRefused, claim_outputs
from render.base import RendererUnavailable, render_frame
from render.gpu import gpu_problem
from render.image_io import ExportError, write_png, write_raw, write_text_file
from render.sphere_shading import VIEWS
from render.variants import VARIANT_NAMES, UnknownVariantError, checked_variants
from scenes.builtin import SCENE_NAMES, SCORED_SCENES, UnknownSceneError, build_scene
from scenes.files import SceneFileError, is_scene_file, save_scene
from scenes.lookup import scene_loader, sphere_scene_loader
from scenes.model import CircleScene
from scenes.spheres import UnknownSphereSceneError

MAX_SIZE = 16384
RENDERERS = ("circles", "spheres")
OVERWRITE_HELP = "replace output files that exist (otherwise: asked at a terminal, refused elsewhere)"


class UsageError(Exception):
    """Bad arguments: printed after the command's usage, exit code 2."""


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be an integer, got {text!r}") from None
    if not 1 <= value <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"size must be between 1 and {MAX_SIZE}, got {value}")
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a value >= 0, got {value}")
    return value


def _unit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a value in 0..1, got {text}")
    return value


def _spheres_only(args: argparse.Namespace, names: tuple[str, ...]) -> None:
    """Reject sphere-only options given with the circle renderer."""
    given = [f"--{name}" for name in names if getattr(args, name, None) is not None]
    if given:
        raise UsageError(f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} to --renderer spheres")


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected a value >= 1, got 0")
    return value


def _variants(names: list[str] | None, renderer: str = "circles") -> list[str]:
    try:
        return checked_variants(names, renderer)
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None


def _note(text: str) -> None:
    print(text, file=sys.stderr)


def choose_backend(requested: str | None) -> str:
    """'cuda' or 'cpu'; without a request, cuda when a GPU is usable, saying which was chosen."""
    problem = gpu_problem()
    if requested == "cuda" and problem:
        raise RendererUnavailable(f"--backend cuda needs a CUDA GPU: {problem}")
    if requested:
        return requested
    if problem:
        _note(f"backend: cpu (reference renderer; {problem})")
        return "cpu"
    from render.gpu import gpu_name

    _note(f"backend: cuda ({gpu_name()})")
    return "cuda"


def cmd_render(args: argparse.Namespace) -> int:
    if args.renderer == "spheres":
        from app.cli_spheres import render_spheres

        return render_spheres(args, choose_backend)
    _spheres_only(args, ("count", "view", "azimuth", "elevation", "roughness", "metalness"))
    make_scene = scene_loader(args.scene, 0 if args.seed is None else args.seed)
    if args.variant and args.backend == "cpu":
        raise UsageError("--variant applies to the cuda backend; the cpu backend is the reference")
    variant = args.variant or "auto"
    _variants([variant])
    scene = make_scene()
    out = args.out or (None if args.raw else f"{scene.name}_{args.frame:04d}.png")
    claim_outputs([out, args.raw], args.overwrite)
    backend = choose_backend(args.backend)
    if backend == "cuda":
        from render.cuda_renderer import CudaRenderer

        renderer = CudaRenderer(variant)
    else:
        from render.reference import ReferenceRenderer

        renderer = ReferenceRenderer()
    renderer.load(scene, args.size, args.size)
    image = render_frame(renderer, args.frame)
    label = getattr(renderer, "resolved", None)
    outputs = []
    if out:
        outputs.append(write_png(image, out))
    if args.raw:
        outputs.append(write_raw(image, args.raw))
    used = f"{backend}" + (f" {label.label()}" if label else "")
    for path in outputs:
        print(f"wrote {path} ({scene.name}, {args.size}x{args.size}, frame {args.frame}, {used})")
    return 0


def _scene_list(names: list[str] | None, seed: int) -> list[tuple[str, Callable[[], CircleScene]]]:
    return [(name, scene_loader(name, seed)) for name in (names or list(SCENE_NAMES))]


def _require_gpu(command: str) -> None:
    problem = gpu_problem()
    if problem:
        raise RendererUnavailable(f"{command} runs the CUDA variants and needs a CUDA GPU: {problem}")


def cmd_check(args: argparse.Namespace) -> int:
    if args.renderer == "spheres":
        from app.cli_spheres import check_spheres, sphere_variants

        sphere_variants(args.variants)
        _require_gpu("check")

        return check_spheres(args)
    _spheres_only(args, ("view",))
    scenes = _scene_list(args.scenes, args.seed)
    variants = _variants(args.variants)
    _require_gpu("check")
    from render.check import run_check

    header = f"{'scene':<14} {'variant':<40} {'max |diff|':>11} {'bad':>6}  result"
    print(header)
    print("-" * len(header))

    def report(row) -> None:
        if row.comparison is None:
            print(f"{row.scene:<14} {row.variant:<40} {'-':>11} {'-':>6}  UNAVAILABLE: {row.note}")
        else:
            c = row.comparison
            verdict = "pass" if c.passed else "FAIL"
            print(f"{row.scene:<14} {row.variant:<40} {c.max_abs_diff:>11.3g} {c.bad_values:>6}  {verdict}")
        sys.stdout.flush()

    rows = run_check(scenes, variants, args.size, args.frame, report)
    failed = [row for row in rows if not row.passed]
    print(f"{len(rows) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def _progress_bar(done: int, total: int, label: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<48}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_bench(args: argparse.Namespace) -> int:
    if args.renderer == "spheres":
        from app.cli_spheres import bench_spheres, check_bench_arguments

        check_bench_arguments(args)
        _require_gpu("bench")
        return bench_spheres(args, _progress_bar)
    _spheres_only(args, ("counts", "sizes", "view", "chart"))
    scenes = _scene_list(args.scenes or list(SCORED_SCENES), args.seed)
    variants = _variants(args.variants)
    claim_outputs([args.json], args.overwrite)
    _require_gpu("bench")
    from render.bench import BEST_PEER_MS, run_bench
    from render.gpu import gpu_name

    rows = run_bench(scenes, variants, args.size, args.frames, args.runs, _progress_bar)
    print(f"{gpu_name()}, {args.size}x{args.size}, seed {args.seed}, frames 0-{args.frames - 1}, best of {args.runs}")
    header = (
        f"{'scene':<11} {'variant':<24} {'total ms':>9} {'peer ms':>8} {'clear':>7} {'advance':>7} "
        f"{'binning':>8} {'blending':>8} {'floor ms':>9} {'x floor':>8} {'pool MiB':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        if row.total_ms is None:
            print(f"{row.scene:<11} {row.variant:<24} unavailable: {row.note}")
            continue
        peer = BEST_PEER_MS.get(row.scene) if args.size == 1024 and args.seed == 0 else None
        st = row.stage_ms
        print(
            f"{row.scene:<11} {row.variant:<24} {row.total_ms:>9.3f} {peer if peer else '-':>8} "
            f"{st.get('clear', 0):>7.3f} {st.get('advance', 0):>7.3f} {st.get('binning', 0):>8.3f} "
            f"{st.get('blending', 0):>8.3f} {row.floor_ms:>9.4f} {row.floor_ratio or 0:>8.1f} {row.pool_mib:>8.1f}"
        )
    if args.json:
        payload = {
            "gpu": gpu_name(),
            "size": args.size,
            "seed": args.seed,
            "frames": args.frames,
            "runs": args.runs,
            "rows": [dict(row.__dict__, floor_ratio=row.floor_ratio) for row in rows],
        }
        write_text_file(json.dumps(payload, indent=2), args.json)
        print(f"wrote {args.json}")
    return 0


def cmd_scene_save(args: argparse.Namespace) -> int:
    if args.name not in SCENE_NAMES:
        raise UsageError(f"unknown scene {args.name!r}; built-in scenes are: {', '.join(SCENE_NAMES)}")
    if not is_scene_file(args.file):
        raise UsageError(f"{args.file}: scene files end in .npz or .json")
    claim_outputs([args.file], args.overwrite)
    scene = build_scene(args.name, args.seed)
    if args.frame is not None:
        from scenes.animation import advance

        for _ in range(args.frame + 1):
            advance(scene)
    try:
        path = save_scene(scene, args.file)
    except OSError as error:
        raise ExportError(f"cannot write {args.file}: {error.strerror or error}") from None
    print(f"wrote {path} ({args.name}, {scene.count} circles)")
    return 0


def _gui_size(text: str) -> int:
    value = _size(text)
    if not 256 <= value <= 4096:
        raise argparse.ArgumentTypeError(f"the app renders at 256..4096, got {value}")
    return value


def _window_size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"window size must be WxH, e.g. 1280x800, got {text!r}") from None
    if min(size) < 200 or max(size) > 16384:
        raise argparse.ArgumentTypeError(f"window size must be 200..16384 each way, got {text!r}")
    return size


def cmd_gui(args: argparse.Namespace) -> int:
    from app.launch import GuiOptions, run_gui

    # --scene, --variant and --seed name a renderer's things: circles unless --renderer says otherwise.
    names_something = args.scene or args.variant or args.seed is not None
    renderer = args.renderer or ("circles" if names_something else None)
    if renderer == "circles":
        _spheres_only(args, ("count", "view"))
    if args.variant:
        _variants([args.variant], renderer or "circles")
    if args.backend == "cuda":
        choose_backend("cuda")
    claim_outputs([args.screenshot, args.stats], args.overwrite)
    if args.scene and renderer == "circles":
        scene_loader(args.scene, 0)
    elif args.scene:
        sphere_scene_loader(args.scene, None, None)
    options = GuiOptions(
        renderer=renderer,
        count=args.count,
        view=args.view,
        scene=args.scene,
        variant=args.variant,
        size=args.size,
        seed=args.seed,
        backend=args.backend,
        frames=args.frames,
        screenshot=args.screenshot,
        headless=args.headless,
        window=args.window,
        vsync=None if args.vsync is None else args.vsync == "on",
        force_host_copy=True if args.host_copy else None,
        stats=args.stats,
    )
    return run_gui(options)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="main.py",
        description="rasterlab: explore GPU circle-rendering kernels (CS149 assignment 3 scenes).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    render = sub.add_parser("render", help="render one frame of a scene to PNG and/or raw float32")
    render.add_argument(
        "--scene",
        required=True,
        help=f"built-in scene ({', '.join(SCENE_NAMES)}; spheres: classic, random) or a .npz/.json file",
    )
    render.add_argument("--renderer", choices=RENDERERS, default="circles", help="default: circles")
    render.add_argument("--count", type=_non_negative, help="spheres: how many (classic 20, random 1024)")
    render.add_argument("--size", type=_size, default=1024, help="image width and height (default 1024)")
    render.add_argument("--seed", type=_non_negative, help="scene seed (default 0; spheres classic: 1)")
    render.add_argument("--frame", type=_non_negative, default=0, help="frame k, rendered after k+1 advances")
    render.add_argument("--variant", help=f"CUDA variant: {', '.join(VARIANT_NAMES)} (options: name:key=value,...)")
    render.add_argument("--backend", choices=("cpu", "cuda"), help="default: cuda when a GPU is usable")
    render.add_argument("--out", help="PNG file (default <scene>_<frame>.png when no --raw)")
    render.add_argument("--raw", help="float32 (N, N, 4) RGBA .npy, unclamped, row 0 = top")
    render.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    shaded = render.add_argument_group("spheres, shaded view")
    shaded.add_argument("--view", choices=VIEWS, help="spheres: classic (the book's, default) or shaded")
    shaded.add_argument("--azimuth", type=float, help="camera degrees around the y axis (default 30)")
    shaded.add_argument("--elevation", type=float, help="camera degrees above the xz plane, -89..89 (default 20)")
    shaded.add_argument("--roughness", type=_unit, help="GGX roughness 0..1 (default 0.35; at least 0.05)")
    shaded.add_argument("--metalness", type=_unit, help="0 dielectric .. 1 metal (default 0)")
    render.set_defaults(run=cmd_render, usage=render.format_usage)

    check = sub.add_parser("check", help="compare every CUDA variant with the CPU reference")
    check.add_argument("--renderer", choices=RENDERERS, default="circles", help="default: circles")
    check.add_argument("--scenes", nargs="+", help="default: all 14 built-in scenes (spheres: classic and random)")
    check.add_argument("--variants", nargs="+", help="default: every variant")
    check.add_argument("--size", type=_size, default=1024)
    check.add_argument("--seed", type=_non_negative, default=0)
    check.add_argument("--frame", type=_non_negative, default=0)
    check.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")
    check.set_defaults(run=cmd_check, usage=check.format_usage)

    bench = sub.add_parser("bench", help="time variants with the CS149 protocol and CUDA events")
    bench.add_argument("--renderer", choices=RENDERERS, default="circles", help="default: circles")
    bench.add_argument("--scenes", nargs="+", help="default: the 8 scored scenes")
    bench.add_argument("--counts", nargs="+", type=_positive, help="spheres: counts (default 20 256 1024 2340 16384)")
    bench.add_argument("--sizes", nargs="+", type=_size, help="spheres: sizes (default 512 1024 2048)")
    bench.add_argument("--variants", nargs="+", help="default: every variant")
    bench.add_argument("--size", type=_size, default=1024)
    bench.add_argument("--seed", type=_non_negative, default=0)
    bench.add_argument("--frames", type=_positive, default=4)
    bench.add_argument("--runs", type=_positive, default=3)
    bench.add_argument("--json", help="also write every figure to this JSON file")
    bench.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")
    bench.add_argument("--chart", help="spheres: also draw the timings as a PNG chart")
    bench.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    bench.set_defaults(run=cmd_bench, usage=bench.format_usage)

    gui = sub.add_parser("gui", help="run the app's window loop for N frames (tests, docs, screenshots)")
    gui.add_argument("--renderer", choices=RENDERERS, help="circles or spheres (default: the last one used)")
    gui.add_argument("--scene", help="built-in scene or scene file (default: the last one used)")
    gui.add_argument("--count", type=_positive, help="spheres: the random scene's count")
    gui.add_argument("--view", choices=VIEWS, help="spheres: classic or shaded")
    gui.add_argument("--variant", help=f"CUDA variant: {', '.join(VARIANT_NAMES)} (options: name:key=value,...)")
    gui.add_argument("--size", type=_gui_size, help="render resolution, 256..4096")
    gui.add_argument("--seed", type=_non_negative)
    gui.add_argument("--backend", choices=("cpu", "cuda"), help="default: cuda when a GPU is usable")
    gui.add_argument("--frames", type=_positive, required=True, help="window-loop passes before exiting")
    gui.add_argument("--screenshot", help="save the window, UI included, as PNG after the last frame")
    gui.add_argument("--window", type=_window_size, help="window size WxH (default: the last one used)")
    gui.add_argument("--headless", action="store_true", help="render offscreen through EGL (no display needed)")
    gui.add_argument("--vsync", choices=("on", "off"), help="default: the last setting used")
    gui.add_argument("--host-copy", action="store_true", help="force the host-copy display path (no interop)")
    gui.add_argument("--stats", help="write median frame, stage and display-copy times to this JSON file")
    gui.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    gui.set_defaults(run=cmd_gui, usage=gui.format_usage)

    scene = sub.add_parser("scene", help="scene files")
    scene_sub = scene.add_subparsers(dest="scene_command", metavar="ACTION", required=True)
    save = scene_sub.add_parser("save", help="save a built-in scene to .npz or .json")
    save.add_argument("name", help="built-in scene name")
    save.add_argument("file", help="output file (.npz or .json)")
    save.add_argument("--seed", type=_non_negative, default=0)
    save.add_argument("--frame", type=_non_negative, help="save the state of frame k (after k+1 advances)")
    save.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    save.set_defaults(run=cmd_scene_save, usage=save.format_usage)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from app.launch import GuiOptions, run_gui

        return run_gui(GuiOptions(persist=True))
    try:
        return args.run(args)
    except (
        UsageError,
        SphereUsageError,
        UnknownSceneError,
        UnknownSphereSceneError,
        OutputRefused,
    ) as error:
        sys.stderr.write(args.usage())
        _note(f"error: {error}")
        return 2
    except (SceneFileError, RendererUnavailable, ExportError) as error:
        _note(f"error: {error}")
        return 2
    except KeyboardInterrupt:
        _note("interrupted")
        return 130
