"""Outputs are placed so that nothing the user did not allow is replaced: a file that appears while a
command works is kept, two commands racing for one name leave one winner and one clear error, and
special files (FIFOs, devices, sockets, folders, links) are written into as streams or refused, never
replaced or unlinked."""

import errno
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from scenes.safe_write import OutputError, OutputExists, Placement, output_kind, write_new_file, write_output

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def render_command(main_command):
    """main.py's ``render`` on the CPU backend, to be given a scene, a size and outputs."""
    return [*main_command, "render", "--backend", "cpu"]


def _writer(data: bytes):
    return lambda stream: stream.write(data)


ROOT = Path(__file__).resolve().parents[2]


def _only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_an_existing_file_is_kept_unless_replacing_is_allowed(tmp_path):
    target = tmp_path / "a.png"
    target.write_bytes(b"theirs")
    with pytest.raises(OutputExists, match="a.png was created by another program"):
        write_output(target, _writer(b"ours"))
    assert target.read_bytes() == b"theirs"
    write_output(target, _writer(b"ours"), Placement(replace=True))
    assert target.read_bytes() == b"ours" and _only(tmp_path) == ["a.png"]


def test_a_file_that_appears_during_the_write_is_kept(tmp_path):
    target = tmp_path / "a.png"

    def racing(stream):
        stream.write(b"ours")
        target.write_bytes(b"theirs")  # another program takes the name meanwhile

    with pytest.raises(OutputExists, match="created by another program while this one worked; it was kept"):
        write_output(target, racing)
    assert target.read_bytes() == b"theirs" and _only(tmp_path) == ["a.png"]


def test_without_hard_links_the_name_is_still_claimed_in_one_step(tmp_path, monkeypatch):
    def no_links(source, target, **options):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    write_output(tmp_path / "a.png", _writer(b"first"))
    assert (tmp_path / "a.png").read_bytes() == b"first"

    def racing(stream):
        stream.write(b"ours")
        (tmp_path / "b.png").write_bytes(b"theirs")

    with pytest.raises(OutputExists):
        write_output(tmp_path / "b.png", racing)
    assert (tmp_path / "b.png").read_bytes() == b"theirs" and _only(tmp_path) == ["a.png", "b.png"]


@pytest.mark.parametrize("replace", [False, True], ids=["new", "replacing"])
def test_a_file_is_placed_without_a_named_temporary_file_where_the_system_allows(tmp_path, monkeypatch, replace):
    import scenes.safe_write

    unnamed = scenes.safe_write._unnamed_file(str(tmp_path))
    if unnamed is None:
        pytest.skip("this filesystem or system has no unnamed files (O_TMPFILE) or no /proc")
    os.close(unnamed)
    writes = []

    def named(*args, **options):
        raise AssertionError("a named temporary file was made")

    monkeypatch.setattr(scenes.safe_write.tempfile, "mkstemp", named)
    (tmp_path / "old.png").write_bytes(b"old")
    target = tmp_path / ("old.png" if replace else "new.png")
    write_output(target, lambda stream: writes.append(stream.write(b"new")), Placement(replace=replace))
    assert target.read_bytes() == b"new" and len(writes) == 1  # written once
    assert _only(tmp_path) == (["old.png"] if replace else ["new.png", "old.png"])
    with pytest.raises(OutputExists):
        write_output(tmp_path / "old.png", _writer(b"other"))
    assert _only(tmp_path) == (["old.png"] if replace else ["new.png", "old.png"])


@pytest.mark.parametrize("replace", [False, True], ids=["new", "replacing"])
def test_a_process_killed_mid_write_leaves_nothing_behind(tmp_path, replace):
    # SIGKILL (or the out-of-memory killer, or any signal whose default ends the process) cannot be
    # answered: the file being written must have no name until it is complete.
    from scenes.safe_write import _unnamed_file

    unnamed = _unnamed_file(str(tmp_path))
    if unnamed is None:
        pytest.skip("this filesystem or system has no unnamed files (O_TMPFILE) or no /proc")
    os.close(unnamed)
    (tmp_path / "kept.png").write_bytes(b"kept")
    target = tmp_path / ("kept.png" if replace else "new.png")
    script = (
        "import os, signal, sys\n"
        "from scenes.safe_write import Placement, write_output\n"
        "def write(stream):\n"
        "    stream.write(b'half of a file' * 1000)\n"
        "    stream.flush()\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        f"write_output(sys.argv[1], write, Placement(replace={replace}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script, str(target)], cwd=ROOT, capture_output=True, timeout=60)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert _only(tmp_path) == ["kept.png"] and (tmp_path / "kept.png").read_bytes() == b"kept"


def test_new_file_names_step_past_taken_ones_even_mid_write(tmp_path):
    (tmp_path / "x.png").write_bytes(b"1")
    calls = []

    def racing(stream):
        calls.append(1)
        if len(calls) == 1:
            (tmp_path / "x-2.png").write_bytes(b"2")  # taken while we wrote
        stream.write(b"ours")

    assert write_new_file(tmp_path / "x.png", racing) == tmp_path / "x-3.png"
    assert (tmp_path / "x-2.png").read_bytes() == b"2" and (tmp_path / "x-3.png").read_bytes() == b"ours"
    assert _only(tmp_path) == ["x-2.png", "x-3.png", "x.png"]


def _started(process: subprocess.Popen) -> None:
    """Wait until the command has checked its outputs and started rendering (it names its backend)."""
    for line in process.stderr:
        if line.startswith("backend:"):
            return
    raise AssertionError("the command ended before rendering")


def test_a_file_created_by_another_program_during_a_render_is_kept(tmp_path, render_command):
    target = tmp_path / "r.png"
    command = [*render_command, "--scene", "rand10k", "--size", "768", "--out", str(target)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    _started(process)
    target.write_bytes(b"theirs")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1
    assert err.strip().splitlines() == [
        f"error: {target} was created by another program while this one worked; "
        "it was kept (pass --overwrite to replace it)"
    ]
    assert target.read_bytes() == b"theirs" and _only(tmp_path) == ["r.png"]


def test_with_overwrite_a_file_created_during_a_render_is_replaced(tmp_path, render_command):
    target = tmp_path / "r.png"
    command = [*render_command, "--scene", "rand10k", "--size", "512", "--out", str(target), "--overwrite"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    _started(process)
    target.write_bytes(b"theirs")
    process.communicate(timeout=120)
    assert process.returncode == 0 and target.read_bytes().startswith(PNG_MAGIC)


def test_two_commands_writing_one_path_leave_one_winner(tmp_path, render_command):
    target = tmp_path / "r.png"
    command = [*render_command, "--scene", "rand10k", "--size", "512", "--out", str(target)]
    processes = [subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in (1, 2)]
    results = [(p.communicate(timeout=120), p.returncode) for p in processes]
    winners = [out for (out, _), code in results if code == 0]
    losers = [err.strip().splitlines() for (_, err), code in results if code != 0]
    assert len(winners) == 1 and winners[0].startswith(f"wrote {target}")
    assert len(losers) == 1 and losers[0][-1].startswith(f"error: {target} ")
    assert "was created by another program" in losers[0][-1] or "exists; pass --overwrite" in losers[0][-1]
    assert target.read_bytes().startswith(PNG_MAGIC) and _only(tmp_path) == ["r.png"]


def _read_fifo(path: Path, into: list) -> threading.Thread:
    def read():
        with open(path, "rb") as stream:
            into.append(stream.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_fifo_is_written_into_never_replaced(tmp_path, overwrite, render_command):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = _read_fifo(fifo, received)
    command = [*render_command, "--scene", "rgb", "--size", "32", "--out", str(fifo)] + (
        ["--overwrite"] if overwrite else []
    )
    result = subprocess.run(command, capture_output=True, timeout=60)
    reader.join(10)
    assert result.returncode == 0, result.stderr
    assert received and received[0].startswith(PNG_MAGIC)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and _only(tmp_path) == ["pipe"]


@pytest.mark.parametrize("path", ["/dev/null", "link-to-null"])
@pytest.mark.parametrize("overwrite", [False, True])
def test_a_character_device_is_written_into_never_replaced(tmp_path, path, overwrite, render_command):
    if path == "link-to-null":
        (tmp_path / path).symlink_to("/dev/null")
        path = str(tmp_path / path)
    command = [*render_command, "--scene", "rgb", "--size", "16", "--out", path] + (
        ["--overwrite"] if overwrite else []
    )
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    if "link" in path:
        assert os.readlink(path) == "/dev/null"


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_png_to_standard_output_with_messages_on_stderr(out, render_command):
    command = [*render_command, "--scene", "rgb", "--size", "16", "--out", out]
    result = subprocess.run(command, capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(PNG_MAGIC)
    assert b"wrote " + out.encode() in result.stderr


def test_raw_to_standard_output_is_a_whole_npy(tmp_path, render_command):
    command = [*render_command, "--scene", "rgb", "--size", "8", "--raw", "-"]
    result = subprocess.run(command, capture_output=True, timeout=60)
    (tmp_path / "r.npy").write_bytes(result.stdout)
    assert result.returncode == 0 and np.load(tmp_path / "r.npy").shape == (8, 8, 4)


def test_kinds_of_special_files(tmp_path):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock.png"))
    (tmp_path / "dangling.png").symlink_to(tmp_path / "missing.png")
    (tmp_path / "loop.png").symlink_to(tmp_path / "loop.png")
    (tmp_path / "folder.png").mkdir()
    cases = {
        "sock.png": "it is a socket",
        "dangling.png": "it is a symbolic link to a missing file",
        "loop.png": "Too many levels of symbolic links",
        "folder.png": "it is a folder",
        "x" * 300 + ".png": "File name too long",
        "nofolder/x.png": "its folder does not exist",
    }
    for name, reason in cases.items():
        with pytest.raises(OutputError, match=reason):
            output_kind(tmp_path / name)
    assert output_kind("/dev/null") == output_kind("-") == output_kind("/proc/self/fd/1") == "stream"
    server.close()


@pytest.mark.parametrize(
    "name, reason",
    [
        ("sock.png", "it is a socket"),
        ("dangling.png", "it is a symbolic link to a missing file"),
        ("loop.png", "Too many levels of symbolic links"),
        ("x" * 300 + ".png", "File name too long"),
    ],
)
def test_unwritable_outputs_are_one_line_and_nothing_is_touched(tmp_path, name, reason, render_command):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock.png"))
    (tmp_path / "dangling.png").symlink_to(tmp_path / "missing.png")
    (tmp_path / "loop.png").symlink_to(tmp_path / "loop.png")
    before = _only(tmp_path)
    result = subprocess.run(
        [*render_command, "--scene", "rgb", "--size", "8", "--out", str(tmp_path / name), "--overwrite"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode == 2 and len(errors) == 1 and reason in errors[0], result.stderr
    assert "Traceback" not in result.stderr and _only(tmp_path) == before
    server.close()


def test_overwrite_replaces_a_link_itself_and_never_its_target(tmp_path, render_command):
    (tmp_path / "real.png").write_bytes(b"old")
    (tmp_path / "link.png").symlink_to("real.png")
    command = [*render_command, "--scene", "rgb", "--size", "8", "--out", str(tmp_path / "link.png"), "--overwrite"]
    assert subprocess.run(command, capture_output=True, timeout=60).returncode == 0
    assert not (tmp_path / "link.png").is_symlink() and (tmp_path / "link.png").read_bytes().startswith(PNG_MAGIC)
    assert (tmp_path / "real.png").read_bytes() == b"old"


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("planted", ["link to a victim", "fifo", "link to /dev/null"])
def test_what_appears_at_the_name_during_a_render_is_never_written_through(
    tmp_path, planted, overwrite, render_command
):
    target, victim = tmp_path / "r.png", tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    command = [*render_command, "--scene", "rand10k", "--size", "768", "--out", str(target)]
    process = subprocess.Popen(
        command + (["--overwrite"] if overwrite else []), stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    _started(process)
    if planted == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(victim if planted == "link to a victim" else "/dev/null")
    _, err = process.communicate(timeout=120)
    assert victim.read_bytes() == b"precious"
    if overwrite and planted != "fifo":  # the name was the user's to replace: the link goes, not its target
        assert process.returncode == 0 and not target.is_symlink() and target.read_bytes().startswith(PNG_MAGIC)
    else:
        assert process.returncode == 1 and len(err.strip().splitlines()) == 1, err
        assert stat.S_ISFIFO(os.lstat(target).st_mode) if planted == "fifo" else target.is_symlink()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_a_descriptor_path_writes_through_the_descriptor_never_truncating(tmp_path, render_command):
    log = tmp_path / "log.txt"
    log.write_bytes(b"first line\n")
    with open(log, "ab") as appending:
        result = subprocess.run(
            [*render_command, "--scene", "rgb", "--size", "8", "--out", "/dev/stdout"],
            stdout=appending,
            stderr=subprocess.PIPE,
        )
    assert result.returncode == 0 and log.read_bytes().startswith(b"first line\n" + PNG_MAGIC)


def test_a_read_only_descriptor_is_one_line_and_its_file_is_kept(tmp_path, render_command):
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"precious")
    with open(precious, "rb") as reading:
        command = [*render_command, "--scene", "rgb", "--size", "8", "--out", f"/dev/fd/{reading.fileno()}"]
        result = subprocess.run(command, capture_output=True, text=True, pass_fds=(reading.fileno(),))
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode == 1 and len(errors) == 1 and "Bad file descriptor" in errors[0], result.stderr
    assert precious.read_bytes() == b"precious"


@pytest.mark.parametrize("path", ["/dev/fd/{}", "/proc/self/fd/{}"])
def test_a_descriptor_not_open_when_the_command_starts_is_refused_before_the_work(tmp_path, render_command, path):
    # The command opens descriptors of its own as it works (worker processes' pipes, a scene's shared
    # memory): a free number named as the output would, by the time of the write, be one of them.
    with open(tmp_path / "held.png", "wb") as held:
        free = held.fileno() + 8  # above every descriptor the command inherits here
        command = [*render_command, "--scene", "rgb", "--size", "8", "--out", path.format(free)]
        result = subprocess.run(command, capture_output=True, text=True, pass_fds=(held.fileno(),), cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == "", result.stderr
        assert result.stderr.splitlines() == [
            f"error: cannot write {path.format(free)}: descriptor {free} was not open when the command started"
        ]
        ok = subprocess.run(
            [*command[:-1], path.format(held.fileno())], capture_output=True, pass_fds=(held.fileno(),), cwd=tmp_path
        )
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "held.png").read_bytes().startswith(PNG_MAGIC)


def test_an_output_into_the_messages_pipe_is_refused(render_command):
    for outputs in (["--out", "/dev/stderr", "--raw", "-"], ["--out", "/dev/stderr"], ["--raw", "/proc/self/fd/2"]):
        command = [*render_command, "--scene", "rgb", "--size", "8", *outputs]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert result.returncode == 2 and b"is standard error, where this command's messages go" in result.stdout
        assert PNG_MAGIC not in result.stdout and b"NUMPY" not in result.stdout


def test_an_app_export_never_replaces_a_file_that_appears_while_it_writes(tmp_path, monkeypatch):
    import time

    import app.exports
    from app.session import Session
    from app.settings import Settings

    session = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path)), backend="cpu")
    deadline = time.monotonic() + 60
    while not session.update() and time.monotonic() < deadline:
        time.sleep(0.01)
    encoder = app.exports.png_encoder

    def racing_encoder(pixels):
        encode = encoder(pixels)

        def write(stream):
            (tmp_path / "rgb_reference_0000.png").write_bytes(b"theirs")
            encode(stream)

        return write

    monkeypatch.setattr(app.exports, "png_encoder", racing_encoder)
    assert session.export_png() == tmp_path / "rgb_reference_0000-2.png"
    assert (tmp_path / "rgb_reference_0000.png").read_bytes() == b"theirs"
    assert (tmp_path / "rgb_reference_0000-2.png").read_bytes().startswith(PNG_MAGIC)
    session.close()


def test_the_line_naming_a_written_file_is_one_line_in_any_encoding(tmp_path, run_main):
    # A name with a newline and an escape sequence reached the terminal raw (two lines, a colour
    # change); a name the output's encoding cannot take failed that line with a traceback, exit 1,
    # after the file was written.
    odd = "a\nb\x1b[31m\u00e9.png"
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    command = ("render", "--scene", "rgb", "--size", "8", "--backend", "cpu", "--out", odd)
    result = run_main(*command, cwd=tmp_path, env=env)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == "wrote a\\nb\\x1b[31m\\xe9.png (rgb, 8x8, frame 0, cpu reference)\n"
    assert (tmp_path / odd).read_bytes().startswith(PNG_MAGIC)
