"""The ``--renderer spheres`` side of ``render``, ``check`` and ``bench`` (see ``app.cli``)."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from app.outputs import claim_outputs
from render.core.image_io import write_png_rgb8, write_raw_top_down, write_text_file
from render.core.variants import UnknownVariantError, checked_variants
from render.spheres.shading import ShadeSettings, reference_image
from scenes.lookup import names_a_file, sphere_scene_loader
from scenes.safe_write import Placement
from scenes.spheres import SPHERE_SCENES, SphereScene, build_sphere_scene, random_spheres

CHECK_COUNTS = (1, 20, 256, 2340, 3000)  # 3000: past constant memory, so that row says why


class SphereUsageError(ValueError):
    pass


def sphere_scene(name_or_file: str, count: int | None, seed: int | None) -> SphereScene:
    if count is not None and names_a_file(name_or_file, SPHERE_SCENES):
        raise SphereUsageError("--count applies to the built-in sphere scenes, not to a scene file")
    return sphere_scene_loader(name_or_file, count, seed)()


def sphere_variants(names: list[str] | None) -> list[str]:
    try:
        return checked_variants(names, "spheres")
    except UnknownVariantError as error:
        raise SphereUsageError(str(error)) from None


_SHADING_OPTIONS = ("azimuth", "elevation", "roughness", "metalness")


def shading_of(args: argparse.Namespace) -> ShadeSettings:
    """The shaded view's settings: the defaults with the options given on the command line."""
    given = {name: getattr(args, name) for name in _SHADING_OPTIONS if getattr(args, name, None) is not None}
    if given and args.view != "shaded":
        names = ", ".join(f"--{name}" for name in given)
        raise SphereUsageError(f"{names} {'applies' if len(given) == 1 else 'apply'} to --view shaded")
    return ShadeSettings(**given).checked()


def render_spheres(args: argparse.Namespace, choose_backend) -> int:
    """``render --renderer spheres``; ``choose_backend(requested)`` picks cpu or cuda once the
    arguments and outputs are known to be good."""
    if args.variant:
        sphere_variants([args.variant])
    view = args.view or "classic"
    shading = shading_of(args)
    scene = sphere_scene(args.scene, args.count, args.seed)
    suffix = "spheres" if view == "classic" else "shaded"
    out = args.out or (None if args.raw else f"{scene.name}_{suffix}.png")
    placements = claim_outputs([out, args.raw], args.overwrite)
    if args.variant and args.backend == "cpu":
        raise SphereUsageError("--variant applies to the cuda backend; the cpu backend is the reference")
    backend = choose_backend(args.backend)
    if backend == "cuda":
        from render.spheres.cuda import MAX_CONSTANT_SPHERES, SphereCudaRenderer

        variant = args.variant or ("constant" if scene.count <= MAX_CONSTANT_SPHERES else "shared-tiled")
        renderer = SphereCudaRenderer(variant, view)
        renderer.shading = shading
        renderer.load(scene, args.size)
        renderer.render()
        image = renderer.image()
        used = f"cuda {variant}, kernel {renderer.kernel_ms():.3f} ms"
    else:
        image = reference_image(scene, args.size, view, shading)
        used = "cpu reference"
    top_down = np.ascontiguousarray(image[::-1])
    outputs = []
    if out:
        outputs.append(write_png_rgb8(top_down[..., :3], out, placements[out]))
    if args.raw:
        raw = top_down.astype(np.float32) / np.float32(255)
        outputs.append(write_raw_top_down(raw, args.raw, placements[args.raw]))
    for path in outputs:
        print(f"wrote {path} ({scene.name}, {scene.count} spheres, {view}, {args.size}x{args.size}, {used})")
    return 0


def check_spheres(args: argparse.Namespace) -> int:
    from render.spheres.tasks import run_sphere_check

    variants = sphere_variants(args.variants)
    if args.scenes:
        scenes = [sphere_scene(name, None, None) for name in args.scenes]
    else:
        scenes = [build_sphere_scene("classic")] + [random_spheres(n, args.seed, f"random{n}") for n in CHECK_COUNTS]
    header = f"{'scene':<12} {'spheres':>7} {'variant':<20} {'differing':>9}  result"
    print(header)
    print("-" * len(header))

    def report(row) -> None:
        if row.differing_values is None:
            print(f"{row.scene:<12} {row.count:>7} {row.variant:<20} {'-':>9}  {row.note}")
        else:
            verdict = "identical" if row.passed else "FAIL"
            print(f"{row.scene:<12} {row.count:>7} {row.variant:<20} {row.differing_values:>9}  {verdict}")
        sys.stdout.flush()

    rows = run_sphere_check(scenes, variants, args.size, report, args.view or "classic")
    failed = [row for row in rows if not row.passed]
    print(f"{len(rows) - len(failed)} passed, {len(failed)} failed (8-bit RGB values unlike the reference)")
    return 1 if failed else 0


def check_bench_arguments(args: argparse.Namespace) -> dict[str, Placement]:
    """Reject bad variants and outputs before a bench that may run for minutes; returns how each
    output is to be written."""
    sphere_variants(args.variants)
    return claim_outputs([args.json, args.chart], args.overwrite)


def bench_spheres(args: argparse.Namespace, progress, placements: dict[str, Placement]) -> int:
    from render.core.gpu import gpu_name
    from render.spheres.tasks import BENCH_COUNTS, BENCH_SIZES, TIMED_LAUNCHES, run_sphere_bench

    variants = sphere_variants(args.variants)
    counts = tuple(args.counts or BENCH_COUNTS)
    sizes = tuple(args.sizes or BENCH_SIZES)
    view = args.view or "classic"
    rows = run_sphere_bench(variants, counts, sizes, args.seed, progress, view)
    timing = f"median of {TIMED_LAUNCHES} launches (CUDA events)"
    print(f"{gpu_name()}: sphere kernels, {view} view, {timing}, seed {args.seed}")
    print(f"{'spheres':>7} {'size':>5} " + " ".join(f"{v:>18}" for v in variants))
    for count in counts:
        for size in sizes:
            cells = []
            for variant in variants:
                row = next(r for r in rows if (r["variant"], r["count"], r["size"]) == (variant, count, size))
                cells.append(f"{row['kernel_ms']:>15.4f} ms" if "kernel_ms" in row else f"{'n/a':>18}")
            print(f"{count:>7} {size:>5} " + " ".join(cells))
    if args.json:
        payload = {"gpu": gpu_name(), "view": view, "seed": args.seed, "launches": TIMED_LAUNCHES, "rows": rows}
        write_text_file(json.dumps(payload, indent=2), args.json, placements[args.json])
        print(f"wrote {args.json}")
    if args.chart:
        from render.spheres.chart import sphere_bench_chart

        title = f"{gpu_name()}: sphere tracer, {view} view, median kernel time (CUDA events), seed {args.seed}"
        print(f"wrote {sphere_bench_chart(rows, args.chart, title, placements[args.chart])}")
    return 0
