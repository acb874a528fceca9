"""The variant table's rules on the CPU: options a kernel cannot build are refused with the reason, and
options left out (or left as they were, when one is changed) give way to values that build."""

import pytest

from render.circles.variants import VARIANTS
from render.core.variants import UnknownVariantError
from shaders import SHADER_DIR


def test_a_combination_the_kernel_cannot_build_is_refused_with_the_reason():
    with pytest.raises(UnknownVariantError) as refused:
        VARIANTS.parse("tile-warp:tile=64,pixels=4")
    assert str(refused.value) == (
        "variant tile-warp:tile=64,pixels=4: tile=64 takes pixels=8 (a 64-pixel tile blends 8 pixels a thread)"
    )


def test_a_kernel_file_has_no_options_to_change(tmp_path):
    kernel = VARIANTS.parse(f"file:{SHADER_DIR / 'user' / 'per_pixel.cu'}")
    with pytest.raises(UnknownVariantError, match="variant 'file' has no options"):
        VARIANTS.with_option(kernel, "tile", "64")


def test_options_left_out_take_values_that_build():
    assert VARIANTS.parse("tile-warp").label() == "tile-warp:bins=on,pixels=4,tile=32,walk=warp"
    assert VARIANTS.parse("tile-warp:tile=64").label() == "tile-warp:bins=on,pixels=8,tile=64,walk=warp"
    assert VARIANTS.parse("tile-warp:pixels=8").label() == "tile-warp:bins=on,pixels=8,tile=32,walk=warp"


def test_one_option_changed_moves_another_only_where_it_must():
    choice = VARIANTS.parse("tile-warp:walk=cell")
    tile_64 = VARIANTS.with_option(choice, "tile", "64")
    assert tile_64.label() == "tile-warp:bins=on,pixels=8,tile=64,walk=cell"
    assert VARIANTS.with_option(tile_64, "tile", "32").label() == "tile-warp:bins=on,pixels=8,tile=32,walk=cell"
    assert VARIANTS.with_option(tile_64, "pixels", "4").label() == "tile-warp:bins=on,pixels=4,tile=32,walk=cell"
    assert VARIANTS.with_option(tile_64, "bins", "off").label() == "tile-warp:bins=off,pixels=8,tile=64,walk=cell"


def test_configurations_hold_every_combination_that_builds_and_no_other():
    labels = {choice.label() for choice in VARIANTS.configurations() if choice.name == "tile-warp"}
    assert len(labels) == 12  # tiles of 32 at 4 or 8 pixels, of 64 at 8; two walks; lists on or off
    assert "tile-warp:bins=off,pixels=8,tile=32,walk=cell" in labels
    assert not any("pixels=4,tile=64" in label for label in labels)
