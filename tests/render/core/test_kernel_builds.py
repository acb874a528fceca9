"""``kind.kernel_builds``: the modules a renderer of a variant compiles for a scene, known before
anything is uploaded (the app compiles them in the background before it switches). On the CPU:
each build is one the compile test builds, ``auto`` and the scene's defines are resolved as a load
resolves them; on a GPU: a load compiles exactly those modules."""

import types

import numpy as np
import pytest

from render.circles.auto import choose_auto
from render.circles.constants import CUDA_DEFINES as CIRCLE_DEFINES
from render.circles.renderer import STRATEGIES
from render.circles.variants import SORT_SOURCES, SUPPORT_SOURCES, VARIANTS
from render.core import kernels
from render.core.kernels import LIBRARY
from render.core.kind import Look
from render.core.module_cache import ModuleCache, build_key
from render.kinds import KINDS
from render.spheres.constants import CUDA_DEFINES as SPHERE_DEFINES
from render.spheres.shading import VIEWS
from scenes.builtin import build_scene
from scenes.model import CircleScene
from scenes.spheres import build_sphere_scene

CIRCLES, SPHERES = KINDS["circles"], KINDS["spheres"]
SCENES = ("rgb", "pattern", "biglittle", "snowsingle", "bouncingballs", "hypnosis")
CHOICES = [*VARIANTS.configurations(), VARIANTS.parse("auto")]


def circles(count, shading="flat", color=None, seed=1):
    rng = np.random.default_rng(seed)
    return CircleScene(
        name=f"{count}",
        position=rng.random((count, 3), np.float32),
        velocity=np.zeros((count, 3), np.float32),
        color=rng.random((count, 3), np.float32) if color is None else color,
        radius=np.full(count, 0.01, np.float32),
        shading=shading,
    )


def variant_defines(builds):
    """The row's build of ``builds`` (the support modules dropped), its shared constants removed."""
    others = (*SUPPORT_SOURCES, *SORT_SOURCES)
    ours = [build for build in builds if build[0] not in others and not build[0].startswith(LIBRARY)]
    (source, defines), *others = ours
    assert not others
    return source, {key: value for key, value in defines.items() if key not in CIRCLE_DEFINES}


@pytest.mark.parametrize("name", SCENES)
@pytest.mark.parametrize("size", [256, 1024])
def test_every_circle_build_is_one_the_compile_test_builds(name, size):
    scene = build_scene(name)
    for choice in CHOICES:
        builds = CIRCLES.kernel_builds(choice, scene, size, Look())
        support = [source for source, _ in builds if source in SUPPORT_SOURCES]
        assert support == (["image_ops.cu", "animate.cu"] if scene.animation != "none" else ["image_ops.cu"])
        assert all(defines == CIRCLE_DEFINES for source, defines in builds if source in SUPPORT_SOURCES)
        resolved = choose_auto(scene, size, size) if choice.name == "auto" else choice
        source, defines = variant_defines(builds)
        spec = VARIANTS[resolved.name]
        assert source == spec.source and defines in list(spec.builds()), (choice, defines)
        assert {key: defines[key] for key in spec.defines(resolved)} == spec.defines(resolved)


def test_auto_resolves_as_a_load_does():
    for name, size in (("rgb", 1024), ("rand10k", 1024), ("biglittle", 1024), ("rand10k", 256)):
        scene = build_scene(name)
        resolved = choose_auto(scene, size, size)
        auto = CIRCLES.kernel_builds(VARIANTS.parse("auto"), scene, size, Look())
        assert auto == CIRCLES.kernel_builds(resolved, scene, size, Look()), name
    # Different scenes resolve differently, so the builds follow the scene (not a fixed variant).
    assert {
        variant_defines(CIRCLES.kernel_builds(VARIANTS.parse("auto"), build_scene(n), 1024, Look()))[0]
        for n in ("rgb", "rand10k")
    } == {"render_per_pixel.cu", "render_tile_warp.cu"}


def test_scene_defines_come_from_the_scene():
    warp = VARIANTS.parse("tile-warp")
    flat, snow = circles(100), circles(100, "snowflake")
    tiny = circles(100, color=np.full((100, 3), 1e-35, np.float32))  # halves below 2^-100: not fused
    shading = {
        label: {
            key: variant_defines(CIRCLES.kernel_builds(warp, scene, 512, Look()))[1][key]
            for key in ("SNOWFLAKE", "FUSED")
        }
        for label, scene in (("flat", flat), ("snow", snow), ("tiny", tiny))
    }
    assert shading == {
        "flat": {"SNOWFLAKE": 0, "FUSED": 1},
        "snow": {"SNOWFLAKE": 1, "FUSED": 0},
        "tiny": {"SNOWFLAKE": 0, "FUSED": 0},
    }
    # tile-sort's keys widen when tiles x circles reach 2^32: 65,536 tiles of 16 px at 4096.
    sort = VARIANTS.parse("tile-sort:tile=16")
    many = circles(65_536)
    key = {size: variant_defines(CIRCLES.kernel_builds(sort, many, size, Look()))[1]["KEY_T"] for size in (256, 4096)}
    assert key == {256: "unsigned int", 4096: "unsigned long long"}
    assert variant_defines(CIRCLES.kernel_builds(sort, circles(65_535), 4096, Look()))[1]["KEY_T"] == "unsigned int"


def test_tile_warps_bin_entries_are_indices_from_millions_of_circles(monkeypatch):
    monkeypatch.setattr("render.circles.constants.INDEX_ENTRIES_FROM", 1000)
    warp = VARIANTS.parse("tile-warp")
    index = {
        count: variant_defines(CIRCLES.kernel_builds(warp, circles(count), 512, Look()))[1]["ENTRY_INDEX"]
        for count in (999, 1000)
    }
    assert index == {999: 0, 1000: 1}


def test_the_device_scene_path_picks_the_same_defines():
    """A load reads the DeviceScene (colors flat (N*3,)); the builds read the host scene (N, 3)."""
    for scene in (circles(50), circles(50, "snowflake"), circles(50, color=np.full((50, 3), 1e-35, np.float32))):
        on_device = types.SimpleNamespace(count=scene.count, snowflake=scene.snowflake, color=scene.color.reshape(-1))
        for choice in VARIANTS.configurations():
            strategy = STRATEGIES[VARIANTS[choice.name].launch]
            defines = VARIANTS[choice.name].defines(choice)
            host = strategy.scene_defines(defines, scene, 640, 480)
            assert strategy.scene_defines(defines, on_device, 640, 480) == host


def test_every_sphere_variant_builds_its_one_module_in_either_view():
    scene = build_sphere_scene("classic")
    for name in SPHERES.variants:
        for view in VIEWS:
            builds = SPHERES.kernel_builds(SPHERES.variants.parse(name), scene, 512, Look(view))
            assert builds == [(SPHERES.variants[name].source, SPHERE_DEFINES)]


@pytest.fixture
def recording_cache(monkeypatch):
    """A fresh process module cache that records the key of every module loaded through it."""
    loaded = set()

    class Recording(ModuleCache):
        def load(self, source, defines):
            loaded.add(build_key(source, defines))
            return super().load(source, defines)

    monkeypatch.setattr(kernels, "MODULES", Recording(kernels.compile_module))
    return loaded


@pytest.mark.gpu
@pytest.mark.parametrize("name", SCENES)
def test_a_circle_load_compiles_exactly_its_builds(name, recording_cache):
    scene = build_scene(name)
    for choice in CHOICES:
        recording_cache.clear()
        renderer = CIRCLES.make_renderer(choice, Look())
        renderer.load(scene, 256, 256)
        renderer.render()
        renderer.advance()
        expected = {build_key(*build) for build in CIRCLES.kernel_builds(choice, scene, 256, Look())}
        assert recording_cache == expected, choice.label()


@pytest.mark.gpu
def test_a_sphere_load_compiles_exactly_its_builds(recording_cache):
    scene = build_sphere_scene("classic")
    for name in SPHERES.variants:
        for view in VIEWS:
            recording_cache.clear()
            look = Look(view)
            renderer = SPHERES.make_renderer(SPHERES.variants.parse(name), look)
            renderer.load(scene, 256, 256)
            renderer.render()
            expected = {build_key(*build) for build in SPHERES.kernel_builds(renderer.resolved, scene, 256, look)}
            assert recording_cache == expected, (name, view)


def test_tile_sort_asks_for_its_sort_of_its_key_type():
    scene, big = build_scene("rand10k"), build_scene("rand1M")
    merge = ("sort_merge.cu", {**CIRCLE_DEFINES, "KEY_T": "unsigned int"})
    for label, sort_build in (
        ("tile-sort", (LIBRARY + "sort", {"KEY_T": "unsigned int"})),
        ("tile-sort:sort=merge", merge),
        ("tile-scan", None),
        ("tile-warp", None),
    ):
        builds = CIRCLES.kernel_builds(CIRCLES.variants.parse(label), scene, 512, Look())
        sorts = [build for build in builds if build[0].startswith(LIBRARY) or build[0] in SORT_SOURCES]
        assert sorts == ([sort_build] if sort_build else []), label
    wide = CIRCLES.kernel_builds(CIRCLES.variants.parse("tile-sort:sort=merge,tile=16"), big, 4096, Look())
    assert ("sort_merge.cu", {**CIRCLE_DEFINES, "KEY_T": "unsigned long long"}) in wide  # 4096 tiles x 10^6


def test_a_library_build_that_is_not_known_is_refused():
    with pytest.raises(ValueError, match="unknown library build 'cupy:fft'"):
        kernels.compile_module(LIBRARY + "fft", ())


@pytest.mark.gpu
@pytest.mark.parametrize("key", ["unsigned int", "unsigned long long"])
def test_loading_the_sort_library_leaves_the_apps_pool_as_it_was(key):
    import cupy

    pool = cupy.get_default_memory_pool()
    kept = cupy.zeros(1000, cupy.float32)  # a block in use, so the pool is not simply empty
    before = pool.used_bytes(), pool.total_bytes()
    assert kernels.compile_module(LIBRARY + "sort", (("KEY_T", key),)) == LIBRARY + "sort"
    assert (pool.used_bytes(), pool.total_bytes()) == before
    del kept


class _CompileFails:
    """A stand-in for ``cupy.RawModule`` whose compile raises ``error``."""

    error: Exception

    def __init__(self, code, options):
        self.code = code

    def compile(self):
        raise self.error


def _raised_from(error: Exception, cause: Exception) -> Exception:
    error.__cause__ = cause
    return error


def test_nvrtc_that_does_not_load_is_a_renderer_that_cannot_run(monkeypatch):
    # On the H200 machine at ulimit -v 15,000,000, NVRTC's shared object did not load at the app's
    # first compile, and CuPy's library finder raised a RuntimeError that became a traceback.
    cupy = pytest.importorskip("cupy")
    from render.core import address_space
    from render.core.renderer import RendererUnavailable

    failing = type("Fails", (_CompileFails,), {})
    failing.error = _raised_from(
        RuntimeError("Failed to dlopen /x/libnvrtc.so.13: /x/libnvrtc.so.13: failed to map segment"),
        OSError("/x/libnvrtc.so.13: failed to map segment from shared object"),
    )
    monkeypatch.setattr(cupy, "RawModule", failing)
    monkeypatch.setattr(address_space, "limit_bytes", lambda: 15_000_000 * 1024)
    with pytest.raises(RendererUnavailable) as raised:
        kernels.compile_module("image_ops.cu", ())
    assert str(raised.value) == (
        "CUDA's compiler (NVRTC) did not load (/x/libnvrtc.so.13: failed to map segment from shared object); "
        "under the limit on memory (ulimit -v 15000000), which may be too low: raise it"
    )
    # NVRTC's own errors (a RuntimeError with no OSError behind it) are not taken for it.
    failing.error = RuntimeError("NVRTC_ERROR_INVALID_OPTION")
    with pytest.raises(RuntimeError, match="NVRTC_ERROR_INVALID_OPTION"):
        kernels.compile_module("image_ops.cu", ())
