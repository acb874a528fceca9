"""The room the limit on processes (``ulimit -u``) leaves: render/core/process_room.py."""

import os
import resource
from pathlib import Path

import pytest

from render.core import process_room
from render.core.process_room import INITIAL_PID_NAMESPACE, RESERVE, has_room, system_tasks, user_tasks


def _status(uid: int, threads: int) -> str:
    return f"Name:\tx\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\nThreads:\t{threads}\n"


@pytest.fixture
def proc(tmp_path):
    """A /proc of processes 1-4 and this one (self, 77): user 1000's 77 with 2 threads and 3 with 5,
    root's 1 and 4; entries that are not processes, or whose status cannot be read, are skipped."""
    root = tmp_path / "proc"
    for pid, uid, threads in ((1, 0, 1), (3, 1000, 5), (4, 0, 9), (77, 1000, 2)):
        (root / str(pid)).mkdir(parents=True)
        (root / str(pid) / "status").write_text(_status(uid, threads))
    (root / "77" / "ns").mkdir()
    (root / "77" / "ns" / "pid").symlink_to(INITIAL_PID_NAMESPACE)
    (root / "self").symlink_to(root / "77")
    (root / "2").mkdir()  # ended between the listing and the read
    (root / "5").mkdir()
    (root / "5" / "status").write_text("Name:\tbroken\nUid:\tnot a number\n")
    (root / "sys").mkdir()
    (root / "loadavg").write_text("0.10 0.20 0.30 2/345 678\n")
    return root


def test_the_users_threads_are_counted(proc):
    assert user_tasks(1000, str(proc)) == 7  # threads, not processes, of that user alone
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


def _room(monkeypatch, limit, system, user, threads):
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (limit, resource.RLIM_INFINITY))
    for name, count in (("system_tasks", system), ("user_tasks", user)):

        def counted(*_args, count=count):
            if isinstance(count, Exception):
                raise count
            return count

        monkeypatch.setattr(process_room, name, counted)
    return has_room(threads)


class Unasked(AssertionError):
    """A count that must not be taken: the system's alone decides."""


@pytest.mark.parametrize(
    ("limit", "system", "user", "threads", "room"),
    [
        (resource.RLIM_INFINITY, Unasked(), Unasked(), 64, True),  # no limit, nothing counted
        (1000, 500, Unasked(), 16, True),  # the system's count alone leaves room
        (100, 500, 100 - 16 - RESERVE, 16, True),  # the user's count leaves just enough
        (100, 500, 100 - 16 - RESERVE + 1, 16, False),
        (10, 5000, 30, 1, False),  # already over the limit (as root, whom it does not bind)
        (1000, OSError("no loadavg"), 15, 16, True),  # the user's count decides
        (1000, ValueError("odd loadavg"), 15, 16, True),
        (1000, OSError("no /proc"), OSError("no /proc"), 1, False),  # nothing counted: no room
    ],
)
def test_has_room(monkeypatch, limit, system, user, threads, room):
    assert _room(monkeypatch, limit, system, user, threads) is room


def test_the_counts_include_this_process():
    threads = int(Path("/proc/self/status").read_text().split("Threads:")[1].split()[0])
    # Each against this process alone: other processes may start or end between the two counts.
    assert system_tasks() >= threads >= 1
    try:
        assert user_tasks(os.getuid()) >= threads
    except OSError as error:  # where /proc cannot count the user's, it says so
        assert "PID namespace" in str(error)
