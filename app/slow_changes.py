"""Changes that the CPU backend would take long to render ask first: a scene, a resolution (the
slider or fit to window), a seed, a sphere count or a view estimated above CPU_WARN_SECONDS per
frame waits in ``Session.pending`` for the user's word. Cancel keeps everything as it was; a size
that fit to window asked for and the user declined is not asked for again until the window's size
changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from render.core.limits import APP_SIZE

CPU_WARN_SECONDS = 3.0  # a CPU frame slower than this asks before it starts


@dataclasses.dataclass(frozen=True)
class PendingChange:
    """A change waiting for the user's word: ``what`` it shows (``rand1M at 2048x2048``) and its
    estimated ``seconds`` per CPU frame; ``make()`` makes it without asking again, ``declined()``
    runs on Cancel."""

    what: str
    seconds: float
    make: Callable[[], bool]
    declined: Callable[[], None] | None = None

    def question(self) -> str:
        return f"{self.what} takes about {self.seconds:.0f} s per frame on the CPU."


class SlowChanges:
    """Mixed into ``Session``, which provides ``backend``, ``kind``, ``scene``, ``settings``,
    ``look``, ``pending`` and ``set_size``."""

    declined_fit: int | None = None  # the size fit to window asked for and the user declined

    def _asks_first(
        self, scene, size: int, what: str, make: Callable[[], bool], declined: Callable[[], None] | None = None
    ) -> bool:
        """True when the change showing ``scene`` at ``size`` must wait for the user's word: on the
        CPU backend, estimated above CPU_WARN_SECONDS per frame. It then waits in ``pending``; the
        same change asked again while it waits is not estimated again (fit to window asks every
        frame)."""
        if self.backend != "cpu":
            return False
        if self.pending is not None and self.pending.what == what:
            return True
        seconds = self.kind.cpu_seconds(scene, size, self.look())
        if seconds <= CPU_WARN_SECONDS:
            return False
        self.pending = PendingChange(what, seconds, make, declined)
        return True

    def confirm_pending(self) -> bool:
        """Make the waiting change; False when none waits or it fails (the status says why)."""
        pending, self.pending = self.pending, None
        return pending is not None and pending.make()

    def cancel_pending(self) -> None:
        """Drop the waiting change: everything stays as it was."""
        pending, self.pending = self.pending, None
        if pending is not None and pending.declined is not None:
            pending.declined()

    def _size_asks_first(self, size: int, declined: Callable[[], None] | None = None) -> bool:
        return self._asks_first(
            self.scene, size, f"{self.scene.name} at {size}x{size}", lambda: self.set_size(size, True), declined
        )

    def fit_size(self, size: int) -> bool:
        """The size fit to window wants (clamped to APP_SIZE): as ``set_size``, except that a size
        the user declined is not asked for again; False while it is not the size shown."""
        size = APP_SIZE.clamp(int(size))
        if size == self.settings.size or self.scene is None:
            return True
        if size == self.declined_fit or self._size_asks_first(size, lambda: setattr(self, "declined_fit", size)):
            return False
        return self.set_size(size, True)

    def describe_change(self, role: str, value) -> str:
        """What a reload of the current scene with its ``role`` (seed, count) at ``value`` shows."""
        size = self.settings.size
        if role == "count":
            return f"{self.scene_name} with {value:,} {self.units} at {size}x{size}"
        return f"{self.scene_name} with {role} {value} at {size}x{size}"
