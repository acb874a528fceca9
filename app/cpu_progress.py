"""What the CPU backend is rendering and how far it has come, as the view's progress label says it
(``app.panel_progress`` draws it): what, for how long, and, once a band is done, about how long is
left, extrapolated from the work done so far. No ImGui here."""

from __future__ import annotations

import dataclasses
import time

from render.core.progress import Bands


def frame_title(scene_name: str, count: int, units: str, view: str, size: int, frame: int) -> str:
    """The frame as the label names it: ``rand1M, 1,000,000 circles, 1024x1024, frame 0`` (with
    ``, shaded view`` after the count for kinds with views)."""
    shown_view = f", {view} view" if view else ""
    return f"{scene_name}, {count:,} {units}{shown_view}, {size}x{size}, frame {frame}"


@dataclasses.dataclass(frozen=True)
class CpuProgress:
    """The CPU frame rendering now: ``what`` (``frame_title``), its start and the time of this look
    (``time.monotonic``), and its bands (``render.core.progress.Bands``)."""

    what: str
    started: float
    bands: Bands
    now: float = dataclasses.field(default_factory=time.monotonic)

    @property
    def elapsed(self) -> float:
        """Seconds since the frame started."""
        return max(self.now - self.started, 0.0)

    @property
    def remaining(self) -> float | None:
        """Seconds left, extrapolated from the work left at the recent rate of the work done; None
        until a band is done, or in worker processes, as many as there are workers: they start one
        after another, and the pace of the first alone would overstate the time left."""
        bands = self.bands
        if bands.done < max(bands.at_once, 1) or bands.rate <= 0:
            return None
        return (1 - bands.fraction) / bands.rate

    def lines(self) -> list[str]:
        """The label: what renders, then the seconds so far and, once known, about how many are left."""
        timing = f"{self.elapsed:.0f} s"
        if self.remaining is not None:
            timing += f", about {_rounded(self.remaining)} s left"
        return [f"rendering {self.what} on the CPU", timing]


def _rounded(seconds: float) -> str:
    """Seconds to a precision the extrapolation has: whole seconds, tens above a minute."""
    return f"{seconds:.0f}" if seconds < 60 else f"{round(seconds, -1):.0f}"
