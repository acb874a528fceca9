"""Every CUDA variant of the circle renderer against the CPU reference (skipped without a CUDA GPU).

Run on the lent GPU: ``python3 -m pytest -m gpu tests``.
"""

import numpy as np
import pytest

from render.circles.reference import ReferenceRenderer
from render.circles.renderer import CudaRenderer
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.compare import compare_images
from render.core.renderer import RendererUnavailable, render_frame
from scenes.builtin import SCENE_NAMES, SCORED_SCENES, build_scene

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("name", SCENE_NAMES)
def test_every_variant_every_scene_256(name, circle_config, reference_frame, gpu_frame):
    result = compare_images(reference_frame(name, 256), gpu_frame(name, circle_config, 256))
    assert result.passed, result


@pytest.mark.parametrize(
    "variant",
    [
        "per-pixel",
        "tile-scan",
        "tile-scan:tile=32,scan=blelloch,test=exact",
        "tile-sort",
        "tile-warp",
        "tile-warp:bins=off",
        "tile-warp:tile=64",
        "tile-warp:walk=cell",
        "tile-warp:tile=64,walk=cell,bins=off",
        "auto",
    ],
)
@pytest.mark.parametrize("name", SCORED_SCENES)
def test_scored_scenes_1024(name, variant, reference_frame, gpu_frame):
    result = compare_images(reference_frame(name, 1024), gpu_frame(name, variant, 1024))
    assert result.passed, result


@pytest.mark.parametrize("name", ["bouncingballs", "hypnosis", "fireworks", "snow"])
def test_animation_state_and_frames_match(name):
    cpu, cuda = ReferenceRenderer(), CudaRenderer(CIRCLE_VARIANTS.parse("auto"))
    scene = build_scene(name, 7)
    cpu.load(scene, 256, 256)
    cuda.load(scene, 256, 256)
    for frame in range(3):
        got, want = render_frame(cuda, 0), render_frame(cpu, 0)
        assert compare_images(want, got).passed, frame
        state = cuda.scene.to_host(name)
        for field in ("position", "velocity", "radius"):
            assert np.array_equal(getattr(state, field), getattr(cpu.scene, field)), (frame, field)


def test_a_still_scene_keeps_its_velocities_on_the_host():
    """No rule moves a still scene, so the GPU holds no velocities for it (12 bytes a circle); its
    state read back still has the scene's own."""
    scene = build_scene("rand10k")
    scene.velocity[:] = np.float32(0.25)
    cuda = CudaRenderer(CIRCLE_VARIANTS.parse("auto"))
    cuda.load(scene, 256, 256)
    assert cuda.scene.velocity is None
    assert np.array_equal(cuda.scene.to_host("rand10k").velocity, scene.velocity)


@pytest.mark.parametrize("size", [100, 257, 1000])
@pytest.mark.parametrize("variant", ["per-pixel", "tile-scan:tile=32", "tile-sort:tile=32,test=exact"])
def test_sizes_not_multiple_of_tile(size, variant, reference_frame, gpu_frame):
    assert compare_images(reference_frame("rand10k", size), gpu_frame("rand10k", variant, size)).passed


def test_random_seed_like_the_course_checker(reference_frame, gpu_frame):
    seed = 31337
    for variant in ("tile-scan", "tile-sort", "auto"):
        assert compare_images(
            reference_frame("rand10k", 512, seed=seed), gpu_frame("rand10k", variant, 512, seed=seed)
        ).passed


def test_poison_is_overwritten_and_would_be_caught(reference_frame):
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-scan"))
    renderer.load(build_scene("rgb"), 64, 64)
    renderer.poison()
    poisoned = renderer.image()
    assert np.isnan(poisoned).all()
    assert compare_images(reference_frame("rgb", 64), poisoned).bad_values == 64 * 64 * 3


def test_stage_times_are_recorded():
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-sort"))
    renderer.load(build_scene("rand10k"), 256, 256)
    render_frame(renderer, 0)
    times = renderer.stage_times_ms()
    assert set(times) == {"clear", "advance", "binning", "blending"}
    assert all(t >= 0 for t in times.values()) and times["binning"] > 0


def test_stages_without_gpu_work_read_zero_and_the_others_are_timed():
    static = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp:bins=off"))
    static.load(build_scene("rand10k"), 256, 256)
    render_frame(static, 0)
    times = static.stage_times_ms()
    assert times["clear"] == times["advance"] == times["binning"] == 0.0 and times["blending"] > 0
    moving = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    moving.load(build_scene("snow"), 256, 256)
    render_frame(moving, 1)
    times = moving.stage_times_ms()
    assert times["clear"] == 0.0 and min(times["advance"], times["binning"], times["blending"]) > 0


def test_a_clear_no_render_took_over_still_happens():
    from render.circles.reference import clear_image

    for name in ("rgb", "snowsingle"):
        renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-scan"))
        renderer.load(build_scene(name), 65, 65)
        renderer.poison()
        renderer.clear()
        assert np.array_equal(renderer.image(), clear_image(build_scene(name), 65, 65)), name


def test_scene_too_large_for_gpu_memory_is_reported(pool_limit):
    pool_limit(size=4 * 2**20)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-scan"))
    expected = r"rand1M \(1000000 circles\) at 1024x1024 does not fit in GPU memory"
    with pytest.raises(RendererUnavailable, match=expected):
        renderer.load(build_scene("rand1M"), 1024, 1024)


def test_tile_sort_pairs_too_many_for_gpu_memory_are_reported(pool_limit):
    # biglittle's arrays and image take 16 MiB; its 7.5 million keys for 16x16 tiles need 86 MiB.
    pool_limit(size=64 * 2**20)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-sort:tile=16"))
    renderer.load(build_scene("biglittle"), 1024, 1024)
    with pytest.raises(RendererUnavailable, match=r"tile-sort: \d+ \(tile, circle\) pairs need about \d+ MiB"):
        render_frame(renderer, 0)
