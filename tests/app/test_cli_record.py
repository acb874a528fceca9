"""``rasterlab record``: frames A..B into a folder as PNGs equal to ``render --frame k`` and an
animated GIF of them; bad ranges and unusable folders are one line and exit 2, a folder holding
files is refused (exit 1) unless --overwrite, and a stop or a failure part-way keeps the complete
frames written before it and nothing else."""

import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from PIL import Image

from app.cli import main
from app.recording import GIF_FPS
from render.core import limits

CPU = ("--backend", "cpu")


def lines_of(capsys):
    captured = capsys.readouterr()
    return captured.out.splitlines(), captured.err.splitlines()


def rendered(tmp_path, args, frame):
    """``render --frame frame`` of the same scene, as uint8 (H, W, 3)."""
    out = tmp_path / f"render_{frame}.png"
    assert main(["render", *args, "--frame", str(frame), "--out", str(out)]) == 0
    return np.asarray(Image.open(out))


@pytest.mark.parametrize(
    "args, first, last",
    [
        (["--scene", "hypnosis", "--size", "96"], 3, 6),
        (["--scene", "snowsingle", "--size", "64"], 0, 2),
        (["--renderer", "spheres", "--scene", "classic", "--view", "shaded", "--size", "64"], 0, 3),
        (["--renderer", "spheres", "--scene", "random", "--count", "40", "--view", "shaded", "--azimuth", "-50",
          "--roughness", "0.8", "--size", "64"], 2, 4),
    ],
)  # fmt: skip
def test_the_frames_are_the_renders_of_each_frame_and_the_gif_holds_them(
    gif_frames, tmp_path, capsys, args, first, last
):
    out = tmp_path / "take"
    assert main(["record", *args, *CPU, "--frames", f"{first}:{last}", "--out", str(out)]) == 0
    stdout, _ = lines_of(capsys)
    count = last - first + 1
    assert stdout[0].startswith(f"wrote {count} frames to {out} (frame_{first:05d}.png .. frame_{last:05d}.png; ")
    assert stdout[1] == f"wrote {out / 'take.gif'} ({count} frames, {GIF_FPS} frames/s, looping)"
    names = [f"frame_{k:05d}.png" for k in range(first, last + 1)]
    assert sorted(p.name for p in out.iterdir()) == sorted([*names, "take.gif"])
    pngs = [np.asarray(Image.open(out / name)) for name in names]
    for k, png in zip(range(first, last + 1), pngs, strict=True):
        assert np.array_equal(png, rendered(tmp_path, [*args, *CPU], k)), k
    frames, durations = gif_frames(out / "take.gif")
    if all(np.array_equal(png, pngs[0]) for png in pngs):  # a static scene: one frame, shown for all
        assert len(frames) == 1 and durations == [count * 1000 // GIF_FPS]
        pngs = pngs[:1]
    else:
        assert len(frames) == count and durations == [1000 // GIF_FPS] * count
    for shown, png in zip(frames, pngs, strict=True):
        difference = np.abs(shown.astype(int) - png.astype(int))
        assert difference.mean() < 2 and np.percentile(difference, 99) <= 16


def test_a_static_scene_is_said_to_be_static(tmp_path, capsys):
    assert (
        main(["record", "--scene", "rgb", "--size", "16", *CPU, "--frames", "0:1", "--out", str(tmp_path / "r")]) == 0
    )
    _, stderr = lines_of(capsys)
    assert "note: rgb is static: its 2 frames are all the same picture" in stderr


@pytest.mark.parametrize(
    "frames, message",
    [
        ("5:2", "--frames 5:2: the last frame (2) comes before the first (5)"),
        ("a:b", "--frames a:b: A and B must be whole numbers, for example 0:59"),
        ("-1:3", "--frames -1:3: A and B must be whole numbers, for example 0:59"),
        ("0:10001", "--frames 0:10001: frame of an animated scene must be an integer in 0..10000, got 10001"),
        ("3", "--frames 3: give the first and the last frame as A:B, for example 0:59"),
        ("1:2:3", "--frames 1:2:3: A and B must be whole numbers, for example 0:59"),
        (" 1:2", "--frames  1:2: A and B must be whole numbers, for example 0:59"),
        ("１:２", "--frames １:２: A and B must be whole numbers, for example 0:59"),
        ("", "--frames : give the first and the last frame as A:B, for example 0:59"),
    ],
)
def test_a_bad_frame_range_is_one_line_and_exit_2(tmp_path, capsys, frames, message):
    out = tmp_path / "take"
    assert main(["record", "--scene", "hypnosis", "--size", "8", *CPU, f"--frames={frames}", "--out", str(out)]) == 2
    stdout, stderr = lines_of(capsys)
    assert stderr == [f"error: {message}"] and stdout == []
    assert not out.exists()


def test_the_widest_range_is_the_animated_frame_limit(tmp_path):
    high = limits.ANIMATED_FRAME.high
    out = tmp_path / "end"
    assert main(["record", "--scene", "bouncingballs", "--size", "4", *CPU, "--frames", f"{high}:{high}",
                 "--out", str(out), "--no-gif"]) == 0  # fmt: skip
    assert [p.name for p in out.iterdir()] == [f"frame_{high:05d}.png"]


def test_a_negative_first_frame_as_its_own_word_does_not_parse(run_main, tmp_path):
    result = run_main("record", "--scene", "rgb", "--frames", "-1:3", "--out", tmp_path / "x")
    assert result.returncode == 2 and "expected one argument" in result.stderr


def _user_files(folder):
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "frame_00000.png").write_bytes(b"an older take")


def test_a_folder_holding_files_is_refused_unless_overwrite(tmp_path, capsys):
    out = tmp_path / "take"
    _user_files(out)
    args = ["record", "--scene", "hypnosis", "--size", "8", *CPU, "--frames", "0:1", "--out", str(out)]
    assert main(args) == 1
    assert lines_of(capsys)[1][-1] == f"error: {out} is not empty; pass --overwrite to write into it anyway"
    assert (out / "frame_00000.png").read_bytes() == b"an older take"
    assert main([*args, "--overwrite"]) == 0
    assert (out / "notes.txt").read_text() == "mine"  # only the names written are replaced
    assert Image.open(out / "frame_00000.png").size == (8, 8)
    assert sorted(p.name for p in out.iterdir()) == ["frame_00000.png", "frame_00001.png", "notes.txt", "take.gif"]


def test_an_empty_folder_is_used_as_it_is(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    assert main(["record", "--scene", "rgb", "--size", "8", *CPU, "--frames", "4:5", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["empty.gif", "frame_00004.png", "frame_00005.png"]


@pytest.mark.parametrize(
    "out, message",
    [
        ("{tmp}/afile", "cannot write into {tmp}/afile: it is not a folder"),
        ("/dev/null", "cannot write into /dev/null: it is not a folder"),
        ("-", "cannot write into -: it is a stream, and the outputs need a folder"),
        ("/dev/stdout", "cannot write into /dev/stdout: it is a stream, and the outputs need a folder"),
        ("{tmp}/missing/take", "cannot make {tmp}/missing/take: its folder {tmp}/missing does not exist"),
        ("{tmp}/afile/take", "cannot write into {tmp}/afile/take: Not a directory"),
        ("{tmp}/dangling", "cannot write into {tmp}/dangling: it is a symbolic link to a missing folder"),
        ("", "the output folder path is empty"),
    ],
)
def test_an_output_that_is_no_folder_is_one_line_and_exit_2(tmp_path, capsys, out, message):
    (tmp_path / "afile").write_text("the user's file")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    out, message = out.format(tmp=tmp_path), message.format(tmp=tmp_path)
    assert main(["record", "--scene", "rgb", "--size", "8", *CPU, "--frames", "0:1", "--out", out]) == 2
    assert lines_of(capsys)[1][-1] == f"error: {message}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "dangling"]
    assert (tmp_path / "afile").read_text() == "the user's file"


def test_gif_options(tmp_path, capsys):
    base = ["record", "--scene", "hypnosis", "--size", "8", *CPU, "--frames", "0:2"]
    assert main([*base, "--out", str(tmp_path / "a"), "--no-gif"]) == 0
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == [f"frame_0000{k}.png" for k in range(3)]
    assert main([*base, "--out", str(tmp_path / "b"), "--gif", str(tmp_path / "loop.gif")]) == 0
    assert Image.open(tmp_path / "loop.gif").n_frames == 3
    lines_of(capsys)
    # An existing GIF is refused before any frame is rendered, and the folder made for them goes again.
    assert main([*base, "--out", str(tmp_path / "c"), "--gif", str(tmp_path / "loop.gif")]) == 1
    assert lines_of(capsys)[1][-1] == f"error: {tmp_path / 'loop.gif'} exists; pass --overwrite to replace it"
    assert not (tmp_path / "c").exists()
    for bad in (["--gif", str(tmp_path / "loop.png")], ["--gif", str(tmp_path / "x.gif"), "--no-gif"]):
        with pytest.raises(SystemExit) as stop:  # does not parse: the usage, then the error
            main([*base, "--out", str(tmp_path / "d"), *bad])
        assert stop.value.code == 2
    assert not (tmp_path / "d").exists()


def test_a_write_failing_part_way_keeps_the_frames_before_it(tmp_path, capsys, monkeypatch):
    import app.record_command
    from scenes.safe_write import OutputError

    real_write = app.record_command.write_frame

    def fill_the_disk(folder, frame, pixels, how):
        if frame == 2:
            raise OutputError(f"cannot write {folder / 'frame_00002.png'}: No space left on device")
        return real_write(folder, frame, pixels, how)

    monkeypatch.setattr(app.record_command, "write_frame", fill_the_disk)
    out = tmp_path / "take"
    assert main(["record", "--scene", "hypnosis", "--size", "8", *CPU, "--frames", "0:4", "--out", str(out)]) == 1
    stdout, stderr = lines_of(capsys)
    assert stdout == [f"kept 2 frames in {out} (frame_00000.png .. frame_00001.png)"]
    assert stderr[-1] == f"error: cannot write {out / 'frame_00002.png'}: No space left on device"
    assert sorted(p.name for p in out.iterdir()) == ["frame_00000.png", "frame_00001.png"]


def test_a_folder_that_cannot_be_made_is_one_line_and_exit_1(capsys):
    # sysfs takes no new folders, whoever asks (the tests may run as root, who may write anywhere else).
    assert main(["record", "--scene", "rgb", "--size", "8", *CPU, "--frames", "0:1", "--out", "/sys/take"]) == 1
    assert lines_of(capsys)[1][-1].startswith("error: cannot make /sys/take: ")


def _limit_file_size():
    import resource

    # A file-size limit makes write() fail part-way with EFBIG, as a full disk fails with ENOSPC.
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def test_a_full_disk_is_one_line_and_leaves_no_partial_file(tmp_path, run_main):
    out = tmp_path / "take"
    result = run_main("record", "--scene", "rand10k", "--size", "64", *CPU, "--frames", "0:2", "--out", out,
                      preexec_fn=_limit_file_size)  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines()[-1] == f"error: cannot write {out / 'frame_00000.png'}: File too large"
    assert list(tmp_path.iterdir()) == []  # the folder made for the frames is removed again


# The real entry point, with the PNG encoder signalling its own process half-way through frame 2's
# file, so the signal lands while that frame's temporary file is open and partly written.
_SIGNAL_MID_WRITE = """
import os, signal, sys
sys.path.insert(0, {root!r})
import PIL.Image

real_save = PIL.Image.Image.save
saved = []

def save(self, stream, format=None, **options):
    if format == "PNG" and len(saved) == 2:
        stream.write(b"\\x89PNG partial")
        stream.flush()
        os.kill(os.getpid(), signal.{name})
    saved.append(1)
    return real_save(self, stream, format, **options)

PIL.Image.Image.save = save
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_part_way_keeps_the_complete_frames_only(tmp_path, repo_root, name):
    out = tmp_path / "take"
    script = _SIGNAL_MID_WRITE.format(root=str(repo_root), name=name)
    command = [sys.executable, "-c", script, "record", "--scene", "hypnosis", "--size", "16", *CPU]
    result = subprocess.run(
        [*command, "--frames", "0:5", "--out", str(out)], capture_output=True, text=True, timeout=60
    )
    number = getattr(signal, name)
    assert result.returncode == 128 + number, result.stderr
    expected = "interrupted" if name == "SIGINT" else f"stopped by {name}"
    assert result.stderr.splitlines() == ["backend: cpu (reference renderer)", expected]
    assert result.stdout.splitlines() == [f"kept 2 frames in {out} (frame_00000.png .. frame_00001.png)"]
    assert sorted(p.name for p in out.iterdir()) == ["frame_00000.png", "frame_00001.png"]
    for path in out.iterdir():
        Image.open(path).verify()  # complete PNG files


def test_ctrl_c_stops_a_slow_recording_at_once(tmp_path, main_command):
    """Ctrl-C at a terminal signals the whole process group: the command and its render workers."""
    out = tmp_path / "take"
    args = ["record", "--scene", "snow", "--size", "512", *CPU, "--frames", "0:50", "--out", str(out)]
    process = subprocess.Popen(
        [*main_command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while not (out / "frame_00000.png").exists():
        assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
        time.sleep(0.01)
    time.sleep(0.3)  # well inside frame 1, which takes seconds on the CPU
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    waited = time.monotonic() - sent
    # Within a second on an idle machine; the bound leaves room for a loaded one, as test_progress's does.
    assert waited < 2, f"{waited:.2f} s from Ctrl-C to the exit"
    # The command's own lines end with "interrupted". After them a worker process still starting
    # when the stop came can print a traceback of its own (a known race of the worker pool,
    # docs/reliability.md section 9); the command's output is what is checked here.
    lines = stderr.splitlines()
    own = lines[: lines.index("interrupted") + 1] if "interrupted" in lines else lines
    assert process.returncode == 130 and own[-1] == "interrupted", stderr
    assert not any("Traceback" in line or "Error" in line for line in own), stderr
    kept = sorted(p.name for p in out.iterdir())
    assert kept[0] == "frame_00000.png" and all(name.endswith(".png") for name in kept)
    count = f"{len(kept)} frame" + ("s" if len(kept) > 1 else "")
    assert stdout.splitlines()[-1].startswith(f"kept {count} in {out}")
    for path in out.iterdir():
        Image.open(path).verify()


def test_a_terminal_sees_a_progress_bar_by_frame(tmp_path, monkeypatch):
    import io

    import app.progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(app.progress, "SHOW_AFTER_SECONDS", 0.001)
    monkeypatch.setattr(app.progress, "REDRAW_SECONDS", 0)
    monkeypatch.setattr(sys, "stderr", terminal)
    out = tmp_path / "take"
    assert main(["record", "--scene", "hypnosis", "--size", "64", *CPU, "--frames", "0:2", "--out", str(out)]) == 0
    shown = terminal.getvalue()
    assert re.search(r"recording hypnosis: [0-2]/4 \|.*, frame [0-2]", shown), shown
    assert "recording hypnosis: 3/4 " in shown and "GIF" in shown, shown


def test_record_is_in_the_help(run_main):
    result = run_main("record", "--help")
    assert result.returncode == 0
    for text in ("--frames A:B", "--out DIR", "--gif", "--no-gif", "--overwrite", "--view", "--azimuth"):
        assert text in result.stdout, text
    assert "record" in run_main("--help").stdout


@pytest.mark.gpu
@pytest.mark.parametrize(
    "args",
    [
        ["--scene", "bouncingballs", "--size", "128"],
        ["--renderer", "spheres", "--scene", "classic", "--view", "shaded", "--size", "64"],
    ],
)
def test_the_gpu_records_the_cpu_reference_frames(tmp_path, args):
    for backend in ("cpu", "cuda"):
        assert main(["record", *args, "--backend", backend, "--frames", "2:5", "--out", str(tmp_path / backend)]) == 0
    for k in range(2, 6):
        name = f"frame_{k:05d}.png"
        assert np.array_equal(
            np.asarray(Image.open(tmp_path / "cpu" / name)), np.asarray(Image.open(tmp_path / "cuda" / name))
        )
    assert os.path.exists(tmp_path / "cuda" / "cuda.gif")
