"""The window's background, cleared only around the frame: the frame's quad is opaque and paints its
own rectangle. On the lent H100, whose few graphics units fill pixels slowly, clearing the whole
1280x800 window took 0.07 ms of a 0.95 ms pass before the quad painted most of it again."""

from __future__ import annotations

from OpenGL import GL


def bands_around(rect: tuple[int, int, int, int], width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Rectangles (x, y from the bottom, w, h; GL pixels) that cover the width x height framebuffer
    outside ``rect`` (the same form), each pixel once: below it, above it, then left and right of
    it. A ``rect`` with no area inside the framebuffer leaves the whole framebuffer."""
    x, y, w, h = rect
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
    if x0 >= x1 or y0 >= y1:
        bands = [(0, 0, width, height)]
    else:
        bands = [(0, 0, width, y0), (0, y1, width, height - y1), (0, y0, x0, y1 - y0), (x1, y0, width - x1, y1 - y0)]
    return [band for band in bands if band[2] > 0 and band[3] > 0]


def clear_around(rect: tuple[int, int, int, int], width: int, height: int, color: tuple[float, float, float]) -> None:
    """Clear the framebuffer to ``color`` everywhere but ``rect`` (see ``bands_around``)."""
    GL.glClearColor(*color, 1.0)
    GL.glEnable(GL.GL_SCISSOR_TEST)
    try:
        for x, y, w, h in bands_around(rect, width, height):
            GL.glScissor(x, y, w, h)
            GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    finally:
        GL.glDisable(GL.GL_SCISSOR_TEST)  # ImGui and the read-backs expect it off
