"""Something the window computes for the frame on screen (an overlay's figures, the A/B view's B):
again whenever what it belongs to changes; at once where that is GPU work, which stays on the main
thread, else in the session's worker thread, queued after the frame it belongs to."""

from __future__ import annotations

import concurrent.futures
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.session import Session


class FrameFollower:
    """Subclasses give ``_key`` (what the result belongs to; None: nothing to compute),
    ``_at_once``, ``_compute`` (from the session, in either thread), ``_keep`` (the result) and
    ``_failed`` (one of ``failures``, raised by ``_compute``)."""

    failures: tuple[type[Exception], ...] = ()

    def __init__(self) -> None:
        self._for: tuple | None = None  # the key of the result kept
        self._job: concurrent.futures.Future | None = None
        self._job_for: tuple | None = None

    def update(self, session: Session) -> bool:
        """After ``session.update``: True when a new result is ready to show."""
        key = self._key(session)
        if key is None or key == self._for:
            return False
        if self._at_once(session):
            return self._settle(key, session, lambda: self._compute(session))
        if self._job is not None and self._job.done():
            job, self._job = self._job, None
            if self._job_for == key:
                return self._settle(key, session, job.result)
        if self._job is None and not session.frame_outstanding:
            self._job_for = key
            self._job = session.run_in_worker(self._compute, session)
        return False

    def current(self, session: Session) -> bool:
        """Whether the result kept belongs to the frame on screen now."""
        return self._for is not None and self._for == self._key(session)

    def forget(self) -> None:
        """Compute again at the next update."""
        self._for = None

    def _settle(self, key: tuple, session: Session, result) -> bool:
        self._for = key
        try:
            value = result()
        except self.failures as error:
            self._failed(error)
            return False
        self._keep(session, value)
        return True

    def _key(self, session: Session) -> tuple | None:
        raise NotImplementedError

    def _at_once(self, session: Session) -> bool:
        raise NotImplementedError

    def _compute(self, session: Session):
        raise NotImplementedError

    def _keep(self, session: Session, value) -> None:
        raise NotImplementedError

    def _failed(self, error: Exception) -> None:
        raise NotImplementedError
