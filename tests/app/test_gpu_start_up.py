"""The app's way to its first GPU frame: no CuPy array function on it imports ``cupyx`` (which
imports SciPy, half a second of a start-up that should take about one)."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.gpu

# Runs the app as the rasterlab command does, then says whether SciPy came in on the way.
PROBE = (
    "import sys; from app.entry import main; sys.argv[0] = 'rasterlab'; code = main(); "
    "print('scipy loaded' if 'cupyx.scipy' in sys.modules else 'no scipy'); sys.exit(code)"
)


@pytest.mark.parametrize(
    "scene",
    [
        ["--renderer", "circles", "--scene", "rand10k"],
        ["--renderer", "circles", "--scene", "rand10k", "--variant", "tile-sort"],
        ["--renderer", "circles", "--scene", "snowsingle"],
        ["--renderer", "spheres", "--scene", "classic"],
        ["--renderer", "spheres", "--scene", "random", "--view", "shaded"],
    ],
    ids=lambda args: " ".join(args[1::2]),
)
def test_the_first_frames_do_not_import_scipy(repo_root, config, scene):
    command = [sys.executable, "-c", PROBE, "gui", "--headless", "--frames", "3", "--no-settings", *scene]
    result = subprocess.run(command, cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "no scipy", result.stderr
