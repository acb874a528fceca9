"""The ImGui control panel: every widget calls a ``Session`` (or ``App``) method, nothing more.

Layout: one window docked at the left edge of the framebuffer, ``PANEL_WIDTH`` pixels wide; the
frame is drawn in the rest of the view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from imgui_bundle import imgui, implot

from app.panel_progress import draw_cpu_progress
from app.panel_prompt import confirm_slow_change
from render.core.limits import APP_SIZE, METALNESS, ROUGHNESS, SPHERE_COUNT
from render.kinds import KINDS

if TYPE_CHECKING:
    from app.window import App

PANEL_WIDTH = 380
MOVING_AVERAGE = 30  # frames in the chart's moving average
ORBIT_DEGREES_PER_PIXEL = 0.4  # a mouse drag over the image turns the shaded view's camera
SHORTCUTS = (
    ("Space", "play / pause the animation"),
    ("S", "export the frame to PNG"),
    ("R", "reset to frame 0"),
    ("H or F1", "show or hide this help"),
)
WARNING = imgui.ImVec4(1.0, 0.75, 0.3, 1.0)
GOOD = imgui.ImVec4(0.4, 0.9, 0.4, 1.0)
BAD = imgui.ImVec4(1.0, 0.4, 0.4, 1.0)


def seed_from_text(text: str) -> int | str:
    """The typed seed as an integer, or the text itself when it is none (the session refuses that,
    quoting it); typed as text because ImGui's integer input would wrap a seed past 2^31."""
    try:
        return int(text)
    except ValueError:
        return text


def moving_average(values: np.ndarray, window: int) -> np.ndarray:
    """Trailing mean of float ``values`` (N,) over up to ``window`` samples; same shape."""
    sums = np.cumsum(np.concatenate([[0.0], values]))
    index = np.arange(1, len(values) + 1)
    start = np.maximum(index - window, 0)
    return (sums[index] - sums[start]) / (index - start)


class Panel:
    def __init__(self, app: App) -> None:
        self.app = app
        self.show_help = False
        self.open_path = ""
        self.size_edit = app.session.settings.size
        self.count_edit = app.session.settings.sphere_count
        self.seed_edit = ""
        self.seed_editing = False  # whether the seed input was active in the last frame

    # -- keyboard ----------------------------------------------------------------------------

    def handle_shortcuts(self) -> None:
        if imgui.get_io().want_text_input:
            return
        session = self.app.session
        if imgui.is_key_pressed(imgui.Key.space, False):
            session.toggle_play()
        if imgui.is_key_pressed(imgui.Key.s, False):
            session.export_png()
        if imgui.is_key_pressed(imgui.Key.r, False):
            session.reset()
        if imgui.is_key_pressed(imgui.Key.h, False) or imgui.is_key_pressed(imgui.Key.f1, False):
            self.show_help = not self.show_help

    def handle_mouse(self) -> None:
        """A left-button drag outside the panel orbits the shaded view's camera."""
        io = imgui.get_io()
        session = self.app.session
        if io.want_capture_mouse or not session.orbits:
            return
        if imgui.is_mouse_dragging(imgui.MouseButton_.left):
            delta = io.mouse_delta
            if delta.x or delta.y:
                session.orbit(-delta.x * ORBIT_DEGREES_PER_PIXEL, delta.y * ORBIT_DEGREES_PER_PIXEL)

    # -- the panel ---------------------------------------------------------------------------

    def draw(self, width: float, height: float) -> None:
        self.handle_shortcuts()
        self.handle_mouse()
        imgui.set_next_window_pos(imgui.ImVec2(0, 0))
        imgui.set_next_window_size(imgui.ImVec2(PANEL_WIDTH, height))
        flags = imgui.WindowFlags_.no_move | imgui.WindowFlags_.no_resize | imgui.WindowFlags_.no_collapse
        imgui.begin("rasterlab", None, flags)
        self._backend()
        self._scene()
        self._variant()
        self._animation()
        self._display()
        self._timings()
        self._export_and_check()
        self._status()
        imgui.end()
        self._confirm_cpu_scene()
        draw_cpu_progress(self.app)
        if self.show_help:
            self._help(width)

    def _backend(self) -> None:
        session = self.app.session
        kinds = list(KINDS)
        labels = [KINDS[name].label for name in kinds]
        changed, index = imgui.combo("renderer", kinds.index(session.kind.name), labels)
        if changed:
            session.set_renderer(kinds[index])
        if session.backend == "cuda":
            from render.core.gpu import gpu_name

            imgui.text(f"backend: CUDA on {gpu_name()}")
        else:
            imgui.text_colored(WARNING, "backend: CPU reference (no usable GPU)")
            if session.backend_note:
                imgui.text_wrapped(session.backend_note)

    def _scene(self) -> None:
        session, settings = self.app.session, self.app.session.settings
        imgui.separator_text("Scene")
        names = list(session.kind.scene_names)
        if session.scene_name not in names:
            names.append(session.scene_name)
        changed, index = imgui.combo("scene", names.index(session.scene_name), names)
        if changed:
            session.select_scene(names[index])
        if imgui.button("Open file..."):
            imgui.open_popup("Open scene file")
        imgui.same_line()
        imgui.text_disabled("or drop a .npz / .json on the window")
        self._open_file_popup()
        self._scene_parameters()
        self._view()
        changed, fit = imgui.checkbox("fit to window", settings.fit_to_window)
        if changed:
            session.set_fit_to_window(fit)
        imgui.begin_disabled(settings.fit_to_window)
        _, self.size_edit = imgui.slider_int(
            "resolution", self.size_edit, APP_SIZE.low, APP_SIZE.high, "%d px", imgui.SliderFlags_.always_clamp
        )
        if imgui.is_item_deactivated_after_edit():
            session.set_size(self.size_edit)
        imgui.end_disabled()
        if not imgui.is_item_active():
            self.size_edit = settings.size

    def _scene_parameters(self) -> None:
        """The seed, and for kinds with a random scene of any size its count (both only for that
        scene: the others are fixed)."""
        session, settings = self.app.session, self.app.session.settings
        fields = session.kind.settings_fields
        fixed = "count" in fields and session.scene_name != "random"
        imgui.begin_disabled(fixed)
        if "count" in fields:
            # Clamping also covers a count typed after a ctrl+click, which a plain slider takes unchecked.
            flags = imgui.SliderFlags_.logarithmic | imgui.SliderFlags_.always_clamp
            _, self.count_edit = imgui.slider_int(
                session.kind.units, self.count_edit, SPHERE_COUNT.low, SPHERE_COUNT.high, "%d", flags
            )
            if imgui.is_item_deactivated_after_edit():
                session.set_sphere_count(self.count_edit)
            if not imgui.is_item_active():
                self.count_edit = getattr(settings, fields["count"])
        self._seed(fields["seed"])
        imgui.end_disabled()
        note = session.kind.scene_notes.get(session.scene_name)
        if note:
            imgui.text_disabled(note)

    def _view(self) -> None:
        """The kind's views, and the material of a view that has one."""
        session, settings = self.app.session, self.app.session.settings
        if not session.kind.views:
            return
        current = session.look().view
        for view in session.kind.views:
            if imgui.radio_button(view, current == view):
                session.set_view(view)
            imgui.same_line()
        imgui.text_disabled("view")
        if not session.orbits:
            return
        for key, limit in (("roughness", ROUGHNESS), ("metalness", METALNESS)):
            flags = imgui.SliderFlags_.always_clamp
            changed, value = imgui.slider_float(key, getattr(settings, key), limit.low, limit.high, "%.2f", flags)
            if changed:
                session.set_material(**{key: value})
        imgui.push_style_color(imgui.Col_.text, imgui.get_style_color_vec4(imgui.Col_.text_disabled))
        imgui.text_wrapped("Drag the picture to orbit the camera; Play turns it.")
        imgui.pop_style_color()

    def _seed(self, field: str) -> None:
        """The seed input for the settings ``field``; applied when the edit ends (Enter or focus
        lost), and a refused seed leaves the status line saying why."""
        if not self.seed_editing:
            self.seed_edit = str(getattr(self.app.session.settings, field))
        _, self.seed_edit = imgui.input_text("seed", self.seed_edit, imgui.InputTextFlags_.chars_decimal)
        if imgui.is_item_deactivated_after_edit():
            self.app.session.set_seed(seed_from_text(self.seed_edit))
        self.seed_editing = imgui.is_item_active()

    def _open_file_popup(self) -> None:
        if imgui.begin_popup_modal("Open scene file", None, imgui.WindowFlags_.always_auto_resize)[0]:
            imgui.text("Path of a .npz or .json scene file:")
            _, self.open_path = imgui.input_text("##path", self.open_path)
            if imgui.button("Open") and self.app.session.select_scene(self.open_path.strip()):
                imgui.close_current_popup()
            imgui.same_line()
            if imgui.button("Cancel"):
                imgui.close_current_popup()
            imgui.text_wrapped(self.app.session.status)
            imgui.end_popup()

    def _variant(self) -> None:
        session = self.app.session
        imgui.separator_text("Kernel")
        imgui.begin_disabled(session.backend == "cpu")
        registry = session.kind.variants
        names = list(registry)
        changed, index = imgui.combo("variant", names.index(session.variant.name), names)
        if changed:
            session.set_variant(names[index])
        if imgui.is_item_hovered():
            imgui.set_tooltip(registry[session.variant.name].summary)
        for key, option in registry[session.variant.name].options.items():
            values = option.values
            current = session.variant.option(key)
            changed, index = imgui.combo(key, values.index(current), list(values))
            if changed:
                session.set_option(key, values[index])
        imgui.end_disabled()
        imgui.text(f"running: {session.variant_label()}")

    def _animation(self) -> None:
        session = self.app.session
        imgui.separator_text("Animation")
        if imgui.button("Pause" if session.playing else "Play"):
            session.toggle_play()
        imgui.same_line()
        if imgui.button("Step"):
            session.step()
        imgui.same_line()
        if imgui.button("Reset"):
            session.reset()
        imgui.same_line()
        imgui.text(f"frame {session.frame}" + ("" if session.animated else " (static scene)"))

    def _display(self) -> None:
        app, settings = self.app, self.app.session.settings
        imgui.separator_text("Display")
        changed, vsync = imgui.checkbox("vsync", settings.vsync)
        if changed:
            app.set_vsync(vsync)
        imgui.same_line()
        changed, force = imgui.checkbox("force host copy", settings.force_host_copy)
        if changed:
            app.set_force_host_copy(force)
        imgui.text(f"display path: {app.display.path}")
        if app.display.notice:
            imgui.text_colored(WARNING, "interop unavailable: host copy")
            if imgui.is_item_hovered():
                imgui.set_tooltip(app.display.notice)

    def _timings(self) -> None:
        session, app = self.app.session, self.app
        imgui.separator_text("GPU time per frame (CUDA events)" if session.backend == "cuda" else "CPU time")
        fps = app.delivered_fps()
        # New frames only: redrawing the last one while the CPU works is not a frame delivered.
        imgui.text("frames/s: -" if fps is None else f"frames/s: {fps:.3g}" if fps < 10 else f"frames/s: {fps:.0f}")
        if imgui.is_item_hovered():
            imgui.set_tooltip("new frames shown per second (median of the last 30); the window redraws more often")
        if session.busy:
            imgui.same_line()
            imgui.text_colored(WARNING, "rendering on the CPU...")
        if not session.history:
            return
        latest = dict(session.history[-1], **app.display.copy_ms)
        for stage, value in latest.items():
            imgui.text(f"{stage:>14}: {value:8.3f} ms")
        totals = np.array([sum(frame.values()) for frame in session.history], np.float64)
        imgui.text(f"{'stages total':>14}: {totals[-1]:8.3f} ms")
        imgui.text_disabled(f"{'mean':>14}: {totals.mean():8.3f} ms over the last {len(totals)}")
        if len(totals) < 2:  # one point gives the chart no x range to draw
            imgui.text_disabled("the chart starts at the second frame")
        elif implot.begin_plot("##frame times", imgui.ImVec2(-1, 160)):
            implot.setup_axes("frame", "ms", implot.AxisFlags_.auto_fit, implot.AxisFlags_.auto_fit)
            implot.plot_line("stages", totals)
            implot.plot_line(f"mean of {MOVING_AVERAGE}", moving_average(totals, MOVING_AVERAGE))
            implot.end_plot()

    def _export_and_check(self) -> None:
        session, settings = self.app.session, self.app.session.settings
        imgui.separator_text("Export")
        changed, folder = imgui.input_text("folder", settings.export_folder)
        if changed:
            session.set_export_folder(folder)
        if imgui.button("Export PNG (S)"):
            session.export_png()
        imgui.same_line()
        if imgui.button("Screenshot with UI"):
            self.app.request_screenshot()
        imgui.separator_text("Correctness")
        on_cpu = session.backend != "cuda"
        imgui.begin_disabled(on_cpu)
        if imgui.button("Check against reference"):
            session.start_check()
        imgui.end_disabled()
        if imgui.is_item_hovered(imgui.HoveredFlags_.allow_when_disabled):
            imgui.set_tooltip(
                "on the CPU backend the image is the reference: nothing to compare"
                if on_cpu
                else "render this frame again with the CPU reference and compare every value"
            )
        if session.last_check:
            imgui.same_line()
            colour = GOOD if session.last_check.passed else BAD
            imgui.text_colored(colour, "pass" if session.last_check.passed else "FAIL")

    def _status(self) -> None:
        imgui.separator()
        imgui.text_wrapped(self.app.session.status)
        imgui.text_disabled("H or F1: keyboard shortcuts")

    def _confirm_cpu_scene(self) -> None:
        confirm_slow_change(self.app)

    def _help(self, width: float) -> None:
        imgui.set_next_window_pos(imgui.ImVec2(width - 20, 20), 0, imgui.ImVec2(1, 0))
        flags = imgui.WindowFlags_.always_auto_resize | imgui.WindowFlags_.no_collapse
        opened, keep = imgui.begin("Keyboard shortcuts", True, flags)
        if opened:
            for key, what in SHORTCUTS:
                imgui.text(f"{key:>8}   {what}")
        imgui.end()
        self.show_help = bool(keep)
