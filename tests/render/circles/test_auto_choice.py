"""What ``auto`` runs for a scene (no GPU needed): the rule of ``choose_auto`` and the list-length
estimate it reads, ``candidate_cut``."""

import numpy as np
import pytest

from render.circles.auto import candidate_cut, choose_auto
from scenes.builtin import build_scene
from scenes.model import CircleScene, empty_arrays


def _circles(centers, radius: float) -> CircleScene:
    """Circles of one radius at ``centers`` ((N, 2) in [0, 1]^2)."""
    centers = np.asarray(centers, np.float32).reshape(-1, 2)
    arrays = empty_arrays(len(centers))
    arrays["position"][:, :2] = centers
    arrays["radius"][:] = radius
    return CircleScene("test", **arrays)


def test_candidate_cut_counts_the_bins_each_bounding_box_meets():
    # At 1024x1024, tile-warp's 256 bins are 64 px squares. A circle inside one bin makes one entry;
    # one across a bin corner makes four.
    inside = _circles([(32.5 / 1024, 32.5 / 1024)], 4 / 1024)
    assert candidate_cut(inside.position, inside.radius, 1024, 1024) == pytest.approx(256)
    corner = _circles([(64 / 1024, 64 / 1024)], 4 / 1024)
    assert candidate_cut(corner.position, corner.radius, 1024, 1024) == pytest.approx(64)
    everywhere = _circles([(0.5, 0.5)], 0.75)
    assert candidate_cut(everywhere.position, everywhere.radius, 1024, 1024) == pytest.approx(1)


@pytest.mark.parametrize(
    "name, label",
    [
        ("rgb", "per-pixel"),
        ("pattern", "tile-warp:bins=off,pixels=4,tile=32,walk=warp"),  # too few circles for the lists to pay
        # Big circles, 8 pixels a thread, and lists: they cut biglittle's candidates 5x, from 4x at 8 pixels.
        ("biglittle", "tile-warp:bins=on,pixels=8,tile=32,walk=warp"),
        ("rand10k", "tile-warp:bins=on,pixels=8,tile=32,walk=warp"),  # 51 pixels of mean radius
        ("rand100k", "tile-warp:bins=on,pixels=8,tile=32,walk=warp"),
        ("snowsingle", "tile-warp:bins=on,pixels=4,tile=32,walk=warp"),  # snowflakes are walked by warps
        ("rand1M", "tile-warp:bins=on,pixels=4,tile=32,walk=warp"),  # 12 pixels across on average
        ("micro2M", "tile-warp:bins=on,pixels=4,tile=32,walk=cell"),  # 1 pixel
    ],
)
def test_auto_on_the_course_scenes(name, label):
    assert choose_auto(build_scene(name), 1024, 1024).label() == label


def test_auto_weighs_circle_count_and_size():
    rng = np.random.default_rng(0)
    small = rng.random((6000, 2))
    assert choose_auto(_circles(small, 0.01), 1024, 1024).label() == "tile-warp:bins=on,pixels=4,tile=32,walk=warp"
    # Circles of 200 pixels, whose lists cut fewer than 10x, in an image too small for 8 pixels a thread.
    assert choose_auto(_circles(small, 0.2), 1000, 1000).label() == "tile-warp:bins=off,pixels=4,tile=32,walk=warp"
    assert (
        choose_auto(_circles(small[:4000], 0.01), 1024, 1024).label() == "tile-warp:bins=off,pixels=4,tile=32,walk=warp"
    )


def test_auto_walks_flat_circles_of_a_few_pixels_by_cells():
    """Cells walk flat circles of at most 8 pixels of mean radius at the size drawn, binned or not."""
    centers = np.random.default_rng(1).random((6000, 2))
    assert (
        choose_auto(_circles(centers, 8 / 1024), 1024, 1024).label() == "tile-warp:bins=on,pixels=4,tile=32,walk=cell"
    )
    assert (
        choose_auto(_circles(centers, 9 / 1024), 1024, 1024).label() == "tile-warp:bins=on,pixels=4,tile=32,walk=warp"
    )
    assert choose_auto(_circles(centers, 8 / 1024), 2048, 1024).label().endswith("walk=warp")  # 16 px wide
    assert (
        choose_auto(_circles(centers[:4000], 2 / 1024), 1024, 1024).label()
        == "tile-warp:bins=off,pixels=4,tile=32,walk=cell"
    )
    snow = _circles(centers, 2 / 1024)
    snow.shading = "snowflake"
    assert snow.snowflake and choose_auto(snow, 1024, 1024).label().endswith("walk=warp")


def test_auto_blends_wide_flat_circles_8_pixels_a_thread_in_large_images():
    """From 40 pixels of mean radius at the size drawn, in images of 2^20 pixels or more; lists then
    pay from a fourfold cut of the candidates instead of tenfold."""
    centers = np.random.default_rng(2).random((6000, 2))
    assert (
        choose_auto(_circles(centers, 39 / 1024), 1024, 1024).label() == "tile-warp:bins=on,pixels=4,tile=32,walk=warp"
    )
    assert (
        choose_auto(_circles(centers, 40 / 1024), 1024, 1024).label() == "tile-warp:bins=on,pixels=8,tile=32,walk=warp"
    )
    assert choose_auto(_circles(centers, 40 / 1024), 1024, 1023).label().startswith("tile-warp:bins=on,pixels=4")
    biglittle = build_scene("biglittle")
    assert choose_auto(biglittle, 512, 512).label() == "tile-warp:bins=off,pixels=4,tile=32,walk=warp"
    assert choose_auto(biglittle, 2048, 2048).label() == "tile-warp:bins=on,pixels=8,tile=32,walk=warp"
    big = _circles(centers[:4000], 0.2)  # too few circles for lists, whatever they cut
    assert choose_auto(big, 1024, 1024).label() == "tile-warp:bins=off,pixels=8,tile=32,walk=warp"
    snow = _circles(centers, 0.2)
    snow.shading = "snowflake"
    assert "pixels=4" in choose_auto(snow, 1024, 1024).label()
