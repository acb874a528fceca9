"""The app's state and every action its widgets, shortcuts and tests take; no OpenGL, no ImGui.

A ``Session`` owns one renderer (CUDA when a GPU is usable, else the CPU reference), the scene it
shows, the frame number and the timing history. Frame k is the course's: the scene after k + 1
advances. Every action that fails leaves the previous scene and renderer in place and says why in
``status``.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import re
from pathlib import Path

import numpy as np

from app.settings import MAX_SIZE, MIN_SIZE, Settings
from render.base import CircleRenderer, RendererUnavailable, render_frame
from render.compare import compare_images
from render.gpu import gpu_problem
from render.image_io import ExportError, write_png
from render.reference import ReferenceRenderer, estimated_seconds
from render.variants import UnknownVariantError, VariantChoice, parse_variant
from scenes.builtin import UnknownSceneError
from scenes.files import SceneFileError
from scenes.lookup import scene_loader
from scenes.model import CircleScene

HISTORY_FRAMES = 300
CPU_WARN_SECONDS = 3.0  # a CPU frame slower than this asks before it starts
CHECK_MAX_SIZE = 512  # "check against reference" renders both sides at most this large

_SCENE_ERRORS = (UnknownSceneError, SceneFileError, RendererUnavailable, OSError)


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
        self.renderer: CircleRenderer | None = None
        self.scene: CircleScene | None = None
        self.last_check: CheckResult | None = None
        self._generation = 0  # bumps on every load, so a stale CPU frame is dropped
        self._image_ready = False
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rasterlab-cpu")
        self._job: concurrent.futures.Future | None = None
        self._check_job: concurrent.futures.Future | None = None
        self._dirty = True
        self.variant = self._valid_variant(settings.variant)
        if not self.select_scene(settings.scene, confirmed=True) and settings.scene != Settings.scene:
            self.select_scene(Settings.scene, confirmed=True)

    # -- choosing what to render --------------------------------------------------------------

    def _valid_variant(self, label: str) -> VariantChoice:
        try:
            return parse_variant(label)
        except UnknownVariantError as error:
            self.status = str(error)
            return parse_variant("auto")

    def select_scene(self, name_or_file: str, confirmed: bool = False) -> bool:
        """Show ``name_or_file`` from frame 0; False (and a status line) when it cannot be shown.

        On the CPU backend a scene estimated above CPU_WARN_SECONDS per frame waits in ``pending``
        until it is selected again with ``confirmed=True``.
        """
        try:
            scene = scene_loader(name_or_file, self.settings.seed)()
        except _SCENE_ERRORS as error:
            self.status = f"cannot open scene: {error}"
            return False
        if self.backend == "cpu" and not confirmed:
            seconds = estimated_seconds(scene, self.settings.size)
            if seconds > CPU_WARN_SECONDS:
                self.pending = PendingScene(name_or_file, seconds)
                return False
        self.pending = None
        if not self._load(scene, self.variant, self.settings.size, frame=0):
            return False
        self.settings.scene = name_or_file
        self.playing = False
        return True

    def set_seed(self, seed: int) -> bool:
        previous = self.settings.seed
        self.settings.seed = max(0, int(seed))
        if self.select_scene(self.settings.scene, confirmed=True):
            return True
        self.settings.seed = previous
        return False

    def set_size(self, size: int) -> bool:
        """Render at ``size`` x ``size`` (clamped to 256..4096), keeping the frame."""
        size = min(max(int(size), MIN_SIZE), MAX_SIZE)
        if size == self.settings.size or self.scene is None:
            return True
        if self._load(self.scene, self.variant, size, self.frame):
            self.settings.size = size
            return True
        return False

    def set_variant(self, label: str) -> bool:
        """Switch the CUDA variant (``name[:key=value,...]``), keeping scene and frame."""
        try:
            choice = parse_variant(label)
        except UnknownVariantError as error:
            self.status = str(error)
            return False
        if self.scene is None or self.backend == "cpu":
            self.variant = choice
            self.settings.variant = choice.label()
            return True
        if self._load(self.scene, choice, self.settings.size, self.frame):
            self.variant = choice
            self.settings.variant = choice.label()
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

    def _make_renderer(self, choice: VariantChoice) -> CircleRenderer:
        if self.backend == "cpu":
            return ReferenceRenderer()
        from render.cuda_renderer import CudaRenderer

        return CudaRenderer(choice)

    def _load(self, scene: CircleScene, choice: VariantChoice, size: int, frame: int) -> bool:
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
        self.renderer, self.scene, self.frame = renderer, scene, frame
        self._generation += 1
        self.history.clear()
        self.last_check = None
        self._image_ready = self.backend == "cuda"
        self._cpu_advances_due = frame + 1 if self.backend == "cpu" else 0
        self._dirty = True
        self.status = f"{scene.name}: {scene.count} circles at {size}x{size}"
        return True

    # -- animation -----------------------------------------------------------------------------

    def toggle_play(self) -> None:
        self.playing = not self.playing

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

    def export_png(self, folder: str | None = None) -> Path | None:
        """Write the current frame at render resolution; never overwrites, never leaves a partial file."""
        image = self.host_image()
        if image is None:
            self.status = "nothing rendered yet to export"
            return None
        target = Path(folder or self.settings.export_folder).expanduser()
        variant = "reference" if self.backend == "cpu" else self.variant.label()
        name = export_name(self.settings.scene, variant, self.frame)
        try:
            target.mkdir(parents=True, exist_ok=True)
            path = _unused_path(target / name)
            write_png(image, path)
        except (OSError, ExportError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            self.status = f"export failed: cannot write to {target}: {reason}"
            return None
        self.status = f"saved {path}"
        return path

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
        self._check_job = self._worker.submit(_reference_check, scene, size, frame, candidate)

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


def _reference_check(scene: CircleScene, size: int, frame: int, candidate: np.ndarray) -> CheckResult:
    reference = ReferenceRenderer()
    reference.load(scene, size, size)
    comparison = compare_images(render_frame(reference, frame), candidate)
    return CheckResult(size, comparison.max_abs_diff, comparison.bad_values, comparison.passed)


def _unused_path(path: Path) -> Path:
    """``path``, or ``name-2.png``, ``name-3.png``, ... when it exists already."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate
