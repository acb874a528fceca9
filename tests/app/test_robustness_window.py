"""The app without a GPU in an offscreen Mesa EGL context (CI installs Mesa, see .ci/run), driven by
the stress probe through 200 window resizes while animating, 8 minimizes (a 0 x 0 framebuffer) and
explicit resolution changes."""


def test_200_resizes_minimize_and_resolution_changes_while_animating(stress_probe, check_resize_report):
    report = stress_probe("resize", "cpu", 200)
    check_resize_report(report, 200)
    assert report["display_path"] == "host copy"
