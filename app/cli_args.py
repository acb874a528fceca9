"""The command line's grammar: every command, its options and their ranges, and the rules that
every command's ``--help`` repeats (outputs, exit codes)."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable

from app import __version__
from app.outputs import output_name
from app.recording import GIF_FPS
from app.settings import Settings
from render.core import limits
from render.kinds import DEFAULT_KIND, KIND_NAMES, KINDS, OVERLAY_NAMES
from render.spheres.check import CHECK_COUNTS
from render.spheres.constants import MAX_CONSTANT_SPHERES
from scenes.files import SCENE_SUFFIXES

SCENE_HELP = (
    "built-in scene ("
    + "; ".join(f"{kind.name}: {', '.join(kind.scene_names)}" for kind in KINDS.values())
    + ") or a .npz/.json file"
)
VIEWS = tuple(view for kind in KINDS.values() for view in kind.views)
VARIANT_HELP = (
    "CUDA variant, name:key=value,... ("
    + "; ".join(f"{kind.name}: {', '.join(kind.variants)}" for kind in KINDS.values())
    + ")"
)
# The default of the commands that render (the app's is the last variant used).
DEFAULT_VARIANT_HELP = (
    f"; default on the GPU: circles auto, spheres constant (shared-tiled above {MAX_CONSTANT_SPHERES} "
    "spheres); without a GPU the CPU reference"
)
RENDERERS = KIND_NAMES
SEED_HELP = f"scene seed, {limits.SEED.text()} (default 0; spheres classic: 1)"
# The scenes ``check`` runs when --scenes names none.
CHECK_SCENES_HELP = (
    "built-in scenes or scene files (default: circles: all 14 built-in scenes; spheres: classic and random "
    f"with {', '.join(map(str, CHECK_COUNTS[:-1]))} and {CHECK_COUNTS[-1]} spheres)"
)
NVTX_HELP = "mark each frame's GPU stages (clear, advance, binning, blending; the app's display) as NVTX ranges"
OVERWRITE_HELP = "replace output files that exist (otherwise: asked at a terminal, refused elsewhere)"
RULES = """\
outputs: an existing file is replaced only with --overwrite or after a yes at the terminal, and a file
that appears while the command works is never replaced without that; files are written whole or not
at all. '-', /dev/stdout, a FIFO or /dev/null is written into as a stream; folders, sockets and
devices are refused. Scene names: a built-in name is the built-in scene unless it has a path
separator or a suffix (./rand10k, rand10k.npz are files).

exit codes: 0 done; 1 a check found differences or a runtime failure (an output exists, a file could
not be read or written, standard output closed or full, out of memory); 2 bad arguments; 3 the
command needs a CUDA GPU and none is usable; 128+N stopped by signal N."""


class _Parser(argparse.ArgumentParser):
    """argparse's own help printer swallows write errors; this one lets a closed or full standard
    output be reported like any other."""

    def print_help(self, file=None) -> None:
        if file is None:
            self.write_stdout(self.format_help())
        else:
            file.write(self.format_help())

    @staticmethod
    def write_stdout(text: str) -> None:
        """``text`` on standard output; raises OSError when it is closed (argparse would say nothing)."""
        if sys.stdout is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        sys.stdout.write(text)


class _Version(argparse.Action):
    """``--version``: printed like ``--help``, so a closed or full standard output is an error too."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        _Parser.write_stdout(f"rasterlab {__version__}\n")
        parser.exit()


class UsageError(Exception):
    """Bad arguments that parse (an unknown variant, options that do not go together): one line, exit code 2."""


def _within(limit: limits.Limit) -> Callable[[str], int | float]:
    """An argparse type reading a number in ``limit``'s range (render/core/limits.py)."""

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
        # Plain ASCII digits only, as every other number of the command line.
        if not all(part.isascii() and part.isdigit() for part in (width, height)):
            raise ValueError(text)
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"window size must be WxH, e.g. 1280x800, got {text!r}") from None
    if not all(limits.WINDOW_SIDE.contains(side) for side in size):
        raise argparse.ArgumentTypeError(f"window size must be {limits.WINDOW_SIDE.text()} each way, got {text!r}")
    return size


def _remembered(first: str, what: str = "one") -> str:
    """The default of a ``gui`` option the app remembers: the last one used, and ``first`` before any."""
    return f"default: the last {what} used; at first, or with --no-settings, {first}"


def _subcommand(sub, name: str, help: str) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name, help=help, description=help, epilog=RULES, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.set_defaults(action=name)
    return parser


def _number(parser, flag: str, limit: limits.Limit, what: str, default=None, shown: str | None = None, **extra):
    """A numeric option read through ``limit``; its help says what it is, its range and its default
    (``shown``, or the ``default`` itself)."""
    said = shown or (f"default {default}" if default is not None else None)
    text = f"{what}, {limit.text()}" + (f" ({said})" if said else "")
    parser.add_argument(flag, type=_within(limit), default=default, help=text, **extra)


def _pair(limit: limits.Limit) -> Callable[[str], tuple[float, float]]:
    """An argparse type reading ``X,Y``, each a number in ``limit``'s range."""
    number = _within(limit)

    def parse(text: str) -> tuple[float, float]:
        parts = text.split(",")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"{limit.name} must be X,Y, two numbers in {limit.text()}, got {text!r}")
        return (number(parts[0]), number(parts[1]))

    return parse


def _shaded_options(group) -> None:
    """The shaded sphere view's camera and material (``app.camera.LOOK_OPTIONS``)."""
    for name, limit, text in (
        ("azimuth", limits.AZIMUTH, "camera degrees around the y axis (default 30)"),
        ("elevation", limits.ELEVATION, "camera degrees above the xz plane (default 20)"),
        ("distance", limits.DISTANCE, "camera distance from the point it looks at (default 2000)"),
        ("pan", limits.PAN, "that point moved X right and Y up in the camera's plane (default 0,0)"),
        ("roughness", limits.ROUGHNESS, "GGX roughness (default 0.35; at least 0.05 is used)"),
        ("metalness", limits.METALNESS, "0 dielectric .. 1 metal (default 0)"),
    ):
        if name == "pan":  # a pair: argparse reads "-1,2" as an option, "=" keeps it a value
            described = f"{text}, {limit.text()} each; a negative X is written --pan=-X,Y"
            group.add_argument("--pan", type=_pair(limit), metavar="X,Y", help=described)
        else:
            group.add_argument(f"--{name}", type=_within(limit), help=f"{text}, {limit.text()}")


def _what_to_render(parser: argparse.ArgumentParser) -> None:
    """The options of ``render`` and ``record`` naming what the frames show: the scene and its
    renderer, count, size and seed, the variant and backend, and the shaded sphere view's camera and
    material."""
    parser.add_argument("--scene", required=True, help=SCENE_HELP)
    parser.add_argument("--renderer", choices=RENDERERS, default=DEFAULT_KIND, help=f"default: {DEFAULT_KIND}")
    parser.add_argument(
        "--count",
        type=_within(limits.SPHERE_COUNT),
        help=f"spheres: how many, {limits.SPHERE_COUNT.text()} (classic 20, random 1024)",
    )
    _number(parser, "--size", limits.RENDER_SIZE, "image width and height", 1024)
    parser.add_argument("--seed", type=_within(limits.SEED), help=SEED_HELP)
    parser.add_argument("--variant", help=VARIANT_HELP + DEFAULT_VARIANT_HELP)
    parser.add_argument("--backend", choices=("cpu", "cuda"), help="default: cuda when a GPU is usable")
    parser.add_argument("--nvtx", action="store_true", help=NVTX_HELP)
    shaded = parser.add_argument_group("spheres, shaded view")
    shaded.add_argument("--view", choices=VIEWS, help="spheres: classic (the book's, default) or shaded")
    _shaded_options(shaded)


def build_parser() -> argparse.ArgumentParser:
    from app.cli_timing_args import add_timing_commands

    parser = _Parser(
        prog="rasterlab",
        description=(
            "rasterlab: explore GPU rendering kernels: the CS149 circle renderer (--renderer circles)\n"
            "and the CUDA by Example sphere tracer (--renderer spheres).\n\n"
            "With no command the app opens; where no display exists, rand10k is rendered to\n"
            "rand10k.png instead (or the next free name, rand10k-2.png, ...)."
        ),
        epilog=RULES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    seed = _within(limits.SEED)
    png, json_file = output_name(".png"), output_name(".json")

    render = _subcommand(sub, "render", "render one frame of a scene to PNG and/or raw float32")
    _what_to_render(render)
    render.add_argument(
        "--frame",
        type=_within(limits.FRAME),
        default=0,
        help=f"frame k, rendered after k+1 advances (animated scenes: {limits.ANIMATED_FRAME.text()}; default 0)",
    )
    render.add_argument(
        "--out",
        type=png,
        help="PNG file or - (default when no --raw: circles <scene>_<frame>.png, "
        "spheres <scene>_<spheres|shaded>_<frame>.png, the frame in 4 digits)",
    )
    render.add_argument(
        "--raw",
        type=output_name(".npy"),
        help="float32 (N, N, 4) RGBA .npy, unclamped, row 0 = top; with an --overlay its values instead, "
        "row 0 = top: depth int32 (N, N), candidates int32 and cycles float32 (rows, cols) per tile, "
        "warp-skip float32 (rows, cols) per warp region",
    )
    render.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    render.add_argument(
        "--overlay",
        choices=OVERLAY_NAMES,
        help="circles: draw over the picture, with a legend under it, the variant's tiles (the pixels "
        "of one block), depth (circles covering each pixel's center), candidates (circles each tile tests), "
        "cycles (GPU: SM clock cycles each block of the blend takes) or warp-skip (tile-warp: the share of "
        "the circles each warp tests that miss its region)",
    )
    render.add_argument(
        "--binning",
        metavar="VARIANT",
        help="with --backend cpu: the variant whose tiles, candidates or warp-skip the reference draws "
        "(default: auto's)",
    )

    record = _subcommand(
        sub, "record", "render frames A..B of a scene into a folder: a PNG per frame and an animated GIF of them"
    )
    _what_to_render(record)
    record.add_argument(
        "--frames",
        required=True,
        metavar="A:B",
        help=f"the first and last frame, both recorded, {limits.ANIMATED_FRAME.text()} each, B >= A",
    )
    record.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="folder for frame_NNNNN.png (NNNNN: the frame), made when missing; one holding files is "
        "refused unless --overwrite, which replaces only files of the names written",
    )
    gif = record.add_mutually_exclusive_group()
    gif.add_argument(
        "--gif",
        type=output_name(".gif", streams_need_suffix=True),
        metavar="F.gif",
        help=f"the animated GIF, {GIF_FPS} frames/s, looping (default DIR/<DIR's name>.gif)",
    )
    gif.add_argument("--no-gif", action="store_true", help="write the PNGs only")
    record.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)

    check = _subcommand(sub, "check", "compare every CUDA variant with the CPU reference")
    check.add_argument("--renderer", choices=RENDERERS, default=DEFAULT_KIND, help=f"default: {DEFAULT_KIND}")
    check.add_argument("--scenes", nargs="+", help=CHECK_SCENES_HELP)
    check.add_argument("--variants", nargs="+", help="default: every variant")
    _number(check, "--size", limits.RENDER_SIZE, "image width and height", 1024)
    check.add_argument("--seed", type=seed, help=SEED_HELP)
    # No default in the parser: the sphere check refuses it, so it is None unless given.
    _number(check, "--frame", limits.ANIMATED_FRAME, "circles: frame k, after k+1 advances", shown="default 0")
    check.add_argument(
        "--against",
        metavar="VARIANT",
        help="circles: compare with this variant's frame instead of the CPU reference's, where the reference "
        "would take too long; best a variant that bins another way (tile-sort, for tile-warp and auto); "
        "it is left out of the default --variants",
    )
    check.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")

    add_timing_commands(sub)

    gui = _subcommand(
        sub, "gui", "open the app with these options; with --frames N, run N frames and exit (scripts, screenshots)"
    )
    gui.add_argument("--renderer", choices=RENDERERS, help=f"circles or spheres ({_remembered(Settings.renderer)})")
    first_scenes = f"circles {Settings.scene}, spheres {Settings.sphere_scene}"
    gui.add_argument("--scene", help=f"built-in scene or scene file ({_remembered(first_scenes)})")
    gui.add_argument(
        "--count",
        type=_within(limits.SPHERE_COUNT),
        help=f"spheres: the random scene's count, {limits.SPHERE_COUNT.text()} "
        f"({_remembered(str(Settings.sphere_count))})",
    )
    gui.add_argument("--view", choices=VIEWS, help=f"spheres: classic or shaded ({_remembered(Settings.sphere_view)})")
    _shaded_options(gui.add_argument_group("spheres, shaded view (defaults of a first run; later runs: the last used)"))
    first_variants = f"circles {Settings.variant}, spheres {Settings.sphere_variant}; without a GPU the CPU reference"
    gui.add_argument("--variant", help=f"{VARIANT_HELP} ({_remembered(first_variants)})")
    gui.add_argument(
        "--size",
        type=_within(limits.APP_SIZE),
        help=f"render resolution, {limits.APP_SIZE.text()} ({_remembered(str(Settings.size))}; "
        "the last one used may be the window's size, when fitting to it was chosen)",
    )
    gui.add_argument("--seed", type=seed, help=f"scene seed, {limits.SEED.text()} ({_remembered(str(Settings.seed))})")
    gui.add_argument("--backend", choices=("cpu", "cuda"), help="default: cuda when a GPU is usable")
    gui.add_argument(
        "--frames",
        type=_within(limits.GUI_FRAMES),
        help=f"window-loop passes before exiting, {limits.GUI_FRAMES.text()} (default: until the window closes)",
    )
    gui.add_argument(
        "--no-settings",
        action="store_true",
        help="start from the default settings instead of the saved ones, and save nothing",
    )
    gui.add_argument(
        "--screenshot", type=png, help="with --frames: save the window, UI included, as PNG after the last frame"
    )
    gui.add_argument(
        "--window",
        type=_window_size,
        help=f"window size WxH, {limits.WINDOW_SIDE.text()} each way "
        f"({_remembered(f'{Settings.window_width}x{Settings.window_height}')}; shrunk to fit the screen)",
    )
    gui.add_argument("--headless", action="store_true", help="render offscreen through EGL (no display needed)")
    gui.add_argument("--nvtx", action="store_true", help=NVTX_HELP + " (also a toggle in the Display section)")
    gui.add_argument("--vsync", choices=("on", "off"), help=_remembered("on" if Settings.vsync else "off", "setting"))
    gui.add_argument("--host-copy", action="store_true", help="force the host-copy display path (no interop)")
    gui.add_argument(
        "--dev", action="store_true", help="reload the built-in shaders when they change (kernel work on rasterlab)"
    )
    gui.add_argument(
        "--stats",
        type=json_file,
        help="with --frames: write median frame, stage, display-copy and (GPU) app overhead times to this JSON",
    )
    gui.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)

    scene = sub.add_parser("scene", help="scene files")
    scene_sub = scene.add_subparsers(dest="scene_command", metavar="ACTION", required=True)
    save = _subcommand(scene_sub, "save", "save a built-in scene to .npz or .json")
    save.add_argument("name", help="built-in scene name (spheres: classic or random)")
    save.add_argument(
        "file", type=output_name(*SCENE_SUFFIXES, streams_need_suffix=True), help="output file (.npz or .json)"
    )
    save.add_argument("--renderer", choices=RENDERERS, default=DEFAULT_KIND, help=f"default: {DEFAULT_KIND}")
    save.add_argument(
        "--count",
        type=_within(limits.SPHERE_COUNT),
        help=f"spheres: how many, {limits.SPHERE_COUNT.text()} (classic 20, random 1024)",
    )
    save.add_argument("--seed", type=seed, help=f"scene seed, {limits.SEED.text()} (default 0; spheres classic: 1)")
    save.add_argument(
        "--frame",
        type=_within(limits.FRAME),
        help=(
            f"circles: save the state of frame k (after k+1 advances), animated scenes "
            f"{limits.ANIMATED_FRAME.text()} (default: the scene as built, before any advance)"
        ),
    )
    save.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    return parser
