"""What a kind of renderer (the circle renderer, the sphere tracer) tells the app and the command
line, so that neither needs to know which kind it drives. ``render.kinds`` registers the kinds."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from render.core.module_cache import Build
from render.core.overlay import Overlay
from render.core.renderer import Renderer
from render.core.variants import VariantChoice, VariantTable
from scenes.safe_write import Placement


@dataclasses.dataclass(frozen=True)
class Look:
    """How a frame looks beyond its scene and variant: the kind's view (one of ``kind.views``, ""
    for kinds with one view) and that view's camera and material (``shading``, None for none)."""

    view: str = ""
    shading: Any = None


@dataclasses.dataclass(frozen=True)
class CheckRequest:
    """``check``: each of ``variants`` against the CPU reference on ``scenes`` (None: the kind's
    default list) at ``size``, frame ``frame``, or against variant ``against`` where given; ``seed``,
    ``frame`` and ``against`` None where not given."""

    scenes: list[str] | None
    variants: list[str]
    size: int
    seed: int | None
    frame: int | None
    look: Look
    against: str | None = None


@dataclasses.dataclass(frozen=True)
class BenchRequest:
    """``bench``: ``variants`` on ``scenes`` at ``size`` with ``frames`` and ``runs`` (circles), or
    over sphere ``counts`` x ``sizes`` (None: the kind's defaults)."""

    scenes: list[str] | None
    variants: list[str]
    size: int | None
    seed: int
    frames: int | None
    runs: int | None
    counts: tuple[int, ...] | None
    sizes: tuple[int, ...] | None
    look: Look


@dataclasses.dataclass(frozen=True)
class RaceRequest:
    """``race``: every configuration on ``scene`` (made with ``seed`` and ``count`` where it takes
    them) at ``size`` (None: the bench's), with ``frames`` and ``runs`` where the kind's protocol
    has them, in ``look``; ``also`` the variants named there (a user's ``file:PATH``, say)."""

    scene: str
    size: int | None
    seed: int | None
    count: int | None
    frames: int | None
    runs: int | None
    look: Look
    also: tuple[str, ...] = ()


@dataclasses.dataclass
class CheckOutcome:
    """A check's rows (each with ``passed``); ``what_differs`` qualifies the count of failures."""

    rows: list
    what_differs: str = ""

    @property
    def passed(self) -> bool:
        return all(row.passed for row in self.rows)

    @property
    def summary(self) -> str:
        failed = sum(not row.passed for row in self.rows)
        return f"{len(self.rows) - failed} passed, {failed} failed{self.what_differs}"


def run_and_report(rows: Iterable, line: Callable[[Any], str], report: Callable[[str], None]) -> list:
    """Every row of ``rows``, each handed to ``report`` as its table ``line`` once it is done."""
    done = []
    for row in rows:
        done.append(row)
        report(line(row))
    return done


@dataclasses.dataclass
class BenchOutcome:
    """A bench's table (``lines``), its figures for JSON (``payload``) and, where the kind draws
    one, ``chart(path, placement)`` writing a PNG and returning its path."""

    lines: list[str]
    payload: dict
    chart: Callable[..., str] | None = None


# ``progress(done, total, label)``: ``done`` of a task's ``total`` steps are done; ``label`` names
# the step now starting (``done == total``: the task is over).
Progress = Callable[[int, int, str], None]


class RendererKind(Protocol):
    """One renderer: its names, scenes, variants, settings and tasks.

    ``settings_fields`` maps the roles ``scene``, ``seed`` and ``variant`` (and, where the kind has
    them, ``view`` and ``count``) to the app's settings fields that hold this kind's values.
    ``cli_options`` are the command-line options only this kind takes; ``bench_options`` and
    ``check_options`` those its ``bench`` and ``check`` read (the others are refused, not ignored).
    These are read-only (properties here), so a kind may declare them as plain class attributes of
    narrower types.
    """

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def units(self) -> str: ...
    @property
    def scene_word(self) -> str: ...  # how messages name one of its built-in scenes
    @property
    def scenes_move(self) -> bool: ...  # whether a scene's own state changes from frame to frame
    @property
    def variants(self) -> VariantTable: ...
    @property
    def scene_names(self) -> tuple[str, ...]: ...
    @property
    def scene_errors(self) -> tuple[type[Exception], ...]: ...
    @property
    def scene_notes(self) -> Mapping[str, str]: ...  # a line the panel shows under some scenes
    @property
    def views(self) -> tuple[str, ...]: ...
    @property
    def view_notes(self) -> Mapping[str, str]: ...  # what each view shows, for the panel's tooltips
    @property
    def settings_fields(self) -> Mapping[str, str]: ...
    @property
    def cli_options(self) -> tuple[str, ...]: ...
    @property
    def bench_options(self) -> tuple[str, ...]: ...
    @property
    def check_options(self) -> tuple[str, ...]: ...
    @property
    def overlays(self) -> tuple[str, ...]: ...  # what ``overlay`` draws, by name
    @property
    def gpu_overlays(self) -> tuple[str, ...]: ...  # those of ``overlays`` measured on the GPU only
    @property
    def rule_overlays(self) -> tuple[str, ...]: ...  # those that depend on the variant's binning rule

    def scene_loader(self, name_or_file: str, seed: int | None, count: int | None) -> Callable[[], Any]:
        """A function making the scene (a built-in name or a scene file); raises the kind's unknown
        scene error at once for a name that is neither."""
        ...

    def app_scene_loader(self, name_or_file: str, seed: int, count: int | None) -> Callable[[], Any]:
        """The same for the app, whose settings always hold a seed (and a count): they apply only
        to the scenes that take them."""
        ...

    def scene_inputs(self, name_or_file: str) -> tuple[str, ...]:
        """Which of the app's ``seed`` and ``count`` make the scene ``name_or_file`` (a scene file
        takes neither), so that a command line reproducing it names exactly those."""
        ...

    def built_in_scene(self, name: str, seed: int | None, count: int | None) -> Any:
        """The built-in scene ``name`` at frame 0 (``seed`` and ``count`` None: its defaults)."""
        ...

    def advance_scene(self, scene: Any) -> None:
        """Move ``scene`` on by one frame (kinds whose scenes move)."""
        ...

    def save_scene(self, scene: Any, path: str, how: Placement) -> Path:
        """Write ``scene`` as a .npz or .json scene file, placed as ``how`` says."""
        ...

    def default_variant(self, scene: Any) -> VariantChoice:
        """The variant the command line runs when none is named."""
        ...

    def make_renderer(self, choice: VariantChoice | None, look: Look) -> Renderer:
        """A renderer of ``choice`` on the GPU, or the CPU reference when ``choice`` is None."""
        ...

    def kernel_builds(self, choice: VariantChoice, scene: Any, size: int, look: Look) -> list[Build]:
        """The modules ``(source, defines)`` that a renderer of ``choice`` compiles to show ``scene``
        at ``size`` x ``size`` in ``look`` (``auto`` resolved as a load resolves it), read from the
        variant table without uploading anything."""
        ...

    def animated(self, scene: Any, look: Look) -> bool:
        """Whether frames differ (a moving scene, or a view whose camera turns)."""
        ...

    def cpu_seconds(self, scene: Any, size: int, look: Look) -> float:
        """A rough time of one CPU reference frame, for a warning before a slow scene."""
        ...

    def output_name(self, scene: Any, frame: int, look: Look) -> str:
        """The default PNG name of ``render``."""
        ...

    def overlay(self, renderer: Renderer, name: str, choice: VariantChoice | None) -> Overlay:
        """The overlay ``name`` (one of ``overlays``) of the frame ``renderer`` has just rendered; on
        the CPU reference, for the variant ``choice`` (None: the default)."""
        ...

    def overlay_problem(self, name: str, choice: VariantChoice | None, renderer: Renderer | None = None) -> str | None:
        """Why overlay ``name`` cannot be drawn, known before a frame renders: for the variant
        ``choice`` as named (``renderer`` None; None when nothing is named), or for what ``renderer``
        (loaded) would show with it. None when it can."""
        ...

    def describe(self, scene: Any, look: Look) -> str:
        """The scene as a report names it, for example ``rand10k, 10000 circles``."""
        ...

    def check(self, request: CheckRequest, report: Callable[[str], None], progress: Progress) -> CheckOutcome:
        """Run ``check``, handing ``report`` the table's lines as they come and ``progress`` each
        step (a CPU reference, a variant's row) as it starts."""
        ...

    def race(self, request: RaceRequest, progress: Progress) -> BenchOutcome:
        """Run ``race``: every configuration timed and checked on one scene, fastest first, with its
        table, JSON figures and chart."""
        ...

    def bench(self, request: BenchRequest, progress: Progress) -> BenchOutcome:
        """Run ``bench``, handing ``progress`` each timed configuration as it starts."""
        ...
