"""The app's state and every action its widgets, shortcuts and tests take; no OpenGL, no ImGui.

A ``Session`` owns one renderer (CUDA when a GPU is usable, else the CPU reference) of one kind
(``circles``, the CS149 renderer, or ``spheres``, the "CUDA by Example" tracer), the scene it
shows, the frame number and the timing history. Frame k is the course's: the scene after k + 1
advances (for spheres in the shaded view, the camera k orbit steps on). Every action that fails
leaves the previous scene and renderer in place and says why in ``status``.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import functools
import re
from pathlib import Path

import numpy as np

from app.settings import Settings
from render.circles.reference import ReferenceRenderer, estimated_seconds
from render.core.compare import compare_images
from render.core.gpu import gpu_failures, gpu_problem, is_out_of_memory, release_cached_gpu_memory
from render.core.image_io import png_encoder, to_rgb8
from render.core.limits import APP_SIZE, ELEVATION, METALNESS, ROUGHNESS, SEED, SPHERE_COUNT, Limit, OutOfRange
from render.core.renderer import CircleRenderer, RendererUnavailable, render_frame
from render.core.variants import REGISTRIES, UnknownVariantError, VariantChoice, parse_variant
from render.spheres.shading import VIEWS, ShadeSettings
from render.spheres.view import SphereView, sphere_seconds
from scenes.builtin import UnknownSceneError
from scenes.files import SceneFileError
from scenes.lookup import scene_loader, sphere_scene_loader
from scenes.model import CircleScene
from scenes.safe_write import OutputError, write_new_file
from scenes.spheres import SphereScene, UnknownSphereSceneError

HISTORY_FRAMES = 300
CPU_WARN_SECONDS = 3.0  # a CPU frame slower than this asks before it starts
CHECK_MAX_SIZE = 512  # "check against reference" renders both sides at most this large

# The errors whose message names the scene and says what is wrong with it.
_SCENE_ERRORS = (UnknownSceneError, UnknownSphereSceneError, SceneFileError, RendererUnavailable, OSError)
# The settings fields that each renderer kind keeps for itself.
_FIELDS = {
    "circles": {"scene": "scene", "seed": "seed", "variant": "variant"},
    "spheres": {"scene": "sphere_scene", "seed": "sphere_seed", "variant": "sphere_variant"},
}


@dataclasses.dataclass
class PendingScene:
    """A scene the CPU backend would take long on, waiting for the user to confirm."""

    name_or_file: str
    seconds: float


@dataclasses.dataclass(frozen=True)
class CheckResult:
    size: int
    max_abs_diff: float
    bad_values: int
    passed: bool

    def summary(self) -> str:
        verdict = "pass" if self.passed else "FAIL"
        return f"{verdict}: max |diff| {self.max_abs_diff:.3g}, {self.bad_values} bad values at {self.size}x{self.size}"


def _survives_gpu_failure(failed_result=None):
    """Turn a CUDA failure inside a Session method into ``gpu_failed`` plus ``failed_result``."""

    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except gpu_failures() as error:
                self.gpu_failed(error)
                return failed_result

        return guarded

    return wrap


def export_name(scene: str, variant: str, frame: int) -> str:
    """``<scene>_<variant>_<frame>.png`` with the variant's options made file-name safe."""
    safe_variant = re.sub(r"[^A-Za-z0-9.-]+", "_", variant.replace("=", "-"))
    return f"{Path(scene).stem}_{safe_variant}_{frame:04d}.png"


class Session:
    """Everything the window shows and does, driven by ``update()`` once per displayed frame."""

    def __init__(self, settings: Settings, backend: str | None = None) -> None:
        self.settings = settings
        problem = gpu_problem()
        self.backend = backend or ("cpu" if problem else "cuda")
        self.backend_note = f"CPU reference backend: {problem}" if self.backend == "cpu" and problem else None
        self.status = ""
        self.pending: PendingScene | None = None
        self.history: collections.deque[dict[str, float]] = collections.deque(maxlen=HISTORY_FRAMES)
        self.playing = False
        self.frame = 0
        self.renderer: CircleRenderer | SphereView | None = None
        self.scene: CircleScene | SphereScene | None = None
        self.last_check: CheckResult | None = None
        self._generation = 0  # bumps on every load, so a stale CPU frame is dropped
        self._image_ready = False
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rasterlab-cpu")
        self._job: concurrent.futures.Future | None = None
        self._check_job: concurrent.futures.Future | None = None
        self._dirty = True
        self.variant = self._valid_variant(self._setting("variant"))
        self.start_problem: str | None = None  # why the remembered (or asked for) scene did not open
        if not self.select_scene(self.scene_name, confirmed=True):
            self.start_problem = self.status
            self._fall_back_to_the_built_in_scene(self.start_problem)

    def _fall_back_to_the_built_in_scene(self, problem: str) -> bool:
        """Show the kind's default scene when the remembered one (a file moved or broken since) did
        not open, with a status line saying so; False when that fails too."""
        default = getattr(Settings, _FIELDS[self.kind]["scene"])
        if self.scene_name == default or not self.select_scene(default, confirmed=True):
            return False
        self.status = f"{problem}; showing the built-in scene {default} instead"
        return True

    # -- choosing what to render --------------------------------------------------------------

    @property
    def kind(self) -> str:
        """``circles`` or ``spheres``."""
        return self.settings.renderer

    @property
    def scene_name(self) -> str:
        """The current kind's scene: a built-in name or a scene file path."""
        return self._setting("scene")

    @property
    def units(self) -> str:
        return "circles" if self.kind == "circles" else "spheres"

    def _setting(self, key: str):
        return getattr(self.settings, _FIELDS[self.kind][key])

    def _store(self, key: str, value) -> None:
        setattr(self.settings, _FIELDS[self.kind][key], value)

    def _valid_variant(self, label: str) -> VariantChoice:
        try:
            return parse_variant(label, self.kind)
        except UnknownVariantError as error:
            self.status = str(error)
            return parse_variant(getattr(Settings, _FIELDS[self.kind]["variant"]), self.kind)

    def set_renderer(self, kind: str) -> bool:
        """Switch between the circle renderer and the sphere tracer, each with its own last scene
        and variant; False (and the old renderer kept) when the new one cannot show its scene."""
        if kind not in REGISTRIES:
            self.status = f"unknown renderer {kind!r}; valid renderers are: {', '.join(REGISTRIES)}"
            return False
        if kind == self.kind:
            return True
        previous = (self.settings.renderer, self.variant)
        self.settings.renderer = kind
        self.variant = self._valid_variant(self._setting("variant"))
        if self.select_scene(self.scene_name, confirmed=True) or self._fall_back_to_the_built_in_scene(self.status):
            return True
        self.settings.renderer, self.variant = previous
        return False

    def _make_scene(self, name_or_file: str) -> CircleScene | SphereScene:
        if self.kind == "circles":
            return scene_loader(name_or_file, self.settings.seed)()
        if name_or_file == "random":
            return sphere_scene_loader(name_or_file, self.settings.sphere_count, self.settings.sphere_seed)()
        return sphere_scene_loader(name_or_file, None, None)()

    def _cpu_seconds(self, scene: CircleScene | SphereScene) -> float:
        if self.kind == "circles":
            return estimated_seconds(scene, self.settings.size)
        return sphere_seconds(scene, self.settings.size, self.settings.sphere_view)

    def select_scene(self, name_or_file: str, confirmed: bool = False) -> bool:
        """Show ``name_or_file`` from frame 0; False (and a status line) when it cannot be shown.

        On the CPU backend a scene estimated above CPU_WARN_SECONDS per frame waits in ``pending``
        until it is selected again with ``confirmed=True``.
        """
        try:
            scene = self._make_scene(name_or_file)
        except Exception as error:  # any file may be given: whatever breaks, the shown scene stays
            self.status = self._scene_problem(name_or_file, error)
            return False
        if self.backend == "cpu" and not confirmed:
            seconds = self._cpu_seconds(scene)
            if seconds > CPU_WARN_SECONDS:
                self.pending = PendingScene(name_or_file, seconds)
                return False
        self.pending = None
        if not self._load(scene, self.variant, self.settings.size, frame=0):
            return False
        self._store("scene", name_or_file)
        self.playing = False
        return True

    @staticmethod
    def _scene_problem(name_or_file: str, error: Exception) -> str:
        """The status line for a scene that could not be made; an unexpected error is named by type
        (a MemoryError says nothing else)."""
        if isinstance(error, _SCENE_ERRORS):
            return f"cannot open scene: {error}"
        detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        return f"cannot open scene {name_or_file}: {detail}"

    def _refuses(self, limit: Limit, value) -> bool:
        """True, with the reason in ``status``, when ``value`` is outside ``limit``."""
        try:
            limit.check(value)
        except OutOfRange as error:
            self.status = str(error)
            return True
        return False

    def set_seed(self, seed: int) -> bool:
        """The current kind's seed, reloading its scene; a seed outside SEED is refused, not wrapped."""
        if self._refuses(SEED, seed):
            return False
        previous = self._setting("seed")
        self._store("seed", seed)
        if self.select_scene(self.scene_name, confirmed=True):
            return True
        self._store("seed", previous)
        return False

    def set_sphere_count(self, count: int) -> bool:
        """The random sphere scene's count, reloading it when shown; a count outside SPHERE_COUNT is refused."""
        if self._refuses(SPHERE_COUNT, count):
            return False
        previous = self.settings.sphere_count
        self.settings.sphere_count = count
        if self.kind != "spheres" or self.scene_name != "random":
            return True
        if self.select_scene("random", confirmed=True):
            return True
        self.settings.sphere_count = previous
        return False

    def set_view(self, view: str) -> bool:
        """The sphere tracer's classic (the book's, exact) or shaded view, keeping the frame."""
        if view not in VIEWS:
            self.status = f"unknown view {view!r}; valid views are: {', '.join(VIEWS)}"
            return False
        previous = self.settings.sphere_view
        self.settings.sphere_view = view
        if (
            self.kind != "spheres"
            or self.scene is None
            or self._load(self.scene, self.variant, self.settings.size, self.frame)
        ):
            return True
        self.settings.sphere_view = previous
        return False

    def shading(self) -> ShadeSettings:
        """The shaded view's settings at frame 0 (camera as set, material from the panel)."""
        s = self.settings
        return ShadeSettings(
            azimuth=s.camera_azimuth, elevation=s.camera_elevation, roughness=s.roughness, metalness=s.metalness
        ).checked()

    def set_material(self, roughness: float | None = None, metalness: float | None = None) -> None:
        """Change the shaded view's material live (values clamped to ROUGHNESS and METALNESS)."""
        changes = {}
        for key, value, limit in (("roughness", roughness, ROUGHNESS), ("metalness", metalness, METALNESS)):
            if value is not None:
                changes[key] = limit.clamp(float(value))
                setattr(self.settings, key, changes[key])
        self._reshade(**changes)

    def orbit(self, degrees_around: float, degrees_up: float) -> None:
        """Turn the shaded view's camera (a mouse drag); elevation stays within ELEVATION."""
        s = self.settings
        s.camera_azimuth = (s.camera_azimuth + degrees_around) % 360.0
        s.camera_elevation = ELEVATION.clamp(s.camera_elevation + degrees_up)
        if isinstance(self.renderer, SphereView):
            current = self.renderer.shading
            self._reshade(azimuth=(current.azimuth + degrees_around) % 360.0, elevation=s.camera_elevation)

    def _reshade(self, **changes) -> None:
        if isinstance(self.renderer, SphereView) and changes:
            self.renderer.shading = dataclasses.replace(self.renderer.shading, **changes).checked()
            self._dirty = True

    def set_size(self, size: int) -> bool:
        """Render at ``size`` x ``size`` (clamped to APP_SIZE), keeping the frame."""
        size = APP_SIZE.clamp(int(size))
        if size == self.settings.size or self.scene is None:
            return True
        if self._load(self.scene, self.variant, size, self.frame):
            self.settings.size = size
            return True
        return False

    def set_variant(self, label: str) -> bool:
        """Switch the CUDA variant (``name[:key=value,...]``) of the current kind, keeping scene and frame."""
        try:
            choice = parse_variant(label, self.kind)
        except UnknownVariantError as error:
            self.status = str(error)
            return False
        if (
            self.scene is None
            or self.backend == "cpu"
            or self._load(self.scene, choice, self.settings.size, self.frame)
        ):
            self.variant = choice
            self._store("variant", choice.label())
            return True
        return False

    def set_option(self, key: str, value: str) -> bool:
        options = dict(self.variant.options)
        options[key] = value
        return self.set_variant(self.variant.name + ":" + ",".join(f"{k}={v}" for k, v in options.items()))

    def variant_label(self) -> str:
        """What actually renders: the reference, a variant, or ``auto -> resolved``."""
        if self.backend == "cpu":
            return "reference"
        resolved = getattr(self.renderer, "resolved", None)
        if self.variant.name == "auto" and resolved is not None:
            return f"auto -> {resolved.label()}"
        return self.variant.label()

    @property
    def animated(self) -> bool:
        """Whether playing changes the picture (a moving circle scene, or the orbiting shaded view)."""
        if self.kind == "spheres":
            return self.settings.sphere_view == "shaded"
        return self.scene is not None and self.scene.animation != "none"

    def export_label(self) -> str:
        """What rendered, for file names: the variant (or ``reference``), plus the sphere view."""
        label = "reference" if self.backend == "cpu" else self.variant.label()
        return label + ("_shaded" if self.kind == "spheres" and self.settings.sphere_view == "shaded" else "")

    def _make_renderer(self, choice: VariantChoice, backend: str | None = None) -> CircleRenderer | SphereView:
        backend = backend or self.backend
        if self.kind == "spheres":
            return SphereView(None if backend == "cpu" else choice.label(), self.settings.sphere_view, self.shading())
        if backend == "cpu":
            return ReferenceRenderer()
        from render.circles.renderer import CudaRenderer

        return CudaRenderer(choice)

    def _load(self, scene: CircleScene | SphereScene, choice: VariantChoice, size: int, frame: int) -> bool:
        """Replace the renderer with one showing ``frame`` of ``scene``; keep the old one on failure."""
        try:
            renderer = self._make_renderer(choice)
            renderer.load(scene, size, size)
            if self.backend == "cuda":
                # Replaying the advances is exact and cheap on the GPU, and needs no state transfer.
                render_frame(renderer, frame)
        except RendererUnavailable as error:
            self.status = str(error)
            return False
        except gpu_failures() as error:
            if not is_out_of_memory(error):
                self.gpu_failed(error)
                return False
            self.status = f"{scene.name} at {size}x{size} does not fit in GPU memory ({error})"
            return False
        resized = self.renderer is not None and size != self.settings.size
        self.renderer, self.scene, self.frame = renderer, scene, frame
        if resized and self.backend == "cuda":
            release_cached_gpu_memory()
        self._generation += 1
        self.history.clear()
        self.last_check = None
        self._image_ready = self.backend == "cuda"
        self._cpu_advances_due = frame + 1 if self.backend == "cpu" else 0
        self._dirty = True
        self.status = f"{scene.name}: {scene.count} {self.units} at {size}x{size}"
        return True

    def gpu_failed(self, error: Exception) -> None:
        """The GPU stopped working mid-run (lost, or a kernel fault left CUDA unusable in this
        process): say so, and go on from the same scene and frame with the CPU reference."""
        self.backend = "cpu"
        self.backend_note = f"CPU reference backend: the GPU failed during the run ({error})"
        self.playing = False
        scene, self.renderer = self.scene, None
        if scene is not None:
            self._load(scene, self.variant, self.settings.size, self.frame)
        self.status = f"the GPU failed ({error}); continuing with the CPU reference, restart to use the GPU again"

    # -- animation -----------------------------------------------------------------------------

    def toggle_play(self) -> None:
        self.playing = not self.playing

    @_survives_gpu_failure()
    def step(self) -> None:
        """One frame forward (pauses playback)."""
        self.playing = False
        self._advance_one()

    def reset(self) -> None:
        """Back to frame 0 of the current scene, paused."""
        self.playing = False
        if self.scene is not None:
            self._load(self.scene, self.variant, self.settings.size, 0)

    def _advance_one(self) -> None:
        if self.renderer is None:
            return
        if self.backend == "cuda":
            self.renderer.advance()
        else:
            self._cpu_advances_due += 1
        self.frame += 1
        self._dirty = True

    # -- per displayed frame -------------------------------------------------------------------

    @_survives_gpu_failure(False)
    def update(self) -> bool:
        """Advance when playing and render; True when a new image is ready for the display.

        The GPU re-renders every call, so its stage times stay live; the CPU renders in a worker
        thread only when something changed, and the window keeps responding meanwhile.
        """
        if self.renderer is None:
            return False
        if self.backend == "cuda":
            if self.playing:
                self._advance_one()
            try:
                self.renderer.clear()
                self.renderer.render()
            except RendererUnavailable as error:
                self.status = str(error)
                self.playing = False
                return False
            self.history.append(self.renderer.stage_times_ms())
            return True
        return self._update_cpu()

    def _update_cpu(self) -> bool:
        if self._job is not None:
            if not self._job.done():
                return False
            generation, image, seconds = self._job.result()
            self._job = None
            if generation == self._generation:
                self._cpu_image = image
                self.history.append({"cpu frame": seconds * 1000})
                return True
        if self.playing and not self._dirty:
            self._advance_one()
        if self._dirty:
            self._dirty = False
            advances, self._cpu_advances_due = self._cpu_advances_due, 0
            self._job = self._worker.submit(self._render_cpu, self.renderer, advances, self._generation)
        return False

    @staticmethod
    def _render_cpu(renderer: CircleRenderer, advances: int, generation: int):
        import time

        started = time.perf_counter()
        for _ in range(advances):
            renderer.advance()
        renderer.clear()
        renderer.render()
        return generation, renderer.image(), time.perf_counter() - started

    @property
    def busy(self) -> bool:
        """True while the CPU backend is still rendering a frame."""
        return self._job is not None and not self._job.done()

    @property
    def frame_outstanding(self) -> bool:
        """True while the CPU backend owes the display a frame (queued, rendering, or not yet shown)."""
        return self.backend == "cpu" and (self._dirty or self._job is not None)

    def device_image(self):
        """The CUDA renderer's image, cupy float32 (H, W, 4), row 0 = bottom; None on the CPU backend."""
        return self.renderer.image_buffer if self.backend == "cuda" and self.renderer is not None else None

    def host_image(self) -> np.ndarray | None:
        """The latest image on the host, float32 (H, W, 4), row 0 = bottom; None before the first."""
        if self.backend == "cuda":
            return self.renderer.image() if self.renderer is not None else None
        return getattr(self, "_cpu_image", None)

    # -- export and check ----------------------------------------------------------------------

    @_survives_gpu_failure()
    def export_png(self, folder: str | None = None) -> Path | None:
        """Write the current frame at render resolution; never overwrites, never leaves a partial file."""
        image = self.host_image()
        if image is None:
            self.status = "nothing rendered yet to export"
            return None
        target = Path(folder or self.settings.export_folder).expanduser()
        name = export_name(self.scene_name, self.export_label(), self.frame)
        try:
            target.mkdir(parents=True, exist_ok=True)
            path = write_new_file(target / name, png_encoder(to_rgb8(image)))
        except OutputError as error:
            self.status = f"export failed: {error}"
            return None
        except OSError as error:  # the folder could not be made
            self.status = f"export failed: cannot write to {target}: {error.strerror or error}"
            return None
        self.status = f"saved {path}"
        return path

    @_survives_gpu_failure()
    def start_check(self) -> None:
        """Compare the current frame with the CPU reference in the background (see ``poll_check``)."""
        if self.backend == "cpu":
            self.status = "the CPU backend is the reference: nothing to compare"
            return
        if self._check_job is not None and not self._check_job.done():
            return
        size = min(self.settings.size, CHECK_MAX_SIZE)
        scene, choice, frame = self.scene, self.variant, self.frame
        gpu = self._make_renderer(choice)
        try:
            gpu.load(scene, size, size)
            candidate = render_frame(gpu, frame)
        except RendererUnavailable as error:
            self.status = f"check failed: {error}"
            return
        self.status = f"checking frame {frame} against the CPU reference at {size}x{size}..."
        reference = self._make_renderer(choice, backend="cpu")
        self._check_job = self._worker.submit(_reference_check, reference, scene, size, frame, candidate)

    def poll_check(self) -> CheckResult | None:
        """The finished check's result, once; None while it runs or when none was started."""
        if self._check_job is None or not self._check_job.done():
            return None
        result = self._check_job.result()
        self._check_job = None
        self.last_check = result
        self.status = f"check against reference: {result.summary()}"
        return result

    def close(self) -> None:
        self._worker.shutdown(wait=True, cancel_futures=True)


def _reference_check(reference, scene, size: int, frame: int, candidate: np.ndarray) -> CheckResult:
    reference.load(scene, size, size)
    comparison = compare_images(render_frame(reference, frame), candidate)
    return CheckResult(size, comparison.max_abs_diff, comparison.bad_values, comparison.passed)
