"""The commands behind ``render``, ``record``, ``check``, ``bench``, ``race``, ``gui`` and ``scene
save`` (the circle renderer's own timing commands are in ``app.circle_timing``). Each asks the renderer
kind named by ``--renderer`` (``render.kinds``) for what differs between renderers."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.camera import LOOK_OPTIONS
from app.cli_args import UsageError
from app.outputs import claim_folder, claim_outputs
from app.overlay_options import default_png, overlay_note, overlay_rule
from app.printable import printable
from app.progress import frame_bar, step_bar
from app.record_command import check_frame_names, default_gif, frame_range, record_frames, recording_folder
from app.recording import GIF_FPS, write_gif
from render.core import limits
from render.core.gpu import gpu_name, gpu_problem
from render.core.image_io import write_png, write_png_rgb8, write_raw, write_text_file, write_values
from render.core.kind import BenchOutcome, BenchRequest, CheckRequest, Look, RaceRequest, RendererKind
from render.core.overlay_picture import overlay_picture
from render.core.renderer import NoGpu, Renderer, render_frame
from render.core.variants import UnknownVariantError, VariantChoice
from render.kinds import BENCH_OPTIONS, CHECK_OPTIONS, DEFAULT_KIND, KIND_OPTIONS, KINDS
from scenes.safe_write import Placement


def note(text: str) -> None:
    """One line on stderr, whatever characters the paths in it hold."""
    print(printable(text), file=sys.stderr)


def backend_choice(requested: str | None) -> tuple[str, str]:
    """('cuda' or 'cpu', the line that says so); without a request, cuda when a GPU is usable.
    Raises NoGpu for a requested cuda backend that no GPU can run."""
    problem = gpu_problem()
    if requested == "cuda" and problem:
        raise NoGpu(f"--backend cuda needs a CUDA GPU: {problem}")
    if requested == "cpu" or problem:
        return "cpu", "backend: cpu (reference renderer" + (f"; {problem})" if problem and not requested else ")")
    return "cuda", f"backend: cuda ({gpu_name()})"


def choose_backend(requested: str | None) -> str:
    """``backend_choice``'s backend, its line said now."""
    backend, line = backend_choice(requested)
    note(line)
    return backend


def _require_gpu(what: str) -> None:
    """Refuse at once, before any work, what runs only on a GPU when none is usable (exit code 3)."""
    problem = gpu_problem()
    if problem:
        raise NoGpu(f"{what} needs a CUDA GPU: {problem}")


def _variant_needs_gpu(args: argparse.Namespace) -> None:
    """One rule for every command and renderer: a variant named on the command line runs on the GPU
    or not at all; with none named, the CPU reference runs where no GPU is usable, and says so."""
    if args.variant:
        _require_gpu(f"--variant {args.variant}")


def _refuse_options(args: argparse.Namespace, owners_of: dict[str, tuple[str, ...]], taken, command: str) -> None:
    """A usage error for the options given (of ``owners_of``: option -> the kinds that take it)
    that are not ``taken``, naming the kinds that take them: "--counts applies to --renderer spheres"."""
    given = [option for option in owners_of if option not in taken and getattr(args, option, None) is not None]
    if given:
        owners = sorted({owner for option in given for owner in owners_of[option]})
        flags = ", ".join(f"--{option}" for option in given)
        verb = "applies" if len(given) == 1 else "apply"
        raise UsageError(f"{flags} {verb} to " + " or ".join(f"{command}--renderer {owner}" for owner in owners))


def _kind_of(args: argparse.Namespace, name: str | None = None) -> RendererKind:
    """The kind ``--renderer`` names; options that only other kinds take are usage errors."""
    kind = KINDS[name or args.renderer]
    _refuse_options(args, KIND_OPTIONS, kind.cli_options, "")
    return kind


def _look(args: argparse.Namespace, kind: RendererKind) -> Look:
    """The view and, for the shaded sphere view, its camera and material from the options given."""
    if not kind.views:
        return Look()
    from render.spheres.shading import ShadeSettings

    view = getattr(args, "view", None) or kind.views[0]
    given = _look_values(args)
    if given and view != "shaded":
        names = ", ".join(f"--{name}" for name in given)
        raise UsageError(f"{names} {'applies' if len(given) == 1 else 'apply'} to --view shaded")
    return Look(view, ShadeSettings(**given).checked())


def _look_values(args: argparse.Namespace) -> dict:
    """The shaded view's camera and material options given, by name (LOOK_OPTIONS)."""
    return {name: getattr(args, name) for name in LOOK_OPTIONS if getattr(args, name, None) is not None}


def _variants(kind: RendererKind, names: list[str] | None) -> list[str]:
    try:
        return kind.variants.checked(names)
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None


def _variant(kind: RendererKind, text: str) -> VariantChoice:
    try:
        return kind.variants.parse(text)
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None


def _without(kind: RendererKind, variants: list[str], against: str, explicit: bool) -> list[str]:
    """``variants`` less the one ``check --against`` compares with (itself would pass for nothing):
    refused when named on purpose, dropped from the default list."""
    same = [name for name in variants if kind.variants.parse(name).label() == against]
    if same and explicit:
        raise UsageError(f"--against {against} is also in --variants: it would be compared with itself")
    return [name for name in variants if name not in same]


def _frame_of(scene, frame: int, animated: bool) -> int:
    """``frame`` once it is known to be affordable (static pictures need no advances)."""
    if animated and not limits.ANIMATED_FRAME.contains(frame):
        raise UsageError(
            f"--frame {frame}: {scene.name} is animated, and frame k costs k + 1 animation steps; "
            f"the {limits.ANIMATED_FRAME.name} must be in {limits.ANIMATED_FRAME.text()}"
        )
    return frame


def _asked_scene(args: argparse.Namespace) -> tuple[RendererKind, VariantChoice | None, Look, Callable[[], Any]]:
    """What ``render`` and ``record`` are asked to show (kind, variant, look, the scene's loader),
    checked before any output or GPU is touched; the scene itself (a file may take seconds and
    gigabytes) is loaded once the outputs and the backend are known to be usable."""
    kind = _kind_of(args)
    choice = _variant(kind, args.variant) if args.variant else None
    if choice and args.backend == "cpu":
        raise UsageError("--variant applies to the cuda backend; the cpu backend is the reference")
    _variant_needs_gpu(args)
    look = _look(args, kind)
    return kind, choice, look, kind.scene_loader(args.scene, args.seed, args.count)


def _loaded_renderer(kind: RendererKind, backend: str, choice, look: Look, scene, size: int) -> Renderer:
    """A renderer on ``backend`` (from ``choose_backend``) with ``scene`` loaded at ``size``."""
    renderer = kind.make_renderer((choice or kind.default_variant(scene)) if backend == "cuda" else None, look)
    renderer.load(scene, size, size)
    return renderer


def _used(renderer: Renderer) -> str:
    return f"cuda {renderer.resolved.label()}" if renderer.resolved else "cpu reference"


def cmd_render(args: argparse.Namespace) -> int:
    rule = overlay_rule(args, _kind_of(args))
    kind, choice, look, load = _asked_scene(args)
    stand_in = getattr(args, "next_free_name", False)  # the app's stand-in render: never asks, never replaces
    named = args.out is not None or args.raw is not None
    placements = claim_outputs([args.out, args.raw], args.overwrite) if named and not stand_in else {}
    backend, backend_line = backend_choice(args.backend)
    scene = load()
    frame = _frame_of(scene, args.frame, kind.animated(scene, look))
    note(backend_line)  # once the scene and frame are known good: a bad one is the only line then
    out = args.out or (None if args.raw else default_png(kind.output_name(scene, frame, look), args.overlay))
    if stand_in:
        placements = {out: Placement(next_free=True)}
    elif not named:  # the name comes from the scene
        placements = claim_outputs([out], args.overwrite)
    renderer = _loaded_renderer(kind, backend, choice, look, scene, args.size)
    problem = kind.overlay_problem(args.overlay, rule, renderer) if args.overlay else None
    if problem:  # auto's pick for this scene, say: known now, before the frame's work
        raise UsageError(problem)
    with frame_bar(f"rendering {printable(scene.name)}"):
        image = render_frame(renderer, frame)
    overlay = kind.overlay(renderer, args.overlay, rule) if args.overlay else None
    what = f"{kind.describe(scene, look)}, {args.size}x{args.size}, frame {frame}, {_used(renderer)}"
    # Each file is reported as it is written: one that fails later leaves the earlier ones said.
    if out:
        at = placements[out]
        path = write_png_rgb8(overlay_picture(image, overlay), out, at) if overlay else write_png(image, out, at)
        print(printable(f"wrote {path} ({what}{overlay_note(overlay)})"))
    if args.raw:
        at = placements[args.raw]
        path = write_values(overlay.values, args.raw, at) if overlay else write_raw(image, args.raw, at)
        print(printable(f"wrote {path} ({what}{overlay_note(overlay)})"))
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    """Frames A..B into a folder as PNGs (the same pictures as ``render --frame``) and a GIF."""
    first, last = frame_range(args.frames)
    kind, choice, look, load = _asked_scene(args)
    count = last - first + 1
    created, replace = claim_folder(args.out, args.overwrite)
    if not created:
        check_frame_names(Path(args.out), first, last)
    with recording_folder(args.out, created) as folder:
        gif = None if args.no_gif else args.gif or str(default_gif(folder))
        # A yes to replacing the folder's files covers its GIF too: one question, not two.
        inside = gif is not None and Path(gif).parent == folder
        placements = claim_outputs([gif], args.overwrite or (replace and inside))
        backend, backend_line = backend_choice(args.backend)
        scene = load()
        note(backend_line)
        static = not kind.animated(scene, look)
        renderer = _loaded_renderer(kind, backend, choice, look, scene, args.size)
        if static:
            note(f"note: {printable(scene.name)} is static: its {count} frames are all the same picture")
        with step_bar(f"recording {printable(scene.name)}") as bar:
            steps = count + (gif is not None)
            how = Placement(replace=replace)
            frames = record_frames(renderer, (first, last), static, folder, how, steps, bar)
            if gif is not None:
                bar.progress(count, steps, "GIF")
                gif = write_gif(frames, gif, placements[gif])
        what = f"{kind.describe(scene, look)}, {args.size}x{args.size}, {_used(renderer)}"
        taken = f"{count} frame" + ("s" if count > 1 else "")
        print(printable(f"wrote {taken} to {folder} ({frames[0].name} .. {frames[-1].name}; {what})"))
        if gif is not None:
            print(printable(f"wrote {gif} ({taken}, {GIF_FPS} frames/s, looping)"))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    kind = _kind_of(args)
    _refuse_options(args, CHECK_OPTIONS, kind.check_options, "check ")
    against = _variant(kind, args.against).label() if args.against is not None else None
    variants = _variants(kind, args.variants)
    if against:
        variants = _without(kind, variants, against, explicit=args.variants is not None)
    for name in args.scenes or ():
        kind.scene_loader(name, args.seed, None)  # an unknown name fails now, before the GPU is asked
    look = _look(args, kind)
    _require_gpu("check, which runs the CUDA variants,")
    request = CheckRequest(args.scenes, variants, args.size, args.seed, args.frame, look, against)
    with step_bar("check") as bar:
        outcome = kind.check(request, bar.write, bar.progress)
    print(outcome.summary)
    return 0 if outcome.passed else 1


def cmd_bench(args: argparse.Namespace) -> int:
    kind = _kind_of(args)
    _refuse_options(args, BENCH_OPTIONS, kind.bench_options, "bench ")
    variants = _variants(kind, args.variants)
    for name in args.scenes or ():
        kind.scene_loader(name, args.seed, None)
    look = _look(args, kind)
    placements = claim_outputs([args.json, getattr(args, "chart", None)], args.overwrite)
    _require_gpu("bench, which times the CUDA variants,")
    counts, sizes = (tuple(values) if values else None for values in (args.counts, args.sizes))
    request = BenchRequest(args.scenes, variants, args.size, args.seed, args.frames, args.runs, counts, sizes, look)
    with step_bar("bench") as bar:
        outcome = kind.bench(request, bar.progress)
    return _print_outcome(outcome, args, placements)


def _print_outcome(outcome: BenchOutcome, args: argparse.Namespace, placements: dict) -> int:
    """A timing command's table, then its JSON and chart where asked for; the exit code (0)."""
    for line in outcome.lines:
        print(line)
    if args.json:
        write_text_file(json.dumps(outcome.payload, indent=2), args.json, placements[args.json])
        print(printable(f"wrote {args.json}"))
    if getattr(args, "chart", None) and outcome.chart is not None:
        print(printable(f"wrote {outcome.chart(args.chart, placements[args.chart])}"))
    return 0


def cmd_race(args: argparse.Namespace) -> int:
    """Every configuration on one scene, timed and checked against the reference, fastest first."""
    kind = _kind_of(args)
    timing = {name: owners for name, owners in BENCH_OPTIONS.items() if name in ("frames", "runs")}
    _refuse_options(args, timing, kind.bench_options, "race ")
    kind.scene_loader(args.scene, args.seed, args.count)  # an unknown name fails now, before the GPU is asked
    also = tuple(_variants(kind, args.also)) if args.also else ()
    look = _look(args, kind)
    placements = claim_outputs([args.json, args.chart], args.overwrite)
    _require_gpu("race, which times the CUDA variants,")
    request = RaceRequest(args.scene, args.size, args.seed, args.count, args.frames, args.runs, look, also)
    with step_bar("race") as bar:
        outcome = kind.race(request, bar.progress)
    return _print_outcome(outcome, args, placements)


def cmd_scene_save(args: argparse.Namespace) -> int:
    """A built-in scene of ``--renderer``'s kind (circles by default) as a scene file."""
    kind = _kind_of(args)
    if args.name not in kind.scene_names:
        what = kind.scene_word
        owner = next((k.name for k in KINDS.values() if args.name in k.scene_names), None)
        hint = f"; {args.name!r} is a scene of --renderer {owner}" if owner else ""
        raise UsageError(f"unknown {what} {args.name!r}; built-in {what}s are: {', '.join(kind.scene_names)}{hint}")
    if args.frame is not None and not kind.scenes_move:
        movers = " or ".join(f"--renderer {k.name}" for k in KINDS.values() if k.scenes_move)
        raise UsageError(f"--frame applies to {movers}: a {kind.scene_word} is the same in every frame")
    placements = claim_outputs([args.file], args.overwrite)
    scene = kind.built_in_scene(args.name, args.seed, args.count)
    if args.frame is not None:
        animated = kind.animated(scene, Look())
        for _ in range(_frame_of(scene, args.frame, animated) + 1 if animated else 0):
            kind.advance_scene(scene)
    path = kind.save_scene(scene, args.file, placements[args.file])
    print(printable(f"wrote {path} ({args.name}, {scene.count} {kind.units})"))
    return 0


def _scene_of_count(args: argparse.Namespace) -> None:
    """``gui --count N`` sets the count of the one built-in scene that takes one: with no ``--scene``
    that scene is shown; with another scene the count would go unused, which is refused."""
    if args.count is None:
        return
    kind, name = next(
        (kind, name) for kind in KINDS.values() for name in kind.scene_names if "count" in kind.scene_inputs(name)
    )
    if args.scene is None:
        args.scene = name
        args.renderer = args.renderer or kind.name
    elif args.scene != name:
        raise UsageError(f"--count is the {name} scene's count; {printable(args.scene)} does not take one")


def cmd_gui(args: argparse.Namespace) -> int:
    from app.launch import GuiOptions, run_gui

    _scene_of_count(args)
    # --scene, --variant and --seed name a renderer's things: circles unless --renderer says otherwise.
    names_something = args.scene or args.variant or args.seed is not None
    owners = [kind.name for kind in KINDS.values() if args.scene in kind.scene_names]
    # A built-in scene of one kind only (classic, rand10k) names its renderer.
    renderer = args.renderer or (owners[0] if len(owners) == 1 else DEFAULT_KIND if names_something else None)
    if renderer is not None:
        kind = _kind_of(args, renderer)
        if args.variant:
            _variant(kind, args.variant)
        if args.scene:
            kind.scene_loader(args.scene, None, None)
    _variant_needs_gpu(args)
    if args.frames is None:
        scripted = [name for name in ("headless", "screenshot", "stats") if getattr(args, name)]
        if scripted:
            raise UsageError(f"--{scripted[0]} needs --frames N (without it the window stays open until closed)")
    if args.backend == "cuda":
        choose_backend("cuda")
    placements = claim_outputs([args.screenshot, args.stats], args.overwrite)
    options = GuiOptions(
        renderer=renderer,
        count=args.count,
        view=args.view,
        look=_look_values(args),
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
        persist=args.frames is None and not args.no_settings,
        fresh=args.no_settings,
        dev=args.dev,
    )
    return run_gui(options)


COMMANDS = {
    "render": cmd_render,
    "record": cmd_record,
    "check": cmd_check,
    "bench": cmd_bench,
    "race": cmd_race,
    "gui": cmd_gui,
    "save": cmd_scene_save,
}
