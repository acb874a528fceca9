"""The status bar pinned to the bottom of the window: the last message, how frames reach the screen
and the frame time, always visible whatever the panel's size or scroll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.printable import printable

if TYPE_CHECKING:
    from app.window import App

PROBLEM = imgui.ImVec4(1.0, 0.45, 0.4, 1.0)
NOTE = imgui.ImVec4(1.0, 0.75, 0.3, 1.0)
# Words that make a message a problem or a caution, so that it stands out in the bar.
PROBLEM_WORDS = ("failed", "cannot", "error", "FAIL", "does not fit")
NOTE_WORDS = ("warning", "note")
FLAGS = (
    imgui.WindowFlags_.no_decoration
    | imgui.WindowFlags_.no_move
    | imgui.WindowFlags_.no_saved_settings
    | imgui.WindowFlags_.no_focus_on_appearing
    | imgui.WindowFlags_.no_bring_to_front_on_focus
    | imgui.WindowFlags_.no_nav
)


def status_colour(message: str) -> imgui.ImVec4 | None:
    """The colour that marks ``message`` as a problem or a note; None for an ordinary one."""
    if any(word in message for word in PROBLEM_WORDS):
        return PROBLEM
    if any(word in message for word in NOTE_WORDS):
        return NOTE
    return None


class StatusBar:
    """Draws the bar and remembers what it showed (``shown``) and where (``rect``, window pixels)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.shown = ""
        self.rect = (0.0, 0.0, 0.0, 0.0)

    @staticmethod
    def height() -> float:
        """The bar's height in window pixels at the current UI scale: one line and its padding."""
        style = imgui.get_style()
        return imgui.get_frame_height() + 2 * style.window_padding.y

    def details(self) -> str:
        """The right-hand side: display path, frame time and frame rate, and the help key."""
        app = self.app
        parts = [app.display.path]
        if app.session.history:
            parts.append(f"{sum(app.session.history[-1].values()):.3f} ms")
        fps = app.delivered_fps()
        if fps is not None:
            parts.append(f"{fps:.3g} frames/s" if fps < 10 else f"{fps:.0f} frames/s")
        parts.append("H: help")
        return "  |  ".join(parts)

    def draw(self, width: float, height: float) -> None:
        bar = self.height()
        self.rect = (0.0, height - bar, width, bar)
        imgui.set_next_window_pos(imgui.ImVec2(0, height - bar))
        imgui.set_next_window_size(imgui.ImVec2(width, bar))
        imgui.begin("##status bar", None, FLAGS)
        details = self.details()
        details_width = imgui.calc_text_size(details).x
        # The message takes what the details leave; a long one is cut with an ellipsis and shown
        # whole on hover, so the bar stays one line.
        room = max(width - details_width - 4 * imgui.get_style().window_padding.x, 0)
        message = printable(" ".join(self.app.session.status.split()))
        self.shown = message
        colour = status_colour(message)
        if colour is not None:
            imgui.push_style_color(imgui.Col_.text, colour)
        imgui.text(_fitted(message, room))
        if colour is not None:
            imgui.pop_style_color()
        if imgui.is_item_hovered() and message:
            imgui.set_tooltip("\n".join(printable(line) for line in self.app.session.status.splitlines()))
        imgui.same_line(max(width - details_width - imgui.get_style().window_padding.x, room))
        imgui.text_disabled(details)
        imgui.end()


def _fitted(text: str, width: float) -> str:
    """``text``, cut to fit ``width`` pixels with an ellipsis where it does not."""
    if imgui.calc_text_size(text).x <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if imgui.calc_text_size(text[:middle] + "...").x <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low] + "..."
