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
        ("pattern", "tile-warp:bins=off,tile=32,walk=warp"),  # too few circles for the lists to pay
        ("biglittle", "tile-warp:bins=off,tile=32,walk=warp"),  # its big circles fill every list
        ("rand10k", "tile-warp:bins=on,tile=32,walk=warp"),
        ("rand100k", "tile-warp:bins=on,tile=32,walk=warp"),
        ("snowsingle", "tile-warp:bins=on,tile=32,walk=warp"),  # snowflakes are walked by warps
        ("rand1M", "tile-warp:bins=on,tile=32,walk=warp"),  # 12 pixels across on average
        ("micro2M", "tile-warp:bins=on,tile=32,walk=cell"),  # 1 pixel
    ],
)
def test_auto_on_the_course_scenes(name, label):
    assert choose_auto(build_scene(name), 1024, 1024).label() == label


def test_auto_weighs_circle_count_and_size():
    rng = np.random.default_rng(0)
    small = rng.random((6000, 2))
    assert choose_auto(_circles(small, 0.01), 1024, 1024).label() == "tile-warp:bins=on,tile=32,walk=warp"
    assert choose_auto(_circles(small, 0.2), 1024, 1024).label() == "tile-warp:bins=off,tile=32,walk=warp"
    assert choose_auto(_circles(small[:4000], 0.01), 1024, 1024).label() == "tile-warp:bins=off,tile=32,walk=warp"


def test_auto_walks_flat_circles_of_a_few_pixels_by_cells():
    """Cells walk flat circles of at most 8 pixels of mean radius at the size drawn, binned or not."""
    centers = np.random.default_rng(1).random((6000, 2))
    assert choose_auto(_circles(centers, 8 / 1024), 1024, 1024).label() == "tile-warp:bins=on,tile=32,walk=cell"
    assert choose_auto(_circles(centers, 9 / 1024), 1024, 1024).label() == "tile-warp:bins=on,tile=32,walk=warp"
    assert choose_auto(_circles(centers, 8 / 1024), 2048, 1024).label().endswith("walk=warp")  # 16 px wide
    assert choose_auto(_circles(centers[:4000], 2 / 1024), 1024, 1024).label() == "tile-warp:bins=off,tile=32,walk=cell"
    snow = _circles(centers, 2 / 1024)
    snow.shading = "snowflake"
    assert snow.snowflake and choose_auto(snow, 1024, 1024).label().endswith("walk=warp")
