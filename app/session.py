"""The app's state and every action its widgets, shortcuts and tests take; no OpenGL, no ImGui.

A ``Session`` owns one renderer (CUDA when a GPU is usable, else the CPU reference) of one kind
(``render.kinds``: the CS149 circle renderer or the "CUDA by Example" sphere tracer), the scene it
shows, the frame number and the timing history. Frame k is the course's: the scene after k + 1
advances (for views with a turning camera, the camera k orbit steps on). Every action that fails
leaves the previous scene and renderer in place and says why in ``status``. CPU frames
(``app.cpu_frames``), exports (``app.exports``), the reference check (``app.reference_check``),
the camera (``app.camera``) and switches that wait for a background compile
(``app.background_switch``) are parts of their own.
"""

from __future__ import annotations

import collections
import concurrent.futures
from collections.abc import Callable

import numpy as np

from app.background_switch import BackgroundSwitches, waits_for_kernels
from app.camera import ViewActions
from app.cpu_frames import CpuFrames
from app.cpu_progress import frame_title
from app.frame_outputs import FrameOutputs
from app.gpu_fallback import survives_gpu_failure
from app.reference_check import CheckResult, ReferenceCheck
from app.settings import Settings
from app.slow_changes import PendingChange, SlowChanges
from app.variant_actions import VariantActions
from render.core.address_space import limit_note
from render.core.gpu import gpu_failures, gpu_problem, is_out_of_memory, release_cached_gpu_memory
from render.core.kind import Look, RendererKind
from render.core.limits import APP_SIZE, SEED, SPHERE_COUNT, Limit, OutOfRange
from render.core.overlay import Overlay
from render.core.renderer import Renderer, RendererUnavailable, render_frame
from render.core.variants import VariantChoice
from render.kinds import KINDS
from scenes.file_reading import WrongKind
from scenes.files import SceneFileError

HISTORY_FRAMES = 300
# At exit, how long to wait for a background compile (or library load) that is running: one takes
# a second or two; a process that ends while it runs can crash in CUDA's teardown.
COMPILE_EXIT_WAIT_S = 30.0

# The errors whose message names the scene and says what is wrong with it.
_SCENE_ERRORS = (
    SceneFileError,
    RendererUnavailable,
    OSError,
    *(error for kind in KINDS.values() for error in kind.scene_errors),
)


class Session(ViewActions, VariantActions, FrameOutputs, BackgroundSwitches, SlowChanges):
    """Everything the window shows and does, driven by ``update()`` once per displayed frame."""

    def __init__(self, settings: Settings, backend: str | None = None) -> None:
        self.settings = settings
        problem = gpu_problem()
        self.backend = backend or ("cpu" if problem else "cuda")
        # Why the CPU reference renders, when the GPU could not be used.
        self.backend_reason: str | None = problem if self.backend == "cpu" else None
        # CUDA failed in this process: GL objects shared with it may never be released (see App.close).
        self.cuda_lost = False
        self.status = ""
        self.pending: PendingChange | None = None
        self.history: collections.deque[dict[str, float]] = collections.deque(maxlen=HISTORY_FRAMES)
        self.playing = False
        self.frame = 0
        self.renderer: Renderer | None = None
        self.gpu_held = False  # a race times the GPU: no frame renders meanwhile
        self.export_overlay: Overlay | None = None  # the overlay shown over the frame, which exports keep
        self.scene = None
        self.last_check: CheckResult | None = None
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rasterlab-cpu")
        self.cpu = CpuFrames(self._worker)
        self._check = ReferenceCheck(self._worker)
        self.variant = self._valid_variant(self._setting("variant"))
        self.start_problem: str | None = None  # why the remembered (or asked for) scene did not open
        if not self.select_scene(self.scene_name, confirmed=True) and not self.start_without_the_kernel_file():
            self.start_problem = self.status
            self._fall_back_to_the_built_in_scene(self.start_problem)

    def _fall_back_to_the_built_in_scene(self, problem: str) -> bool:
        """Show the kind's default scene when the remembered one (a file moved or broken since) did
        not open, with a status line saying so; False when that fails too."""
        default = getattr(Settings, self.kind.settings_fields["scene"])
        if self.scene_name == default or not self.select_scene(default, confirmed=True):
            return False
        self.status = f"{problem}; showing the built-in scene {default} instead"
        return True

    # -- choosing what to render --------------------------------------------------------------

    @property
    def kind(self) -> RendererKind:
        """The renderer shown: ``render.kinds.KINDS[settings.renderer]``."""
        return KINDS[self.settings.renderer]

    @property
    def scene_name(self) -> str:
        """The current kind's scene: a built-in name or a scene file path."""
        return self._setting("scene")

    @property
    def units(self) -> str:
        return self.kind.units

    def _setting(self, role: str, default=None):
        """The settings field holding the current kind's ``role`` (scene, seed, variant, view, count)."""
        field = self.kind.settings_fields.get(role)
        return default if field is None else getattr(self.settings, field)

    def _store(self, role: str, value) -> None:
        setattr(self.settings, self.kind.settings_fields[role], value)

    @waits_for_kernels
    def set_renderer(self, name: str) -> bool:
        """Switch between the renderer kinds, each with its own last scene and variant; False (and
        the old renderer kept) when the new one cannot show its scene."""
        if name not in KINDS:
            self.status = f"unknown renderer {name!r}; valid renderers are: {', '.join(KINDS)}"
            return False
        return name == self.kind.name or self._switch_to(name, None, confirmed=True)

    def _switch_to(self, kind: str, name_or_file: str | None, confirmed: bool) -> bool:
        """Show the renderer ``kind`` with ``name_or_file`` (None: its own last scene, or its built-in
        one should that fail); the old renderer is kept when it cannot."""
        previous = (self.settings.renderer, self.variant)
        self.settings.renderer = kind
        self.variant = self._valid_variant(self._setting("variant"))
        if name_or_file is not None and self.select_scene(name_or_file, confirmed):
            return True
        if name_or_file is None and (
            self.select_scene(self.scene_name, confirmed=True) or self._fall_back_to_the_built_in_scene(self.status)
        ):
            return True
        self.settings.renderer, self.variant = previous
        return False

    @waits_for_kernels
    def select_scene(
        self, name_or_file: str, confirmed: bool = False, asking: tuple[str, Callable[[], bool]] | None = None
    ) -> bool:
        """Show ``name_or_file`` from frame 0; False (and a status line) when it cannot be shown.

        On the CPU backend a scene estimated above CPU_WARN_SECONDS per frame waits in ``pending``
        (``app.slow_changes``) until confirmed; ``asking``: what the question names and what
        confirming does, when the scene reloads for another change (a seed, a count).
        """
        try:
            make = self.kind.app_scene_loader(name_or_file, self._setting("seed"), self._setting("count"))
            scene = make()
        except WrongKind as error:  # a scene file of the other renderer: opened there
            return self._switch_to(error.found, name_or_file, confirmed)
        except Exception as error:  # any file may be given: whatever breaks, the shown scene stays
            self.status = self._scene_problem(name_or_file, error)
            return False
        size = self.settings.size
        what, confirm = asking or (f"{scene.name} at {size}x{size}", lambda: self.select_scene(name_or_file, True))
        if not confirmed and self._asks_first(scene, size, what, confirm):
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

    def _set_and_reload(self, role: str, value, confirmed: bool) -> bool:
        """Store the kind's ``role`` and reload its scene; the old value is kept when that fails or
        waits for the user's word."""
        previous = self._setting(role)
        asking = (self.describe_change(role, value), lambda: self._set_and_reload(role, value, True))
        self._store(role, value)
        if self.select_scene(self.scene_name, confirmed, asking):
            return True
        self._store(role, previous)
        return False

    @waits_for_kernels
    def set_seed(self, seed: int, confirmed: bool = False) -> bool:
        """The current kind's seed, reloading its scene; a seed outside SEED is refused, not wrapped."""
        return not self._refuses(SEED, seed) and self._set_and_reload("seed", seed, confirmed)

    @waits_for_kernels
    def set_sphere_count(self, count: int, confirmed: bool = False) -> bool:
        """The random scene's count (kinds that have one), reloading it when shown; a count outside
        SPHERE_COUNT is refused."""
        if self._refuses(SPHERE_COUNT, count):
            return False
        if self.scene_name != "random" or "count" not in self.kind.settings_fields:
            self.settings.sphere_count = count
            return True
        return self._set_and_reload("count", count, confirmed)

    @waits_for_kernels
    def set_size(self, size: int, confirmed: bool = False) -> bool:
        """Render at ``size`` x ``size`` (clamped to APP_SIZE), keeping the frame."""
        size = APP_SIZE.clamp(int(size))
        if size == self.settings.size or self.scene is None:
            return True
        if not confirmed and self._size_asks_first(size):
            return False
        if self._load(self.scene, self.variant, size, self.frame):
            self.settings.size = size
            return True
        return False

    def set_fit_to_window(self, fit: bool) -> None:
        """Whether the render resolution follows the window (the window loop resizes)."""
        self.settings.fit_to_window = bool(fit)
        self.declined_fit = None

    def set_export_folder(self, folder: str) -> None:
        """Where ``export_png`` writes; a missing folder is made only once the user says so."""
        self.settings.export_folder = folder

    @property
    def animated(self) -> bool:
        """Whether playing changes the picture (a moving scene, or a turning camera)."""
        # Asked every frame by the panel: the view decides, the camera's settings are not needed.
        return self.scene is not None and self.kind.animated(self.scene, Look(self._setting("view", "")))

    def export_label(self) -> str:
        """What rendered, for file names: the variant (or ``reference``), plus the view when it is
        not the kind's first."""
        label = "reference" if self.backend == "cpu" else self.variant.short_label()
        view = self.look().view
        return label + (f"_{view}" if view and view != self.kind.views[0] else "")

    def _make_renderer(self, choice: VariantChoice, backend: str | None = None) -> Renderer:
        on_gpu = (backend or self.backend) == "cuda"
        return self.kind.make_renderer(choice if on_gpu else None, self.look())

    def _load(self, scene, choice: VariantChoice, size: int, frame: int) -> bool:
        """Replace the renderer with one showing ``frame`` of ``scene``; keep the old one on failure."""
        self._compile_first(scene, choice, size)
        resized = self.renderer is not None and size != self.settings.size and self.backend == "cuda"
        if resized:
            # CuPy's pool would carve the new renderer's small arrays out of blocks cached at the old
            # size, and a block partly in use is never handed back: hand them back first.
            release_cached_gpu_memory()
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
            self.status = f"{scene.name} at {size}x{size} does not fit in GPU memory ({error}){limit_note()}"
            return False
        self.renderer, self.scene, self.frame = renderer, scene, frame
        if resized:
            release_cached_gpu_memory()
        self.history.clear()
        self.last_check = None
        self.cpu.restart(frame, self.backend == "cpu")
        self.status = f"{scene.name}: {scene.count:,} {self.units} at {size}x{size}"
        return True

    def gpu_failed(self, error: Exception) -> None:
        """The GPU stopped working mid-run (lost, or a kernel fault left CUDA unusable in this
        process): say so, and go on from the same scene and frame with the CPU reference (a user's
        kernel that failed with CUDA still working: back to a variant that rendered)."""
        if self.back_from_a_failed_file(error):
            return
        self.cuda_lost = True
        self.backend = "cpu"
        self.backend_reason = f"the GPU failed during the run ({error})"
        self.playing = False
        scene, self.renderer = self.scene, None
        if scene is not None:
            self._load(scene, self.variant, self.settings.size, self.frame)
        self.status = f"the GPU failed ({error}); continuing with the CPU reference, restart to use the GPU again"

    # -- animation -----------------------------------------------------------------------------

    def toggle_play(self) -> None:
        self.playing = not self.playing

    @survives_gpu_failure()
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
            self.cpu.step()
        self.frame += 1

    # -- per displayed frame -------------------------------------------------------------------

    @survives_gpu_failure(False)
    def update(self) -> bool:
        """Advance when playing and render; True when a new image is ready for the display.

        The GPU re-renders every call, so its stage times stay live; the CPU renders in a worker
        thread only when something changed, and the window keeps responding meanwhile.
        """
        if self.renderer is None or self.gpu_held:
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
            self.rendered_well()
            return True
        if self.playing and not self.cpu.outstanding:
            self._advance_one()
        what = frame_title(
            self.scene.name, self.scene.count, self.units, self._setting("view", ""), self.settings.size, self.frame
        )
        seconds = self.cpu.poll(self.renderer, what)
        if seconds is None:
            return False
        self.history.append({"cpu frame": seconds * 1000})
        return True

    @property
    def backend_note(self) -> str | None:
        """The line saying the CPU reference renders and why; None on the GPU or when asked for."""
        return f"CPU reference backend: {self.backend_reason}" if self.backend_reason else None

    @property
    def busy(self) -> bool:
        """True while the CPU backend is still rendering a frame."""
        return self.cpu.busy

    @property
    def frame_outstanding(self) -> bool:
        """True while the CPU backend owes the display a frame (queued, rendering, or not yet shown)."""
        return self.backend == "cpu" and self.cpu.outstanding

    def scene_request(self) -> tuple[str, int | None, int | None]:
        """The scene as the command line names it: (name or file, seed, count)."""
        return self._setting("scene"), self._setting("seed"), self._setting("count")

    def run_in_worker(self, function, *args) -> concurrent.futures.Future:
        """``function(*args)`` in the thread that renders CPU frames, after what is queued there."""
        return self._worker.submit(function, *args)

    def device_image(self):
        """The CUDA renderer's image on the GPU (``Renderer.device_image``); None on the CPU backend."""
        return self.renderer.device_image() if self.backend == "cuda" and self.renderer is not None else None

    def host_image(self) -> np.ndarray | None:
        """The latest image on the host, float32 (H, W, 4), row 0 = bottom; None before the first."""
        if self.backend == "cuda":
            return self.renderer.image() if self.renderer is not None else None
        return self.cpu.image

    def close(self) -> None:
        self._stop_compiling(wait_s=COMPILE_EXIT_WAIT_S)
        self.cpu.stop()
        self._worker.shutdown(wait=True, cancel_futures=True)
