"""The interop check without a GPU. A child still running when it should be done is stuck and
killed: ready and not done within SHOW_WAIT_S, or not ready within START_WAIT_S. A child that is
done, or fails, or prints what cannot be decoded, is not stuck. The display waits a little for the
verdict, goes by host copy while it is out, and by host copy with a notice on "stuck". run_gui
stops the child however it ends, and the child ends with the app. Children stand in as short
Python scripts; the real child runs too where there is no NVIDIA driver (it fails: not stuck)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import app.display as display_module
import app.interop_check as interop_check
import app.launch as launch
from app.display import FrameDisplay
from app.interop_check import PARENT_ENV, InteropCheck, child_command, nvidia_driver_present, start_interop_check
from app.launch import GuiOptions, run_gui

ROOT = Path(__file__).resolve().parents[2]


def child(script: str) -> list[str]:
    return [sys.executable, "-c", script]


READY_THEN_HANGS = child("print('ready', flush=True); import time; time.sleep(120)")


@pytest.fixture
def short_waits(monkeypatch):
    monkeypatch.setattr(interop_check, "SHOW_WAIT_S", 0.5)
    monkeypatch.setattr(interop_check, "START_WAIT_S", 30.0)


def eventually(condition, seconds=10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_a_child_stuck_after_it_is_ready_is_stuck_killed_and_its_pipe_closed(short_waits):
    started = time.monotonic()
    check = InteropCheck(READY_THEN_HANGS)
    assert check.decided(15) and time.monotonic() - started < 15
    assert check.stuck_reason.startswith("a helper process's CUDA-to-OpenGL hand-over did not finish within 0.5 s")
    assert check._child.poll() is not None and eventually(lambda: check._child.stdout.closed)


def test_a_killed_child_whose_pipe_stays_open_still_gives_a_verdict_and_close_returns(short_waits, tmp_path):
    # A process the child started keeps the pipe's write end open after the child is killed.
    holder_pid = tmp_path / "holder.pid"
    script = (
        "import subprocess, sys, time; "
        "h = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); "
        f"open({str(holder_pid)!r}, 'w').write(str(h.pid)); print('ready', flush=True); time.sleep(120)"
    )
    check = InteropCheck(child(script))
    try:
        assert check.decided(15) and check.stuck_reason is not None
        started = time.monotonic()
        check.close()
        assert time.monotonic() - started < 3
    finally:
        os.kill(int(holder_pid.read_text()), 9)


def test_a_child_that_never_gets_ready_is_stuck_too(monkeypatch):
    monkeypatch.setattr(interop_check, "START_WAIT_S", 0.5)
    check = InteropCheck(child("import time; time.sleep(120)"))
    assert check.decided(15) and "did not start within 0.5 s" in check.stuck_reason
    assert check._child.poll() is not None


@pytest.mark.parametrize(
    "script",
    [
        "print('ready', flush=True); print('shown', flush=True)",
        "import sys; sys.exit('interop check: no EGL')",
        "print('ready', flush=True); import sys; sys.exit('interop check: the map failed')",
        "import sys; sys.stdout.buffer.write(bytes([255, 254, 10])); print('ready'); print('shown')",
    ],
    ids=["done", "fails before it is ready", "fails after", "done after undecodable output"],
)
def test_a_child_that_is_done_or_fails_is_not_stuck(short_waits, script):
    check = InteropCheck(child(script))
    assert check.decided(15) and check.stuck_reason is None


def test_undecodable_output_before_ready_does_not_hide_a_stuck_child(short_waits):
    garbage = "sys.stdout.buffer.write(bytes([255, 254, 10])); sys.stdout.flush()"
    script = f"import sys, time; {garbage}; print('ready', flush=True); time.sleep(120)"
    check = InteropCheck(child(script))
    assert check.decided(15) and "did not finish within 0.5 s" in check.stuck_reason


def test_the_verdict_is_out_while_the_child_runs(short_waits):
    check = InteropCheck(READY_THEN_HANGS)
    assert not check.decided(0)
    check.close()
    assert check._child.poll() is not None


@pytest.mark.skipif(nvidia_driver_present(), reason="with an NVIDIA driver the real child may well succeed")
def test_the_real_child_fails_in_one_line_without_a_driver():
    result = subprocess.run(child_command(), capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("interop check: ") and len(result.stderr.strip().splitlines()) == 1
    assert InteropCheck().decided(120)


def test_no_check_without_a_driver_or_where_the_child_cannot_start(monkeypatch):
    monkeypatch.setattr(interop_check, "nvidia_driver_present", lambda: False)
    assert start_interop_check() is None
    monkeypatch.setattr(interop_check, "nvidia_driver_present", lambda: True)
    monkeypatch.setattr(interop_check, "child_command", lambda: ["/nonexistent/python"])
    assert start_interop_check() is None


CHILD_THAT_WAITS = """
import time
from app.interop_child import _end_with_parent
_end_with_parent()
print("armed", flush=True)
time.sleep(60)
"""
PARENT_THAT_DIES = f"""
import os, subprocess, sys
env = {{**os.environ, {PARENT_ENV!r}: str(os.getpid())}}
child = subprocess.Popen([sys.executable, "-c", {CHILD_THAT_WAITS!r}], stdout=subprocess.PIPE, env=env, text=True)
print(child.pid, child.stdout.readline().strip(), flush=True)
os._exit(0)
"""


def gone(pid: int) -> bool:
    try:
        return "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_the_child_ends_with_the_app_that_started_it():
    result = subprocess.run(child(PARENT_THAT_DIES), capture_output=True, text=True, cwd=ROOT, timeout=60)
    pid, armed = result.stdout.split()
    assert armed == "armed"
    deadline = time.monotonic() + 10
    while not gone(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(int(pid))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_child_whose_app_has_already_gone_ends_at_once():
    env = {**os.environ, PARENT_ENV: "-1"}  # no process's pid: as if the app had ended
    script = "from app.interop_child import _end_with_parent; _end_with_parent(); print('alive')"
    result = subprocess.run(child(script), capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert result.returncode == 1 and "alive" not in result.stdout
    assert result.stderr == "interop check: the app that started it has ended\n"


class Verdict:
    """A stand-in check: decided after ``pending`` asks, with ``stuck_reason``."""

    def __init__(self, stuck_reason, pending=0):
        self.stuck_reason, self.pending, self.waits = stuck_reason, pending, []

    def decided(self, wait_s):
        self.waits.append(wait_s)
        return len(self.waits) > self.pending


def display_with(check, monkeypatch) -> tuple[FrameDisplay, list]:
    registered = []
    monkeypatch.setattr(
        display_module, "_InteropTexture", lambda texture, width, height: registered.append(texture) or "texture"
    )
    display = FrameDisplay.__new__(FrameDisplay)  # no GL context: only the choice of path is under test
    display._texture, display._size, display._interop, display._interop_failed = 7, (2, 2), None, False
    display._interop_check, display._check_wait_s, display.notice = check, display_module.CHECK_FIRST_WAIT_S, None
    return display, registered


def test_a_stuck_verdict_sends_the_display_to_the_host_copy_with_a_notice(monkeypatch):
    check = Verdict("a helper process's CUDA-to-OpenGL hand-over did not finish within 5 s")
    display, registered = display_with(check, monkeypatch)
    assert display._try_interop() is None and display._try_interop() is None
    assert registered == [] and len(check.waits) == 1
    assert display.notice == "CUDA-GL interop unavailable, showing frames through a host copy: " + check.stuck_reason


def test_frames_go_by_host_copy_while_the_verdict_is_out_then_through_interop(monkeypatch):
    check = Verdict(None, pending=2)
    display, registered = display_with(check, monkeypatch)
    assert display._try_interop() is None and display._try_interop() is None  # out: host copy, no notice
    assert display._try_interop() == "texture" and registered == [7] and display.notice is None
    assert check.waits == [display_module.CHECK_FIRST_WAIT_S, 0.0, 0.0]  # only the first ask waits


def test_without_a_check_the_display_registers_at_once(monkeypatch):
    display, registered = display_with(None, monkeypatch)
    assert display._try_interop() == "texture" and registered == [7]


class StandInCheck:
    def __init__(self):
        self.closed = 0

    def close(self):
        self.closed += 1


@pytest.fixture
def gui_with_a_stand_in_check(monkeypatch):
    monkeypatch.setenv("PYOPENGL_PLATFORM", "egl")  # run_gui sets it for a headless run: restored after
    check = StandInCheck()
    monkeypatch.setattr(launch, "start_interop_check", lambda: check)
    monkeypatch.setattr(launch, "CudaStart", lambda: type("Started", (), {"join": lambda self: None})())
    return check


def test_run_gui_stops_the_check_when_opening_fails(monkeypatch, gui_with_a_stand_in_check):
    def fails(*arguments):
        raise RuntimeError("the window could not open")

    monkeypatch.setattr(launch, "_open_and_run", fails)
    with pytest.raises(RuntimeError):
        run_gui(GuiOptions(headless=True, fresh=True, backend="cuda"))
    assert gui_with_a_stand_in_check.closed == 1


def test_run_gui_stops_the_check_before_it_ends_without_teardown(monkeypatch, gui_with_a_stand_in_check):
    ended = []
    monkeypatch.setattr(launch, "_open_and_run", lambda *arguments: (0, True))
    monkeypatch.setattr(launch, "_end_without_teardown", lambda code: ended.append(gui_with_a_stand_in_check.closed))
    assert run_gui(GuiOptions(headless=True, fresh=True, backend="cuda")) == 0
    assert ended == [1]


def test_the_check_runs_where_frames_are_forced_through_the_host(monkeypatch, gui_with_a_stand_in_check):
    # the panel can turn the host copy off, and interop is then registered
    monkeypatch.setattr(launch, "_open_and_run", lambda *arguments: (0, False))
    assert run_gui(GuiOptions(headless=True, fresh=True, backend="cuda", force_host_copy=True)) == 0
    assert gui_with_a_stand_in_check.closed == 1


def test_no_check_on_the_cpu_backend(monkeypatch, gui_with_a_stand_in_check):
    asked = []
    monkeypatch.setattr(launch, "start_interop_check", lambda: asked.append(1))
    monkeypatch.setattr(launch, "_open_and_run", lambda *arguments: (0, False))
    assert run_gui(GuiOptions(headless=True, fresh=True, backend="cpu")) == 0
    assert asked == []


def test_the_child_finds_the_package_without_a_site_folder_before_the_standard_library(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["relative/folder", "/absolute"]))
    own = [os.path.abspath("relative/folder"), "/absolute"]
    monkeypatch.setattr(interop_check.site, "getsitepackages", lambda: ["/elsewhere/site-packages"])
    assert interop_check._child_pythonpath().split(os.pathsep) == [interop_check.PACKAGE_ROOT, *own]  # a checkout
    monkeypatch.setattr(interop_check.site, "getsitepackages", lambda: [interop_check.PACKAGE_ROOT])
    assert interop_check._child_pythonpath().split(os.pathsep) == own  # installed: Python finds it itself
