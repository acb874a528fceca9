"""What the overlay and the A/B view share: a result computed again when its key changes, at once
or in the worker thread after the frame it belongs to, a stale job's result dropped, a failure kept
apart, and nothing computed while there is no key."""

import concurrent.futures
from types import SimpleNamespace

from app.frame_follower import FrameFollower


class Counter(FrameFollower):
    """Keys and values from the fake session; ``fail`` makes the compute raise."""

    failures = (ValueError,)

    def __init__(self, at_once):
        super().__init__()
        self.at_once, self.kept, self.errors, self.fail = at_once, [], [], False

    def _key(self, session):
        return None if session.key is None else (session.key,)

    def _at_once(self, session):
        return self.at_once

    def _compute(self, session):
        if self.fail:
            raise ValueError("no")
        return f"value of {session.key}"

    def _keep(self, session, value):
        self.kept.append(value)

    def _failed(self, error):
        self.errors.append(str(error))


def fake_session(worker):
    return SimpleNamespace(key=1, frame_outstanding=False, run_in_worker=lambda fn, *args: worker.submit(fn, *args))


def test_at_once_computes_once_per_key_and_keeps_failures_apart():
    follower, session = Counter(at_once=True), fake_session(None)
    assert follower.update(session) and not follower.update(session)
    assert follower.kept == ["value of 1"] and follower.current(session)
    session.key = 2
    assert not follower.current(session)
    follower.fail = True
    assert not follower.update(session) and follower.errors == ["no"] and follower.kept == ["value of 1"]
    session.key = None
    assert not follower.update(session) and not follower.current(session)


def test_in_the_worker_a_stale_result_is_dropped_and_the_frame_is_waited_for():
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        follower, session = Counter(at_once=False), fake_session(worker)
        session.frame_outstanding = True
        assert not follower.update(session) and follower._job is None  # after the frame, not before
        session.frame_outstanding = False
        assert not follower.update(session)  # queued
        follower._job.result()
        session.key = 2  # the frame moved on: the finished result is not kept
        assert not follower.update(session) and follower.kept == []
        assert follower._job is not None  # queued again for key 2
        follower._job.result()
        assert follower.update(session) and follower.kept == ["value of 2"]
        follower.forget()
        assert not follower.current(session)
