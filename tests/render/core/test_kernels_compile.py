"""Every .cu file builds for sm_90 with the same options the app gives NVRTC (no GPU needed): each
kind's support kernels, tile-sort's sorts for each key type, every build of every row of its
variant table (render/kinds.py), the overlays' measuring builds of the circle blend kernels, whose
clocks and tallies the normal builds must not contain, and the user kernel templates
(``shaders/user/``), with the launches they declare."""

import os
import re
import shutil
import subprocess

import pytest

from render.circles import constants as circle_constants
from render.circles import floor
from render.circles.measures import measuring_defines
from render.circles.user_file import read_user_source
from render.circles.variants import SORT_KEYS, SORT_SOURCES
from render.circles.variants import SUPPORT_SOURCES as CIRCLE_SUPPORT
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.kernels import ARCH, numbered_source, nvcc_command, nvrtc_options
from render.spheres import constants as sphere_constants
from render.spheres.variants import VARIANTS as SPHERE_VARIANTS
from shaders import SHADER_DIR

ROOT = SHADER_DIR.parent

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
    yield floor.SOURCE, dict(circle_constants.CUDA_DEFINES)  # bench's floors


def blend_builds():
    """(source, defines, measuring defines) of every build of every circle blend kernel."""
    for name in CIRCLE_VARIANTS:
        spec = CIRCLE_VARIANTS[name]
        if spec.source:
            for defines in spec.builds():
                yield spec.source, {**circle_constants.CUDA_DEFINES, **defines}, measuring_defines(spec.launch)


BUILDS = list(builds())
BLEND_BUILDS = list(blend_builds())
USER_KERNELS = sorted((SHADER_DIR / "user").glob("*.cu")) + sorted((ROOT / "docs" / "user-kernels").glob("*.cu"))
MEASURED = {"BLOCK_CYCLES": "block_clocks", "WARP_SKIP": "warp_tallies"}  # the global each build adds


@pytest.fixture
def nvcc():
    """Skips without nvcc, where a user runs the tests; CI sets RASTERLAB_REQUIRE_NVCC=1, so there a
    missing nvcc fails instead: every kernel must compile on every change."""
    if shutil.which("nvcc") is None:
        if os.environ.get("RASTERLAB_REQUIRE_NVCC"):
            pytest.fail("nvcc is not on PATH, and RASTERLAB_REQUIRE_NVCC is set")
        pytest.skip("needs nvcc (a CUDA toolkit) on PATH to compile the kernels")


@pytest.fixture(scope="module")
def nvrtc():
    """NVRTC, which builds the kernels when the app runs (no GPU needed to compile): skips where its
    library is missing, and fails instead where RASTERLAB_REQUIRE_NVRTC is set (CI)."""
    try:
        from cupy_backends.cuda.libs import nvrtc as library

        library.getVersion()
    except Exception as error:  # CuPy missing, or no libnvrtc to load
        if os.environ.get("RASTERLAB_REQUIRE_NVRTC"):
            pytest.fail(f"NVRTC cannot be loaded ({error}), and RASTERLAB_REQUIRE_NVRTC is set")
        pytest.skip(f"needs NVRTC (a CUDA toolkit or the nvidia-cuda-nvrtc wheel): {error}")
    return library


def test_every_source_is_built():
    """No .cu file escapes the compile test: each is a table row's, a kind's support, the display's or
    the bench's."""
    assert {source for source, _ in BUILDS} == {p.name for p in SHADER_DIR.glob("*.cu")}


def test_shared_constants_are_required(nvcc):
    """A kernel built without the Python side's constants refuses to compile instead of using stale copies."""
    for source in ("render_tile_warp.cu", "spheres_constant.cu"):
        command = nvcc_command(source, {}, "/dev/null")
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode != 0 and "shared constants" in result.stderr, source


def spill_stores(ptxas_report: str) -> dict[str, int]:
    """Bytes of spill stores per entry function, from ptxas's ``-v`` report."""
    stores = {}
    for block in ptxas_report.split("Function properties for ")[1:]:
        name = block.split("\n", 1)[0].strip()
        stores[name] = int(re.search(r"(\d+) bytes spill stores", block).group(1))
    return stores


# Blends that spill at their 64 registers, and measured faster so than in spill-free forms
# (docs/performance.md, "Snowflake tiles fullest first", "8 pixels a thread" and "Tiles fullest first
# at 8 pixels a thread"), held to what they spill now, bytes by (PIXELS, SNOWFLAKE, CELLS, FUSED) of
# 32-pixel tiles: the snowflake blends of 4 pixels a thread, and the flat warp walk of 8 with the
# fused blend. Every other kernel spills nothing.
BLEND_SPILLS = {(4, 1, 0, 0): 16, (4, 1, 1, 0): 36, (8, 0, 0, 1): 32}


@pytest.mark.parametrize("source, defines", BUILDS, ids=[f"{s}-{d}" for s, d in BUILDS])
def test_compiles_for_sm90(nvcc, tmp_path, source, defines):
    """Each build compiles (warnings as errors), and no kernel spills registers but the blends of
    BLEND_SPILLS, within their bounds."""
    command = nvcc_command(source, defines, str(tmp_path / "k.cubin"))
    result = subprocess.run(command + ["-Xptxas", "-v", "-Werror", "all-warnings"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    stores = spill_stores(result.stderr)
    assert stores, result.stderr
    for name, spilled in stores.items():
        bound = 0
        if name == "render_tile_warp" and defines["TILE"] == 32:
            key = (defines["PIXELS"], defines["SNOWFLAKE"], defines["CELLS"], defines["FUSED"])
            bound = BLEND_SPILLS.get(key, 0)
        assert spilled <= bound, (name, spilled)


def nvrtc_builds():
    """(path, defines, include folders) of every module the app compiles through NVRTC: every build
    of the compile test, the overlays' measuring builds and the user kernel templates and steps."""
    for source, defines in BUILDS:
        yield SHADER_DIR / source, defines, (SHADER_DIR,)
    for source, defines, measuring in BLEND_BUILDS:
        for define in measuring:
            yield SHADER_DIR / source, {**defines, define: 1}, (SHADER_DIR,)
    for path in USER_KERNELS:
        yield path, {}, read_user_source(str(path)).include_dirs()


NVRTC_BUILDS = list(nvrtc_builds())


@pytest.mark.parametrize("path, defines, include_dirs", NVRTC_BUILDS, ids=[f"{p.name}-{d}" for p, d, _ in NVRTC_BUILDS])
def test_compiles_with_nvrtc(nvrtc, path, defines, include_dirs):
    """The app's own compiler, with the app's options, down to machine code for sm_90 (NVRTC's
    ptxas runs too): NVRTC lacks parts of what nvcc's host headers bring (offsetof, for one), and
    its ptxas is its own, so a kernel nvcc builds can still fail there. CuPy's include folders are
    left out: no shader includes their headers."""
    program = nvrtc.createProgram(numbered_source(path, path.read_text()), path.name, [], [])
    try:
        nvrtc.compileProgram(program, [*nvrtc_options(defines, include_dirs), f"-arch={ARCH}"])
    except nvrtc.NVRTCError:
        pytest.fail(nvrtc.getProgramLog(program))
    finally:
        nvrtc.destroyProgram(program)


def ptx(source: str, defines: dict, folder) -> str:
    command = nvcc_command(source, defines, str(folder / "k.ptx"))
    command[command.index("-cubin")] = "-ptx"
    subprocess.run(command, check=True, capture_output=True)
    return (folder / "k.ptx").read_text()


def reads_its_order(ptx_text: str) -> bool:
    """Whether tile-warp's blend loads its last parameter, the binning's tile order."""
    entry = ptx_text[ptx_text.index(".entry render_tile_warp(") :]
    last = re.findall(r"\.param \.\w+ (render_tile_warp_param_\d+)", entry[: entry.index(")")])[-1]
    return f"[{last}]" in entry


def entry(ptx_text: str, kernel: str) -> str:
    """The PTX of entry function ``kernel``, from its name to its closing brace."""
    body = ptx_text[ptx_text.index(f".entry {kernel}(") :]
    return body[: body.index("\n}\n")]


# tile-warp's binning launches: render/circles/tile_warp.py launches the scan and the emission as
# dependents (render/core/dependent_launch.py), and the scan's last block lets the emission start.
DEPENDENT_LAUNCHES = {
    "count_bin_entries": (False, False),
    "scan_bin_counts": (True, True),
    "emit_bin_entries": (True, False),
    "render_tile_warp": (False, False),
}


@pytest.mark.parametrize("source, defines, measuring", BLEND_BUILDS, ids=[f"{s}-{d}" for s, d, _ in BLEND_BUILDS])
def test_only_the_measuring_builds_hold_the_measures(nvcc, tmp_path, source, defines, measuring):
    """Each measuring build compiles (for sm_90, warnings as errors) and holds its global; the build
    that renders holds none of them, nor a clock read. A tile-warp blend reads the tile order it is
    given exactly where its ``takes_tile_order``, which the host reads, says it does, and its binning
    waits for the launch before it exactly in the kernels the host launches as dependents."""
    normal = ptx(source, defines, tmp_path)
    assert all(name not in normal for name in MEASURED.values()) and "%clock64" not in normal
    if source == "render_tile_warp.cu":
        assert reads_its_order(normal) == ("takes_tile_order = 1;" in normal)
        for kernel, (waits, lets_start) in DEPENDENT_LAUNCHES.items():
            body = entry(normal, kernel)
            assert ("griddepcontrol.wait" in body, "griddepcontrol.launch_dependents" in body) == (waits, lets_start)
    for define in measuring:
        command = nvcc_command(source, {**defines, define: 1}, str(tmp_path / "m.cubin"))
        result = subprocess.run(command + ["-Werror", "all-warnings"], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        measured = ptx(source, {**defines, define: 1}, tmp_path)
        assert MEASURED[define] in measured and (define != "BLOCK_CYCLES" or "%clock64" in measured)


def pair_instructions(ptx_text: str, kernel: str) -> list[str]:
    """The opcodes of ``kernel`` between its pixel's load and store, memory, moves and branches left out."""
    lines = [line.strip() for line in entry(ptx_text, kernel).splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("ld.global"))
    end = next(i for i, line in enumerate(lines) if line.startswith("st.global"))
    opcodes = [line.split()[0] for line in lines[start + 1 : end] if line and not line.startswith(("//", "$", "@"))]
    return [op for op in opcodes if not op.startswith(("ld.", "st.", "mov.", "bra"))]


@pytest.mark.parametrize("shading", ["flat", "snowflake"])
def test_the_floors_pair_instructions_are_the_kernels(nvcc, tmp_path, shading):
    """floor.PAIR_INSTRUCTIONS counts what shaders/floor.cu's pair kernels compile to, and those hold
    a flat pair's fused blend of its three color channels alone, a snowflake's coverage test, shading
    and blend."""
    compiled = ptx(floor.SOURCE, dict(circle_constants.CUDA_DEFINES), tmp_path)
    opcodes = pair_instructions(compiled, f"pair_{shading}")
    assert len(opcodes) == floor.PAIR_INSTRUCTIONS[shading], opcodes
    if shading == "flat":
        assert opcodes == ["fma.rn.ftz.f32"] * 3
    else:
        assert opcodes[:6] == [
            f"{op}.f32" for op in ("sub.rn.ftz", "mul.rn.ftz", "sub.rn.ftz", "mul.rn.ftz", "add.rn.ftz")
        ] + ["setp.gtu.ftz.f32"]
        assert len([op for op in opcodes if op.startswith("fma.")]) == 4  # expf's steps


def test_the_user_kernels_are_the_templates_and_the_guides_steps():
    assert [path.name for path in USER_KERNELS] == [
        *("per_pixel.cu", "tile_scan.cu"),
        *("step2_warp_scan.cu", "step3_exact_test.cu", "step4_four_pixels.cu", "step5_bins.cu"),
    ]


@pytest.mark.parametrize("path", USER_KERNELS, ids=[path.name for path in USER_KERNELS])
def test_the_user_kernels_compile_with_the_kernels_they_declare(nvcc, tmp_path, path):
    """shaders/user/'s templates and docs/user-kernels/'s steps, with the include path the app gives them."""
    launch = read_user_source(str(path)).launch
    command = nvcc_command(str(path), {}, str(tmp_path / "k.cubin"))
    result = subprocess.run(command + ["-Werror", "all-warnings"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    compiled = ptx(str(path), {}, tmp_path)
    assert all(f".entry {name}(" in compiled for name in (launch.kernel, launch.binning) if name)


def test_the_line_directive_takes_any_file_name(nvcc, tmp_path):
    """The #line a user's kernel is compiled under names its file as a C string: quotes, backslashes
    and newlines in the name must not break it (warnings are errors)."""
    from render.core.kernels import c_string

    name = str(tmp_path / 'my "odd" \\ kernel\nfile.cu')
    assert c_string(name).endswith('my \\"odd\\" \\\\ kernel?file.cu')
    wrapped = tmp_path / "wrapped.cu"
    wrapped.write_text(f'#line 1 "{c_string(name)}"\n' + (SHADER_DIR / "user" / "tile_scan.cu").read_text())
    command = nvcc_command(str(wrapped), {}, str(tmp_path / "k.cubin"))
    result = subprocess.run(command + ["-Werror", "all-warnings"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
