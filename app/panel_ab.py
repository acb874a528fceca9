"""The panel's A/B section: compare the frame on screen (A) with another variant or the CPU reference
(B), split at a divider that the mouse drags over the picture, toggled, or as their difference."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.ab_view import MODES, REFERENCE
from app.panel_widgets import tip, warning_wrapped

if TYPE_CHECKING:
    from app.window import App

MODE_TIPS = {
    "split": "A left of the divider, B right of it: drag over the picture to move it",
    "toggle": "A or B, one at a time (the button, or T over the picture)",
    "difference": "per pixel, the largest absolute RGB difference through the colour map; black where equal",
}


def draw_ab(app: App) -> None:
    """The A/B switch, B's choice, the mode and its control, and what differs."""
    ab, session = app.ab, app.session
    on_gpu = session.backend == "cuda"
    imgui.begin_disabled(not on_gpu)
    changed, on = imgui.checkbox("compare A with B", ab.on and on_gpu)
    imgui.end_disabled()
    if changed:
        app.set_ab(on=on)
    tip(
        "A: the frame on screen; B: the same frame by the variant or reference chosen below"
        + ("" if on_gpu else "\n(needs the GPU: on the CPU backend the frame is the reference)")
    )
    if not (ab.on and on_gpu):
        return
    choices = [REFERENCE, *(choice.label() for choice in session.kind.variants.configurations()), "auto"]
    changed, index = imgui.combo("B", choices.index(ab.b) if ab.b in choices else 0, choices)
    if changed:
        app.set_ab(b=choices[index])
    tip("the CPU reference renders in the background (seconds for big scenes); a variant at once")
    for mode in MODES:
        if imgui.radio_button(mode, ab.mode == mode):
            app.set_ab(mode=mode)
        tip(MODE_TIPS[mode])
        imgui.same_line()
    imgui.new_line()
    if ab.mode == "split":
        changed, divider = imgui.slider_float("divider", ab.divider, 0.0, 1.0, "%.2f")
        if changed:
            app.set_ab(divider=divider)
    elif ab.mode == "toggle" and imgui.button("show A" if ab.show_b else "show B"):
        app.set_ab(show_b=not ab.show_b)
    if ab.error:
        warning_wrapped(ab.error)
    elif not ab.ready(session) or ab.diff is None:
        imgui.text_disabled("rendering B ...")
    else:
        diff = ab.diff
        imgui.text_wrapped(f"{diff.values} RGB values differ; max |diff| {diff.largest:.3g}")
        tip("0 and 0: A and B are the same picture, value for value")


def handle_ab_input(app: App) -> bool:
    """Over the picture: in split mode a left-button drag moves the divider, in toggle mode T swaps
    A and B; True when the input was A/B's."""
    ab, io = app.ab, imgui.get_io()
    if not ab.on or io.want_capture_mouse or io.want_capture_keyboard:
        return False
    if ab.mode == "toggle" and imgui.is_key_pressed(imgui.Key.t):
        app.set_ab(show_b=not ab.show_b)
        return True
    left, _, width, _ = app.frame_rect
    if ab.mode != "split" or width <= 0 or not imgui.is_mouse_down(imgui.MouseButton_.left):
        return False
    scale = app.surface.framebuffer_size()[0] / max(app.surface.window_size()[0], 1)
    app.set_ab(divider=min(max((io.mouse_pos.x * scale - left) / width, 0.0), 1.0))
    return True
