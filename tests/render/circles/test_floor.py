"""bench's floor: its parts from the pairs, the bytes and the protocol, how they add up, and, on the
GPU, the covered pairs it stands on (the count kernel against the CPU's depth) and the device's
measured limits."""

import math

import numpy as np
import pytest

from render.circles.floor import (
    CIRCLE_BYTES,
    PAIR_INSTRUCTIONS,
    PIXEL_BYTES,
    DeviceLimits,
    Floor,
    issue_rate,
    measure_device_limits,
    scene_floor,
)
from render.circles.overlays import depth_counts
from scenes.builtin import build_scene

LIMITS = DeviceLimits(issue_per_s=2e13, bytes_per_s=1e12, protocol_ms={1: 0.02, 2: 0.03})


def test_the_floor_adds_the_protocol_to_the_larger_of_compute_and_memory():
    assert Floor(compute_ms=0.3, memory_ms=0.1, protocol_ms=0.02).total_ms == pytest.approx(0.32)
    assert Floor(compute_ms=0.1, memory_ms=0.3, protocol_ms=0.02).total_ms == pytest.approx(0.32)


@pytest.mark.parametrize("shading", ["flat", "snowflake"])
def test_compute_counts_each_covered_pair_at_the_issue_rate(shading):
    floor = scene_floor(2 * 10**9, shading, 0, 0, 0, False, LIMITS)
    assert floor.compute_ms == pytest.approx(2e9 * PAIR_INSTRUCTIONS[shading] / 2e13 * 1e3)
    assert floor.memory_ms == 0 and floor.protocol_ms == 0.02


def test_memory_reads_the_circles_and_writes_the_image_once():
    floor = scene_floor(0, "flat", 1_000_000, 1024, 512, False, LIMITS)
    assert (CIRCLE_BYTES, PIXEL_BYTES) == (28, 16)
    assert floor.memory_ms == pytest.approx((28e6 + 1024 * 512 * 16) / 1e12 * 1e3)
    assert floor.compute_ms == 0


def test_a_moving_scene_pays_for_its_advance_launch():
    assert scene_floor(0, "snowflake", 10, 8, 8, True, LIMITS).protocol_ms == 0.03
    assert scene_floor(0, "snowflake", 10, 8, 8, False, LIMITS).protocol_ms == 0.02


def test_the_issue_rate_is_four_warp_instructions_per_sm_and_clock():
    # An H100 SXM: 132 SMs at 1,980 MHz.
    assert issue_rate({"multiProcessorCount": 132, "clockRate": 1_980_000}) == pytest.approx(132 * 128 * 1.98e9)


@pytest.mark.parametrize(
    "total, floor, target, expected",
    [
        (0.30, 0.20, 0.35, "met"),
        (0.40, 0.20, 0.35, "over target"),
        (0.70, 0.20, 0.75, "over 3x floor"),
        (0.57, 0.465, 0.45, "target under floor"),  # biglittle, as predicted for the H100
        (0.90, 0.20, 0.10, "target under floor, over 3x floor"),
        (0.30, 0.20, None, "-"),  # no target: another scene, size or seed
    ],
)
def test_a_scored_scene_meets_its_target_and_three_times_its_floor(total, floor, target, expected):
    from render.circles.bench import BenchRow, goal

    row = BenchRow("s", "auto", "auto", total, {}, Floor(floor, 0.0, 0.0), 0, 0.0)
    assert goal(row, target) == expected


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["rgb", "rand10k", "snowsingle", "biglittle", "pattern"])
def test_the_covered_pairs_are_the_cpu_depth_summed(name):
    from render.circles.renderer import CudaRenderer
    from render.circles.variants import VARIANTS

    scene = build_scene(name)
    renderer = CudaRenderer(VARIANTS.parse("per-pixel"))
    renderer.load(scene, 256, 256)
    assert renderer.covered_pairs() == int(depth_counts(scene, 256, 256).sum(dtype=np.int64))


@pytest.mark.gpu
def test_the_device_limits_are_measured():
    limits = measure_device_limits(runs=2)
    assert 1e10 < limits.bytes_per_s < 1e14  # a copy between 10 GB/s and 100 TB/s
    assert 1e11 < limits.issue_per_s < 1e15
    assert set(limits.protocol_ms) == {1, 2}
    assert all(0 < ms < 10 and math.isfinite(ms) for ms in limits.protocol_ms.values())
