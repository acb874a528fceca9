"""The CPU estimates behind the app's slow-change question: each kind's ``cpu_seconds`` grows with
the work it foretells and spends a fraction of a second; the sample they time stays within its
budget whatever the scene. (How close an estimate comes to the frame is measured, not timed in a
test, whose machine may be loaded: ``docs/tools/cpu_estimates.py``, docs/performance.md.)"""

import time

import numpy as np
import pytest

from render.core import sampling
from render.core.kind import Look
from render.core.renderer import render_frame
from render.kinds import KINDS
from render.spheres.shading import ShadeSettings

CASES = {
    "rand10k, one thread": ("circles", "rand10k", None, 512, Look()),
    "rand100k, worker processes": ("circles", "rand100k", None, 512, Look()),
    "biglittle, big circles": ("circles", "biglittle", None, 512, Look()),
    "spheres classic": ("spheres", "random", 3000, 1024, Look("classic")),
    "spheres shaded": ("spheres", "random", 200, 512, Look("shaded", ShadeSettings())),
    "spheres shaded, sampled smaller": ("spheres", "random", 100, 1024, Look("shaded", ShadeSettings())),
}


@pytest.mark.parametrize("case", CASES)
def test_the_estimate_grows_with_the_pixels_and_is_quick(case):
    kind_name, scene_name, count, size, look = CASES[case]
    kind = KINDS[kind_name]
    scene = kind.built_in_scene(scene_name, None, count)
    started = time.perf_counter()
    estimate = kind.cpu_seconds(scene, size, look)
    spent = time.perf_counter() - started
    assert np.isfinite(estimate) and estimate > 0
    assert spent < 4 * sampling.SAMPLE_SECONDS, spent
    # Four times the pixels: far more work, whatever the machine's load does meanwhile.
    assert kind.cpu_seconds(scene, 2 * size, look) > 1.5 * estimate


def test_the_estimate_follows_the_frame_it_foretells():
    """One frame that takes a good second here, estimated within 4x (a loose bound: the machine's
    load may change between the sample and the frame; docs/performance.md has the measured ratios)."""
    kind = KINDS["circles"]
    scene = kind.built_in_scene("rand100k", None, None)
    estimate = kind.cpu_seconds(scene, 512, Look())
    renderer = kind.make_renderer(None, Look())
    renderer.load(scene, 512, 512)
    started = time.perf_counter()
    render_frame(renderer, 0)
    assert 0.25 < (time.perf_counter() - started) / estimate < 4


def test_the_sample_stops_at_its_budget_and_covers_a_small_scene_whole():
    seen: list[np.ndarray] = []

    def slow(indices):
        seen.append(indices)
        time.sleep(0.001 * len(indices))
        return 0.001 * len(indices)

    started = time.perf_counter()
    per_item = sampling.seconds_per_item(10**6, slow, budget=0.1)
    assert time.perf_counter() - started < 0.2 and per_item == pytest.approx(0.001)
    assert 8 <= sum(len(indices) for indices in seen) <= 200
    seen.clear()
    sampling.seconds_per_item(5, lambda indices: seen.append(indices) or 0.0)
    assert sorted(np.concatenate(seen).tolist()) == [0, 1, 2, 3, 4]  # each once
    assert sampling.seconds_per_item(0, slow) == 0.0


def test_the_workers_speed_up_between_one_core_and_all_of_them(monkeypatch):
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert sampling.parallel_speedup(2) == pytest.approx(2)
    monkeypatch.setattr(os, "getloadavg", lambda: (5.0, 5.0, 5.0))  # busy: about one core for both
    assert sampling.parallel_speedup(2) == pytest.approx(2**0.5)
