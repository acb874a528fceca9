"""Which modules a circle renderer compiles for a scene, known before anything is uploaded: the
support kernels, and the variant's source with its options' and the scene's defines (``auto``
resolved as a load resolves it)."""

from __future__ import annotations

from render.circles.auto import choose_auto
from render.circles.constants import CUDA_DEFINES
from render.circles.renderer import STRATEGIES
from render.circles.variants import VARIANTS
from render.core.module_cache import Build
from render.core.variants import VariantChoice
from scenes.model import CircleScene


def circle_builds(choice: VariantChoice, scene: CircleScene, width: int, height: int) -> list[Build]:
    """The ``(source, defines)`` that ``CudaRenderer(choice).load(scene, width, height)`` compiles or
    loads (library kernels included; a user's file is compiled by the load itself)."""
    if choice.name == "auto":
        choice = choose_auto(scene, width, height)
    spec = VARIANTS[choice.name]
    builds: list[Build] = [("image_ops.cu", dict(CUDA_DEFINES))]
    if scene.animation != "none":
        builds.append(("animate.cu", dict(CUDA_DEFINES)))
    if spec.source is None:  # a user's file: its load compiles it, from the file as it is then
        return builds
    defines = spec.defines(choice)
    strategy = STRATEGIES[spec.launch]
    extra = strategy.scene_defines(defines, scene, width, height)
    builds.append((spec.source, {**CUDA_DEFINES, **defines, **extra}))
    return builds + strategy.extra_builds(choice, extra)
