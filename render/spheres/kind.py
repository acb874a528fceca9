"""The sphere tracer ("CUDA by Example" ch. 6) as a ``RendererKind``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from render.core.kind import (
    BenchOutcome,
    BenchRequest,
    CheckOutcome,
    CheckRequest,
    Look,
    Progress,
    RaceRequest,
    run_and_report,
)
from render.core.module_cache import Build
from render.core.overlay import Overlay
from render.core.renderer import Renderer
from render.core.variants import VariantChoice
from render.spheres.constants import CUDA_DEFINES, MAX_CONSTANT_SPHERES
from render.spheres.shading import VIEWS, ShadeSettings
from render.spheres.variants import VARIANTS
from scenes.files import save_sphere_scene
from scenes.lookup import names_a_file, sphere_scene_loader
from scenes.safe_write import Placement
from scenes.spheres import SPHERE_SCENES, SphereScene, UnknownSphereSceneError, build_sphere_scene, random_spheres


class SphereUsageError(ValueError):
    """An option that does not apply to what was asked (``--count`` or ``--seed`` with a scene file)."""


class SphereKind:
    name = "spheres"
    label = "spheres (CUDA by Example, ch. 6)"
    units = "spheres"
    scene_word = "sphere scene"
    scenes_move = False  # the shaded view's camera turns; the spheres stay
    variants = VARIANTS
    scene_names = SPHERE_SCENES
    scene_errors = (UnknownSphereSceneError, SphereUsageError)
    scene_notes = {"classic": "classic: the book's 20 spheres, glibc rand() seed 1"}
    views = VIEWS
    view_notes = {
        "classic": "the book's picture: orthographic rays, each sphere lit by its depth",
        "shaded": "a perspective camera and GGX shading of the same spheres; drag to orbit, Play turns it",
    }
    settings_fields = {
        "scene": "sphere_scene",
        "seed": "sphere_seed",
        "variant": "sphere_variant",
        "view": "sphere_view",
        "count": "sphere_count",
    }
    cli_options = (
        *("count", "view", "azimuth", "elevation", "distance", "pan", "roughness", "metalness"),
        *("counts", "sizes", "chart"),
    )
    bench_options = ("counts", "sizes", "view", "chart")
    check_options: tuple[str, ...] = ()  # its check renders frame 0: the views' pictures, not a turn
    overlays: tuple[str, ...] = ()
    gpu_overlays: tuple[str, ...] = ()
    rule_overlays: tuple[str, ...] = ()

    def scene_loader(self, name_or_file: str, seed: int | None, count: int | None) -> Callable[[], SphereScene]:
        """``classic``, ``random`` (``count`` and ``seed`` override its defaults) or a sphere scene file."""
        for option, value in (("--count", count), ("--seed", seed)):
            if value is not None and names_a_file(name_or_file, SPHERE_SCENES):
                raise SphereUsageError(f"{option} applies to the built-in sphere scenes, not to a scene file")
        return sphere_scene_loader(name_or_file, count, seed)

    def built_in_scene(self, name: str, seed: int | None, count: int | None) -> SphereScene:
        return build_sphere_scene(name, count, seed)

    def advance_scene(self, scene: SphereScene) -> None:
        pass

    def save_scene(self, scene: SphereScene, path: str, how: Placement) -> Path:
        return save_sphere_scene(scene, path, how)

    def app_scene_loader(self, name_or_file: str, seed: int, count: int | None) -> Callable[[], SphereScene]:
        """Only ``random`` takes the settings' count and seed; ``classic`` is the book's."""
        if self.scene_inputs(name_or_file):
            return sphere_scene_loader(name_or_file, count, seed)
        return sphere_scene_loader(name_or_file, None, None)

    def scene_inputs(self, name_or_file: str) -> tuple[str, ...]:
        return ("count", "seed") if name_or_file == "random" else ()

    def default_variant(self, scene: SphereScene) -> VariantChoice:
        return VARIANTS.parse("constant" if scene.count <= MAX_CONSTANT_SPHERES else "shared-tiled")

    def make_renderer(self, choice: VariantChoice | None, look: Look) -> Renderer:
        from render.spheres.view import SphereView

        return SphereView(choice, look.view or "classic", look.shading or ShadeSettings())

    def kernel_builds(self, choice: VariantChoice, scene: SphereScene, size: int, look: Look) -> list[Build]:
        """One module per variant, with a kernel for each view."""
        source = VARIANTS[choice.name].source
        assert source is not None, f"sphere variant {choice.name!r} has no source"
        return [(source, dict(CUDA_DEFINES))]

    def animated(self, scene: SphereScene, look: Look) -> bool:
        return look.view == "shaded"

    def cpu_seconds(self, scene: SphereScene, size: int, look: Look) -> float:
        from render.spheres.cpu_estimate import estimated_seconds

        return estimated_seconds(scene, size, look.view or "classic", look.shading)

    def output_name(self, scene: SphereScene, frame: int, look: Look) -> str:
        return f"{scene.name}_{'shaded' if look.view == 'shaded' else 'spheres'}_{frame:04d}.png"

    def overlay(self, renderer: Renderer, name: str, choice: VariantChoice | None) -> Overlay:
        raise ValueError(f"the sphere tracer has no overlay {name!r}")

    def overlay_problem(self, name: str, choice: VariantChoice | None, renderer: Renderer | None = None) -> str | None:
        return f"the sphere tracer has no overlay {name!r}"

    def describe(self, scene: SphereScene, look: Look) -> str:
        return f"{scene.name}, {scene.count} spheres, {look.view or 'classic'}"

    def check(self, request: CheckRequest, report: Callable[[str], None], progress: Progress) -> CheckOutcome:
        from render.spheres import check

        if request.scenes:
            scenes = [self.scene_loader(name, request.seed, None)() for name in request.scenes]
        else:
            scenes = [build_sphere_scene("classic", None, request.seed)]
            seed = 0 if request.seed is None else request.seed
            scenes += [random_spheres(n, seed, f"random{n}") for n in check.CHECK_COUNTS]
        report(check.HEADER)
        report("-" * len(check.HEADER))
        view = request.look.view or "classic"
        rows = check.run_sphere_check(scenes, request.variants, request.size, view, progress)
        return CheckOutcome(run_and_report(rows, check.row_line, report), check.WHAT_DIFFERS)

    def race(self, request: RaceRequest, progress: Progress) -> BenchOutcome:
        from render.core.gpu import gpu_name
        from render.core.race import race_chart, race_lines, race_payload
        from render.spheres.bench import BENCH_SIZES
        from render.spheres.race import run_race

        scene = self.scene_loader(request.scene, request.seed, request.count)()
        size = request.size or BENCH_SIZES[1]
        view = request.look.view or "classic"
        shading = request.look.shading or ShadeSettings()
        rows = run_race(scene, size, view, shading, progress, request.also)
        gpu = gpu_name()
        title = f"{gpu}: {scene.name} ({scene.count} spheres), {view} view, {size}x{size}, median kernel time"
        about = dict(gpu=gpu, scene=scene.name, spheres=scene.count, size=size, view=view)
        return BenchOutcome(
            race_lines(rows, title),
            race_payload(rows, **about),
            lambda path, how: race_chart(rows, title, path, how),
        )

    def bench(self, request: BenchRequest, progress: Progress) -> BenchOutcome:
        from render.core.gpu import gpu_name
        from render.spheres import bench

        counts = request.counts or bench.BENCH_COUNTS
        sizes = request.sizes or bench.BENCH_SIZES
        view = request.look.view or "classic"
        rows = bench.run_sphere_bench(request.variants, counts, sizes, request.seed, progress, view)
        gpu = gpu_name()
        payload = {"gpu": gpu, "view": view, "seed": request.seed, "launches": bench.TIMED_LAUNCHES, "rows": rows}

        def chart(path, placement) -> str:
            from render.spheres.chart import sphere_bench_chart

            title = f"{gpu}: sphere tracer, {view} view, median kernel time (CUDA events), seed {request.seed}"
            return sphere_bench_chart(rows, path, title, placement)

        lines = bench.table_lines(rows, request.variants, counts, sizes, gpu, view, request.seed)
        return BenchOutcome(lines, payload, chart)


SPHERES = SphereKind()
