"""The room the limit on processes (``ulimit -u``) leaves: render/core/process_room.py."""

import os
import resource
from pathlib import Path

import pytest

from render.core import process_room
from render.core.process_room import RESERVE, has_room


def _room(monkeypatch, limit, system, user, threads):
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (limit, resource.RLIM_INFINITY))
    for name, count in (("system_tasks", system), ("user_tasks", user)):
        if isinstance(count, Exception):

            def fail(*_args, error=count):
                raise error

            monkeypatch.setattr(process_room, name, fail)
        else:
            monkeypatch.setattr(process_room, name, lambda *_args, count=count: count)
    return has_room(threads)


@pytest.mark.parametrize(
    ("limit", "system", "user", "threads", "room"),
    [
        (resource.RLIM_INFINITY, 10**6, 10**6, 64, True),  # no limit
        (1000, 500, 15, 16, True),  # the system's count alone leaves room
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
    assert process_room.system_tasks() >= process_room.user_tasks(os.getuid()) >= threads >= 1
