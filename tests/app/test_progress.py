"""The commands' progress bars and how fast a long CPU render stops: a CPU render that lasts shows a
bar on a terminal (stderr a pty) and nothing on a pipe; ``check``'s table on stdout stays whole
under its bar; Ctrl-C (to the whole process group, as a terminal sends it) or SIGTERM in the middle
of a long CPU reference render (circles in worker processes, spheres in the main thread) exits
within a second or two of the signal, with no file and no traceback."""

import contextlib
import fcntl
import io
import os
import select
import signal
import struct
import subprocess
import termios
import time

import pytest

import app.commands
import app.progress
import render.circles.check as circle_check
from app.cli import main
from render.circles.reference import ReferenceRenderer
from render.core import progress


def _start_on_a_terminal(command: list[str]) -> tuple[subprocess.Popen, int]:
    """``command`` with stderr a 100-column pty (tqdm draws nothing 0 columns wide), in a session
    of its own; returns the process and the pty's leader end."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    # A Python process that gets SIGABRT then prints every thread's stack (``_stacks``).
    environment = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        start_new_session=True,
        env=environment,
    )
    os.close(follower)
    return process, leader


def _stacks(process: subprocess.Popen, leader: int) -> bytes:
    """Where every process of ``process``'s session stands (the command, its forkserver, its
    workers): their states, then each one's Python stacks, which SIGABRT makes it print on the
    terminal. For a command that did not show what it should have in time."""
    listing = subprocess.run(
        ["ps", "-o", "pid,stat,wchan:32,cmd", "-s", str(process.pid)], capture_output=True, text=True
    ).stdout
    for line in listing.splitlines()[1:]:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(line.split()[0]), signal.SIGABRT)
    return f"\n--- the session's processes ---\n{listing}".encode() + _read(leader, None, timeout=5)


def _read(leader: int, until: bytes | None, timeout: float) -> bytes:
    """What the terminal shows, read until ``until`` appears (None: until the process is gone)."""
    seen, deadline = b"", time.monotonic() + timeout
    while until is None or until not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([leader], [], [], left)[0]:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: every end of the follower is closed
            break
        if not chunk:
            break
        seen += chunk
    return seen


# rand1M at 4096, not 1024: at 1024 the frame ends about a second in, when the bar may not yet show.
_CIRCLES = ["render", "--scene", "rand1M", "--size", "4096", "--backend", "cpu"]
_SPHERES = ["render", "--renderer", "spheres", "--scene", "random", "--count", "3000", "--view", "shaded"]
_SPHERES += ["--size", "1024", "--backend", "cpu"]


@pytest.mark.parametrize(
    "args, description, name, group",
    [
        (_CIRCLES, "rendering rand1M", "SIGINT", True),
        (_CIRCLES, "rendering rand1M", "SIGTERM", False),
        (_SPHERES, "rendering random", "SIGINT", True),
    ],
)
def test_a_long_cpu_render_shows_a_bar_and_a_signal_stops_it_at_once(
    tmp_path, main_command, args, description, name, group
):
    """Each of these renders takes over ten seconds on two cores (14 and 19 s on the development
    machine); the bar shows once one has run for SHOW_AFTER_SECONDS, which is when the signal is
    sent."""
    number = getattr(signal, name)
    process, leader = _start_on_a_terminal([*main_command, *args, "--out", str(tmp_path / "r.png")])
    try:
        shown = _read(leader, b"%|", timeout=60)
        if b"%|" not in shown:
            shown += _stacks(process, leader)
        assert f"{description}: ".encode() in shown and b"%|" in shown, shown.decode(errors="replace")
        sent = time.monotonic()
        (os.killpg if group else os.kill)(process.pid, number)
        code = process.wait(30)
        waited = time.monotonic() - sent
        shown += _read(leader, None, timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # its forkserver and workers too
            process.wait()
        os.close(leader)
    text = shown.decode()
    expected = "interrupted" if name == "SIGINT" else f"stopped by {name}"
    assert code == 128 + number, text
    assert waited < 2, f"{waited:.2f} s from the signal to the exit"
    # The bar was cleared, so the last line is the note alone.
    assert text.rstrip("\r\n").rsplit("\r", 1)[-1].strip() == expected and "Traceback" not in text, text
    assert list(tmp_path.iterdir()) == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def at_once(monkeypatch):
    """Bars show almost at once and redraw at every report, and CPU frames report every step, so
    short work draws them too."""
    monkeypatch.setattr(app.progress, "SHOW_AFTER_SECONDS", 0.001)
    monkeypatch.setattr(app.progress, "REDRAW_SECONDS", 0)
    monkeypatch.setattr(progress, "REPORT_SECONDS", 0)


@pytest.mark.parametrize("terminal", [False, True])
def test_the_bar_is_drawn_only_on_a_terminal(tmp_path, capsys, monkeypatch, at_once, terminal):
    stderr = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    out = tmp_path / "r.png"
    assert main(["render", "--scene", "rand10k", "--size", "64", "--backend", "cpu", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out} (rand10k, 64x64, frame 0, cpu reference)\n"
    if terminal:
        assert stderr.getvalue().startswith("backend: cpu (reference renderer)\n\rrendering rand10k: ")
        assert "%|" in stderr.getvalue()
    else:
        assert stderr.getvalue() == "backend: cpu (reference renderer)\n"


class _CircleGpuStandIn(ReferenceRenderer):
    """The CPU reference in the place of a CUDA variant, so that check runs without a GPU."""

    def __init__(self, choice):
        super().__init__(workers=1)

    def poison(self):
        pass


@pytest.mark.parametrize("terminal", [False, True])
def test_check_writes_its_table_whole_above_its_bar(capsys, monkeypatch, at_once, terminal):
    """On a terminal stdout and stderr are one screen: each table line starts where the bar was
    cleared, so every line reads whole after the last carriage return."""
    monkeypatch.setattr(app.commands, "_require_gpu", lambda command: None)
    monkeypatch.setattr(circle_check, "CudaRenderer", _CircleGpuStandIn)
    screen = _Terminal()
    if terminal:
        monkeypatch.setattr("sys.stdout", screen)
        monkeypatch.setattr("sys.stderr", screen)
    args = ["check", "--scenes", "rgb", "pattern", "--size", "24", "--variants", "per-pixel", "tile-scan"]
    assert main(args) == 0
    captured = capsys.readouterr()
    text = screen.getvalue() if terminal else captured.out
    lines = [line.rsplit("\r", 1)[-1] for line in text.split("\n")[:-1]]
    assert lines[:2] == [circle_check.HEADER, "-" * len(circle_check.HEADER)]
    rows = [(line.split()[0], line.split()[1], line.split()[-1]) for line in lines[2:-1]]
    assert rows == [(scene, variant, "pass") for scene in ("rgb", "pattern") for variant in ("per-pixel", "tile-scan")]
    assert lines[-1] == "4 passed, 0 failed"
    if terminal:
        assert "check: " in text and "/4 |" in text and "pattern tile-scan" in text  # the bar's steps
    else:
        assert captured.err == ""
