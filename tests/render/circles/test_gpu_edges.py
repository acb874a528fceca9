"""Every CUDA configuration on the extreme edge scenes (conftest.py) at every edge size, against the
CPU reference."""

import pytest

from render.circles.reference import ReferenceRenderer
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.compare import compare_images
from render.core.renderer import render_frame

pytestmark = pytest.mark.gpu
_references = {}


def reference(name, build, size):
    if (name, size) not in _references:
        renderer = ReferenceRenderer()
        renderer.load(build(), size, size)
        _references.clear()  # one 4096 image is 256 MiB: keep only the latest
        _references[(name, size)] = render_frame(renderer, 0)
    return _references[(name, size)]


def test_edge_scene_every_variant(edge_scenes, edge_scene_name, edge_size, circle_config):
    from render.circles.renderer import CudaRenderer

    build = edge_scenes[edge_scene_name]
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(circle_config))
    renderer.load(build(), edge_size, edge_size)
    renderer.poison()
    result = compare_images(reference(edge_scene_name, build, edge_size), render_frame(renderer, 0))
    assert result.passed, result
