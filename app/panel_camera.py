"""The panel's camera widgets: the shaded view's camera readout and "Reset camera" button, the
"Copy command" button, and the size of the picture that mouse gestures over it are scaled by."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.panel_widgets import tip
from app.reproduce import copy_render_command

if TYPE_CHECKING:
    from app.window import App


def camera_controls(app: App) -> None:
    """Under the material sliders: the camera of the frame shown, one line, and "Reset camera"."""
    session = app.session
    camera = session.shown_camera()
    if camera is None:
        return
    x, y = camera.pan
    imgui.text(f"az {camera.azimuth:.1f}  el {camera.elevation:.1f}  dist {camera.distance:.0f}  pan {x:.0f},{y:.0f}")
    tip(
        "the camera of the frame shown: azimuth and elevation in degrees, distance from the point "
        "looked at and that point's pan in world units"
    )
    if imgui.button("Reset camera"):
        session.reset_camera()
    tip("back to the starting camera: the default orbit and distance, no pan")
    imgui.same_line()
    imgui.text_disabled("shift+drag pans, the wheel zooms")


def copy_command_button(app: App) -> None:
    """The "Copy command" button: the ``rasterlab render`` line of the frame shown, on the clipboard."""
    if imgui.button("Copy command"):
        copy_render_command(app.session, imgui.set_clipboard_text)
    tip("copy the rasterlab render command that renders this frame again, pixel for pixel")


def shown_pixels(app: App) -> float:
    """The side of the (square) picture as shown, in the mouse's window coordinates."""
    _, _, width, height = app.view_rect()
    framebuffer_width = max(app.surface.framebuffer_size()[0], 1)
    return min(width, height) * app.surface.window_size()[0] / framebuffer_width
