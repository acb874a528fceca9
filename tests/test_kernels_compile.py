"""Every .cu file builds for sm_90 with the same options the app gives NVRTC (no GPU needed)."""

import shutil
import subprocess

import pytest

from render.core.kernels import SHADER_DIR, nvcc_command
from render.core.variants import all_configurations

_SCAN = {"hillis-steele": 0, "blelloch": 1, "warp": 2}


def builds():
    yield "image_ops.cu", {}
    yield "animate.cu", {}
    yield "to_rgba8.cu", {}
    for variant in ("global", "readonly", "shared", "constant", "constant_divergent"):
        yield f"spheres_{variant}.cu", {}
    yield "render_per_pixel.cu", {}
    for choice in all_configurations():
        opts = dict(choice.options)
        exact = int(opts.get("test") == "exact")
        if choice.name == "tile-scan":
            yield (
                "render_tile_scan.cu",
                {"TILE": opts["tile"], "SCAN_ALGORITHM": _SCAN[opts["scan"]], "EXACT_TILE_TEST": exact},
            )
        elif choice.name == "tile-sort":
            for key in ("unsigned int", "unsigned long long"):
                yield "render_tile_sort.cu", {"TILE": opts["tile"], "EXACT_TILE_TEST": exact, "KEY_T": f'"{key}"'}
        elif choice.name == "tile-warp" and opts["bins"] == "on":  # bins is a launch argument
            for snowflake, fused in ((0, 0), (0, 1), (1, 0)):
                pixels = 4 if opts["tile"] == "32" else 8
                defines = {"TILE": opts["tile"], "PIXELS": pixels, "SNOWFLAKE": snowflake, "FUSED": fused}
                yield "render_tile_warp.cu", defines


BUILDS = list(builds())


def test_every_source_is_built():
    assert {source for source, _ in BUILDS} == {p.name for p in SHADER_DIR.glob("*.cu")}


@pytest.mark.parametrize("source, defines", BUILDS, ids=[f"{s}-{d}" for s, d in BUILDS])
def test_compiles_for_sm90(tmp_path, source, defines):
    assert shutil.which("nvcc"), "nvcc must be on PATH (CI has it): every kernel must compile"
    command = nvcc_command(source, {k: str(v).strip('"') for k, v in defines.items()}, str(tmp_path / "k.cubin"))
    result = subprocess.run(command + ["-Xptxas", "-v", "-Werror", "all-warnings"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "spill stores" not in result.stderr or " 0 bytes spill stores" in result.stderr
