"""Every CUDA variant on the extreme scenes of tests/edge_scenes.py, against the CPU reference."""

import pytest
from edge_scenes import EDGE_SCENES, EDGE_SIZES
from test_gpu import CONFIGS

from render.circles.reference import ReferenceRenderer
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.compare import compare_images
from render.core.renderer import render_frame

pytestmark = pytest.mark.gpu
_references = {}


def reference(name, size):
    if (name, size) not in _references:
        renderer = ReferenceRenderer()
        renderer.load(EDGE_SCENES[name](), size, size)
        _references.clear()  # one 4096 image is 256 MiB: keep only the latest
        _references[(name, size)] = render_frame(renderer, 0)
    return _references[(name, size)]


@pytest.mark.parametrize("variant", CONFIGS)
@pytest.mark.parametrize("size", EDGE_SIZES)
@pytest.mark.parametrize("name", list(EDGE_SCENES))
def test_edge_scene_every_variant(name, size, variant):
    from render.circles.renderer import CudaRenderer

    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    renderer.load(EDGE_SCENES[name](), size, size)
    renderer.poison()
    result = compare_images(reference(name, size), render_frame(renderer, 0))
    assert result.passed, result
