"""Run as a script by the tests: the ``gui`` command (arguments as given, saving its settings and
layout at the end as the interactive app does) whose session is told on frame FAIL_AT that the GPU
failed, as a kernel fault reports it (0: never). Writes
``<marker>.atexit`` if the interpreter's own teardown runs, and ``<marker>.closed`` with what
App.close left.

Usage: gui_after_gpu_failure.py MARKER FAIL_AT GUI-ARGUMENT...
"""

import atexit
import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from app import launch, window  # noqa: E402
from app.cli import main  # noqa: E402

marker, fail_at = Path(sys.argv[1]), int(sys.argv[2])
frames = 0
frame, close = window.App.frame, window.App.close


def failing_frame(app) -> bool:
    global frames
    frames += 1
    if frames == fail_at:
        app.session.gpu_failed(RuntimeError("cudaErrorIllegalAddress: injected"))
    return frame(app)


def noted_close(app) -> None:
    close(app)
    marker.with_suffix(".closed").write_text(json.dumps({"gl_abandoned": app.gl_abandoned}))


def persisting_run_gui(options: launch.GuiOptions, run_gui=launch.run_gui) -> int:
    return run_gui(dataclasses.replace(options, persist=True))


window.App.frame, window.App.close, launch.run_gui = failing_frame, noted_close, persisting_run_gui
atexit.register(lambda: marker.with_suffix(".atexit").write_text("the interpreter's teardown ran"))
sys.exit(main(sys.argv[3:]))
