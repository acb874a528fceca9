"""Every .cu file builds for sm_90 with the same options the app gives NVRTC (no GPU needed): each
kind's support kernels, tile-sort's sorts for each key type, and every build of every row of its
variant table (render/kinds.py)."""

import os
import shutil
import subprocess

import pytest

from render.circles import constants as circle_constants
from render.circles.variants import SORT_KEYS, SORT_SOURCES
from render.circles.variants import SUPPORT_SOURCES as CIRCLE_SUPPORT
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.kernels import nvcc_command
from render.spheres import constants as sphere_constants
from render.spheres.variants import VARIANTS as SPHERE_VARIANTS
from shaders import SHADER_DIR

DISPLAY_SOURCES = ("to_rgba8.cu",)  # app/display.py's conversion kernel


def builds():
    for source in DISPLAY_SOURCES:
        yield source, {}
    for table, support, shared in (
        (CIRCLE_VARIANTS, CIRCLE_SUPPORT, circle_constants.CUDA_DEFINES),
        (SPHERE_VARIANTS, (), sphere_constants.CUDA_DEFINES),
    ):
        for source in support:
            yield source, dict(shared)
        for name in table:
            spec = table[name]
            if spec.source:
                for defines in spec.builds():
                    yield spec.source, {**shared, **defines}
    for source in SORT_SOURCES:
        for keys in SORT_KEYS:
            yield source, {**circle_constants.CUDA_DEFINES, **keys}


BUILDS = list(builds())


@pytest.fixture
def nvcc():
    """Skips without nvcc, where a user runs the tests; CI sets RASTERLAB_REQUIRE_NVCC=1, so there a
    missing nvcc fails instead: every kernel must compile on every change."""
    if shutil.which("nvcc") is None:
        if os.environ.get("RASTERLAB_REQUIRE_NVCC"):
            pytest.fail("nvcc is not on PATH, and RASTERLAB_REQUIRE_NVCC is set")
        pytest.skip("needs nvcc (a CUDA toolkit) on PATH to compile the kernels")


def test_every_source_is_built():
    """No .cu file escapes the compile test: each is a table row's, a kind's support or the display's."""
    assert {source for source, _ in BUILDS} == {p.name for p in SHADER_DIR.glob("*.cu")}


def test_shared_constants_are_required(nvcc):
    """A kernel built without the Python side's constants refuses to compile instead of using stale copies."""
    for source in ("render_tile_warp.cu", "spheres_constant.cu"):
        command = nvcc_command(source, {}, "/dev/null")
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode != 0 and "shared constants" in result.stderr, source


@pytest.mark.parametrize("source, defines", BUILDS, ids=[f"{s}-{d}" for s, d in BUILDS])
def test_compiles_for_sm90(nvcc, tmp_path, source, defines):
    command = nvcc_command(source, defines, str(tmp_path / "k.cubin"))
    result = subprocess.run(command + ["-Xptxas", "-v", "-Werror", "all-warnings"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "spill stores" not in result.stderr or " 0 bytes spill stores" in result.stderr
