"""Run as a script by the GPU tests: the app in an offscreen EGL context on the CUDA backend races
every configuration on a small scene through its Race section's runner; prints JSON with the rows,
whether the app rendered any frame during the race, and whether it renders again after.

Needs PYOPENGL_PLATFORM=egl before OpenGL is imported, hence a process of its own.
Usage: race_app_probe.py SCENE SIZE
"""

import json
import os
import sys
import time
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from offscreen_app import offscreen_app  # noqa: E402


def main() -> None:
    scene, size = sys.argv[1], int(sys.argv[2])
    app, folder = offscreen_app(scene, size, "auto")
    try:
        for _ in range(3):
            app.frame()
        app.race.start(app.session)
        frames_before = len(app.session.history)
        deadline = time.monotonic() + 300
        while app.race.running and time.monotonic() < deadline:
            app.frame()
            time.sleep(0.01)
        rendered_during = len(app.session.history) - frames_before
        app.frame()
        app.race.save(folder)
        outcome = app.race.outcome
        report = {
            "error": app.race.error,
            "rows": [] if outcome is None else outcome.payload["rows"],
            "frames_rendered_during_the_race": rendered_during,
            "renders_after": len(app.session.history) > frames_before,
            "saved": sorted(name for name in os.listdir(folder) if name.startswith("race_")),
        }
    finally:
        app.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
