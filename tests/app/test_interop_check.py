"""The interop check without a GPU: a child that is ready and then never shows its frames is stuck,
and killed within SHOW_WAIT_S; a child that shows them, fails, or is never ready leaves interop to
the app; the display goes on by host copy on a stuck verdict and registers otherwise. Children stand in
as short Python scripts; the real child runs too (on a machine without CUDA it fails: not stuck)."""

import sys
import time
import types

import pytest

import app.display as display_module
import app.interop_check as interop_check
from app.display import FrameDisplay
from app.interop_check import InteropCheck


def child(script: str) -> list[str]:
    return [sys.executable, "-c", script]


READY_THEN_HANGS = child("print('ready', flush=True); import time; time.sleep(120)")


@pytest.fixture
def short_waits(monkeypatch):
    monkeypatch.setattr(interop_check, "SHOW_WAIT_S", 0.5)
    monkeypatch.setattr(interop_check, "START_WAIT_S", 30.0)


def test_a_child_stuck_after_it_is_ready_is_stuck_and_killed_within_the_wait(short_waits):
    started = time.monotonic()
    check = InteropCheck(READY_THEN_HANGS)
    verdict = check.stuck()
    assert verdict.startswith("frames did not get through CUDA-GL interop within 0.5 s")
    assert time.monotonic() - started < 15 and check._child.poll() is not None


@pytest.mark.parametrize(
    "script",
    [
        "print('ready', flush=True); print('shown', flush=True)",
        "import sys; sys.exit('interop check: no EGL')",
        "print('ready', flush=True); import sys; sys.exit('cudaGraphicsMapResources failed')",
    ],
    ids=["shows its frames", "fails before it is ready", "fails showing its frames"],
)
def test_a_child_that_shows_its_frames_or_fails_is_not_stuck(short_waits, script):
    assert InteropCheck(child(script)).stuck() is None


def test_a_child_that_is_never_ready_is_not_stuck_and_is_stopped(monkeypatch):
    monkeypatch.setattr(interop_check, "START_WAIT_S", 0.5)
    check = InteropCheck(child("import time; time.sleep(120)"))
    assert check.stuck() is None and check._child.poll() is not None


def test_the_real_child_says_nothing_stuck_here():
    # Without a CUDA GPU it fails; with one where interop works it shows its frames: neither is stuck.
    assert InteropCheck().stuck() is None


def test_close_stops_a_running_child(short_waits):
    check = InteropCheck(READY_THEN_HANGS)
    check.close()
    assert check._child.poll() is not None


class Verdict:
    def __init__(self, verdict):
        self.verdict, self.asked = verdict, 0

    def stuck(self):
        self.asked += 1
        return self.verdict


def display_with(check, monkeypatch) -> tuple[FrameDisplay, list]:
    registered = []
    monkeypatch.setattr(display_module, "_InteropBuffer", lambda pbo, pixels: registered.append(pbo) or "buffer")
    display = object.__new__(FrameDisplay)  # no GL context: only the choice of path is under test
    display._pbo, display._size, display._interop, display._interop_failed = 7, (2, 2), None, False
    display._interop_check, display.notice = check, None
    return display, registered


def test_a_stuck_verdict_sends_the_display_to_the_host_copy_with_a_notice(monkeypatch):
    check = Verdict("frames did not get through CUDA-GL interop within 5 s in a test process")
    display, registered = display_with(check, monkeypatch)
    assert display._try_interop() is None and display._try_interop() is None
    assert registered == [] and check.asked == 1
    assert display.notice == "CUDA-GL interop unavailable, showing frames through a host copy: " + check.verdict


@pytest.mark.parametrize("check", [Verdict(None), None], ids=["not stuck", "no check"])
def test_without_a_stuck_verdict_the_display_registers(monkeypatch, check):
    display, registered = display_with(check, monkeypatch)
    assert display._try_interop() == "buffer" and registered == [7] and display.notice is None


def test_the_child_command_runs_the_module():
    assert types.SimpleNamespace(command=interop_check.check_command()).command[1:] == ["-m", "app.interop_check"]
