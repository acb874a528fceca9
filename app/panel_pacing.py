"""When the panel's widgets are built anew, and when the last build is drawn again.

Building the panel runs every ImGui widget call in Python, about 0.8 ms of host time a pass: at
hundreds of frames a second that is most of what the app costs beyond the GPU. Nobody reads numbers
that change faster than a display refreshes, so while nothing new reaches ImGui the last build is
drawn again, and the widgets run about ``PANEL_RATE_HZ`` times a second at most. Input, a resize, a
screenshot or the first pass always build at once, so a click or a key is answered in the pass that
sees it. With vsync on, passes come once a refresh: the panel is built every pass up to 120 Hz
displays (``EARLY_S`` keeps a pass that comes a little before the interval from skipping a build),
and every other pass on faster ones (72 times a second at 144 Hz).
"""

from __future__ import annotations

PANEL_RATE_HZ = 120
PANEL_INTERVAL_S = 1 / PANEL_RATE_HZ
EARLY_S = 0.001  # a pass this much before the interval still builds: passes of a 120 Hz display jitter


class PanelPacer:
    """Decides, pass by pass, whether the panel is built anew (``due``) or its last build drawn again.

    ``interval_s``: the longest time a build is drawn again (default ``PANEL_INTERVAL_S``); 0 builds
    every pass."""

    def __init__(self, interval_s: float | None = None) -> None:
        interval_s = PANEL_INTERVAL_S if interval_s is None else interval_s
        if not interval_s >= 0:
            raise ValueError(f"the panel's interval must be >= 0 seconds, not {interval_s}")
        self.interval_s = interval_s
        self._built_at: float | None = None
        self._layout: tuple | None = None
        self._asked = False
        self.builds = 0  # how many times the panel was built: what the pacing saves shows here

    def due(self, now: float, layout: tuple, input_pending: bool) -> bool:
        """Whether to build the panel at ``now`` (seconds, monotonic): the first pass, input waiting
        in ImGui's queue, a ``layout`` (window and framebuffer sizes, UI scale) unlike the last
        build's, a ``build_next`` since the last call, or ``interval_s`` (less ``EARLY_S``) gone
        since the last build. A True answer takes the ``build_next`` as done."""
        asked, self._asked = self._asked, False
        return (
            asked
            or self._built_at is None
            or input_pending
            or layout != self._layout
            or now - self._built_at >= self.interval_s - EARLY_S
        )

    def build_next(self) -> None:
        """Build at the next pass whatever the time (a screenshot shows the panel as of its pass);
        asked during a build, it still holds for the pass after."""
        self._asked = True

    def built(self, now: float, layout: tuple) -> None:
        """Note a build at ``now`` for ``layout``."""
        self._built_at, self._layout = now, layout
        self.builds += 1
