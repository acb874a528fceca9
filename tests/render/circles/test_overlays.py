"""The circle overlays on the CPU: depth against a hand-made scene's hand-counted pixels and against
a test of every pixel with every circle; candidates against a per-tile walk over every circle with
the spec's tile tests, for every binning variant on small built-in and edge scenes; tile-warp's
warp skips against a walk over every warp region; each variant's tile grid; the cells helper the
counts are built on."""

import numpy as np
import pytest

from render.circles.cells import box_cells
from render.circles.overlays import candidate_counts, depth_counts, variant_grid
from render.circles.shading import pixel_bounds, pixel_centers
from render.circles.tile_warp import tile_warp_bins, warp_region
from render.circles.variants import VARIANTS
from render.circles.warp_skip import warp_skip_fractions
from render.core.grids import grid_2d
from scenes.builtin import build_scene
from scenes.model import CircleScene, empty_arrays

f32 = np.float32
BINNING = [c.label() for c in VARIANTS.configurations() if c.name != "tile-scan" or c.option("scan") == "warp"]


def hand_scene() -> CircleScene:
    """On an 8 x 8 image (pixel centers at odd sixteenths): twice a circle of radius 1/4 at the
    middle, and one of radius 1/8 on pixel (0, 0)'s center, which reaches exactly the centers of
    (1, 0) and (0, 1): the inclusive test counts them. Every figure is exact in float32."""
    arrays = empty_arrays(3)
    arrays["position"][:] = [[0.5, 0.5, 0], [0.0625, 0.0625, 0], [0.5, 0.5, 0]]
    arrays["radius"][:] = [0.25, 0.125, 0.25]
    return CircleScene("hand", **arrays)


# Row 0 = bottom. The middle circles cover the 4 middle pixels (dx = dy = 1/16) and the 8 with one
# offset 1/16 and the other 3/16 (1/256 + 9/256 <= 16/256), not (3/16, 3/16) (18/256).
HAND_DEPTH = np.array(
    [
        [1, 1, 0, 0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 2, 2, 0, 0, 0],
        [0, 0, 2, 2, 2, 2, 0, 0],
        [0, 0, 2, 2, 2, 2, 0, 0],
        [0, 0, 0, 2, 2, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
    ],
    np.int32,
)


def test_depth_of_the_hand_made_scene():
    assert np.array_equal(depth_counts(hand_scene(), 8, 8), HAND_DEPTH)


def every_pixel_depth(scene: CircleScene, width: int, height: int) -> np.ndarray:
    """The blend's test for every pixel and every circle, no pixel box."""
    dx = pixel_centers(width)[None, :] - scene.position[:, 0:1]  # (N, W)
    dy = pixel_centers(height)[None, :] - scene.position[:, 1:2]  # (N, H)
    with np.errstate(over="ignore"):
        r2 = scene.radius * scene.radius
        covered = (dx * dx)[:, None, :] + (dy * dy)[:, :, None] <= r2[:, None, None]
    return covered.sum(axis=0).astype(np.int32)


@pytest.mark.parametrize("name,size", [("rgb", 64), ("rgb", 257), ("rgby", 100), ("pattern", 96)])
def test_depth_of_built_in_scenes_equals_every_pixels_test(name, size):
    scene = build_scene(name)
    assert np.array_equal(depth_counts(scene, size, size), every_pixel_depth(scene, size, size))


@pytest.mark.parametrize("size", [64, 257])
def test_depth_of_edge_scenes_equals_every_pixels_test(edge_scenes, edge_scene_name, size):
    scene = edge_scenes[edge_scene_name]()
    assert np.array_equal(depth_counts(scene, size, size), every_pixel_depth(scene, size, size))


def test_depth_counts_the_circles_sitting_on_pixel_centers(edge_scenes):
    depth = depth_counts(edge_scenes["subpixel"](), 1000, 1000)
    assert depth.sum() == 11 and depth.max() == 1  # the 11 on centres, one pixel each; the rest miss


def pixels_box(x0: int, y0: int, w: int, h: int, width: int, height: int):
    """The box of pixels [x0, x0 + w) x [y0, y0 + h), cut at the edge, in float32."""
    inv_w, inv_h = f32(1) / f32(width), f32(1) / f32(height)
    return (f32(x0) * inv_w, f32(min(x0 + w, width)) * inv_w, f32(y0) * inv_h, f32(min(y0 + h, height)) * inv_h)


def tile_box(tx: int, ty: int, size: int, width: int, height: int):
    """The spec's tile box of pixels [tx * size, (tx + 1) * size) x ..., cut at the edge, in float32."""
    return pixels_box(tx * size, ty * size, size, size, width, height)


def passes(scene: CircleScene, box, exact: bool) -> np.ndarray:
    """The spec's tile tests of every circle against ``box``."""
    x, y, r = scene.position[:, 0], scene.position[:, 1], scene.radius
    left, right, bottom, top = box
    with np.errstate(over="ignore", invalid="ignore"):
        if exact:
            dx = np.minimum(np.maximum(x, left), right) - x
            dy = np.minimum(np.maximum(y, bottom), top) - y
            return dx * dx + dy * dy <= r * r * f32(1.0001)
        return (x >= left - r) & (x <= right + r) & (y >= bottom - r) & (y <= top + r)


def walked_candidates(scene: CircleScene, label: str, width: int, height: int) -> np.ndarray:
    """Per tile, every circle tried: (rows, cols) counts of the circles the variant tests there."""
    choice = VARIANTS.parse(label)
    grid = variant_grid(choice, width, height)
    counts = np.zeros((grid.rows, grid.cols), np.int32)
    if choice.name == "per-pixel" or (choice.name == "tile-warp" and choice.option("bins") == "off"):
        return counts + scene.count
    bounds = pixel_bounds(scene.position, scene.radius, width, height)
    has_pixels = (bounds[:, 0] < bounds[:, 1]) & (bounds[:, 2] < bounds[:, 3])
    if choice.name == "tile-warp":
        per_side = tile_warp_bins(width, height, grid.width)[0]
        size = grid.width * per_side
        for ty in range(grid.rows):
            for tx in range(grid.cols):
                bx, by = tx // per_side, ty // per_side
                spans = _spans(bounds, size, bx, by) & has_pixels
                counts[ty, tx] = (spans & passes(scene, tile_box(bx, by, size, width, height), True)).sum()
        return counts
    exact = choice.option("test") == "exact"
    for ty in range(grid.rows):
        for tx in range(grid.cols):
            hit = passes(scene, tile_box(tx, ty, grid.width, width, height), exact)
            if choice.name == "tile-sort":  # keys only for the tiles of a circle's pixel box
                hit &= _spans(bounds, grid.width, tx, ty) & has_pixels
            counts[ty, tx] = hit.sum()
    return counts


def _spans(bounds: np.ndarray, size: int, cx: int, cy: int) -> np.ndarray:
    """Whether each circle's pixel box reaches cell (cx, cy) of ``size`` pixels."""
    x0, x1, y0, y1 = bounds.T
    return (x0 // size <= cx) & (cx <= (x1 - 1) // size) & (y0 // size <= cy) & (cy <= (y1 - 1) // size)


@pytest.mark.parametrize("label", BINNING)
@pytest.mark.parametrize("name,size", [("rgb", 100), ("rand10k", 200), ("biglittle", 257), ("pattern", 300)])
def test_candidates_of_built_in_scenes_equal_a_walk_over_every_tile(label, name, size):
    scene = build_scene(name)
    got = candidate_counts(scene, VARIANTS.parse(label), size, size)
    assert np.array_equal(got, walked_candidates(scene, label, size, size))


@pytest.mark.parametrize("label", BINNING)
def test_candidates_of_edge_scenes_equal_a_walk_over_every_tile(edge_scenes, edge_scene_name, label):
    scene = edge_scenes[edge_scene_name]()
    got = candidate_counts(scene, VARIANTS.parse(label), 257, 257)
    assert np.array_equal(got, walked_candidates(scene, label, 257, 257))


def test_candidates_by_hand_where_the_tile_tests_and_the_pixel_box_disagree():
    """At 256 with 16-pixel tiles: circle A at (-0.04, -0.04), r 0.05, misses pixel (0, 0)'s tile by
    the exact test (the corner is 0.057 away) but not by the box test, and has a pixel box; circle B
    at (1.5, 0.5), r 0.5, touches the right column's boxes (x - r is exactly 1) but has no pixel."""
    arrays = empty_arrays(2)
    arrays["position"][:] = [[-0.04, -0.04, 0], [1.5, 0.5, 0]]
    arrays["radius"][:] = [0.05, 0.5]
    scene = CircleScene("hand-tiles", **arrays)

    def counts(label):
        return candidate_counts(scene, VARIANTS.parse(label), 256, 256)

    box, exact, sort = counts("tile-scan:test=box"), counts("tile-scan:test=exact"), counts("tile-sort:test=box")
    assert box[0, 0] == 1 and box[:, 15].sum() == 16 and box.sum() == 17  # A at the corner, B down the edge
    assert exact[7, 15] == exact[8, 15] == 1 and exact.sum() == 2  # B only where y = 0.5 is on the tile
    assert sort[0, 0] == 1 and sort.sum() == 1  # B has no pixel, so no key


@pytest.mark.parametrize(
    "label,cell", [("per-pixel", (16, 16)), ("tile-scan:tile=32", (32, 32)), ("tile-warp:tile=64", (64, 64))]
)
def test_each_variant_has_the_grid_of_its_blocks(label, cell):
    grid = variant_grid(VARIANTS.parse(label), 1000, 300)
    assert (grid.width, grid.height) == cell
    assert (grid.cols, grid.rows) == grid_2d(1000, 300, cell)


def test_box_cells_gives_every_cell_once_in_chunks_of_any_size():
    rng = np.random.default_rng(3)
    x0, y0 = rng.integers(0, 50, 40), rng.integers(0, 50, 40)
    x1, y1 = x0 + rng.integers(-2, 30, 40), y0 + rng.integers(-2, 30, 40)
    expected = sorted((i, x, y) for i in range(40) for y in range(y0[i], y1[i]) for x in range(x0[i], x1[i]))
    for chunk in (1, 7, 100, 10**6):
        parts = list(box_cells(x0, x1, y0, y1, chunk))
        assert all(len(item) <= max(chunk, 31) for item, _, _ in parts)  # a box's row: 31 at most
        columns = [np.concatenate([part[k] for part in parts]).tolist() for k in range(3)]
        got = sorted(zip(*columns, strict=True))
        assert got == expected


def one_circle(x: float, y: float, r: float) -> CircleScene:
    arrays = empty_arrays(1)
    arrays["position"][:] = [[x, y, 0]]
    arrays["radius"][:] = [r]
    return CircleScene("huge", **arrays)


@pytest.mark.parametrize(
    "circle,size",
    [
        ((0.5, -399.5, 400.0), 1024),  # an arc across the image: the exact test's slack is tiles wide
        ((0.5, -200000.0, 200000.5), 1024),  # a horizon
        ((131073.0, 0.5, 131072.0), 2048),  # right + r rounds up by a whole unit in float32
        ((-3e38, -3e38, 3e38), 256),  # sums at the edge of float32
        ((1e30, 1e30, 1e30), 64),  # r * r is inf: it covers everything
    ],
)
@pytest.mark.parametrize("label", ["tile-scan:test=box", "tile-scan:test=exact", "tile-sort:test=exact", "tile-warp"])
def test_candidates_of_huge_circles_equal_a_walk_over_every_tile(circle, size, label):
    scene = one_circle(*circle)
    got = candidate_counts(scene, VARIANTS.parse(label), size, size)
    assert np.array_equal(got, walked_candidates(scene, label, size, size))


@pytest.mark.parametrize("circle", [(1e30, 1e30, 1e30), (0.5, -399.5, 400.0), (0.5, 0.5, 3e19)])
def test_depth_of_huge_circles_equals_every_pixels_test(circle, recwarn):
    scene = one_circle(*circle)
    assert np.array_equal(depth_counts(scene, 64, 64), every_pixel_depth(scene, 64, 64))
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning) and "overlays" in w.filename]


TILE_WARP = [c.label() for c in VARIANTS.configurations() if c.name == "tile-warp"]


def walked_warp_skips(scene: CircleScene, label: str, width: int, height: int) -> np.ndarray:
    """Per warp region, every circle tried: the share of its tile's staged circles (candidates that
    touch the tile) that miss the region, float32 (rows, cols), 0 where none is staged."""
    choice = VARIANTS.parse(label)
    tile = variant_grid(choice, width, height).width
    region_w, region_h = warp_region(int(choice.option("pixels")))
    rows, cols = -(-height // region_h), -(-width // region_w)
    bounds = pixel_bounds(scene.position, scene.radius, width, height)
    has_pixels = (bounds[:, 0] < bounds[:, 1]) & (bounds[:, 2] < bounds[:, 3])
    per_side = tile_warp_bins(width, height, tile)[0]
    skips = np.zeros((rows, cols), np.float32)
    for ry in range(rows):
        for rx in range(cols):
            tx, ty = rx * region_w // tile, ry * region_h // tile
            staged = passes(scene, tile_box(tx, ty, tile, width, height), True)
            if choice.option("bins") == "on" and scene.count:
                bx, by, size = tx // per_side, ty // per_side, tile * per_side
                staged &= (
                    _spans(bounds, size, bx, by)
                    & has_pixels
                    & passes(scene, tile_box(bx, by, size, width, height), True)
                )
            region = pixels_box(rx * region_w, ry * region_h, region_w, region_h, width, height)
            touched = staged & passes(scene, region, True)
            skips[ry, rx] = 1 - touched.sum() / staged.sum() if staged.sum() else 0
    return skips


@pytest.mark.parametrize("label", TILE_WARP)
@pytest.mark.parametrize("name,size", [("rgb", 100), ("rand10k", 200), ("biglittle", 257), ("pattern", 300)])
def test_warp_skips_of_built_in_scenes_equal_a_walk_over_every_region(label, name, size):
    scene = build_scene(name)
    got = warp_skip_fractions(scene, VARIANTS.parse(label), size, size)
    assert got.dtype == np.float32 and np.array_equal(got, walked_warp_skips(scene, label, size, size))


@pytest.mark.parametrize("label", TILE_WARP)
def test_warp_skips_of_edge_scenes_equal_a_walk_over_every_region(edge_scenes, edge_scene_name, label):
    scene = edge_scenes[edge_scene_name]()
    got = warp_skip_fractions(scene, VARIANTS.parse(label), 257, 257)
    assert np.array_equal(got, walked_warp_skips(scene, label, 257, 257))


def test_warp_skips_by_hand():
    """At 64 x 64 with 32-pixel tiles (16 x 8 warp regions): a circle inside the bottom-left region
    of the bottom-left tile is tested by that tile's 8 warps, and all but one skip it; a circle over
    the whole image is blended by every warp. Tiles with nothing staged skip nothing."""
    scene = one_circle(4 / 64, 4 / 64, 2 / 64)
    got = warp_skip_fractions(scene, VARIANTS.parse("tile-warp:tile=32"), 64, 64)
    expected = np.zeros((8, 4), np.float32)
    expected[:4, :2] = 1
    expected[0, 0] = 0
    assert np.array_equal(got, expected)
    cover = warp_skip_fractions(one_circle(0.5, 0.5, 2.0), VARIANTS.parse("tile-warp:tile=32"), 64, 64)
    assert not cover.any()


def test_with_bins_a_circle_far_off_the_image_costs_warp_skip_no_cells(monkeypatch):
    """A huge circle far off the image passes every tile test (the exact test's slack grows with r)
    but is in no bin's list: with bins its cells are not visited at all, without them they count."""
    import render.circles.warp_skip as warp_skip

    visited = []

    def counting(*ranges):
        for chunk in box_cells(*ranges):
            visited.append(len(chunk[0]))
            yield chunk

    monkeypatch.setattr(warp_skip, "box_cells", counting)
    far = one_circle(1e6, 0.5, 999998.0)
    assert not warp_skip_fractions(far, VARIANTS.parse("tile-warp"), 256, 256).any() and sum(visited) == 0
    skips = warp_skip_fractions(far, VARIANTS.parse("tile-warp:bins=off"), 256, 256)
    assert sum(visited) > 0 and np.array_equal(skips, walked_warp_skips(far, "tile-warp:bins=off", 256, 256))
