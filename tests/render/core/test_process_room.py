"""The room the limit on processes (``ulimit -u``) leaves, and variables read as C libraries read
them: render/core/process_room.py."""

import os
import resource
import sys
from pathlib import Path

import pytest

from render.core import process_room
from render.core.process_room import INITIAL_PID_NAMESPACE, RESERVE, c_int, shortage, system_tasks, user_tasks


@pytest.mark.parametrize(
    ("text", "base", "value"),
    [
        ("4", 10, 4),
        (" \t+4 threads", 10, 4),
        ("-3", 10, -3),
        ("", 10, None),
        ("many", 10, None),
        ("\x1c1", 10, None),  # not C's white space
        ("\u00a01", 10, None),
        ("\u0661", 10, None),  # a digit, but not an ASCII one
        ("0" * 5000 + "4", 10, 4),
        ("9" * 5000, 10, -1),  # long's most, whose low 32 bits are -1
        ("-" + "9" * 70, 10, 0),  # long's least: low 32 bits 0
        ("4294967296", 10, 0),
        ("2147483648", 10, -(2**31)),
        ("0x10", 0, 16),
        ("0X1f", 0, 31),
        ("0x", 0, 0),  # the 0, then no hexadecimal digit
        ("010", 0, 8),
        ("08", 0, 0),
        ("-0", 0, 0),
        ("12", 0, 12),
    ],
)
def test_c_int_reads_as_strtol_then_int(text, base, value):
    assert c_int(text, base) == value


def _status(real: int, effective: int, threads: int) -> str:
    return f"Name:\tx\nUid:\t{real}\t{effective}\t{effective}\t{effective}\nThreads:\t{threads}\n"


@pytest.fixture
def proc(tmp_path):
    """A /proc of processes 1-4 and this one (self, 77): real user 1000's 77 with 2 threads and 3
    with 5, root's 1 and 4 (4 running as user 1000); entries that are not processes, or whose
    status cannot be read, are skipped."""
    root = tmp_path / "proc"
    for pid, real, effective, threads in ((1, 0, 0, 1), (3, 1000, 0, 5), (4, 0, 1000, 9), (77, 1000, 1000, 2)):
        (root / str(pid)).mkdir(parents=True)
        (root / str(pid) / "status").write_text(_status(real, effective, threads))
    (root / "77" / "ns").mkdir()
    (root / "77" / "ns" / "pid").symlink_to(INITIAL_PID_NAMESPACE)
    (root / "self").symlink_to(root / "77")
    (root / "2").mkdir()  # ended between the listing and the read
    (root / "5").mkdir()
    (root / "5" / "status").write_text("Name:\tbroken\nUid:\tnot a number\n")
    (root / "sys").mkdir()
    (root / "loadavg").write_text("0.10 0.20 0.30 2/345 678\n")
    return root


def test_the_real_users_threads_are_counted(proc):
    assert user_tasks(1000, str(proc)) == 7  # threads, not processes, by the real user ID alone
    assert user_tasks(0, str(proc)) == 10
    assert user_tasks(5, str(proc)) == 0


def test_a_proc_that_would_count_short_is_no_count(proc, tmp_path):
    (proc / "77" / "ns" / "pid").unlink()
    (proc / "77" / "ns" / "pid").symlink_to("pid:[4026532178]")  # a PID namespace of its own
    with pytest.raises(OSError, match="PID namespace"):
        user_tasks(1000, str(proc))
    (tmp_path / "empty").mkdir()  # /proc not mounted
    with pytest.raises(OSError, match="does not show this process"):
        user_tasks(1000, str(tmp_path / "empty"))


def test_the_systems_count(proc):
    assert system_tasks(str(proc / "loadavg")) == 345
    (proc / "loadavg").write_text("0.10 0.20\n")
    with pytest.raises(ValueError):
        system_tasks(str(proc / "loadavg"))


class Unasked(AssertionError):
    """A count that must not be taken: the limit, root or the system's count decides first."""


def _shortage(monkeypatch, limit, system, user, threads, root=False):
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (limit, resource.RLIM_INFINITY))
    monkeypatch.setattr(process_room, "_root", lambda: root)
    for name, count in (("system_tasks", system), ("user_tasks", user)):

        def counted(*_args, count=count):
            if isinstance(count, Exception):
                raise count
            return count

        monkeypatch.setattr(process_room, name, counted)
    return shortage(threads)


@pytest.mark.parametrize(
    ("limit", "system", "user", "threads", "reason"),
    [
        (resource.RLIM_INFINITY, Unasked(), Unasked(), 64, None),  # no limit, nothing counted
        (1000, 500, Unasked(), 16, None),  # the system's count alone leaves room
        (100, 500, 100 - 16 - RESERVE, 16, None),  # the user's count leaves just enough
        (
            100,
            500,
            100 - 16 - RESERVE + 1,
            16,
            f"the limit on processes (ulimit -u 100) leaves fewer than {16 + RESERVE} free: this user has "
            f"{100 - 16 - RESERVE + 1} processes and threads",
        ),
        (1000, OSError("no loadavg"), 15, 16, None),  # the user's count decides
        (1000, ValueError("odd loadavg"), 15, 16, None),
        (
            1000,
            OSError("no loadavg"),
            OSError("/proc does not show this process"),
            1,
            "this user's processes and threads cannot be counted under the limit on processes (ulimit -u 1000): "
            "/proc does not show this process",
        ),
    ],
)
def test_shortage(monkeypatch, limit, system, user, threads, reason):
    assert _shortage(monkeypatch, limit, system, user, threads) == reason


def test_root_is_not_bound_by_the_limit(monkeypatch):
    assert _shortage(monkeypatch, 10, Unasked(), Unasked(), 64, root=True) is None


def test_root_is_root_of_the_initial_user_namespace_alone(monkeypatch, tmp_path):
    (tmp_path / "self").mkdir()
    uid_map = tmp_path / "self" / "uid_map"
    monkeypatch.setattr(os, "getuid", lambda: 0)
    uid_map.write_text("         0          0 4294967295\n")
    assert process_room._root(str(tmp_path))
    uid_map.write_text("         0       1000          1\n")  # root of a user namespace of its own
    assert not process_room._root(str(tmp_path))
    monkeypatch.setattr(os, "getuid", lambda: 1000)
    uid_map.write_text("         0          0 4294967295\n")
    assert not process_room._root(str(tmp_path))


def test_the_counts_include_this_process():
    threads = int(Path("/proc/self/status").read_text().split("Threads:")[1].split()[0])
    # Each against this process alone: other processes may start or end between the two counts.
    assert system_tasks() >= threads >= 1
    try:
        assert user_tasks(os.getuid()) >= threads
    except OSError as error:  # where /proc cannot count the user's, it says so
        assert "PID namespace" in str(error)


def test_other_systems_are_left_as_they_are(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert _shortage(monkeypatch, 10, Unasked(), Unasked(), 64) is None
