"""Switching variant, option, scene, size or renderer on the GPU without freezing the window.

An action marked ``@waits_for_kernels`` whose new renderer needs kernel modules that are not compiled
yet is undone before it changed anything (its settings are put back), remembered, and done again on
the main thread once the background compiler (``app.kernel_warmer``) has built them, when it is
fast. Meanwhile the previous renderer keeps drawing and ``compiling`` names what is being built. Only
the latest such action is remembered; one that goes through at once drops it. After the first frame
the compiler warms the cache with every variant of the kind (its default options) for the scene.
Without a GPU, or without ``compile_in_background`` (a session no window loop drives), every action
runs at once as before.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Sequence

from app.kernel_warmer import BuildCache, KernelWarmer
from render.core.module_cache import Build
from render.core.variants import VariantChoice

MAX_ERROR_CHARS = 300  # a status line quotes at most this much of a compiler's message


class CompileFirst(Exception):
    """Raised inside a marked action by ``Session._load``: ``builds`` must be compiled first."""

    def __init__(self, builds: list[Build], label: str) -> None:
        super().__init__(label)
        self.builds, self.label = builds, label


@dataclasses.dataclass
class WantedSwitch:
    """An action waiting for the compile of ticket ``ticket`` (``builds``), then ``redo`` once."""

    ticket: int
    builds: Sequence[Build]
    label: str
    redo: Callable[[], object]


def waits_for_kernels(action):
    """Mark a ``Session`` action whose renderer may need kernels compiled first (see the module)."""

    @functools.wraps(action)
    def run(session, *args, **kwargs):
        if not session._may_defer():
            return action(session, *args, **kwargs)
        saved = (copy.copy(session.settings), session.variant, session.status, session.pending)
        session._deferring = True
        try:
            done = action(session, *args, **kwargs)
        except CompileFirst as needed:
            settings, session.variant, session.status, session.pending = saved
            vars(session.settings).update(vars(settings))
            session._defer(needed, functools.partial(action, session, *args, **kwargs))
            return True
        finally:
            session._deferring = False
        if done:
            session._wanted = None  # the latest action went through: an older one waits no more
        return done

    return run


def one_line(error: Exception) -> str:
    """A compiler's message as one line: its first line naming an error, else its first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    line = next((line for line in lines if "error" in line.lower()), lines[0] if lines else type(error).__name__)
    return line[:MAX_ERROR_CHARS]


class BackgroundSwitches:
    """Mixed into ``Session``, which provides ``kind``, ``settings``, ``backend``, ``renderer``,
    ``scene``, ``variant``, ``status``, ``pending``, ``history`` and ``look``."""

    _compiler: KernelWarmer | None = None
    _wanted: WantedSwitch | None = None
    _deferring = False  # inside a marked action that may be deferred
    _warm_up_started = False

    def compile_in_background(self, cache: BuildCache | None = None) -> None:
        """From now on compile new kernels in a background thread (GPU backend only; ``cache``: the
        process's module cache unless given). A window loop calls this and then ``poll_compile``
        once per frame."""
        if self.backend != "cuda":
            return
        self._stop_compiling()
        if cache is None:
            from render.core.kernels import MODULES

            cache = MODULES
        self._compiler = KernelWarmer(cache)
        self._warm_up_started = False

    @property
    def compiling(self) -> str | None:
        """The variant whose kernels are compiling for a switch that waits for them, else None."""
        return self._wanted.label if self._wanted is not None else None

    def _may_defer(self) -> bool:
        return self._compiler is not None and not self._deferring and self.renderer is not None

    def _compile_first(self, scene, choice: VariantChoice, size: int) -> None:
        """Called by ``_load`` before it builds a renderer: inside a marked action, raise
        ``CompileFirst`` when that renderer's modules are not all compiled."""
        if not self._deferring or self._compiler is None or self.backend != "cuda":
            return
        builds = self.kind.kernel_builds(choice, scene, size, self.look())
        if not self._compiler.ready(builds):
            raise CompileFirst(builds, choice.label())

    def _defer(self, needed: CompileFirst, redo: Callable[[], object]) -> None:
        assert self._compiler is not None
        if self._wanted is not None and self._wanted.builds == needed.builds:
            ticket = self._wanted.ticket  # the same modules are on their way: no second request
        else:
            ticket = self._compiler.want(needed.builds)
        self._wanted = WantedSwitch(ticket, needed.builds, needed.label, redo)

    def poll_compile(self) -> None:
        """Once per displayed frame: do the waiting action whose kernels are now compiled (or say
        why they did not compile, keeping the renderer), and after the first frame start the
        warm-up."""
        if self._compiler is None:
            return
        if self.backend != "cuda":  # the GPU failed: the CPU reference compiles nothing
            self._stop_compiling()
            return
        if not self._warm_up_started and self.history:
            self._warm_up_started = True
            self._compiler.warm(self._likely_builds())
        outcome = self._compiler.finished()
        wanted = self._wanted
        if outcome is None or wanted is None or outcome.ticket != wanted.ticket:
            return
        self._wanted = None
        if outcome.error is not None:
            self.status = f"cannot compile {wanted.label}: {one_line(outcome.error)}"
            return
        wanted.redo()

    def _likely_builds(self) -> list[list[Build]]:
        """Every variant of the kind at its default options, for the current scene, size and look."""
        jobs: list[list[Build]] = []
        for name in self.kind.variants:
            builds = self.kind.kernel_builds(
                self.kind.variants.parse(name), self.scene, self.settings.size, self.look()
            )
            if builds not in jobs:
                jobs.append(builds)
        return jobs

    def _stop_compiling(self, wait_s: float = 0.0) -> None:
        """Stop the background compiler, waiting up to ``wait_s`` seconds for a compile it is running."""
        if self._compiler is not None:
            self._compiler.close(wait_s)
        self._compiler, self._wanted = None, None
