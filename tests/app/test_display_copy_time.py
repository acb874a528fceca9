"""The display copy's time without a GPU: read at the next interop copy, when it is long done, so
that the host never waits for the copy it has just queued; nothing is shown where there is nothing
to read. CuPy and the interop texture stand in as a log of steps."""

import sys
import types

import numpy as np
import pytest

from app.display import FrameDisplay


class Event:
    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log

    def record(self):
        self.log.append(f"record {self.name}")

    def synchronize(self):
        self.log.append(f"wait {self.name}")


@pytest.fixture
def display_and_log(monkeypatch):
    log: list[str] = []
    cuda = types.SimpleNamespace(get_elapsed_time=lambda start, stop: 0.25)
    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(cuda=cuda))
    display = object.__new__(FrameDisplay)  # no GL context: only the copy's steps are under test
    display.copy_ms, display._copy_unread = {}, False
    display._events = (Event("start", log), Event("stop", log))
    display._interop = types.SimpleNamespace(write=lambda image: log.append("copy"))
    return display, log


IMAGE = np.zeros((2, 2, 4), np.float32)


def test_the_first_copy_is_not_waited_for_and_shows_no_time(display_and_log):
    display, log = display_and_log
    display._upload_interop(IMAGE)
    assert log == ["record start", "copy", "record stop"]
    assert display.copy_ms == {}


def test_the_next_copy_reads_the_last_one_time_before_it_records_again(display_and_log):
    display, log = display_and_log
    display._upload_interop(IMAGE)
    log.clear()
    display._upload_interop(IMAGE)
    assert log == ["wait stop", "record start", "copy", "record stop"]
    assert display.copy_ms == {"display copy": 0.25}


def test_after_a_host_copy_the_next_interop_copy_shows_no_time_rather_than_the_host_ones(display_and_log):
    display, log = display_and_log
    display._upload_interop(IMAGE)
    display._timed_download(types.SimpleNamespace(get=lambda: IMAGE))
    display.copy_ms["host upload"] = 3.0
    log.clear()
    display._upload_interop(IMAGE)
    assert log[0] == "record start" and display.copy_ms == {}


def test_a_copy_that_fails_leaves_nothing_to_read_at_the_next(display_and_log):
    display, log = display_and_log
    display._upload_interop(IMAGE)

    def failing(image):
        raise RuntimeError("the copy failed")

    display._interop = types.SimpleNamespace(write=failing)
    with pytest.raises(RuntimeError):
        display._upload_interop(IMAGE)
    display._interop = types.SimpleNamespace(write=lambda image: log.append("copy"))
    log.clear()
    display._upload_interop(IMAGE)
    assert log[0] == "record start" and display.copy_ms == {}
