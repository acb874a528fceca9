"""The app's display copy is an NVTX range when ranges are on (Xvfb, CPU backend)."""

from render.core import nvtx


def test_the_display_copy_is_a_range(ranges, app, run_until_shown):
    nvtx.set_nvtx(True)
    app.choose_overlay("none")  # the frame is shown again on the next pass
    run_until_shown(app)
    assert ("push", "display") in ranges
    assert ranges.count(("pop",)) == sum(call[0] == "push" for call in ranges)
