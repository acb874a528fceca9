"""While the CPU backend renders a frame for longer than SHOW_AFTER_SECONDS, the view shows the last
frame dimmed (its own pixels, darkened by a translucent rect of ImGui's background draw list, which
is drawn over the frame and under the windows) and, centred on it, what is rendering, for how long,
and about how long is left (``CpuFrames.progress``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

if TYPE_CHECKING:
    from app.window import App

SHOW_AFTER_SECONDS = 0.5  # quicker frames (playing a light scene) show nothing, so nothing flickers
DIM = 0.55  # the share of the last frame's light the dimming takes away
LABEL_BACKING = 0.6  # the opacity of the dark box behind the label, so it reads over any frame
PADDING = 10.0


def draw_cpu_progress(app: App) -> None:
    """Dim the view and label it while a CPU frame is taking its time; nothing otherwise."""
    state = app.session.cpu.progress
    if state is None or state.elapsed < SHOW_AFTER_SECONDS:
        return
    left, top, right, bottom = _view_in_imgui(app)
    draw = imgui.get_background_draw_list()
    draw.add_rect_filled(imgui.ImVec2(left, top), imgui.ImVec2(right, bottom), _black(DIM))
    lines = state.lines()
    sizes = [imgui.calc_text_size(line) for line in lines]
    width = max(size.x for size in sizes)
    height = sum(size.y for size in sizes)
    x, y = (left + right) / 2, (top + bottom - height) / 2
    draw.add_rect_filled(
        imgui.ImVec2(x - width / 2 - PADDING, y - PADDING),
        imgui.ImVec2(x + width / 2 + PADDING, y + height + PADDING),
        _black(LABEL_BACKING),
        PADDING / 2,
    )
    white = imgui.get_color_u32(imgui.ImVec4(1, 1, 1, 1))
    for line, size in zip(lines, sizes, strict=True):
        draw.add_text(imgui.ImVec2(x - size.x / 2, y), white, line)
        y += size.y


def _view_in_imgui(app: App) -> tuple[float, float, float, float]:
    """``App.view_rect`` (framebuffer pixels, y up) as ImGui's left, top, right, bottom (window
    coordinates, y down)."""
    x, y, width, height = app.view_rect()
    fb_width, fb_height = app.surface.framebuffer_size()
    win_width, win_height = app.surface.window_size()
    sx, sy = fb_width / max(win_width, 1), fb_height / max(win_height, 1)
    return x / sx, (fb_height - y - height) / sy, (x + width) / sx, (fb_height - y) / sy


def _black(alpha: float) -> int:
    return imgui.get_color_u32(imgui.ImVec4(0, 0, 0, alpha))
