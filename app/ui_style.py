"""The panel's look: its font, and one UI scale for text and spacing that follows the monitor's
content scale (or the user's own setting)."""

from __future__ import annotations

from pathlib import Path

import imgui_bundle
from imgui_bundle import imgui

# Roboto reads better than ImGui's built-in bitmap font at every scale; the bitmap font is the
# fallback where the wheel was installed without its assets.
UI_FONT = Path(imgui_bundle.__file__).parent / "assets" / "fonts" / "Roboto" / "Roboto-Regular.ttf"
UI_FONT_PIXELS = 15.0
# A slider's value is written centred over its track, so the grab often lies under it: the dark
# theme's bright grab is dimmed to keep white text on it readable.
SLIDER_GRAB = (0.26, 0.45, 0.70, 0.75)
SLIDER_GRAB_ACTIVE = (0.30, 0.52, 0.82, 0.85)


def load_font() -> None:
    """Make the UI font ImGui's default; call once, after the context is made and before the
    first frame."""
    if UI_FONT.is_file():
        imgui.get_io().fonts.add_font_from_file_ttf(str(UI_FONT), UI_FONT_PIXELS)


class UiScale:
    """Applies a scale to ImGui's style, from the unscaled sizes each time, so that changing it back
    and forth never drifts (ImGui's own ``scale_all_sizes`` rounds each call)."""

    def __init__(self) -> None:
        self.applied: float | None = None

    def apply(self, scale: float) -> None:
        """Text and spacing at ``scale`` times their size; nothing to do when it is already so."""
        if scale == self.applied:
            return
        style = imgui.Style()
        imgui.style_colors_dark(style)
        style.set_color_(imgui.Col_.slider_grab, imgui.ImVec4(*SLIDER_GRAB))
        style.set_color_(imgui.Col_.slider_grab_active, imgui.ImVec4(*SLIDER_GRAB_ACTIVE))
        style.scale_all_sizes(scale)
        style.font_scale_dpi = scale
        imgui.get_current_context().style = style
        self.applied = scale
