"""The ``--renderer spheres`` side of ``render``, ``check`` and ``bench`` (see ``app.cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from render.image_io import write_png_rgb8, write_raw_top_down
from render.spheres_reference import trace_reference
from render.variants import UnknownVariantError, checked_variants
from scenes.files import is_scene_file, load_sphere_scene
from scenes.spheres import SPHERE_SCENES, SphereScene, UnknownSphereSceneError, build_sphere_scene, random_spheres

CHECK_COUNTS = (1, 20, 256, 2340, 3000)  # 3000: past constant memory, so that row says why


class SphereUsageError(ValueError):
    pass


def sphere_scene(name_or_file: str, count: int | None, seed: int | None) -> SphereScene:
    if is_scene_file(name_or_file) or Path(name_or_file).exists():
        if count is not None:
            raise SphereUsageError("--count applies to the built-in sphere scenes, not to a scene file")
        return load_sphere_scene(name_or_file)
    if name_or_file not in SPHERE_SCENES:
        raise UnknownSphereSceneError(
            f"unknown sphere scene {name_or_file!r}: not a scene file (.npz, .json) and not one of: "
            + ", ".join(SPHERE_SCENES)
        )
    return build_sphere_scene(name_or_file, count, seed)


def sphere_variants(names: list[str] | None) -> list[str]:
    try:
        return checked_variants(names, "spheres")
    except UnknownVariantError as error:
        raise SphereUsageError(str(error)) from None


def render_spheres(args: argparse.Namespace, backend: str) -> int:
    if args.variant:
        sphere_variants([args.variant])
        if backend == "cpu":
            raise SphereUsageError("--variant applies to the cuda backend; the cpu backend is the reference")
    scene = sphere_scene(args.scene, args.count, args.seed)
    if backend == "cuda":
        from render.spheres_cuda import MAX_CONSTANT_SPHERES, SphereCudaRenderer

        variant = args.variant or ("constant" if scene.count <= MAX_CONSTANT_SPHERES else "shared-tiled")
        renderer = SphereCudaRenderer(variant)
        renderer.load(scene, args.size)
        renderer.render()
        image = renderer.image()
        used = f"cuda {variant}, kernel {renderer.kernel_ms():.3f} ms"
    else:
        image = trace_reference(scene, args.size)
        used = "cpu reference"
    top_down = np.ascontiguousarray(image[::-1])
    outputs = []
    out = args.out or (None if args.raw else f"{scene.name}_spheres.png")
    if out:
        outputs.append(write_png_rgb8(top_down[..., :3], out))
    if args.raw:
        outputs.append(write_raw_top_down(top_down.astype(np.float32) / np.float32(255), args.raw))
    for path in outputs:
        print(f"wrote {path} ({scene.name}, {scene.count} spheres, {args.size}x{args.size}, {used})")
    return 0


def check_spheres(args: argparse.Namespace) -> int:
    from render.sphere_tasks import run_sphere_check

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

    rows = run_sphere_check(scenes, variants, args.size, report)
    failed = [row for row in rows if not row.passed]
    print(f"{len(rows) - len(failed)} passed, {len(failed)} failed (8-bit RGB values unlike the reference)")
    return 1 if failed else 0


def bench_spheres(args: argparse.Namespace, progress) -> int:
    from render.gpu import gpu_name
    from render.sphere_tasks import BENCH_COUNTS, BENCH_SIZES, TIMED_LAUNCHES, run_sphere_bench

    variants = sphere_variants(args.variants)
    counts = tuple(args.counts or BENCH_COUNTS)
    sizes = tuple(args.sizes or BENCH_SIZES)
    rows = run_sphere_bench(variants, counts, sizes, args.seed, progress)
    print(f"{gpu_name()}: sphere kernels, median of {TIMED_LAUNCHES} launches (CUDA events), seed {args.seed}")
    print(f"{'spheres':>7} {'size':>5} " + " ".join(f"{v:>18}" for v in variants))
    for count in counts:
        for size in sizes:
            cells = []
            for variant in variants:
                row = next(r for r in rows if (r["variant"], r["count"], r["size"]) == (variant, count, size))
                cells.append(f"{row['kernel_ms']:>15.4f} ms" if "kernel_ms" in row else f"{'n/a':>18}")
            print(f"{count:>7} {size:>5} " + " ".join(cells))
    if args.json:
        payload = {"gpu": gpu_name(), "seed": args.seed, "launches": TIMED_LAUNCHES, "rows": rows}
        Path(args.json).write_text(json.dumps(payload, indent=2))
        print(f"wrote {args.json}")
    return 0
