"""The command line: ``render``, ``check``, ``bench``, ``gui`` and ``scene save``.

Exit codes: 0 success; 1 a check found differences, or a runtime failure (an output could not be
written, standard output closed or full, out of host memory); 2 bad arguments or input, with the
command's usage when the arguments are what is wrong; 128 + N when stopped by signal N (130 for
Ctrl-C). A stopped or failed command leaves no partial or temporary file behind.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable

from app.cli_spheres import SphereUsageError
from app.outputs import OutputRefused, claim_outputs, output_name, writes_to_stdout
from render.core import limits
from render.core.gpu import gpu_problem
from render.core.image_io import write_png, write_raw, write_text_file
from render.core.renderer import OutOfHostMemory, RendererUnavailable, render_frame
from render.core.variants import VARIANT_NAMES, UnknownVariantError, checked_variants
from render.spheres.shading import VIEWS
from scenes.builtin import SCENE_NAMES, SCORED_SCENES, UnknownSceneError, build_scene
from scenes.files import SCENE_SUFFIXES, SceneFileError, save_scene
from scenes.lookup import scene_loader, sphere_scene_loader
from scenes.model import CircleScene
from scenes.safe_write import OutputError, reserve_standard_descriptors
from scenes.spheres import UnknownSphereSceneError

RENDERERS = ("circles", "spheres")
OVERWRITE_HELP = "replace output files that exist (otherwise: asked at a terminal, refused elsewhere)"
RULES = """\
outputs: an existing file is replaced only with --overwrite or after a yes at the terminal, and a file
that appears while the command works is never replaced without that; files are written whole or not
at all. '-', /dev/stdout, a FIFO or /dev/null is written into as a stream; folders, sockets and
devices are refused. Scene names: a built-in name is the built-in scene unless it has a path
separator or a suffix (./rand10k, rand10k.npz are files).

exit codes: 0 done; 1 a check found differences or a runtime failure (a file could not be written,
standard output closed or full, out of memory); 2 bad arguments or input; 128+N stopped by signal N."""
# Where each command's output files are, so that messages move to stderr when one of them is stdout.
_OUTPUT_OPTIONS = ("out", "raw", "json", "chart", "screenshot", "stats", "file")


class _Parser(argparse.ArgumentParser):
    """argparse's own help printer swallows write errors; this one lets a closed or full standard
    output be reported like any other."""

    def print_help(self, file=None) -> None:
        (file or sys.stdout).write(self.format_help())


class UsageError(Exception):
    """Bad arguments: printed after the command's usage, exit code 2."""


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: unwinds like Ctrl-C, so every write in progress cleans up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _within(limit: limits.Limit) -> Callable[[str], int | float]:
    """An argparse type reading a number in ``limit``'s range (render/limits.py)."""

    def parse(text: str):
        try:
            # Python also reads ' 5', '1_0' and other scripts' digits; a command line takes plain ASCII.
            if not (text.isascii() and text == text.strip() and "_" not in text):
                raise ValueError(text)
            value = int(text) if limit.integer else float(text)
        except ValueError:
            kind = "an integer" if limit.integer else "a number"
            raise argparse.ArgumentTypeError(f"{limit.name} must be {kind} in {limit.text()}, got {text!r}") from None
        try:
            return limit.check(value)
        except limits.OutOfRange as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def _window_size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"window size must be WxH, e.g. 1280x800, got {text!r}") from None
    if not all(limits.WINDOW_SIDE.contains(side) for side in size):
        raise argparse.ArgumentTypeError(f"window size must be {limits.WINDOW_SIDE.text()} each way, got {text!r}")
    return size


def _frame_of(scene: CircleScene, frame: int) -> int:
    """``frame`` once it is known to be affordable for ``scene`` (static scenes need no advances)."""
    if scene.animation != "none" and not limits.ANIMATED_FRAME.contains(frame):
        raise UsageError(
            f"--frame {frame}: {scene.name} is animated, and frame k costs k + 1 animation steps; "
            f"the {limits.ANIMATED_FRAME.name} must be in {limits.ANIMATED_FRAME.text()}"
        )
    return frame


def _spheres_only(args: argparse.Namespace, names: tuple[str, ...]) -> None:
    """Reject sphere-only options given with the circle renderer."""
    given = [f"--{name}" for name in names if getattr(args, name, None) is not None]
    if given:
        raise UsageError(f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} to --renderer spheres")


def _variants(names: list[str] | None, renderer: str = "circles") -> list[str]:
    try:
        return checked_variants(names, renderer)
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None


def _note(text: str) -> None:
    """One line on stderr, whatever characters the paths in it hold."""
    print(_one_line(text), file=sys.stderr)


def _one_line(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def choose_backend(requested: str | None) -> str:
    """'cuda' or 'cpu'; without a request, cuda when a GPU is usable, saying which was chosen."""
    problem = gpu_problem()
    if requested == "cuda" and problem:
        raise RendererUnavailable(f"--backend cuda needs a CUDA GPU: {problem}")
    if requested == "cpu" or problem:
        _note("backend: cpu (reference renderer" + (f"; {problem})" if problem and not requested else ")"))
        return "cpu"
    from render.core.gpu import gpu_name

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
    frame = _frame_of(scene, args.frame)
    out = args.out or (None if args.raw else f"{scene.name}_{frame:04d}.png")
    placements = claim_outputs([out, args.raw], args.overwrite)
    backend = choose_backend(args.backend)
    if backend == "cuda":
        from render.circles.renderer import CudaRenderer

        renderer = CudaRenderer(variant)
    else:
        from render.circles.reference import ReferenceRenderer

        renderer = ReferenceRenderer()
    renderer.load(scene, args.size, args.size)
    image = render_frame(renderer, frame)
    label = getattr(renderer, "resolved", None)
    outputs = []
    if out:
        outputs.append(write_png(image, out, placements[out]))
    if args.raw:
        outputs.append(write_raw(image, args.raw, placements[args.raw]))
    used = f"{backend}" + (f" {label.label()}" if label else "")
    for path in outputs:
        print(f"wrote {path} ({scene.name}, {args.size}x{args.size}, frame {frame}, {used})")
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
    from render.circles.check import run_check

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

        placements = check_bench_arguments(args)
        _require_gpu("bench")
        return bench_spheres(args, _progress_bar, placements)
    _spheres_only(args, ("counts", "sizes", "view", "chart"))
    scenes = _scene_list(args.scenes or list(SCORED_SCENES), args.seed)
    variants = _variants(args.variants)
    placements = claim_outputs([args.json], args.overwrite)
    _require_gpu("bench")
    from render.circles.bench import BEST_PEER_MS, run_bench
    from render.core.gpu import gpu_name

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
        write_text_file(json.dumps(payload, indent=2), args.json, placements[args.json])
        print(f"wrote {args.json}")
    return 0


def cmd_scene_save(args: argparse.Namespace) -> int:
    if args.name not in SCENE_NAMES:
        raise UsageError(f"unknown scene {args.name!r}; built-in scenes are: {', '.join(SCENE_NAMES)}")
    placements = claim_outputs([args.file], args.overwrite)
    scene = build_scene(args.name, args.seed)
    if args.frame is not None:
        from scenes.animation import advance

        for _ in range(_frame_of(scene, args.frame) + 1 if scene.animation != "none" else 0):
            advance(scene)
    path = save_scene(scene, args.file, placements[args.file])
    print(f"wrote {path} ({args.name}, {scene.count} circles)")
    return 0


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
    placements = claim_outputs([args.screenshot, args.stats], args.overwrite)
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
        placements=placements,
    )
    return run_gui(options)


def _subcommand(sub, name: str, help: str, run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name, help=help, description=help, epilog=RULES, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.set_defaults(run=run, usage=parser.format_usage)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="main.py",
        description="rasterlab: explore GPU circle-rendering kernels (CS149 assignment 3 scenes).",
        epilog=RULES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    size, seed = _within(limits.RENDER_SIZE), _within(limits.SEED)
    png, json_file = output_name(".png"), output_name(".json")

    render = _subcommand(sub, "render", "render one frame of a scene to PNG and/or raw float32", cmd_render)
    render.add_argument(
        "--scene",
        required=True,
        help=f"built-in scene ({', '.join(SCENE_NAMES)}; spheres: classic, random) or a .npz/.json file",
    )
    render.add_argument("--renderer", choices=RENDERERS, default="circles", help="default: circles")
    render.add_argument(
        "--count",
        type=_within(limits.SPHERE_COUNT),
        help=f"spheres: how many, {limits.SPHERE_COUNT.text()} (classic 20, random 1024)",
    )
    render.add_argument("--size", type=size, default=1024, help=f"image width and height, {limits.RENDER_SIZE.text()}")
    render.add_argument("--seed", type=seed, help=f"scene seed, {limits.SEED.text()} (default 0; spheres classic: 1)")
    render.add_argument(
        "--frame",
        type=_within(limits.FRAME),
        default=0,
        help=f"frame k, rendered after k+1 advances (animated scenes: {limits.ANIMATED_FRAME.text()})",
    )
    render.add_argument("--variant", help=f"CUDA variant: {', '.join(VARIANT_NAMES)} (options: name:key=value,...)")
    render.add_argument("--backend", choices=("cpu", "cuda"), help="default: cuda when a GPU is usable")
    render.add_argument("--out", type=png, help="PNG file or - (default <scene>_<frame>.png when no --raw)")
    render.add_argument("--raw", type=output_name(".npy"), help="float32 (N, N, 4) RGBA .npy, unclamped, row 0 = top")
    render.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    shaded = render.add_argument_group("spheres, shaded view")
    shaded.add_argument("--view", choices=VIEWS, help="spheres: classic (the book's, default) or shaded")
    for name, limit, text in (
        ("azimuth", limits.AZIMUTH, "camera degrees around the y axis (default 30)"),
        ("elevation", limits.ELEVATION, "camera degrees above the xz plane (default 20)"),
        ("roughness", limits.ROUGHNESS, "GGX roughness (default 0.35; at least 0.05 is used)"),
        ("metalness", limits.METALNESS, "0 dielectric .. 1 metal (default 0)"),
    ):
        shaded.add_argument(f"--{name}", type=_within(limit), help=f"{text}, {limit.text()}")

    check = _subcommand(sub, "check", "compare every CUDA variant with the CPU reference", cmd_check)
    check.add_argument("--renderer", choices=RENDERERS, default="circles", help="default: circles")
    check.add_argument("--scenes", nargs="+", help="default: all 14 built-in scenes (spheres: classic and random)")
    check.add_argument("--variants", nargs="+", help="default: every variant")
    check.add_argument("--size", type=size, default=1024)
    check.add_argument("--seed", type=seed, default=0)
    check.add_argument("--frame", type=_within(limits.ANIMATED_FRAME), default=0)
    check.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")

    bench = _subcommand(sub, "bench", "time variants with the CS149 protocol and CUDA events", cmd_bench)
    bench.add_argument("--renderer", choices=RENDERERS, default="circles", help="default: circles")
    bench.add_argument("--scenes", nargs="+", help="default: the 8 scored scenes")
    bench.add_argument(
        "--counts",
        nargs="+",
        type=_within(limits.SPHERE_COUNT),
        help="spheres: counts (default 20 256 1024 2340 16384)",
    )
    bench.add_argument("--sizes", nargs="+", type=size, help="spheres: sizes (default 512 1024 2048)")
    bench.add_argument("--variants", nargs="+", help="default: every variant")
    bench.add_argument("--size", type=size, default=1024)
    bench.add_argument("--seed", type=seed, default=0)
    bench.add_argument("--frames", type=_within(limits.BENCH_FRAMES), default=4)
    bench.add_argument("--runs", type=_within(limits.BENCH_RUNS), default=3)
    bench.add_argument("--json", type=json_file, help="also write every figure to this JSON file")
    bench.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")
    bench.add_argument("--chart", type=png, help="spheres: also draw the timings as a PNG chart")
    bench.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)

    gui = _subcommand(sub, "gui", "run the app's window loop for N frames (tests, docs, screenshots)", cmd_gui)
    gui.add_argument("--renderer", choices=RENDERERS, help="circles or spheres (default: the last one used)")
    gui.add_argument("--scene", help="built-in scene or scene file (default: the last one used)")
    gui.add_argument(
        "--count",
        type=_within(limits.SPHERE_COUNT),
        help=f"spheres: the random scene's count, {limits.SPHERE_COUNT.text()}",
    )
    gui.add_argument("--view", choices=VIEWS, help="spheres: classic or shaded")
    gui.add_argument("--variant", help=f"CUDA variant: {', '.join(VARIANT_NAMES)} (options: name:key=value,...)")
    gui.add_argument("--size", type=_within(limits.APP_SIZE), help=f"render resolution, {limits.APP_SIZE.text()}")
    gui.add_argument("--seed", type=seed, help=limits.SEED.text())
    gui.add_argument("--backend", choices=("cpu", "cuda"), help="default: cuda when a GPU is usable")
    gui.add_argument(
        "--frames", type=_within(limits.GUI_FRAMES), required=True, help="window-loop passes before exiting"
    )
    gui.add_argument("--screenshot", type=png, help="save the window, UI included, as PNG after the last frame")
    gui.add_argument("--window", type=_window_size, help="window size WxH (default: the last one used)")
    gui.add_argument("--headless", action="store_true", help="render offscreen through EGL (no display needed)")
    gui.add_argument("--vsync", choices=("on", "off"), help="default: the last setting used")
    gui.add_argument("--host-copy", action="store_true", help="force the host-copy display path (no interop)")
    gui.add_argument("--stats", type=json_file, help="write median frame, stage and display-copy times to this JSON")
    gui.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)

    scene = sub.add_parser("scene", help="scene files")
    scene_sub = scene.add_subparsers(dest="scene_command", metavar="ACTION", required=True)
    save = _subcommand(scene_sub, "save", "save a built-in scene to .npz or .json", cmd_scene_save)
    save.add_argument("name", help="built-in scene name")
    save.add_argument(
        "file", type=output_name(*SCENE_SUFFIXES, streams_need_suffix=True), help="output file (.npz or .json)"
    )
    save.add_argument("--seed", type=seed, default=0)
    save.add_argument("--frame", type=_within(limits.FRAME), help="save the state of frame k (after k+1 advances)")
    save.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    return parser


@contextlib.contextmanager
def _signals_unwind():
    """While a command runs, Ctrl-C, SIGTERM and SIGHUP raise Stopped, so the code that removes
    temporary files runs. Only the first does: later ones, even ones already on their way, are
    swallowed by a handler that does nothing, until the process exits."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    stopped = []

    def ignore(_signum, _frame):
        pass

    def stop(signum, _frame):
        stopped.append(signum)
        # A Python no-op rather than SIG_IGN: a signal that arrived meanwhile still finds a handler.
        for name in names:
            signal.signal(name, ignore)
        raise Stopped(signum)

    previous = {name: signal.signal(name, stop) for name in names}
    try:
        yield
    finally:
        if not stopped:
            for name, handler in previous.items():
                signal.signal(name, handler)


def _silence_stdout() -> None:
    """Point descriptor 1 at /dev/null, so the interpreter's last flush of a closed or full standard
    output cannot fail again at exit ("Exception ignored ...")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


def _flush_stdout() -> str | None:
    """Flush standard output; the reason when it cannot take the data (closed pipe, full disk)."""
    try:
        if sys.stdout is not None:  # None: started with descriptor 1 closed
            sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        return error.strerror or str(error)
    return None


def _run(args: argparse.Namespace) -> int:
    """The command, with every failure turned into one line and an exit code."""
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
    except OutOfHostMemory as error:
        _note(f"error: {error}")
        return 1
    except (SceneFileError, RendererUnavailable) as error:
        _note(f"error: {error}")
        return 2
    except OutputError as error:
        _note(f"error: {error}")
        return 1
    except MemoryError:
        _note(f"error: not enough host memory for this {args.command} (try a smaller size or count)")
        return 1
    except OSError as error:
        # Files are written through scenes.safe_write, which names them; an OSError without a file
        # name comes from printing to a closed or full standard output.
        if error.filename is None:
            _silence_stdout()
        _note(f"error: cannot write to {error.filename or 'standard output'}: {error.strerror or error}")
        return 1
    except KeyboardInterrupt:
        _note("interrupted")
        return 130
    except Stopped as stop:
        _note("interrupted" if stop.signum == signal.SIGINT else f"stopped by {signal.Signals(stop.signum).name}")
        return 128 + stop.signum


def main(argv: list[str] | None = None) -> int:
    reserve_standard_descriptors()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except OSError as error:  # --help into a closed or full standard output
        _silence_stdout()
        _note(f"error: cannot write to standard output: {error.strerror or error}")
        return 1
    except SystemExit:
        broken = _flush_stdout()  # after --help: fails here rather than at exit
        if broken:
            _note(f"error: cannot write to standard output: {broken}")
            return 1
        raise
    if args.command is None:
        from app.launch import GuiOptions, run_gui

        return run_gui(GuiOptions(persist=True))
    to_stdout = any(writes_to_stdout(getattr(args, name, None)) for name in _OUTPUT_OPTIONS)
    # With a file going to standard output, every message goes to stderr instead.
    messages = contextlib.redirect_stdout(sys.stderr) if to_stdout else contextlib.nullcontext()
    with _signals_unwind(), messages:
        code = _run(args)
    broken = _flush_stdout()
    if broken:
        _note(f"error: cannot write to standard output: {broken}")
        return 1
    return code
