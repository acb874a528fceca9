"""The circle renderer (CS149 assignment 3) as a ``RendererKind``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from render.circles.overlays import GPU_OVERLAYS, OVERLAYS, RULE_OVERLAYS, circle_overlay
from render.circles.variants import VARIANTS
from render.core import limits
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
from scenes.animation import advance
from scenes.builtin import SCENE_NAMES, SCORED_SCENES, UnknownSceneError, build_scene
from scenes.files import save_scene
from scenes.lookup import names_a_file, scene_loader
from scenes.model import CircleScene
from scenes.safe_write import Placement


class CircleUsageError(ValueError):
    """An option that does not apply to what was asked (``--seed`` with a scene file)."""


class CircleKind:
    name = "circles"
    label = "circles (CS149 assignment 3)"
    units = "circles"
    scene_word = "scene"
    scenes_move = True
    variants = VARIANTS
    scene_names = SCENE_NAMES
    scene_errors = (UnknownSceneError, CircleUsageError)
    scene_notes: dict[str, str] = {}
    views: tuple[str, ...] = ()
    view_notes: dict[str, str] = {}
    settings_fields = {"scene": "scene", "seed": "seed", "variant": "variant"}
    cli_options: tuple[str, ...] = ("chart",)  # race's (bench refuses it through bench_options)
    bench_options = ("scenes", "size", "frames", "runs")
    check_options = ("frame", "against")
    overlays = OVERLAYS
    gpu_overlays = GPU_OVERLAYS
    rule_overlays = RULE_OVERLAYS

    def scene_loader(self, name_or_file: str, seed: int | None, count: int | None) -> Callable[[], CircleScene]:
        if seed is not None and names_a_file(name_or_file, SCENE_NAMES):
            raise CircleUsageError("--seed applies to the built-in scenes, not to a scene file")
        return scene_loader(name_or_file, 0 if seed is None else seed)

    def app_scene_loader(self, name_or_file: str, seed: int, count: int | None) -> Callable[[], CircleScene]:
        return scene_loader(name_or_file, seed)

    def scene_inputs(self, name_or_file: str) -> tuple[str, ...]:
        return () if names_a_file(name_or_file, SCENE_NAMES) else ("seed",)

    def built_in_scene(self, name: str, seed: int | None, count: int | None) -> CircleScene:
        return build_scene(name, 0 if seed is None else seed)

    def advance_scene(self, scene: CircleScene) -> None:
        advance(scene)

    def save_scene(self, scene: CircleScene, path: str, how: Placement) -> Path:
        return save_scene(scene, path, how)

    def default_variant(self, scene: CircleScene) -> VariantChoice:
        return VARIANTS.parse("auto")

    def make_renderer(self, choice: VariantChoice | None, look: Look) -> Renderer:
        if choice is None:
            from render.circles.reference import ReferenceRenderer

            return ReferenceRenderer()
        from render.circles.renderer import CudaRenderer

        return CudaRenderer(choice)

    def kernel_builds(self, choice: VariantChoice, scene: CircleScene, size: int, look: Look) -> list[Build]:
        from render.circles.builds import circle_builds

        return circle_builds(choice, scene, size, size)

    def animated(self, scene: CircleScene, look: Look) -> bool:
        return scene.animation != "none"

    def cpu_seconds(self, scene: CircleScene, size: int, look: Look) -> float:
        from render.circles.cpu_estimate import estimated_seconds

        return estimated_seconds(scene, size)

    def output_name(self, scene: CircleScene, frame: int, look: Look) -> str:
        return f"{scene.name}_{frame:04d}.png"

    def overlay(self, renderer: Renderer, name: str, choice: VariantChoice | None) -> Overlay:
        return circle_overlay(renderer, name, choice)

    def overlay_problem(self, name: str, choice: VariantChoice | None, renderer: Renderer | None = None) -> str | None:
        from render.circles.overlays import overlay_problem, overlay_rule

        if renderer is None:
            return None if choice is None else overlay_problem(name, choice)
        return overlay_problem(name, overlay_rule(renderer, choice))

    def describe(self, scene: CircleScene, look: Look) -> str:
        return scene.name

    def check(self, request: CheckRequest, report: Callable[[str], None], progress: Progress) -> CheckOutcome:
        from render.circles import check

        names = request.scenes or list(SCENE_NAMES)
        scenes = [(name, self.scene_loader(name, request.seed, None)) for name in names]
        if request.against:
            report(f"each variant against {request.against}'s frame, not the CPU reference's")
        report(check.HEADER)
        report("-" * len(check.HEADER))
        frame = request.frame or 0
        rows = check.run_check(scenes, request.variants, request.size, frame, progress, request.against)
        return CheckOutcome(run_and_report(rows, check.row_line, report))

    def race(self, request: RaceRequest, progress: Progress) -> BenchOutcome:
        from render.circles.race import run_race
        from render.core.gpu import gpu_name
        from render.core.race import race_chart, race_lines, race_payload

        seed = request.seed or 0
        scene = self.scene_loader(request.scene, seed, request.count)()
        size = request.size or limits.BENCH_DEFAULT_SIZE
        frames = request.frames or limits.BENCH_DEFAULT_FRAMES
        runs = request.runs or limits.BENCH_DEFAULT_RUNS
        rows = run_race(scene, size, frames, runs, progress, request.also)
        gpu = gpu_name()
        title = f"{gpu}: {scene.name} at {size}x{size}, seed {seed}, frames 0-{frames - 1}, best of {runs}"
        about = dict(gpu=gpu, scene=scene.name, size=size, seed=seed, frames=frames, runs=runs)
        return BenchOutcome(
            race_lines(rows, title),
            race_payload(rows, **about),
            lambda path, how: race_chart(rows, title, path, how),
        )

    def bench(self, request: BenchRequest, progress: Progress) -> BenchOutcome:
        from render.circles import bench
        from render.core.gpu import gpu_name

        names = request.scenes or list(SCORED_SCENES)
        scenes = [(name, scene_loader(name, request.seed)) for name in names]
        size = request.size or limits.BENCH_DEFAULT_SIZE
        frames = request.frames or limits.BENCH_DEFAULT_FRAMES
        runs = request.runs or limits.BENCH_DEFAULT_RUNS
        device, rows = bench.run_bench(scenes, request.variants, size, frames, runs, progress)
        figures = (device, rows, gpu_name(), size, request.seed, frames, runs)
        return BenchOutcome(bench.table_lines(*figures), bench.payload(*figures))


CIRCLES = CircleKind()
