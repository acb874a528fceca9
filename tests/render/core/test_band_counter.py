"""The band counter of ``render.core.progress``: every CPU reference (circles in one thread and in
worker processes, both sphere views) counts its frame's bands on the counter of its block, from none
up to all of them, starting again with each frame; readers in other threads see it go up."""

import threading
import time

import pytest

from render.circles.reference import PARALLEL_MIN_CIRCLES, clear_image, render_reference
from render.core import progress
from render.spheres.reference import trace_reference
from render.spheres.shading import ShadeSettings, shade_reference
from scenes.builtin import build_scene
from scenes.spheres import random_spheres


def _figures(counter):
    bands = counter.bands
    return bands.done, bands.total, bands.fraction


def _circles(name, size, workers):
    scene = build_scene(name, 0)
    return lambda: render_reference(scene, clear_image(scene, size, size), workers)


FRAMES = {
    "circles in one thread": (_circles("rand10k", 256, 1), progress.SERIAL_BANDS),
    "circles in 2 workers": (_circles("rand100k", 1024, 2), 8),  # 4 bands per worker; about a second
    "spheres classic": (lambda: trace_reference(random_spheres(300, 1), 128), progress.SERIAL_BANDS),
    "spheres shaded": (lambda: shade_reference(random_spheres(300, 1), 64, ShadeSettings()), progress.SERIAL_BANDS),
}


@pytest.mark.parametrize("name", FRAMES)
def test_a_frame_counts_all_its_bands_and_the_next_starts_from_none(name):
    frame, total = FRAMES[name]
    counter = progress.BandCounter()
    at_first_report = []

    def listener(fraction):
        if not at_first_report:
            at_first_report.append(counter.bands)

    with progress.counting(counter):
        frame()
        assert _figures(counter) == (total, total, 1.0)
        with progress.reporting(listener):
            frame()
    # The second frame started from none done, and ended with all of them.
    assert at_first_report[0].done == 0 and at_first_report[0].total == total
    assert _figures(counter) == (total, total, 1.0)
    frame()  # outside the block: the counter is left as it was
    assert progress.counter() is None and counter.bands.done == total


def test_the_parallel_frame_is_for_many_circles():
    assert build_scene("rand100k", 0).count >= PARALLEL_MIN_CIRCLES


@pytest.mark.parametrize("workers", [1, 2])
def test_another_thread_sees_the_bands_go_up_one_by_one(workers):
    scene = build_scene("rand100k" if workers > 1 else "biglittle", 0)
    size = 1024  # a second or more, so that bands finish between two looks
    counter = progress.BandCounter()
    seen: list[progress.Bands] = []

    def render():
        with progress.counting(counter):
            render_reference(scene, clear_image(scene, size, size), workers)

    worker = threading.Thread(target=render)
    worker.start()
    while worker.is_alive():
        seen.append(counter.bands)
        time.sleep(0.01)
    seen.append(counter.bands)
    done = [bands.done for bands in seen]
    fractions = [bands.fraction for bands in seen]
    assert done == sorted(done) and fractions == sorted(fractions)
    assert done[-1] == seen[-1].total > 1 and fractions[-1] == 1.0
    assert any(0 < bands.done < bands.total for bands in seen), "no band was seen finished before the last"


def test_the_counter_never_goes_back_nor_past_its_total():
    counter = progress.BandCounter()
    assert _figures(counter) == (0, 0, 0.0)
    counter.start(4)
    counter.reach(2, 0.5)
    counter.reach(1, 0.25)  # a late report of less work
    assert _figures(counter) == (2, 4, 0.5)
    counter.reach(9, 3.0)
    assert _figures(counter) == (4, 4, 1.0)
    counter.start(3)
    assert _figures(counter) == (0, 3, 0.0)


def test_the_rate_is_that_of_the_last_second_of_work():
    counter = progress.BandCounter()
    counter.start(8, at_once=2)
    time.sleep(0.3)
    counter.reach(0, 0.0)  # nothing done yet (workers starting): no part of the rate
    assert counter.bands.rate == 0 and counter.bands.at_once == 2
    time.sleep(0.2)
    counter.reach(1, 0.1)
    assert counter.bands.rate == pytest.approx(0.5, rel=0.3)  # 0.1 in 0.2 s, not in 0.5 s
    time.sleep(progress.RATE_SECONDS)
    counter.reach(1, 0.1)  # a second without progress: the rate falls to it
    counter.reach(2, 0.15)
    assert counter.bands.rate < 0.1
