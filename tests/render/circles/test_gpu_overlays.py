"""The overlays' GPU figures against the CPU's: candidates read from each configuration's own binning
(tile-sort's tile ranges, tile-warp's bin lists, tile-scan's tile test run as a count) and depth
from the count kernel, on every built-in scene at 256 and 1024 and on the edge scenes; every
allocation poisoned first; tile-warp's warp skips, measured inside its kernel, against the CPU's on
the same scenes; the cycles of every configuration counted for every block, the frame untouched.
And ``render --overlay`` on the GPU writes what the reference does."""

import functools

import numpy as np
import pytest

from render.circles.overlays import candidate_counts, depth_counts, variant_grid
from render.circles.renderer import CudaRenderer
from render.circles.variants import VARIANTS
from render.circles.warp_skip import warp_skip_fractions
from render.core.renderer import RendererUnavailable
from scenes.builtin import SCENE_NAMES, build_scene

pytestmark = pytest.mark.gpu
SIZES = (256, 1024)
# Every binning rule once (the scans and the sorts do not change which circles a tile gets), then
# tile-sort's own sorts, whose tile ranges come from the keys they sort, and auto.
BINNING = [
    choice.label()
    for choice in VARIANTS.configurations()
    if dict(choice.options).get("scan", "warp") == "warp" and dict(choice.options).get("sort", "cub") == "cub"
] + ["tile-sort:sort=onesweep", "tile-sort:sort=merge", "auto"]


@functools.cache
def cpu_candidates(scene_name: str, label: str, size: int) -> np.ndarray:
    """The reference's count for a resolved configuration, kept: many share a rule."""
    return candidate_counts(build_scene(scene_name), VARIANTS.parse(label), size, size)


@functools.cache
def cpu_depth(scene_name: str, size: int) -> np.ndarray:
    return depth_counts(build_scene(scene_name), size, size)


def rendered(scene, label: str, size: int) -> CudaRenderer:
    """``scene`` as built (no animation step, like the CPU's figures) rendered by ``label``."""
    renderer = CudaRenderer(VARIANTS.parse(label))
    renderer.load(scene, size, size)
    renderer.clear()
    renderer.render()
    return renderer


@pytest.mark.parametrize("label", BINNING)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene_name", SCENE_NAMES)
def test_gpu_candidates_equal_the_cpus(scene_name, size, label, poisoned_allocations):
    renderer = rendered(build_scene(scene_name), label, size)
    got = renderer.candidate_counts()
    assert got.dtype == np.int32 and np.array_equal(got, cpu_candidates(scene_name, renderer.resolved.label(), size))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene_name", SCENE_NAMES)
def test_gpu_depth_equals_the_cpus(scene_name, size, poisoned_allocations):
    got = rendered(build_scene(scene_name), "auto", size).depth_counts()
    assert got.dtype == np.int32 and np.array_equal(got, cpu_depth(scene_name, size))


@pytest.mark.parametrize("label", BINNING)
def test_gpu_overlays_of_edge_scenes_equal_the_cpus(
    edge_scenes, edge_scene_name, small_edge_size, label, poisoned_allocations
):
    scene, size = edge_scenes[edge_scene_name](), small_edge_size
    renderer = rendered(scene, label, size)
    assert np.array_equal(renderer.candidate_counts(), candidate_counts(scene, renderer.resolved, size, size))
    assert np.array_equal(renderer.depth_counts(), depth_counts(scene, size, size))


TILE_WARP = [
    choice.label()
    for choice in VARIANTS.configurations()
    if choice.name == "tile-warp" and choice.option("walk") == "warp"
]
CONFIGS = [choice.label() for choice in VARIANTS.configurations()] + ["auto"]


@pytest.mark.parametrize("label", TILE_WARP)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene_name", SCENE_NAMES)
def test_gpu_warp_skips_measured_in_the_kernel_equal_the_cpus(scene_name, size, label, poisoned_allocations):
    renderer = rendered(build_scene(scene_name), label, size)
    got = renderer.warp_skips()
    expected = warp_skip_fractions(build_scene(scene_name), VARIANTS.parse(label), size, size)
    assert got.dtype == np.float32 and np.array_equal(got, expected)


@pytest.mark.parametrize("label", TILE_WARP)
def test_gpu_warp_skips_of_edge_scenes_equal_the_cpus(edge_scenes, edge_scene_name, small_edge_size, label):
    scene, size = edge_scenes[edge_scene_name](), small_edge_size
    got = rendered(scene, label, size).warp_skips()
    assert np.array_equal(got, warp_skip_fractions(scene, VARIANTS.parse(label), size, size))


@pytest.mark.parametrize("label", CONFIGS)
@pytest.mark.parametrize("scene_name", ["rgb", "rand10k", "biglittle", "snowsingle"])
def test_gpu_cycles_count_every_block_and_leave_the_frame_alone(scene_name, label, poisoned_allocations):
    renderer = rendered(build_scene(scene_name), label, 512)
    before = renderer.image()
    cycles = renderer.block_cycles()
    grid = variant_grid(renderer.resolved, 512, 512)
    assert cycles.dtype == np.float32 and cycles.shape == (grid.rows, grid.cols)
    assert (cycles > 0).all() and np.isfinite(cycles).all()
    assert np.array_equal(renderer.image(), before, equal_nan=True)


def test_warp_skip_of_another_variant_on_the_gpu_is_refused():
    with pytest.raises(RendererUnavailable, match="warp-skip: the warps of tile-warp skip circles"):
        rendered(build_scene("rgb"), "tile-scan", 64).warp_skips()
    with pytest.raises(RendererUnavailable, match="walks its circles by cells of lanes, not by warps"):
        rendered(build_scene("rand10k"), "tile-warp:walk=cell", 64).warp_skips()


def test_render_overlay_on_the_gpu_writes_what_the_reference_does(tmp_path, run_main):
    args = ("render", "--scene", "biglittle", "--size", "512", "--overlay", "candidates")
    gpu = run_main(*args, "--variant", "tile-sort:tile=32", "--raw", tmp_path / "gpu.npy")
    cpu = run_main(*args, "--backend", "cpu", "--binning", "tile-sort:tile=32", "--raw", tmp_path / "cpu.npy")
    assert gpu.returncode == 0 and cpu.returncode == 0, gpu.stderr + cpu.stderr
    assert np.array_equal(np.load(tmp_path / "gpu.npy"), np.load(tmp_path / "cpu.npy"))
    assert gpu.stdout.split(";")[1] == cpu.stdout.split(";")[1]  # the same figures reported
