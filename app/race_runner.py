"""The app's variant race: ``race`` on the session's scene and size, run in a thread of its own while
the session renders no GPU frame (so that the times are the race's alone), with its progress for
the panel, and its chart and figures saved to the export folder."""

from __future__ import annotations

import concurrent.futures
import json
from pathlib import Path
from typing import TYPE_CHECKING

from app.export_folder import check_folder
from app.exports import safe_name
from render.core.image_io import write_text_file
from render.core.kind import BenchOutcome, RaceRequest
from scenes.safe_write import Placement

if TYPE_CHECKING:
    from app.session import Session


class RaceStopped(Exception):
    """The app is closing: the race ends at its next step."""


class RaceRunner:
    """One race at a time: ``start`` it, ``poll`` it each pass until it is over, then ``outcome``
    holds its table, figures and chart (or ``error`` why it failed)."""

    def __init__(self) -> None:
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rasterlab-race")
        self._job: concurrent.futures.Future | None = None
        self.progress: tuple[int, int, str] = (0, 1, "")
        self.outcome: BenchOutcome | None = None
        self.error = ""
        self.saved = ""
        self.what = ""  # the scene and size raced
        self._stem = ""  # the saved files' name, less the suffix
        self._closing = False

    @property
    def running(self) -> bool:
        return self._job is not None

    def start(self, session: Session) -> None:
        """Race every configuration on the session's scene and size (GPU backend only)."""
        if self.running or session.backend != "cuda" or session.scene is None:
            return
        name, seed, count = session.scene_request()
        size = session.settings.size
        also = (session.variant.label(),) if session.variant.path else ()  # the user's kernel races too
        request = RaceRequest(name, size, seed, count, None, None, session.look(), also)
        self.outcome, self.error, self.saved = None, "", ""
        self.what = f"{session.scene.name} at {size}x{size}"
        self._stem = safe_name(f"race_{Path(session.scene.name).stem}_{size}")
        self.progress = (0, 1, "starting")
        session.gpu_held = True
        self._job = self._worker.submit(session.kind.race, request, self._report)

    def poll(self, session: Session) -> bool:
        """True once, when the race has ended (the session renders again from then on)."""
        if self._job is None or not self._job.done():
            return False
        job, self._job = self._job, None
        session.gpu_held = False
        try:
            self.outcome = job.result()
        except Exception as error:  # the race's own failures are rows; this is anything else
            self.error = f"the race failed: {error}"
        return True

    def save(self, folder: str) -> None:
        """Write the race's chart (PNG) and figures (JSON) into ``folder``, never over a file."""
        outcome = self.outcome
        assert outcome is not None and outcome.chart is not None
        target, missing, problem = check_folder(folder)
        if problem or missing:
            self.saved = f"not saved: {problem or 'the export folder does not exist (Export makes it)'}"
            return
        try:
            chart = outcome.chart(str(target / f"{self._stem}.png"), Placement(next_free=True))
            text = json.dumps(outcome.payload, indent=2)
            figures = write_text_file(text, target / f"{self._stem}.json", Placement(next_free=True))
        except OSError as error:
            self.saved = f"not saved: {error}"
            return
        self.saved = f"saved {chart} and {figures}"

    def close(self) -> None:
        """End a race under way at its next step (a variant's runs take a second or so), and wait."""
        self._closing = True
        self._worker.shutdown(wait=True, cancel_futures=True)

    def _report(self, done: int, total: int, label: str) -> None:
        if self._closing:
            raise RaceStopped
        self.progress = (done, max(total, 1), label)
