"""Progress of the CPU references (``render.core.progress``): each reference (circles in one process
and in worker processes, both sphere views) tells the block's listener how far its frame has come,
from 0 up to at most 1, and no one else; a listener that raises stops the frame, worker processes
included, within a fraction of a second."""

import time

import numpy as np
import pytest

from render.circles.reference import PARALLEL_MIN_CIRCLES, clear_image, render_reference
from render.core import progress
from render.spheres.reference import trace_reference
from render.spheres.shading import ShadeSettings, shade_reference
from scenes.builtin import build_scene
from scenes.spheres import random_spheres


def _circles(workers):
    scene = build_scene("rand10k", 0)
    return lambda: render_reference(scene, clear_image(scene, 256, 256), workers)


@pytest.mark.parametrize(
    "frame",
    [
        _circles(workers=1),
        lambda: trace_reference(random_spheres(300, 1), 128),
        lambda: shade_reference(random_spheres(300, 1), 64, ShadeSettings()),
    ],
    ids=["circles", "spheres classic", "spheres shaded"],
)
def test_a_reference_reports_its_progress_to_the_listener_of_its_block(frame):
    heard: list[float] = []
    with progress.reporting(heard.append):
        frame()
    assert heard and heard[0] == 0 and heard == sorted(heard) and heard[-1] <= 1
    frame()  # outside the block: no one hears
    assert progress.listener() is None and heard == sorted(heard)


class _Enough(Exception):
    pass


def test_a_listener_that_raises_stops_the_worker_processes_at_once():
    scene = build_scene("rand100k", 0)
    assert scene.count >= PARALLEL_MIN_CIRCLES  # so two workers render it in bands
    image = clear_image(scene, 1024, 1024)  # several seconds of work on two cores
    heard: list[float] = []
    stopped_at = []

    def listener(fraction: float) -> None:
        heard.append(fraction)
        if fraction > 0:  # the bands are under way
            stopped_at.append(time.monotonic())
            raise _Enough

    with pytest.raises(_Enough), progress.reporting(listener):
        render_reference(scene, image, workers=2)
    # Leaving the render waited for the workers to give up their bands.
    assert time.monotonic() - stopped_at[0] < 1
    assert heard == sorted(heard) and 0 < heard[-1] < 1
    assert np.all(image[..., 3] == 1), "a stopped frame leaves the image as it was"
