"""Scene paths that are not regular files: folders, FIFOs and devices are refused without blocking,
and every reason a file cannot be opened is one SceneFileError line with the system's words."""

import contextlib
import errno
import os
import signal
from pathlib import Path

import pytest

from scenes.files import SceneFileError, load_scene, load_sphere_scene, save_scene
from scenes.model import CircleScene, empty_arrays

NOBODY = 65534


class Blocked(Exception):
    """Not an OSError, so that the loader cannot take it for a reason the file cannot be opened."""


@contextlib.contextmanager
def deadline(seconds: int):
    """Fail, rather than hang, when the body blocks for ``seconds``."""

    def expire(*_):
        raise Blocked(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def message_of(path, loader=load_scene) -> str:
    """The one-line message that loading ``path`` gives, within 5 seconds."""
    with deadline(5), pytest.raises(SceneFileError) as caught:
        loader(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message, message
    return message


def not_regular_paths(tmp_path) -> list[Path]:
    folder = tmp_path / "folder.npz"
    folder.mkdir()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    device_link = tmp_path / "null.npz"
    device_link.symlink_to("/dev/null")
    return [folder, fifo, Path("/dev/null"), Path("/dev/zero"), device_link]


@pytest.mark.parametrize("loader", [load_scene, load_sphere_scene])
def test_folders_fifos_and_devices_are_not_regular_files(tmp_path, loader):
    for path in not_regular_paths(tmp_path):
        assert message_of(path, loader) == f"{path}: not a regular file"


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path, monkeypatch):
    # The name is a regular file when checked and a FIFO when opened: the open must not wait for a
    # writer, and what was opened is checked again.
    fifo = tmp_path / "swapped.npz"
    os.mkfifo(fifo)
    regular = os.stat(__file__)
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda name, *a, **k: regular if name == fifo else real_stat(name, *a, **k))
    assert message_of(fifo) == f"{fifo}: not a regular file"


def test_a_missing_file(tmp_path):
    path = tmp_path / "missing.json"
    assert message_of(path) == f"{path}: no such scene file"


def test_a_symbolic_link_loop(tmp_path):
    (tmp_path / "a.npz").symlink_to(tmp_path / "b.npz")
    (tmp_path / "b.npz").symlink_to(tmp_path / "a.npz")
    assert os.strerror(errno.ELOOP) in message_of(tmp_path / "a.npz")


def test_a_name_too_long(tmp_path):
    assert os.strerror(errno.ENAMETOOLONG) in message_of(tmp_path / ("x" * 300 + ".npz"))


def test_a_file_used_as_a_folder(tmp_path):
    scene = save_scene(CircleScene("one", **empty_arrays(0)), tmp_path / "scene.npz")
    assert os.strerror(errno.ENOTDIR) in message_of(scene / "inner.npz")


def test_a_nul_in_the_name(tmp_path):
    assert "null" in message_of(tmp_path / "a\0b.json")


def denied_message(path) -> str:
    """``message_of(path)`` from a process without the right to read ``path``: this one, or under
    root, which may read anything, a forked child that becomes nobody."""
    if os.geteuid() != 0:
        return message_of(path)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(writer, message_of(path).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as pipe:
        message = pipe.read()
    os.waitpid(child, 0)
    return message


def test_permission_denied(tmp_path):
    path = save_scene(CircleScene("one", **empty_arrays(0)), tmp_path / "private.npz")
    path.chmod(0)
    message = denied_message(path)
    assert message.startswith(f"{path}: ") and os.strerror(errno.EACCES) in message, message
