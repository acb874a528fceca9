"""Issue 6, item 4, without a GPU: the app in an offscreen Mesa EGL context (CI installs Mesa, see
.ci/run) through 200 window resizes while animating, 8 minimizes (a 0 x 0 framebuffer) and
explicit resolution changes."""

from stress_checks import check_resize_report, run_probe


def test_200_resizes_minimize_and_resolution_changes_while_animating():
    report = run_probe("resize", "cpu", 200)
    check_resize_report(report, 200)
    assert report["display_path"] == "host copy"
