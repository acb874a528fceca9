"""The command line when its standard streams or its folder are not what it expects: --help and
--version into a closed or full standard output fail with one line, messages never reach stdout
when stderr is closed, a removed working folder is one line, and runs of the app's stand-in render
started together each write their own file; a stop while the command line loads is its usual one
line."""

import os
import signal
import subprocess
import sys

import pytest


def _close(descriptor):
    return lambda: os.close(descriptor)


@pytest.mark.parametrize("args", [["--help"], ["render", "--help"], ["--version"]])
def test_help_and_version_into_a_closed_stdout_are_one_line(run_main, args):
    result = run_main(*args, preexec_fn=_close(1))
    assert result.returncode == 1
    assert result.stderr == "error: cannot write to standard output: Bad file descriptor\n"


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_help_and_version_into_a_full_disk_are_one_line(run_main, args):
    with open("/dev/full", "w") as full:
        result = run_main(*args, stdout=full, capture_output=False, stderr=subprocess.PIPE)
    assert result.returncode == 1
    assert result.stderr == "error: cannot write to standard output: No space left on device\n"


def test_messages_are_dropped_not_sent_to_stdout_when_stderr_is_closed(run_main):
    result = run_main(
        "render",
        "--scene",
        "nope",
        preexec_fn=_close(2),
        stderr=subprocess.DEVNULL,
        capture_output=False,
        stdout=subprocess.PIPE,
    )
    assert (result.returncode, result.stdout) == (2, "")


def _png(path):
    from PIL import Image

    with Image.open(path) as image:
        return image.size


@pytest.mark.parametrize("to_stdout", [False, True])
def test_a_stderr_whose_reader_is_gone_still_gets_the_file_written(tmp_path, main_command, to_stdout):
    # Before, the first message's broken pipe ended the command: exit 1, no file.
    out = tmp_path / "x.png"
    command = [*main_command, "render", "--scene", "rand10k", "--size", "64", "--backend", "cpu", "--out"]
    with subprocess.Popen(
        [*command, "-" if to_stdout else str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        process.stderr.close()  # the reader gone before the first message
        stdout = process.stdout.read()
        code = process.wait(timeout=120)
    assert code == 0, stdout
    # Nothing meant for stderr reaches stdout: the PNG alone, or the line naming the file.
    subprocess.run([*command, str(out), "--overwrite"], check=True, capture_output=True, timeout=120)
    if to_stdout:
        assert stdout == out.read_bytes()
    else:
        assert stdout.decode().splitlines() == [f"wrote {out} (rand10k, 64x64, frame 0, cpu reference)"]
        assert _png(out) == (64, 64)


def test_a_full_stderr_still_gets_the_file_written(tmp_path, run_main):
    out = tmp_path / "x.png"

    def render():
        with open("/dev/full", "w") as full:
            args = ["render", "--scene", "rgb", "--size", "8", "--backend", "cpu", "--out", out]
            return run_main(*args, stderr=full, capture_output=False).returncode

    assert render() == 0
    assert _png(out) == (8, 8)
    assert render() == 1  # an error still ends the command with its code, though its line is lost


def test_the_app_runs_with_stderr_closed(tmp_path, run_main, config):
    # Before, GLFW's library check, a child Python that inherited descriptor 2 closed, failed:
    # "Failed to load GLFW3 shared library", exit 1.
    shot = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    args = ["gui", "--headless", "--backend", "cpu", "--frames", "2", "--no-settings", "--size", "256"]
    result = run_main(
        *args,
        "--screenshot",
        shot,
        env=env,
        preexec_fn=_close(2),
        stderr=subprocess.DEVNULL,
        capture_output=False,
        stdout=subprocess.PIPE,
    )
    assert result.returncode == 0
    assert shot.is_file()


def test_a_removed_working_folder_is_one_line(tmp_path, run_main):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    render = ["render", "--scene", "rgb", "--size", "8", "--backend", "cpu", "--out", "x.png"]
    for args, name in ((render, "x.png"), ([], "rand10k.png")):
        gone = tmp_path / "gone"
        gone.mkdir()
        result = run_main(*args, cwd=gone, env=env, preexec_fn=lambda: os.rmdir(os.getcwd()))
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        # Where a library the command loads reads the working folder first (coverage, through numba,
        # on some machines), that is the line.
        assert result.stderr.splitlines()[-1] in (
            f"error: cannot write {name}: No such file or directory",
            "error: the working folder was removed: No such file or directory",
        )


def test_stand_in_renders_started_together_each_take_a_free_name(tmp_path, main_command):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    runs = [subprocess.Popen(main_command, cwd=tmp_path, env=env, stderr=subprocess.PIPE) for _ in range(3)]
    assert [run.wait(120) for run in runs] == [0, 0, 0]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rand10k-2.png", "rand10k-3.png", "rand10k.png"]


# Runs the real entry point with the stop sent to its own process as Python starts to load the
# command line: the moment a stop lands in when it comes right after the command was started.
_STOP_WHILE_LOADING = """
import os, signal, sys
sys.path.insert(0, {root!r})

class StopOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == "app.cli":
            os.kill(os.getpid(), signal.{name})
        return None

sys.meta_path.insert(0, StopOnImport())
from app.entry import main
sys.exit(main())
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_while_the_command_line_loads_is_the_usual_line(repo_root, name):
    # Before, SIGTERM and SIGHUP ended the process there without a word (and by the signal): only
    # Ctrl-C was answered before the command line had loaded.
    script = _STOP_WHILE_LOADING.format(root=str(repo_root), name=name)
    command = [sys.executable, "-c", script, "render", "--scene", "rgb", "--size", "8", "--backend", "cpu"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    number = getattr(signal, name)
    assert result.returncode == 128 + number, result.stderr
    assert result.stderr == ("interrupted\n" if name == "SIGINT" else f"stopped by {name}\n")


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_stop_while_the_command_line_loads_with_a_broken_stderr_keeps_its_code(repo_root, name):
    # Before, the line's broken pipe escaped before the code was set: exit 1.
    script = _STOP_WHILE_LOADING.format(root=str(repo_root), name=name)
    command = [sys.executable, "-c", script, "render", "--scene", "rgb", "--size", "8", "--backend", "cpu"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stderr.close()
        stdout = process.stdout.read()
        code = process.wait(timeout=60)
    assert (code, stdout) == (128 + getattr(signal, name), b"")


def test_a_dropped_stream_drops_every_later_message_onto_dev_null():
    from app.message_stream import DroppingStream

    read, write = os.pipe()
    os.close(read)  # a pipe whose reader is gone
    original = os.fdopen(write, "w", buffering=1)
    stream = DroppingStream(original, descriptor=write)
    assert stream.write("first\n") == len("first\n")
    assert os.readlink(f"/proc/self/fd/{write}") == os.devnull  # the descriptor too, for children
    stream.write("second\n")
    stream.flush()
    assert stream.closed is False  # the rest is the stream's own
    original.close()
