"""The app's render loop: session update, frame upload, ImGui panel, present; windowed or headless.

ImGui runs with its GLFW and OpenGL 3 backends in a loop of our own (no runner), so the same loop
drives a real window and an offscreen EGL pbuffer (``--headless``, where ImGui gets the display size
and time step from us instead of from GLFW).
"""

from __future__ import annotations

import collections
import itertools
import os
import stat
import time
from pathlib import Path

import glfw  # noqa: F401  (before imgui_bundle, so ImGui's GLFW backend and ours share one library)
from imgui_bundle import imgui, implot
from OpenGL import GL

from app.ab_view import AbView
from app.background import clear_around
from app.display import FrameDisplay
from app.export_folder import SCREENSHOT, check_folder
from app.exports import export_name
from app.kernel_file_watch import KernelFileWatch
from app.overlay_view import OverlayView
from app.panel import Panel
from app.panel_files import load_kernel_file
from app.panel_pacing import PanelPacer
from app.phase_clock import HOST_PHASE, PhaseClock
from app.race_runner import RaceRunner
from app.recorder import Recorder
from app.session import Session
from app.settings import Settings, prepare_config_dir
from app.startup_clock import seconds_since_process_start
from app.ui_style import UiScale, load_font
from render.core.gpu import gpu_failures
from render.core.image_io import png_encoder
from render.core.limits import APP_SIZE, UI_SCALE
from scenes.safe_write import NEW_FILE, OutputError, Placement, write_new_file, write_output

BACKGROUND = (0.11, 0.11, 0.13)
FRAME_LOG_FRAMES = 1000
FRAME_RATE_FRAMES = 30  # the panel's frame rate: the median over this many delivered frames


class App:
    """One window (or pbuffer), one session, one panel."""

    def __init__(self, surface, session: Session, keep_layout=True, dev=False, interop_check=None) -> None:
        """``keep_layout``: remember the panel layout in the config folder's imgui.ini (the
        interactive app); scripted runs leave no file behind. ``dev``: reload the built-in shaders
        when they change, as a user's kernel file is. ``interop_check``: see ``FrameDisplay``."""
        self.surface = surface
        self.session = session
        self.settings: Settings = session.settings
        self._screenshot_to: tuple[Path, Placement] | None = None
        self._screenshot_requested = False
        self.last_screenshot: Path | None = None
        self.screenshot_error: str | None = None
        # Per shown frame: wall ms, stage and copy ms; bounded, so a long session does not grow.
        self.frame_log: collections.deque[dict[str, float]] = collections.deque(maxlen=FRAME_LOG_FRAMES)
        self._last_ui = time.perf_counter()
        self._last_delivered: float | None = None  # when the last new frame was shown
        # Where the frame was last drawn: framebuffer pixels (left, top, width, height), row 0 = top.
        self.frame_rect = (0, 0, 0, 0)
        self.first_frame_s: float | None = None  # from the process's start to the first frame shown
        self.frames_shown = 0  # new frames shown in the run, whatever their scene
        imgui.create_context()
        implot.create_context()
        load_font()
        self._ui_scale = UiScale()
        # Only a window has a panel layout to keep; where the config folder cannot take it, the app
        # runs without saving anything (None: ImGui writes no imgui.ini).
        keeping = surface.interactive and keep_layout
        self.config_folder, self.config_warning = prepare_config_dir() if keeping else (None, None)
        imgui.get_io().set_ini_filename(self._layout_file())
        if self.config_warning:
            session.status = f"{session.status}\nwarning: {self.config_warning}".lstrip()
        if surface.interactive:
            imgui.backends.glfw_init_for_opengl(surface.pointer, True)
        imgui.backends.opengl3_init("#version 330")
        self.display = FrameDisplay(self.settings.force_host_copy, self.settings.texture_filter, interop_check)
        self.overlay = OverlayView()
        self.ab = AbView()
        self.race = RaceRunner()
        self.kernel_watch = KernelFileWatch(dev)
        self._reshow = False  # show the frame again: the overlay was turned off or changed
        self.recorder = Recorder(session)
        self.panel = Panel(self)
        self.panel_pacer = PanelPacer()
        surface.set_vsync(self.settings.vsync)
        session.compile_in_background()  # this loop polls it: switches no longer wait for NVRTC

    def set_vsync(self, on: bool) -> None:
        """Wait for the display's refresh between frames, or not."""
        self.settings.vsync = on
        self.surface.set_vsync(on)

    def set_force_host_copy(self, on: bool) -> None:
        """Show frames through a host copy even where CUDA-GL interop works (to compare the two)."""
        self.settings.force_host_copy = on
        self.display.force_host_copy = on

    def set_texture_filter(self, name: str) -> None:
        """How a render smaller than the view is enlarged: "nearest" or "linear"."""
        self.settings.texture_filter = name
        self.display.texture_filter = name

    def ui_scale(self) -> float:
        """The UI scale in use: the monitor's content scale, or the user's own (within UI_SCALE)."""
        if self.settings.ui_scale_follows_monitor:
            return UI_SCALE.clamp(self.surface.content_scale())
        return self.settings.ui_scale

    def set_ui_scale(self, scale: float | None) -> None:
        """Scale text and controls by ``scale`` (clamped to UI_SCALE); None follows the monitor."""
        self.settings.ui_scale_follows_monitor = scale is None
        if scale is not None:
            self.settings.ui_scale = UI_SCALE.clamp(float(scale))

    def _layout_file(self) -> str | None:
        """imgui.ini in the config folder, unless something other than a regular file is there:
        ImGui writes the file in place, so a FIFO would hang the app and a link redirect the write."""
        if self.config_folder is None:
            return None
        path = self.config_folder / "imgui.ini"
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return str(path)
        except OSError as error:
            mode, reason = None, error.strerror
        else:
            reason = "it is not a regular file"
        if mode is None or not stat.S_ISREG(mode):
            self.config_warning = f"{path} is not used ({reason}); the panel layout will not be saved"
            return None
        return str(path)

    # -- geometry ----------------------------------------------------------------------------

    def view_rect(self) -> tuple[int, int, int, int]:
        """Where the frame goes, in GL framebuffer pixels (x, y from the bottom, width, height):
        right of the panel (as wide as it was last drawn) and above the status bar."""
        fb_w, fb_h = self.surface.framebuffer_size()
        win_w, win_h = self.surface.window_size()
        panel = int(self.panel.width * fb_w / max(win_w, 1))
        bar = int(self.panel.status_bar.rect[3] * fb_h / max(win_h, 1))
        return (panel, bar, max(fb_w - panel, 0), max(fb_h - bar, 0))

    def _fit_resolution(self) -> None:
        _, _, width, height = self.view_rect()
        wanted = APP_SIZE.clamp(min(width, height))
        if wanted != self.settings.size:
            self.session.fit_size(wanted)

    # -- actions -----------------------------------------------------------------------------

    def request_screenshot(self, path: str | Path | None = None, how: Placement = NEW_FILE) -> None:
        """Save the next presented frame, UI included: to ``path``, placed as ``how`` says (the
        command line checked it), else under a new name in the export folder."""
        self._screenshot_to = None if path is None else (Path(path), how)
        self._screenshot_requested = True
        self.panel_pacer.build_next()

    def _save_screenshot(self) -> None:
        from app.surfaces import read_framebuffer

        target, self._screenshot_requested = self._screenshot_to, False
        if target is None:  # the export folder: a missing one is made only once the user says so
            folder, missing, problem = check_folder(self.settings.export_folder, SCREENSHOT)
            if missing or problem:
                self.session.missing_folder = missing
                self.session.status = (
                    missing.status() if missing else f"screenshot failed: cannot write to {folder}: {problem}"
                )
                return
        width, height = self.surface.framebuffer_size()
        encode = png_encoder(read_framebuffer(width, height))
        try:
            if target is None:
                name = export_name(self.session.scene_name, self.session.export_label(), self.session.frame)
                self.last_screenshot = write_new_file(folder / name.replace(".png", "_ui.png"), encode)
            else:
                self.last_screenshot = Path(write_output(target[0], encode, target[1]))
            self.session.status = f"saved screenshot {self.last_screenshot}"
            return
        except OutputError as error:
            self.screenshot_error = str(error)
        except OSError as error:  # the export folder went away, or refused the file
            self.screenshot_error = f"cannot write to {error.filename}: {error.strerror}"
        self.session.status = f"screenshot failed: {self.screenshot_error}"

    def _open_dropped(self) -> None:
        while self.surface.dropped:
            path = self.surface.dropped.pop(0)
            if path.endswith(".cu"):
                load_kernel_file(self.session, path)
            else:
                self.session.select_scene(path)

    # -- the loop ----------------------------------------------------------------------------

    def frame(self) -> bool:
        """One pass of the loop; False when the window was asked to close."""
        self.surface.poll()
        if self.surface.should_close():
            return False
        self._open_dropped()
        fb_w, fb_h = self.surface.framebuffer_size()
        if fb_w == 0 or fb_h == 0:  # minimized: nothing to draw into
            time.sleep(0.05)
            return True
        if self.settings.fit_to_window:
            self._fit_resolution()
        clock = PhaseClock()
        self.session.poll_compile()
        self.kernel_watch.poll(self.session)
        fresh = self.session.update()
        overlaid = self.overlay.update(self.session)
        compared = self.ab.update(self.session)
        shows_overlay = self.overlay.ready(self.session) and not self.ab.ready(self.session)
        self.session.export_overlay = self.overlay.overlay if shows_overlay else None  # Export keeps what is shown
        clock.lap("render")
        if fresh:
            stage_ms = dict(self.session.history[-1])
            fresh = self._show_frame()
        elif overlaid or compared or self._reshow:
            self._show_frame()
        clock.lap("show")
        self._reshow = False
        self.recorder.update(fresh)
        self.session.poll_check()
        self.race.poll(self.session)
        self._draw_ui(fb_w, fb_h)
        clock.lap("panel")
        if self._screenshot_requested:
            self._save_screenshot()
        self.surface.swap()
        clock.lap("swap")
        now = time.perf_counter()
        if fresh:
            self.frames_shown += 1
            if self.first_frame_s is None:
                self.first_frame_s = seconds_since_process_start()
            if len(self.session.history) == 1:  # a new scene, size or variant: its own frame rate
                self.frame_log.clear()
                self._last_delivered = None
            # Frames come one after another on the GPU, which renders every pass, and on the CPU
            # while it plays; otherwise a frame answers a change, after however long the user took.
            continuous = self.session.backend == "cuda" or self.session.playing
            # Time between delivered frames, not between passes of the loop: on the CPU a frame can
            # take seconds while the window keeps redrawing the last one at the display's rate.
            if self._last_delivered is not None and continuous:
                wall = (now - self._last_delivered) * 1000
                # What the app itself costs a frame: the time between frames that no GPU stage takes.
                own = {"overhead": wall - sum(stage_ms.values())} if self.session.backend == "cuda" else {}
                self.frame_log.append({"wall": wall, **own, **stage_ms, **self.display.copy_ms, **clock.laps})
            elif not continuous:
                self.frame_log.clear()  # a still picture has no frame rate
            self._last_delivered = now if continuous else None
        return True

    def delivered_fps(self) -> float | None:
        """New frames shown per second, the median over the recent ones; None before two frames."""
        # Asked every frame: the newest few from the right end, without copying the whole log.
        walls = [frame["wall"] for frame in itertools.islice(reversed(self.frame_log), FRAME_RATE_FRAMES)]
        if not walls:
            return None
        median = sorted(walls)[len(walls) // 2]
        return 1000 / median if median > 0 else None

    def choose_overlay(self, name: str) -> None:
        """Show overlay ``name`` (``"none"``: none) over the frame, from the next pass on."""
        self.overlay.choose(name)
        self._reshow = True

    def set_ab(self, **changes) -> None:
        """Change the A/B view (``on``, ``b``, ``mode``, ``divider``, ``show_b``); shown from the next pass."""
        if "b" in changes:
            self.ab.choose(changes.pop("b"))
        for name, value in changes.items():
            setattr(self.ab, name, value)
        self._reshow = True

    def _show_frame(self) -> bool:
        """Put the session's new image on the texture (beside B in the A/B view, or with the overlay
        chosen, once computed for this frame); False when the GPU failed while copying it."""
        for view in (self.ab, self.overlay):
            if view.ready(self.session):
                image = self.session.host_image()
                if image is not None:
                    self.display.upload(host_image=view.picture(image))
                    return True
        device_image = self.session.device_image()
        if device_image is None:
            image = self.session.host_image()
            if image is None:  # asked to show the frame again before the first one came
                return False
            self.display.upload(host_image=image)
            return True
        try:
            self.display.upload(device_image=device_image)
        except gpu_failures() as error:
            self.session.gpu_failed(error)
            return False
        return True

    def stats(self) -> dict:
        """Medians over the second half of the last FRAME_LOG_FRAMES shown frames (the first half is
        warm-up), in ms."""
        import numpy as np

        recent = list(self.frame_log)[len(self.frame_log) // 2 :]
        keys = sorted({key for frame in recent for key in frame})
        medians = {key: float(np.median([frame[key] for frame in recent if key in frame])) for key in keys}
        wall = medians.pop("wall", None)  # None (JSON null) before two frames were shown
        overhead = medians.pop("overhead", None)  # on the GPU only
        host = {key.removeprefix(HOST_PHASE): medians.pop(key) for key in keys if key.startswith(HOST_PHASE)}
        return {
            "renderer": self.session.kind.name,
            "scene": self.session.scene_name,
            "size": self.settings.size,
            "variant": self.session.variant_label(),
            "display_path": self.display.path,
            "frame_rect": list(self.frame_rect),
            "vsync": self.settings.vsync,
            "first_frame_s": self.first_frame_s,
            "frames_shown": self.frames_shown,
            "frames_measured": len(recent),
            "wall_ms_median": wall,
            "fps_median": 1000 / wall if wall else None,
            "overhead_ms_median": overhead,
            "stage_ms_median": medians,
            "host_ms_median": host,
        }

    def _draw_ui(self, fb_w: int, fb_h: int) -> None:
        now, layout = time.perf_counter(), (*self.surface.window_size(), fb_w, fb_h, self.ui_scale())
        if self.panel_pacer.due(now, layout, bool(imgui.get_current_context().input_events_queue)):
            self._build_panel(layout, now)
            self.panel_pacer.built(now, layout)
        GL.glViewport(0, 0, fb_w, fb_h)
        view = self.view_rect()
        clear_around(self.display.placement(*view), fb_w, fb_h, BACKGROUND)
        left, bottom, shown_w, shown_h = self.display.draw(*view)
        self.frame_rect = (left, fb_h - bottom - shown_h, shown_w, shown_h)
        GL.glViewport(0, 0, fb_w, fb_h)
        imgui.backends.opengl3_render_draw_data(imgui.get_draw_data())  # valid until the next build

    def _build_panel(self, layout: tuple, now: float) -> None:
        win_w, win_h, fb_w, fb_h, scale = layout
        imgui.backends.opengl3_new_frame()
        if self.surface.interactive:
            imgui.backends.glfw_new_frame()
        else:
            io = imgui.get_io()
            io.display_size = imgui.ImVec2(fb_w, fb_h)
            # The real time between builds, so the panel's FPS is true offscreen too.
            io.delta_time = max(now - self._last_ui, 1e-6)
            self._last_ui = now
        self._ui_scale.apply(scale)
        imgui.new_frame()
        self.panel.draw(win_w, win_h)
        imgui.render()

    def run(self, frames: int | None = None, screenshot: str | Path | None = None, how: Placement = NEW_FILE) -> None:
        """Loop until the window closes, or for ``frames`` passes, saving ``screenshot`` on the last
        (placed as ``how`` says)."""
        count = 0
        while frames is None or count < frames:
            if frames is not None and count == frames - 1:
                # The last frame shows a finished image, even when the CPU takes its time.
                while self.session.frame_outstanding and self.frame():
                    time.sleep(0.005)
                if screenshot is not None:
                    self.request_screenshot(screenshot, how)
            if not self.frame():
                break
            count += 1

    @property
    def gl_abandoned(self) -> bool:
        """True after ``close`` left the GL context to the process's end (CUDA failed in this process)."""
        return self.session.cuda_lost

    def close(self) -> None:
        """Release in dependency order: CUDA's hold on GL buffers, GL objects, ImGui, the surface.

        After a GPU failure the GL side is left alone (``gl_abandoned``): on the H100 a kernel fault
        with a buffer registered for interop made eglDestroyContext wait forever, since the CUDA work
        GL waits on never ends. The caller then ends the process without library teardown."""
        self.panel.files.close()
        self.recorder.close()
        self.race.close()
        self.kernel_watch.close()
        self.session.close()
        if self.gl_abandoned:
            # ImGui's teardown would shut down its GL backend: only the layout is kept.
            layout = imgui.get_io().get_ini_filename()
            if layout:
                imgui.save_ini_settings_to_disk(layout)
            return
        self.display.release()
        imgui.backends.opengl3_shutdown()
        if self.surface.interactive:
            imgui.backends.glfw_shutdown()
        implot.destroy_context()
        imgui.destroy_context()
        self.surface.close()
