"""tile-warp's own paths, each against the CPU reference: overflowing bin lists, lists sized to their
entries (with room to spare only where circles move), the two-rounding blend for tiny colors, bins
coarser than two tiles, an animated scene whose lists grow, each frame's list starts, sparse bins'
emission against a warp a bin's, tiles blended fullest bin first (snowflakes, and flat circles walked
by warps at 8 pixels a thread), and the alpha steps that covering circles leave to the end of a tile."""

import numpy as np
import pytest

from render.circles.constants import ORDER_STEPS
from render.circles.overlays import candidate_counts
from render.circles.reference import ReferenceRenderer
from render.circles.renderer import CudaRenderer
from render.circles.tile_warp import TileWarp, fused_blend_is_exact
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.compare import compare_images
from render.core.renderer import render_frame
from scenes.builtin import build_scene
from scenes.model import CircleScene, empty_arrays

pytestmark = pytest.mark.gpu


def test_lists_that_overflow_render_exactly_then_grow(reference_frame, shorten_lists):
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand100k"), 256, 256)
    strategy = renderer.strategy
    shorten_lists(strategy, 1000)  # far fewer entries than rand100k makes at 256
    want = reference_frame("rand100k", 256)
    renderer.poison()
    assert compare_images(want, render_frame(renderer, 0)).passed  # every circle is a candidate
    entries = strategy._entries_last_seen()
    assert entries > 1000 and strategy.capacity == 1000  # drawn from the short lists' fallback
    renderer.poison()
    assert compare_images(want, render_frame(renderer, 0)).passed
    assert strategy.capacity >= entries  # grown from the count the overflowing frame wrote


@pytest.mark.parametrize("name, moving", [("rand100k", False), ("bouncingballs", True)])
def test_lists_have_room_for_their_entries_and_a_quarter_more_only_where_circles_move(name, moving, reference_frame):
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene(name), 256, 256)
    strategy = renderer.strategy
    entries = int(strategy.bin_total.sum())  # counted at load; emitted by each frame's binning
    assert entries > 0 and strategy.capacity == entries + (entries // 4 + 1024 if moving else 0)
    if not moving:  # the frames bin the same entries, within the lists: no growth, no fallback
        for _ in range(3):
            renderer.poison()
            assert compare_images(reference_frame(name, 256), render_frame(renderer, 0)).passed
        assert strategy._entries_last_seen() == entries == strategy.capacity


@pytest.mark.parametrize("variant", ["tile-warp", "tile-warp:tile=64", "tile-warp:walk=cell", "tile-warp:pixels=8"])
@pytest.mark.parametrize("name, size", [("rand100k", 256), ("rand1M", 1024), ("micro2M", 1024), ("snowsingle", 512)])
def test_index_entries_blend_what_full_entries_do(monkeypatch, reference_frame, variant, name, size):
    """Scenes of millions of circles list each circle by its index alone (4 bytes an entry, not
    16); forced here for smaller ones, whose frames must still be the reference's."""
    monkeypatch.setattr("render.circles.constants.INDEX_ENTRIES_FROM", 1)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    renderer.load(build_scene(name), size, size)
    strategy = renderer.strategy
    assert strategy.build_defines["ENTRY_INDEX"] == 1 and strategy.lists.dtype == np.int32
    assert strategy.lists.nbytes == 4 * strategy.capacity
    renderer.poison()
    assert compare_images(reference_frame(name, size), render_frame(renderer, 0)).passed


def _fading_scene() -> CircleScene:
    """126 black circles halve a white pixel to 2^-126, then a circle whose red is too small for
    the fused blend (premultiplied 2^-110) is drawn over it. Fused, red would be 2^-110 + 2^-127;
    with a product and a sum, the GPU's flushed (1/2) * 2^-126 leaves 2^-110."""
    count = 127
    arrays = empty_arrays(count)
    arrays["position"][:] = [0.5, 0.5, 0.5]
    arrays["radius"][:] = 0.3
    arrays["color"][-1] = [2.0**-109, 0.5, 2.0**-120]
    return CircleScene("fading", **arrays)


@pytest.mark.parametrize(
    "variant", ["tile-warp", "tile-warp:bins=off", "tile-warp:tile=64", "tile-warp:walk=cell", "tile-warp:pixels=8"]
)
def test_tiny_colors_take_the_two_rounding_blend(variant):
    scene = _fading_scene()
    assert not fused_blend_is_exact(scene.color.reshape(-1))
    cpu = ReferenceRenderer()
    cpu.load(scene, 64, 64)
    want = render_frame(cpu, 0)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    renderer.load(scene, 64, 64)
    renderer.poison()
    got = render_frame(renderer, 0)
    baseline = CudaRenderer(CIRCLE_VARIANTS.parse("tile-scan"))  # a product and a sum per channel, always
    baseline.load(scene, 64, 64)
    assert np.array_equal(got, render_frame(baseline, 0))
    assert got[32, 32, 0] == np.float32(2.0**-110)
    # NumPy keeps the subnormal the GPU flushes (CuPy builds with -ftz=true): within tolerance.
    assert want[32, 32, 0] == np.float32(2.0**-110 + 2.0**-127)
    assert compare_images(want, got).passed


@pytest.mark.parametrize("size", [2048, 1500])
def test_bins_of_several_tiles(size, reference_frame):
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand10k"), size, size)
    assert renderer.strategy.tiles_per_bin >= 2 and renderer.strategy.bins <= 256
    renderer.poison()
    assert compare_images(reference_frame("rand10k", size), render_frame(renderer, 0)).passed


@pytest.mark.parametrize(
    "variant, name, size, widest",
    [
        ("tile-warp", "rand10k", 1024, 32),  # 32 x 32 bins of one tile: 4 groups
        ("tile-warp", "rand1M", 1000, 32),  # 32 x 32 bins of one tile, the last row and column cut
        ("tile-warp", "micro2M", 2048, 32),  # 64 x 64 bins: 16 groups, four segments of the list starts
        ("tile-warp", "biglittle", 1056, 32),  # 33 x 33 bins: 5 groups, the last of 65 bins
        ("tile-warp", "snowsingle", 1024, 32),
        ("tile-warp", "rand10k", 4096, 128),  # as drawn by default: bins of 4 x 4 tiles, 4 groups
        ("tile-warp:tile=64", "rand10k", 4096, 128),  # bins of 2 x 2 tiles of 64: 4 groups
        ("tile-warp", "bouncingballs", 1024, 32),  # binned where the circles have moved to
    ],
)
def test_bins_in_groups_blend_what_one_group_does(
    monkeypatch, reference_frame, poisoned_allocations, variant, name, size, widest
):
    """More bins than a binning block holds: the blocks take them in groups of MAX_BINS. Every
    tile's list is as long as the CPU's count says and the frame is the reference's."""
    monkeypatch.setattr("render.circles.constants.BIN_PIXELS", widest)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    scene = build_scene(name)
    renderer.load(scene, size, size)
    strategy = renderer.strategy
    assert strategy.bins > 256 and strategy.bin_groups == -(-strategy.bins // strategy.bin_group) > 1
    frame = 2 if renderer.animated else 0
    renderer.poison()
    assert compare_images(reference_frame(name, size, frame), render_frame(renderer, frame)).passed
    assert strategy._entries_last_seen() <= strategy.capacity  # the lists were used, not every circle
    if not renderer.animated:  # the CPU counts the scene as built
        expected = candidate_counts(scene, renderer.resolved, size, size)
        assert np.array_equal(renderer.candidate_counts(), expected)


def test_growing_circles_keep_every_frame_exact():
    # The hypnosis rule grows every radius by 0.01 a frame, so the bin lists outgrow the capacity
    # sized at load (about 4 entries per circle at first, up to 200 at radius 0.5).
    arrays = empty_arrays(100)
    arrays["position"][:, :2] = np.random.default_rng(3).random((100, 2))
    arrays["radius"][:] = 0.02
    arrays["color"][:] = [0.2, 0.6, 0.9]
    scene = CircleScene("growing", **arrays, animation="hypnosis")
    cpu, cuda = ReferenceRenderer(), CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    cpu.load(scene, 512, 512)
    cuda.load(scene, 512, 512)
    start = cuda.strategy.capacity
    for frame in range(45):
        cuda.poison()
        assert compare_images(render_frame(cpu, 0), render_frame(cuda, 0)).passed, frame
    assert cuda.strategy.capacity > 4 * start


@pytest.mark.parametrize("name, size, widest", [("bouncingballs", 1024, 128), ("bouncingballs", 2048, 32)])
def test_each_frame_places_its_own_lists(monkeypatch, name, size, widest):
    """The last block of the scan places the lists and sets the count of finished blocks back to 0,
    so that every frame's scan places again: moving circles change the counts each frame, and each
    frame's list starts are the running sum of that frame's totals (4,096 bins at 2048: sixteen
    segments of the sum)."""
    import cupy

    monkeypatch.setattr("render.circles.constants.BIN_PIXELS", widest)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene(name), size, size)
    strategy = renderer.strategy
    starts = []
    for frame in range(3):
        strategy.bin_start.fill(-7)
        render_frame(renderer, 0)  # one advance a call: the next frame
        totals = cupy.asnumpy(strategy.bin_total)
        start = cupy.asnumpy(strategy.bin_start)
        assert int(strategy._scans_finished[0]) == 0
        assert np.array_equal(start, np.concatenate([[0], np.cumsum(totals)])), frame
        assert strategy._entries_last_seen() == start[-1]
        starts.append(start)
    assert not np.array_equal(starts[0], starts[2])  # the circles moved: other lists


def test_not_a_multiple_of_tile_and_snowflakes(reference_frame, gpu_frame):
    for variant in (
        "tile-warp",
        "tile-warp:tile=64,bins=off",
        "tile-warp:walk=cell",
        "tile-warp:tile=64,walk=cell",
        "tile-warp:pixels=8",
        "tile-warp:pixels=8,walk=cell",
    ):
        for size in (100, 257, 1000):
            assert compare_images(reference_frame("rand10k", size), gpu_frame("rand10k", variant, size)).passed
        assert compare_images(reference_frame("snowsingle", 257), gpu_frame("snowsingle", variant, 257)).passed


@pytest.mark.parametrize("variant", ["tile-warp", "tile-warp:walk=cell", "tile-warp:tile=64,walk=cell,bins=off"])
def test_discs_whose_squares_overflow_float32_cover_their_whole_box(variant):
    """With r * r and the distance's squares infinite, the reference's test (inf <= inf) covers every
    pixel of the circle's box, and a cell's reach (inf - inf) must too; at a width unlike the height."""
    arrays = empty_arrays(3)
    arrays["position"][:] = [[1e30, 1e30, 0.5], [0.5, -2e19, 0.5], [0.3, 0.6, 0.5]]
    arrays["radius"][:] = [1e30, 3e19, 0.2]
    arrays["color"][:] = [[0.9, 0.1, 0.2], [0.1, 0.8, 0.3], [0.2, 0.3, 0.9]]
    scene = CircleScene("overflow", **arrays)
    cpu, cuda = ReferenceRenderer(), CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    cpu.load(scene, 80, 48)
    cuda.load(scene, 80, 48)
    want = render_frame(cpu, 0)
    assert not np.allclose(want[0, 0, :3], 1.0)  # the overflowing discs cover the corner
    cuda.poison()
    assert compare_images(want, render_frame(cuda, 0)).passed


def _awkward_alphas(shape, rng) -> np.ndarray:
    """float32 alphas of `shape`: multiples of 1/2 (which take covering circles' steps in one
    addition), with a few warps' worth of values that must take them one by one: not multiples of
    1/2, past 2^22, near 2^23 (where a step rounds), infinite, NaN; and -0 and subnormals (which the
    GPU's -ftz build flushes where NumPy rounds them away: the same steps)."""
    alpha = (rng.integers(-200, 4000, shape) / 2).astype(np.float32)
    awkward = np.array(
        [0.1, 1 / 3, -3.25, 4194304.5, 8388607.5, 1e30, np.inf, -np.inf, np.nan, -0.0, 1e-40, -1e-40], np.float32
    )
    spots = rng.random(shape) < 0.002
    alpha[spots] = rng.choice(awkward, int(spots.sum()))
    alpha[:8, :16] = -0.0
    return alpha


@pytest.mark.parametrize("variant", ["tile-warp", "tile-warp:bins=off", "tile-warp:tile=64", "tile-warp:pixels=8"])
@pytest.mark.parametrize("name, size", [("biglittle", 256), ("rand100k", 320)])
def test_alpha_steps_left_by_covering_circles_match_steps_in_order(variant, name, size):
    """Bit for bit, alpha included, against the reference: frame 0, then a render without a clear over
    an image whose alphas are awkward (_awkward_alphas), where the steps of the circles that cover a
    warp's whole region, taken at the end, must give what each circle's step in order gives."""
    import cupy

    scene = build_scene(name)
    cpu, cuda = ReferenceRenderer(), CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    cpu.load(scene, size, size)
    cuda.load(scene, size, size)
    cuda.poison()
    assert np.array_equal(render_frame(cpu, 0).view(np.uint32), render_frame(cuda, 0).view(np.uint32))
    rng = np.random.default_rng(7)
    start = rng.uniform(-1.0, 2.0, (size, size, 4)).astype(np.float32)
    start[..., 3] = _awkward_alphas((size, size), rng)
    cpu._image[...] = start
    cuda.device_image()[...] = cupy.asarray(start)
    cpu.render()
    cuda.render()
    want, got = cpu.image(), cuda.image()
    assert not np.array_equal(want[..., 3].view(np.uint32), start[..., 3].view(np.uint32))
    # NaN stays NaN on both, its bits the CPU's or the GPU's own: compared as NaN, the rest bit for bit.
    nan = np.isnan(want) & np.isnan(got)
    assert nan.any() and np.array_equal(np.where(nan, 0, want.view(np.uint32)), np.where(nan, 0, got.view(np.uint32)))


def _both_emissions(monkeypatch, name, size):
    """tile-warp loaded on the built-in scene `name` at `size`, its bin lists emitted by a warp a bin,
    then by four threads a bin; yields each renderer with its lists filled with -1."""
    import cupy

    for sparse_up_to in (0, 1 << 30):
        monkeypatch.setattr("render.circles.constants.SPARSE_BIN_ENTRIES", sparse_up_to)
        renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
        renderer.load(build_scene(name), size, size)
        assert renderer.strategy.sparse_emit == (sparse_up_to > 0)
        renderer.strategy.lists.view(cupy.int32).fill(-1)
        yield renderer


@pytest.mark.parametrize(
    "name, size, widest, index_entries",
    [
        ("micro2M", 1024, 128, False),  # the scene the sparse path is for
        ("rand1M", 1000, 128, True),  # entries of the index alone, the last row and column of bins cut
        ("rand100k", 256, 128, False),  # dense bins: a warp a bin where the threshold picks
        ("rand10k", 1024, 32, False),  # 4 groups of bins
        ("biglittle", 1056, 32, False),  # 5 groups, the last of 65 bins; some bins get every circle
        ("snowsingle", 512, 128, True),
        ("bouncingballs", 1024, 128, False),  # binned where the circles have moved to
    ],
)
def test_sparse_bins_emit_the_lists_that_a_warp_a_bin_does(
    monkeypatch, reference_frame, poisoned_allocations, name, size, widest, index_entries
):
    """Four threads a bin reading only its filled words write, entry for entry, the lists that a
    warp reading every word of the bin writes, and the frames are the reference's."""
    import cupy

    monkeypatch.setattr("render.circles.constants.BIN_PIXELS", widest)
    if index_entries:
        monkeypatch.setattr("render.circles.constants.INDEX_ENTRIES_FROM", 1)
    lists = []
    for renderer in _both_emissions(monkeypatch, name, size):
        strategy = renderer.strategy
        frame = 2 if renderer.animated else 0
        renderer.poison()
        assert compare_images(reference_frame(name, size, frame), render_frame(renderer, frame)).passed
        entries = strategy._entries_last_seen()
        assert 0 < entries <= strategy.capacity
        lists.append(cupy.asnumpy(strategy.lists[:entries].view(cupy.int32)))
    assert np.array_equal(lists[0], lists[1])


@pytest.mark.parametrize("name, size", [("micro2M", 1024), ("rand100k", 256)])
def test_sparse_bins_drop_what_overflows_as_a_warp_a_bin_does(monkeypatch, reference_frame, shorten_lists, name, size):
    """Lists shorter than their entries: both emissions write the same first `capacity` entries and
    drop the rest, and the frame, drawn from every circle, is the reference's."""
    import cupy

    lists = []
    for renderer in _both_emissions(monkeypatch, name, size):
        strategy = renderer.strategy
        entries = int(strategy.bin_total.sum())
        shorten_lists(strategy, entries // 2)
        renderer.poison()
        assert compare_images(reference_frame(name, size), render_frame(renderer, 0)).passed
        assert strategy._entries_last_seen() == entries
        kept = cupy.asnumpy(strategy.lists.view(cupy.int32))
        written = kept[: entries // 2]
        assert (written != -1).all()  # every field of every entry below the capacity (x, y, r are finite)
        assert (kept[entries // 2 :] == -1).all()  # nothing past it
        lists.append(written)
    assert np.array_equal(lists[0], lists[1])


def _order_steps(strategy) -> np.ndarray:
    """int (tiles,): the step of each tile's bin as scan_bin_counts ranks it (0 for the fullest),
    in the kernel's float32 arithmetic."""
    import cupy

    totals = cupy.asnumpy(strategy.bin_total)
    cols, rows = strategy.grid
    side = strategy.tiles_per_bin
    tile_y, tile_x = np.divmod(np.arange(cols * rows), cols)
    per_tile = totals[(tile_y // side) * strategy.bins_x + tile_x // side]
    per_step = np.float32(ORDER_STEPS) / (np.float32(totals.max()) + np.float32(1))
    steps = (per_tile.astype(np.float32) * per_step).astype(np.int64)
    return ORDER_STEPS - 1 - np.minimum(steps, ORDER_STEPS - 1)


@pytest.mark.parametrize(
    "variant, name, size",
    [
        ("tile-warp", "snowsingle", 1024),
        ("tile-warp", "snowsingle", 257),
        ("tile-warp", "snow", 512),
        ("tile-warp:pixels=8", "rand100k", 1024),
        ("tile-warp:pixels=8", "bouncingballs", 333),
    ],
)
def test_tiles_are_blended_fullest_bin_first(variant, name, size):
    """Each binning writes every tile once, those of the bins with the most entries first, for the
    frame it bins: a moving scene's order follows its circles."""
    import cupy

    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    renderer.load(build_scene(name), size, size)
    strategy = renderer.strategy
    render_frame(renderer, 60)  # snow's flakes fall in from above the picture
    for _ in range(2):
        strategy.tile_order.fill(-1)
        render_frame(renderer, 0)
        order = cupy.asnumpy(strategy.tile_order)
        assert np.array_equal(np.sort(order), np.arange(strategy.grid[0] * strategy.grid[1]))
        every = _order_steps(strategy)
        steps = every[order]
        # The fullest bin is at step 0 where it holds ORDER_STEPS - 1 entries or more (bouncingballs' 10
        # circles do not).
        assert np.all(np.diff(steps) >= 0) and steps[0] == every.min() < steps[-1] == every.max()


@pytest.mark.parametrize("scene", ["rand10k", "snowsingle", "fading"])
def test_snowflakes_and_fused_flat_warp_walks_of_8_pixels_take_the_order_and_the_rest_launch_order(scene):
    """Every configuration with lists: an order for snowflakes and for flat circles walked by warps at
    8 pixels a thread in 32-pixel tiles with the fused blend (not fading's tiny colors), none for the
    others; none with lists off."""
    circles = _fading_scene() if scene == "fading" else build_scene(scene)
    fused = bool(TileWarp.scene_defines({}, circles, 64, 64)["FUSED"])
    assert fused == (scene == "rand10k")
    for choice in CIRCLE_VARIANTS.configurations():
        if choice.name != "tile-warp":
            continue
        renderer = CudaRenderer(choice)
        renderer.load(circles, 64, 64)
        options = dict(choice.options)
        flat_8 = (options["tile"], options["pixels"], options["walk"]) == ("32", "8", "warp") and fused
        ordered = options["bins"] == "on" and (circles.snowflake or flat_8)
        assert (renderer.strategy.tile_order is not None) == ordered, choice.label()


@pytest.mark.parametrize("variant, name", [("tile-warp:pixels=8", "rand10k"), ("tile-warp", "snowsingle")])
def test_a_blend_that_takes_the_order_blends_the_tiles_it_names(variant, name):
    """Given an order that names tile 0 for every block, the blend paints tile 0 alone and leaves the
    rest of a poisoned image as it was."""
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    renderer.load(build_scene(name), 96, 96)
    strategy = renderer.strategy
    render_frame(renderer, 0)  # bins the frame: lists and an order
    renderer.poison()
    strategy.tile_order.fill(0)
    image = renderer.image_buffer
    strategy.blend(renderer.scene, image, 96, 96, renderer._cleared_frame())
    painted = ~np.isnan(image.get()).any(axis=2)
    tile = strategy.tile
    assert painted[:tile, :tile].all() and painted.sum() == tile * tile


@pytest.mark.parametrize(
    "variant, name, size",
    [
        (variant, name, size)
        for variant in ("tile-warp", "tile-warp:walk=cell", "tile-warp:tile=64")
        for name, size in (("snowsingle", 1024), ("snowsingle", 257), ("snow", 512))
    ]
    + [("tile-warp:pixels=8", "rand100k", 1024), ("tile-warp:pixels=8", "bouncingballs", 333)],
)
def test_tiles_in_order_blend_what_tiles_in_launch_order_do(monkeypatch, variant, name, size):
    """Bit for bit, alpha too: frame 60, the next (a moving scene's flakes move), and a render of
    it without a clear."""
    images = []
    for ordered in (True, False):
        monkeypatch.setattr(TileWarp, "orders_tiles", ordered)
        renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
        renderer.load(build_scene(name), size, size)
        assert (renderer.strategy.tile_order is not None) == ordered
        renderer.poison()
        frames = [render_frame(renderer, 60), render_frame(renderer, 0)]
        renderer.render()
        images.append(frames + [renderer.image()])
    for ordered, launched in zip(*images, strict=True):
        assert np.array_equal(ordered.view(np.uint32), launched.view(np.uint32))
