"""The host memory left, read from /proc/meminfo, and the CPU reference's workers fitted to it."""

import pytest

from render.circles import reference
from render.circles.band_pool import SHARED_BYTES_PER_CIRCLE
from render.circles.reference import WORKER_BYTES_PER_CIRCLE, worker_count
from render.core import memory_left


def test_available_memory_is_meminfos_estimate(tmp_path, monkeypatch):
    info = tmp_path / "meminfo"
    info.write_text("MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   12000000 kB\n")
    monkeypatch.setattr(memory_left, "MEMINFO", str(info))
    assert memory_left.available_host_bytes() == 12_000_000 * 1024
    info.write_text("MemTotal:       24000000 kB\n")
    assert memory_left.available_host_bytes() is None  # a kernel too old to say
    monkeypatch.setattr(memory_left, "MEMINFO", str(tmp_path / "none"))
    assert memory_left.available_host_bytes() is None


def test_this_machine_says_how_much_is_left():
    left = memory_left.available_host_bytes()
    assert left is None or left > 0


@pytest.mark.parametrize(
    "available, wanted, expected",
    [
        (None, 8, 8),  # the system does not say: as asked
        ((SHARED_BYTES_PER_CIRCLE + 10 * WORKER_BYTES_PER_CIRCLE) * 10**6, 8, 8),  # room for 10
        ((SHARED_BYTES_PER_CIRCLE + 3 * WORKER_BYTES_PER_CIRCLE) * 10**6 + 5, 8, 3),
        ((SHARED_BYTES_PER_CIRCLE + 3 * WORKER_BYTES_PER_CIRCLE) * 10**6 - 1, 8, 2),  # the shared copy counts
        (WORKER_BYTES_PER_CIRCLE * 10**6 // 2, 8, 1),  # not even one: one thread, which needs less
        (SHARED_BYTES_PER_CIRCLE * 10**6 // 2, 8, 1),  # not even the shared copy
    ],
)
def test_the_reference_starts_no_more_workers_than_memory_holds(monkeypatch, available, wanted, expected):
    monkeypatch.setattr(reference.memory_left, "available_host_bytes", lambda: available)
    assert worker_count(10**6, wanted) == expected
    assert reference.worker_bands(_scene_of(10**6), 1024, expected) == (
        [] if expected == 1 else reference.worker_bands(_scene_of(10**6), 1024, expected)
    )


def _scene_of(count):
    from scenes.model import CircleScene, empty_arrays

    return CircleScene("n", **empty_arrays(count))
