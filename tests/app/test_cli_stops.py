"""Every way a command can be stopped cleans up: SIGTERM and SIGHUP in the middle of writing a file
leave neither the file nor its temporary, like Ctrl-C; a closed or full standard output is one line
and exit code 1, with no "Exception ignored" from the interpreter; a stop while a CPU frame's worker
processes start ends the command as promptly."""

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

# Runs the real entry point with the PNG encoder signalling its own process half-way through the
# file, so the signal lands while the temporary file is open and partly written.
_SIGNAL_MID_WRITE = """
import os, signal, sys
sys.path.insert(0, {root!r})
import PIL.Image

def save(self, stream, format=None):
    stream.write(b"\\x89PNG partial")
    stream.flush()
    for name in "{name}".split("+"):
        os.kill(os.getpid(), getattr(signal, name))
    stream.write(b"never")

PIL.Image.Image.save = save
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT", "SIGINT+SIGTERM", "SIGHUP+SIGTERM+SIGINT"])
def test_a_signal_during_a_write_leaves_no_file(tmp_path, name, repo_root):
    """Signals in quick succession count once: the first one stops the command."""
    script = _SIGNAL_MID_WRITE.format(root=str(repo_root), name=name)
    target = tmp_path / "r.png"
    command = [sys.executable, "-c", script, "render", "--scene", "rgb", "--size", "16", "--backend", "cpu"]
    result = subprocess.run([*command, "--out", str(target)], capture_output=True, text=True, timeout=60)
    first = name.split("+")[0]
    number = getattr(signal, first)
    expected = "interrupted" if first == "SIGINT" else f"stopped by {first}"
    assert result.returncode == 128 + number, result.stderr
    assert result.stderr.strip().splitlines() == ["backend: cpu (reference renderer)", expected], result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_signal_during_a_scene_save_leaves_no_file(tmp_path, repo_root):
    # np.savez_compressed writes through zipfile; the signal arrives between two members.
    script = _SIGNAL_MID_WRITE.replace("import PIL.Image", "import numpy as np\nold = np.lib.format.write_array")
    script = script.replace(
        "PIL.Image.Image.save = save",
        "def write_array(stream, array, *a, **k):\n    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return old(stream, array, *a, **k)\nnp.lib.format.write_array = write_array",
    ).format(root=str(repo_root), name="SIGTERM")
    result = subprocess.run(
        [sys.executable, "-c", script, "scene", "save", "rand10k", str(tmp_path / "s.npz")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 128 + signal.SIGTERM and "stopped by SIGTERM" in result.stderr
    assert list(tmp_path.iterdir()) == []


def _closed_pipe() -> tuple[int, int]:
    read_end, write_end = os.pipe()
    os.close(read_end)
    return write_end


@pytest.mark.parametrize(
    "args",
    [
        ["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", "-"],
        ["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--raw", "/dev/stdout"],
        ["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", "{tmp}/r.png"],
        ["--help"],
    ],
)
@pytest.mark.parametrize("stdout", ["closed pipe", "/dev/full"])
@pytest.mark.parametrize("buffered", [True, False])
def test_a_closed_or_full_stdout_is_one_line_and_exit_1(tmp_path, args, stdout, buffered, main_command):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"

    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    descriptor = _closed_pipe() if stdout == "closed pipe" else os.open("/dev/full", os.O_WRONLY)
    try:
        result = subprocess.run(
            [*main_command, *args], stdout=descriptor, stderr=subprocess.PIPE, text=True, timeout=60, env=env
        )
    finally:
        os.close(descriptor)
    reason = "Broken pipe" if stdout == "closed pipe" else "No space left on device"
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("error:")]
    assert result.returncode == 1, result.stderr
    assert len(errors) == 1 and reason in errors[0], lines
    assert "standard output" in errors[0] or "/dev/stdout" in errors[0], lines
    assert lines[-1] == errors[0] and "Exception ignored" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("closed", [0, 1])
@pytest.mark.parametrize("out", ["-", "r.png", "existing.png"])
def test_a_closed_stdin_or_stdout_is_no_traceback(tmp_path, closed, out, run_main):
    (tmp_path / "existing.png").write_bytes(b"keep")
    command = ["render", "--scene", "rgb", "--size", "8", "--backend", "cpu", "--out", out]
    result = run_main(*command, cwd=tmp_path, text=False, timeout=60, preexec_fn=lambda: os.close(closed))
    stderr = result.stderr.decode()
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    if out == "existing.png":  # nobody to ask: refused, and the file is kept
        assert result.returncode == 1 and "exists; pass --overwrite" in errors[0]
    elif out == "-" and closed == 1:  # refused before the work: nothing can land in a file opened meanwhile
        assert result.returncode == 2 and errors == [
            "error: cannot write -: descriptor 1 was closed when the command started"
        ]
    else:
        assert result.returncode == 0 and not errors
    assert (tmp_path / "existing.png").read_bytes() == b"keep"


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_while_the_worker_processes_start_ends_the_command_cleanly(tmp_path, probe_path, run_own_group, name):
    # The signal goes to the whole process group, workers included, as a terminal's Ctrl-C or a
    # supervisor's SIGTERM does. Before the pool's start was uncut, SIGINT made the command print
    # "interrupted" and then hang, the pool waiting at exit for a worker it had never noted; before
    # the workers ignored SIGTERM and SIGHUP, one killed while it started left the pool waiting on
    # the others forever.
    out = tmp_path / "frame.png"
    number = getattr(signal, name)
    started = time.monotonic()
    result = run_own_group([sys.executable, str(probe_path("stop_while_workers_start.py")), str(out), name])
    expected = "interrupted" if name == "SIGINT" else f"stopped by {name}"
    assert result.returncode == 128 + number and result.stderr.splitlines()[-1] == expected, result.stderr
    assert "Traceback" not in result.stderr and "Warning" not in result.stderr and not out.exists()
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_to_the_group_mid_frame_is_one_line(tmp_path, main_command, run_own_group, name):
    # Before, a SIGHUP to the group killed multiprocessing's resource tracker: after "stopped by
    # SIGHUP" came its UserWarning and a KeyError traceback for each of the pool's semaphores.
    out = tmp_path / "frame.png"
    command = [*main_command, "render", "--backend", "cpu", "--scene", "rand100k", "--size", "512", "--out", str(out)]
    with subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE, text=True) as process:
        try:
            assert process.stderr.readline() == "backend: cpu (reference renderer)\n"
            time.sleep(0.6)  # the workers render their bands
            os.killpg(process.pid, getattr(signal, name))
            _, stderr = process.communicate(timeout=30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 128 + getattr(signal, name) and stderr == f"stopped by {name}\n", stderr
    assert not out.exists()


# Runs the real entry point with a thread that the interpreter waits for at exit (as it waits for
# CUDA's start) and that sends the signals meanwhile, and an exit call that sends one too, when the
# interpreter's teardown has begun.
_SIGNAL_DURING_EXIT = """
import atexit, os, signal, sys, threading, time
sys.path.insert(0, {root!r})
from app.entry import main

def signal_late(name):
    os.kill(os.getpid(), getattr(signal, name))
    time.sleep(0.2)

atexit.register(signal_late, "{name}")  # registered first, so it runs after the exit calls of main
code = main()
threading.Thread(target=lambda: [signal_late(name) for name in ("{name}", "SIGINT", "SIGTERM")]).start()
sys.exit(code)
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_during_the_exit_keeps_its_code_and_says_nothing(tmp_path, repo_root, name):
    # Before, the command's handlers were gone once it had returned: SIGTERM and SIGHUP ended the
    # process by the signal, and SIGINT printed a KeyboardInterrupt traceback from the exit.
    script = _SIGNAL_DURING_EXIT.format(root=str(repo_root), name=name)
    out = tmp_path / "r.png"
    command = [sys.executable, "-c", script, "render", "--scene", "rgb", "--size", "8", "--backend", "cpu"]
    result = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and out.exists(), result.stderr
    assert result.stderr == "backend: cpu (reference renderer)\n", result.stderr


# The same through the entry point, with an object that sends SIGHUP when it is collected: kept in
# the script's globals, it goes last, as the interpreter takes its modules down, after Python's own
# signal handling has ended.
_SIGNAL_AT_TEARDOWN = _SIGNAL_MID_WRITE.replace(
    "from app.cli import main\nsys.exit(main(sys.argv[1:]))",
    """from app.entry import main

class SignalWhenCollected:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGHUP)

late = SignalWhenCollected()
sys.exit(main())""",
)


def test_a_second_signal_during_the_exit_keeps_the_first_ones_code(tmp_path, repo_root):
    # Before, a signal in the interpreter's last steps ended the process by that signal.
    script = _SIGNAL_AT_TEARDOWN.format(root=str(repo_root), name="SIGTERM")
    command = [sys.executable, "-c", script, "render", "--scene", "rgb", "--size", "16", "--backend", "cpu"]
    result = subprocess.run([*command, "--out", str(tmp_path / "r.png")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 128 + signal.SIGTERM, result.stderr
    assert result.stderr.splitlines()[-1] == "stopped by SIGTERM" and "Traceback" not in result.stderr
