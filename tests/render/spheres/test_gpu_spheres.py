"""Every sphere variant against the NumPy reference on the GPU (skipped without one)."""

import functools

import numpy as np
import pytest

from render.core.renderer import RendererUnavailable
from render.spheres.cuda import SphereCudaRenderer
from render.spheres.reference import trace_reference
from render.spheres.shading import ShadeSettings, shade_reference
from render.spheres.variants import VARIANTS as SPHERE_VARIANTS
from scenes.spheres import build_sphere_scene, random_spheres

pytestmark = pytest.mark.gpu


def gpu_image(variant, scene, size, shading=None):
    renderer = SphereCudaRenderer(SPHERE_VARIANTS.parse(variant), "classic" if shading is None else "shaded")
    if shading is not None:
        renderer.shading = shading
    renderer.load(scene, size)
    renderer.poison()
    renderer.render()
    assert renderer.kernel_ms() > 0
    return renderer.image()


@pytest.mark.parametrize("variant", SPHERE_VARIANTS.names())
@pytest.mark.parametrize("count", [0, 1, 20, 300, 2340])
@pytest.mark.parametrize("size", [64, 257, 512])
def test_variant_equals_reference(variant, count, size):
    scene = random_spheres(count, 7)
    assert np.array_equal(gpu_image(variant, scene, size), trace_reference(scene, size))


@pytest.mark.parametrize("variant", SPHERE_VARIANTS.names())
def test_classic_at_1024_is_identical(variant):
    scene = build_sphere_scene("classic")
    assert np.array_equal(gpu_image(variant, scene, 1024), trace_reference(scene, 1024))


@pytest.mark.parametrize("variant", ["global", "readonly", "shared-tiled"])
def test_beyond_constant_memory(variant):
    scene = random_spheres(5000, 3)
    assert np.array_equal(gpu_image(variant, scene, 128), trace_reference(scene, 128))


@pytest.mark.parametrize("variant", ["constant", "constant-divergent"])
def test_constant_memory_limit_is_explained(variant):
    renderer = SphereCudaRenderer(SPHERE_VARIANTS.parse(variant))
    renderer.load(random_spheres(2340, 1), 64)
    with pytest.raises(RendererUnavailable, match=r"2341 spheres need 65548 bytes of constant memory; it holds 65536"):
        renderer.load(random_spheres(2341, 1), 64)


SHADINGS = [
    ShadeSettings(),
    ShadeSettings(azimuth=200, elevation=-35, roughness=0.9, metalness=1.0),
    ShadeSettings(azimuth=10, elevation=80, distance=600, roughness=0.05, metalness=0.4),  # eye among the spheres
]


@pytest.mark.parametrize("variant", SPHERE_VARIANTS.names())
@pytest.mark.parametrize("count", [0, 1, 20, 300, 2340])
@pytest.mark.parametrize("size", [64, 257])
@pytest.mark.parametrize("shading", range(len(SHADINGS)))
def test_shaded_view_equals_reference(variant, count, size, shading):
    expected = shaded_expected(count, size, shading)
    assert np.array_equal(gpu_image(variant, random_spheres(count, 11), size, SHADINGS[shading]), expected)


@functools.cache
def shaded_expected(count, size, shading):
    """The reference, once for all five variants."""
    return shade_reference(random_spheres(count, 11), size, SHADINGS[shading])


@pytest.mark.parametrize("variant", SPHERE_VARIANTS.names())
def test_shaded_classic_scene_at_512_is_identical(variant):
    scene, shading = build_sphere_scene("classic"), ShadeSettings(roughness=0.25, metalness=0.7)
    assert np.array_equal(gpu_image(variant, scene, 512, shading), shade_reference(scene, 512, shading))


@pytest.mark.parametrize("variant", ["global", "readonly", "shared-tiled"])
def test_shaded_beyond_constant_memory(variant):
    scene = random_spheres(5000, 3)
    assert np.array_equal(gpu_image(variant, scene, 96, ShadeSettings()), shade_reference(scene, 96, ShadeSettings()))


def test_shading_changes_between_renders_reach_the_kernel():
    scene = build_sphere_scene("classic")
    renderer = SphereCudaRenderer(SPHERE_VARIANTS.parse("constant"), "shaded")
    renderer.load(scene, 128)
    for shading in SHADINGS:
        renderer.shading = shading
        renderer.poison()
        renderer.render()
        assert np.array_equal(renderer.image(), shade_reference(scene, 128, shading))
