"""Stops held through an uncut block: raised at its end, at once outside one, only for the thread
that is in the block, and instead of an error the block raised."""

import threading

import pytest

from render.core import stops


class Stop(BaseException):
    pass


def raise_stop():
    raise Stop


def test_outside_an_uncut_block_a_stop_is_raised_at_once():
    with pytest.raises(Stop):
        stops.deliver(raise_stop)


def test_inside_a_block_the_stop_waits_for_its_end():
    steps = []
    with pytest.raises(Stop):
        with stops.uncut():
            stops.deliver(raise_stop)
            steps.append("after the stop")
            with stops.uncut():  # a nested block ends with the outer one
                steps.append("nested")
            steps.append("end of the block")
    assert steps == ["after the stop", "nested", "end of the block"]
    with pytest.raises(Stop):  # and the block is over
        stops.deliver(raise_stop)


def test_a_block_without_a_stop_ends_quietly():
    with stops.uncut():
        pass


def test_the_stop_wins_over_an_error_of_the_block():
    with pytest.raises(Stop) as raised:
        with stops.uncut():
            stops.deliver(raise_stop)
            raise OSError("disk full")
    assert isinstance(raised.value.__context__, OSError)


def test_a_block_in_another_thread_does_not_hold_this_one():
    inside, release = threading.Event(), threading.Event()

    def other():
        with stops.uncut():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(10)
    try:
        with pytest.raises(Stop):
            stops.deliver(raise_stop)
    finally:
        release.set()
        thread.join()
