"""NVTX ranges: nothing is called while they are off; when on, each range opened is closed, and
``--nvtx`` switches them on for the command."""

from app.cli import main
from render.core import nvtx


def test_ranges_are_free_while_off_and_paired_when_on(ranges):
    nvtx.push("binning")
    nvtx.pop()
    assert ranges == []
    nvtx.set_nvtx(True)
    nvtx.push("binning")
    nvtx.pop()
    assert ranges == [("push", "binning"), ("pop",)]


def test_the_nvtx_option_switches_them_on_for_the_command(ranges, tmp_path):
    assert main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "a.png")]) == 0
    assert not nvtx.nvtx_on()
    args = ["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--nvtx", "--out", str(tmp_path / "b.png")]
    assert main(args) == 0
    assert nvtx.nvtx_on()
