"""The ImGui control panel: every widget calls a ``Session`` (or ``App``) method, nothing more.

Layout: one window at the left edge, resizable by its right border and collapsible by its title,
with a collapsing section per topic; the status bar (``app.status_bar``) spans the bottom, and the
frame is drawn in the rest of the window.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.panel_ab import draw_ab, handle_ab_input
from app.panel_camera import camera_controls, copy_command_button, shown_pixels
from app.panel_display import draw_display
from app.panel_files import FileDialogs, any_popup_open
from app.panel_kernel_file import draw_compiler_log, draw_kernel_file
from app.panel_overlay import draw_overlay
from app.panel_progress import draw_cpu_progress
from app.panel_prompt import confirm_slow_change
from app.panel_race import draw_race
from app.panel_recording import recording_controls
from app.panel_timings import draw_timings
from app.panel_widgets import BAD, GOOD, WARNING, tip
from app.printable import printable
from app.status_bar import StatusBar
from render.core.limits import APP_SIZE, METALNESS, ROUGHNESS, SPHERE_COUNT
from render.kinds import KINDS

if TYPE_CHECKING:
    from app.window import App

PANEL_WIDTH = 380  # at first start, in unscaled pixels; then as the user left it (imgui.ini)
PANEL_MIN_WIDTH = 300
PANEL_MAX_SHARE = 0.6  # of the window's width
SECTIONS_CLOSED_AT_START = ("Overlay", "A/B", "Race", "Display", "Correctness")
MATERIAL_TIPS = {
    "roughness": "GGX roughness: 0 a mirror-like highlight, 1 a broad matte one",
    "metalness": "0 a dielectric (white highlight over the colour), 1 a metal (the highlight takes the colour)",
}
ORBIT_DEGREES_PER_PIXEL = 0.4  # a mouse drag over the image turns the shaded view's camera
SHORTCUTS = (
    ("Space", "play / pause the animation"),
    ("S", "export the frame to PNG"),
    ("R", "reset to frame 0"),
    ("H or F1", "show or hide this help"),
    ("Drag", "orbit the camera (shaded spheres, over the picture)"),
    ("Shift+drag", "pan the camera"),
    ("Wheel", "zoom the camera"),
    ("T", "A/B toggle, on the GPU: show A or B (over the picture)"),
    ("Drag (A/B split)", "on the GPU: move the divider between A and B"),
)


def section(title: str) -> bool:
    """A collapsing section of the panel; True while it is open."""
    flags = 0 if title in SECTIONS_CLOSED_AT_START else imgui.TreeNodeFlags_.default_open
    return imgui.collapsing_header(title, flags)


def seed_from_text(text: str) -> int | str:
    """The typed seed as an integer, or the text itself when it is none (the session refuses that,
    quoting it); typed as text because ImGui's integer input would wrap a seed past 2^31."""
    try:
        return int(text)
    except ValueError:
        return text


class Panel:
    def __init__(self, app: App) -> None:
        self.app = app
        self.show_help = False
        self.show_compiler_log = False
        self.files = FileDialogs(app)
        self.size_edit = app.session.settings.size
        self.count_edit = app.session.settings.sphere_count
        self.seed_edit = ""
        self.seed_editing = False  # whether the seed input was active in the last frame
        self.status_bar = StatusBar(app)
        self.width = PANEL_WIDTH  # window pixels the panel covers now; 0 while it is collapsed
        # The width the user gave the panel: a window too narrow for it narrows the panel only
        # while it is, so that the panel (and the render's fit) get their width back after.
        self.chosen_width: float | None = None

    # -- keyboard ----------------------------------------------------------------------------

    def handle_shortcuts(self) -> None:
        if imgui.get_io().want_text_input or any_popup_open():
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
        """Outside the panel, the shaded view's camera: a left-button drag orbits it, with shift
        held pans it, the wheel zooms it."""
        io = imgui.get_io()
        session = self.app.session
        if handle_ab_input(self.app) or io.want_capture_mouse or not session.orbits:
            return
        if io.mouse_wheel:
            session.zoom(io.mouse_wheel)
        delta = io.mouse_delta
        if not (imgui.is_mouse_dragging(imgui.MouseButton_.left) and (delta.x or delta.y)):
            return
        if io.key_shift:
            session.pan(delta.x, delta.y, shown_pixels(self.app))
        else:
            session.orbit(-delta.x * ORBIT_DEGREES_PER_PIXEL, delta.y * ORBIT_DEGREES_PER_PIXEL)

    # -- the panel ---------------------------------------------------------------------------

    def draw(self, width: float, height: float) -> None:
        self.handle_shortcuts()
        self.handle_mouse()
        scale = imgui.get_style().font_scale_dpi
        high = max(height - self.status_bar.height(), 1)
        # Whole pixels, as ImGui sizes windows: a panel held at a limit then equals it exactly. Its
        # share of the window wins over its scaled minimum: at UI scale 2 in an 800-pixel window the
        # minimum (600) would leave the frame a quarter of it.
        widest = math.floor(width * PANEL_MAX_SHARE)
        narrowest = min(math.floor(PANEL_MIN_WIDTH * scale), widest)
        imgui.set_next_window_pos(imgui.ImVec2(0, 0))
        chosen = self.chosen_width
        if chosen is not None and 0 < self.width < min(chosen, widest) - 0.5:
            imgui.set_next_window_size(imgui.ImVec2(min(chosen, widest), high))
        else:
            imgui.set_next_window_size(imgui.ImVec2(PANEL_WIDTH * scale, high), imgui.Cond_.first_use_ever)
        imgui.set_next_window_size_constraints(imgui.ImVec2(narrowest, high), imgui.ImVec2(widest, high))
        expanded, _ = imgui.begin("rasterlab", None, imgui.WindowFlags_.no_move)
        self.width = imgui.get_window_width() if expanded else 0
        # Held at the window's limit, the panel is narrower than chosen, not chosen narrower.
        if expanded and (chosen is None or self.width < widest - 0.5 or self.width > chosen):
            self.chosen_width = self.width
        if expanded:
            self._sections()
        imgui.end()
        self.status_bar.draw(width, height)
        self._confirm_cpu_scene()
        self.files.draw_dialogs()
        draw_compiler_log(self.app)
        draw_cpu_progress(self.app)
        if self.show_help:
            self._help(width)

    def _sections(self) -> None:
        self._backend()
        if section("Scene"):
            self._scene()
        if section("Kernel"):
            self._variant()
        if section("Animation"):
            self._animation()
        if section("GPU time per frame" if self.app.session.backend == "cuda" else "CPU time per frame"):
            draw_timings(self.app)
        if section("Export"):
            self._export()
        if section("Recording"):
            recording_controls(self.app)
        if section("Correctness"):
            self._check()
        if section("Overlay"):
            draw_overlay(self.app)
        if section("A/B"):
            draw_ab(self.app)
        if section("Race"):
            draw_race(self.app)
        if section("Display"):
            draw_display(self.app)

    def _backend(self) -> None:
        session = self.app.session
        kinds = list(KINDS)
        labels = [KINDS[name].label for name in kinds]
        changed, index = imgui.combo("renderer", kinds.index(session.kind.name), labels)
        if changed:
            session.set_renderer(kinds[index])
        tip("which program renders: each keeps its own scene, variant and view")
        if session.backend == "cuda":
            from render.core.gpu import gpu_name

            imgui.text_wrapped(f"backend: CUDA on {gpu_name()}")
        else:
            imgui.text_colored(WARNING, "backend: CPU reference")
            tip("every frame is the reference renderer's, on the CPU: exact but slow")
            if session.backend_reason:
                imgui.push_style_color(imgui.Col_.text, imgui.get_style_color_vec4(imgui.Col_.text_disabled))
                imgui.text_wrapped(printable(session.backend_reason))
                imgui.pop_style_color()

    def _scene(self) -> None:
        session, settings = self.app.session, self.app.session.settings
        names = list(session.kind.scene_names)
        if session.scene_name not in names:
            names.append(session.scene_name)
        # A scene file's name may hold anything, bytes that are not UTF-8 included.
        changed, index = imgui.combo("scene", names.index(session.scene_name), [printable(name) for name in names])
        if changed:
            session.select_scene(names[index])
        tip("a built-in scene, from frame 0; a scene file you opened is listed too")
        self.files.open_scene()
        self._scene_parameters()
        self._view()
        changed, fit = imgui.checkbox("fit to window", settings.fit_to_window)
        if changed:
            session.set_fit_to_window(fit)
        tip("render at the size of the view, so one image pixel is one screen pixel")
        imgui.begin_disabled(settings.fit_to_window)
        _, self.size_edit = imgui.slider_int(
            "resolution", self.size_edit, APP_SIZE.low, APP_SIZE.high, "%d px", imgui.SliderFlags_.always_clamp
        )
        if imgui.is_item_deactivated_after_edit():
            session.set_size(self.size_edit)
        tip("the image is resolution x resolution pixels; applied when you let go (ctrl+click to type)")
        imgui.end_disabled()
        if not imgui.is_item_active():
            self.size_edit = settings.size

    def _scene_parameters(self) -> None:
        """The seed, and for kinds with a random scene of any size its count; a scene that fixes
        them shows its note instead (a disabled field would show a value the scene does not use)."""
        session, settings = self.app.session, self.app.session.settings
        fields = session.kind.settings_fields
        note = session.kind.scene_notes.get(session.scene_name)
        if "count" in fields and session.scene_name != "random":
            if note:
                imgui.text_disabled(note)
            return
        if "count" in fields:
            # Clamping also covers a count typed after a ctrl+click, which a plain slider takes unchecked.
            flags = imgui.SliderFlags_.logarithmic | imgui.SliderFlags_.always_clamp
            _, self.count_edit = imgui.slider_int(
                session.kind.units, self.count_edit, SPHERE_COUNT.low, SPHERE_COUNT.high, "%d", flags
            )
            if imgui.is_item_deactivated_after_edit():
                session.set_sphere_count(self.count_edit)
            tip(f"how many {session.kind.units} the random scene has; applied when you let go")
            if not imgui.is_item_active():
                self.count_edit = getattr(settings, fields["count"])
        self._seed(fields["seed"])
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
            tip(session.kind.view_notes.get(view, view))
            imgui.same_line()
        imgui.text_disabled("view")
        if not session.orbits:
            return
        for key, limit in (("roughness", ROUGHNESS), ("metalness", METALNESS)):
            flags = imgui.SliderFlags_.always_clamp
            changed, value = imgui.slider_float(key, getattr(settings, key), limit.low, limit.high, "%.2f", flags)
            if changed:
                session.set_material(**{key: value})
            tip(MATERIAL_TIPS[key])
        camera_controls(self.app)
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
        tip("the random generator's seed (0 to 2^32 - 1); applied on Enter")
        self.seed_editing = imgui.is_item_active()

    def _variant(self) -> None:
        session = self.app.session
        on_cpu = session.backend == "cpu"
        # On the CPU the reference renders; a variant still names the rule of a binning overlay.
        names_rule = on_cpu and self.app.overlay.name in session.kind.rule_overlays
        why_disabled = "\n(the CPU backend always runs the reference)" if on_cpu else ""
        if names_rule:
            why_disabled = "\n(the CPU backend runs the reference; the variant names the overlay's binning)"
        imgui.begin_disabled(on_cpu and not names_rule)
        registry = session.kind.variants
        names = list(registry) + ([session.variant.name] if session.variant.path else [])
        changed, index = imgui.combo("variant", names.index(session.variant.name), names)
        if changed:
            session.set_variant(names[index])
        tip(registry[session.variant.name].summary + why_disabled)
        for key, option in registry[session.variant.name].options.items():
            values = option.values
            current = session.variant.option(key)
            changed, index = imgui.combo(key, values.index(current), list(values))
            if changed:
                session.set_option(key, values[index])
            tip((option.about or key) + why_disabled)
        imgui.end_disabled()
        if session.kind.variants.file_spec is not None:
            draw_kernel_file(self.app)
        imgui.text_wrapped(f"running: {session.variant_label()}")
        tip("what renders each frame; auto shows the variant it picked for this scene")
        if session.compiling:
            imgui.text_colored(WARNING, f"compiling {session.compiling} ...")
            tip("the kernels of the new choice compile in the background; the previous one draws meanwhile")

    def _animation(self) -> None:
        session = self.app.session
        if imgui.button("Pause" if session.playing else "Play"):
            session.toggle_play()
        tip("advance one frame per frame shown (Space)")
        imgui.same_line()
        if imgui.button("Step"):
            session.step()
        tip("advance one frame and pause")
        imgui.same_line()
        if imgui.button("Reset"):
            session.reset()
        tip("back to frame 0 of the scene, paused (R)")
        imgui.same_line()
        imgui.text(f"frame {session.frame}" + ("" if session.animated else " (static scene)"))

    def _export(self) -> None:
        session = self.app.session
        self.files.export_folder()
        if imgui.button("Export PNG (S)"):
            session.export_png()
        tip("the frame at render resolution, never over an existing file")
        imgui.same_line()
        if imgui.button("Screenshot with UI"):
            self.app.request_screenshot()
        tip("the whole window, panel included, as PNG")
        copy_command_button(self.app)

    def _check(self) -> None:
        session = self.app.session
        on_cpu = session.backend != "cuda"
        imgui.begin_disabled(on_cpu)
        if imgui.button("Check against reference"):
            session.start_check()
        imgui.end_disabled()
        tip(
            "on the CPU backend the image is the reference: nothing to compare"
            if on_cpu
            else "render this frame again with the CPU reference and compare every value"
        )
        if session.last_check:
            imgui.same_line()
            colour = GOOD if session.last_check.passed else BAD
            imgui.text_colored(colour, "pass" if session.last_check.passed else "FAIL")

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
