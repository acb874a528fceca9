"""What ``record`` does with a folder that already holds things: a yes at the terminal covers the
frames and the GIF (one question), anything but a file at a frame's name and a folder it may not
write into are refused before any work; a static scene is rendered once for all its frames; and a
frame range of more digits than a number holds is a usage error."""

import io
import os
import sys

import pytest

import app.outputs
from app.cli import main
from render.circles.reference import ReferenceRenderer

CPU = ("--backend", "cpu")


class Terminal(io.StringIO):
    def isatty(self):
        return True


def record(out, *extra, frames="0:1", scene="hypnosis"):
    return main(["record", "--scene", scene, "--size", "16", *CPU, "--frames", frames, "--out", str(out), *extra])


def test_one_yes_at_the_terminal_replaces_the_frames_and_the_gif(tmp_path, monkeypatch):
    out = tmp_path / "take"
    out.mkdir()
    (out / "frame_00000.png").write_bytes(b"old frame")
    (out / "take.gif").write_bytes(b"old gif")
    (out / "notes.txt").write_text("mine")
    answers, asked = Terminal("y\n"), Terminal()
    monkeypatch.setattr(sys, "stdin", answers)
    monkeypatch.setattr(sys, "stderr", asked)
    assert record(out) == 0
    assert asked.getvalue().count("[y/N]") == 1, asked.getvalue()
    assert (out / "frame_00000.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "take.gif").read_bytes()[:3] == b"GIF" and (out / "notes.txt").read_text() == "mine"


def test_a_no_at_the_terminal_touches_nothing(tmp_path, monkeypatch):
    out = tmp_path / "take"
    out.mkdir()
    (out / "frame_00000.png").write_bytes(b"old frame")
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert record(out) == 1
    assert [p.name for p in out.iterdir()] == ["frame_00000.png"]
    assert (out / "frame_00000.png").read_bytes() == b"old frame"


@pytest.mark.parametrize("thing", ["folder", "fifo"])
def test_anything_but_a_file_at_a_frame_name_is_refused_before_the_work(tmp_path, capsys, thing):
    out = tmp_path / "take"
    out.mkdir()
    blocked = out / "frame_00001.png"
    blocked.mkdir() if thing == "folder" else os.mkfifo(blocked)
    assert record(out, "--overwrite") == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert error == [f"error: cannot write {blocked}: something other than a file is there"]
    assert [p.name for p in out.iterdir()] == ["frame_00001.png"]  # no frame 0 was written first


def test_a_folder_it_may_not_write_into_is_refused_before_the_work(tmp_path, capsys, monkeypatch):
    out = tmp_path / "take"
    out.mkdir()
    # Root may write anywhere, so the permission is taken away where the command asks for it.
    monkeypatch.setattr(app.outputs.os, "access", lambda path, mode: str(path) != str(out))
    assert record(out) == 1
    assert capsys.readouterr().err.strip().splitlines() == [f"error: cannot write into {out}: permission denied"]
    assert list(out.iterdir()) == []


def test_a_static_scene_is_rendered_once_for_all_its_frames(tmp_path, monkeypatch):
    renders = []
    real = ReferenceRenderer.render
    monkeypatch.setattr(ReferenceRenderer, "render", lambda self: renders.append(1) or real(self))
    out = tmp_path / "take"
    assert record(out, "--no-gif", frames="0:9", scene="rgb") == 0
    assert len(renders) == 1 and len(list(out.iterdir())) == 10
    pictures = {path.read_bytes() for path in out.iterdir()}
    assert len(pictures) == 1


def test_a_frame_number_of_thousands_of_digits_is_a_usage_error(tmp_path, capsys):
    assert record(tmp_path / "take", frames="9" * 5000 + ":1") == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("error: --frames 99999") and "0..10000" in error[0]
    assert not (tmp_path / "take").exists()
