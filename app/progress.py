"""Progress bars of the commands: tqdm on stderr, only when stderr is a terminal, and only once the
work has lasted SHOW_AFTER_SECONDS, so that pipes, logs and quick commands see nothing of them.

* ``step_bar``: a task's steps as ``render.core.kind.Progress`` reports them (``check``'s rows,
  ``bench``'s configurations), with the percent of a CPU reference frame rendered meanwhile after
  the step's name; the task's table lines are written above the bar (``StepBar.write``).
* ``frame_bar``: the percent of the CPU frames rendered in its block (``render --backend cpu``).

Both are cleared from the terminal when their block ends, however it ends.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator

from render.core import progress

SHOW_AFTER_SECONDS = 1.0
REDRAW_SECONDS = 0.1


class _Bar:
    """One tqdm bar, and whether it may be on the screen."""

    def __init__(self, description: str, bar_format: str) -> None:
        from tqdm import tqdm  # here, not at the top: the app's start-up does without it

        # No monitor thread: every report may redraw anyway (miniters=0), and a thread refused by
        # the limit on processes (ulimit -u) would print tqdm's warning over the command's lines.
        tqdm.monitor_interval = 0
        self._drawable_from = time.monotonic() + SHOW_AFTER_SECONDS  # no later than tqdm's own delay
        self.drawn = False
        terminal = sys.stderr is not None and sys.stderr.isatty()
        self.tqdm = tqdm(
            total=1,
            desc=description,
            bar_format=bar_format,
            file=sys.stderr,
            disable=not terminal,
            delay=SHOW_AFTER_SECONDS,
            mininterval=REDRAW_SECONDS,
            miniters=0,  # every report may redraw (at most every REDRAW_SECONDS), even one that only relabels
            leave=False,
            dynamic_ncols=True,
        )

    def advance(self, steps: float) -> None:
        # Noted before the update: a signal may unwind from inside it, right after the drawing.
        self.drawn = self.drawn or (not self.tqdm.disable and time.monotonic() >= self._drawable_from)
        self.tqdm.update(steps)

    def close(self) -> None:
        # tqdm clears only a bar it has noted as drawn, which a signal can cut in between.
        if self.drawn:
            self.tqdm.clear()
        self.tqdm.close()


class StepBar:
    """``progress`` is a ``render.core.kind.Progress``; ``write`` prints a line on standard output."""

    def __init__(self, description: str) -> None:
        self._bar = _Bar(description, "{desc}: {n_fmt}/{total_fmt} |{bar}| {elapsed}<{remaining}{postfix}")
        self._step = ""

    def progress(self, done: int, total: int, label: str) -> None:
        self._step = label
        self._bar.tqdm.total = total
        self._bar.tqdm.set_postfix_str(label, refresh=False)
        self._bar.advance(done - self._bar.tqdm.n)

    def frame(self, fraction: float) -> None:
        """A ``render.core.progress`` listener: the CPU frame of the current step is this far."""
        self._bar.tqdm.set_postfix_str(f"{self._step} {fraction:.0%}", refresh=False)
        self._bar.advance(0)

    def write(self, line: str) -> None:
        """``line`` on standard output, above the bar while it shows, so neither garbles the other
        (only then: tqdm.write draws a bar at once, even one still waiting to show)."""
        if self._bar.drawn:
            self._bar.tqdm.write(line, file=sys.stdout)
        else:
            print(line)
        sys.stdout.flush()

    def close(self) -> None:
        self._bar.close()


@contextlib.contextmanager
def step_bar(description: str) -> Iterator[StepBar]:
    bar = StepBar(description)
    try:
        with progress.reporting(bar.frame):
            yield bar
    finally:
        bar.close()


@contextlib.contextmanager
def frame_bar(description: str) -> Iterator[None]:
    bar = _Bar(description, "{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}")
    try:
        with progress.reporting(lambda fraction: bar.advance(fraction - bar.tqdm.n)):
            yield
    finally:
        bar.close()
