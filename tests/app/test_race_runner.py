"""The app's race: it holds the session's GPU frames while it runs in its own thread, hands over its
table and figures when it ends, saves its chart and JSON beside each other without replacing a
file, stops at its next step when the app closes, and its bars draw in the panel (Xvfb)."""

import threading
import time
from types import SimpleNamespace

import pytest

from app.race_runner import RaceRunner, RaceStopped
from render.core.kind import BenchOutcome
from render.core.race import RaceRow, race_chart, race_payload
from render.core.variants import VariantChoice

ROWS = [
    RaceRow("tile-warp", "tile-warp", 0.5, {"binning": 0.1, "blending": 0.3}, True, 0.0),
    RaceRow("per-pixel", "per-pixel", 9.0, {"blending": 8.9}, False, 0.25),
    RaceRow("tile-sort", "tile-sort", None, {}, None, None, "no room"),
]


class FakeKind:
    """A kind whose race steps through three variants, waiting on ``gate`` before the last."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.requests = []

    def race(self, request, progress):
        self.requests.append(request)
        progress(0, 3, "CPU reference")
        progress(1, 3, "tile-warp")
        self.gate.wait(10)
        progress(2, 3, "per-pixel")
        return BenchOutcome(
            ["table"], race_payload(ROWS, scene="rgb"), lambda path, how: race_chart(ROWS, "t", path, how)
        )


def fake_session(kind, tmp_path):
    settings = SimpleNamespace(size=64, export_folder=str(tmp_path))
    return SimpleNamespace(
        backend="cuda",
        scene=SimpleNamespace(name="scenes/my rgb.npz"),
        settings=settings,
        kind=kind,
        gpu_held=False,
        scene_request=lambda: ("scenes/my rgb.npz", 3, None),
        look=lambda: "look",
        variant=VariantChoice("auto"),
    )


def wait_for(condition, timeout=10):
    """Until ``condition()`` is true once (a poll is true only once)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("timed out")


def test_a_race_holds_the_frames_then_hands_over_and_saves(tmp_path):
    kind, runner = FakeKind(), RaceRunner()
    session = fake_session(kind, tmp_path)
    runner.start(session)
    assert session.gpu_held and runner.running
    wait_for(lambda: runner.progress[2] == "tile-warp")
    assert not runner.poll(session) and session.gpu_held
    kind.gate.set()
    wait_for(lambda: runner.poll(session))
    assert not session.gpu_held and not runner.running and runner.outcome.lines == ["table"]
    assert (kind.requests[0].scene, kind.requests[0].seed, kind.requests[0].size) == ("scenes/my rgb.npz", 3, 64)
    runner.save(str(tmp_path))
    runner.save(str(tmp_path))
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == ["race_my_rgb_64-2.json", "race_my_rgb_64-2.png", "race_my_rgb_64.json", "race_my_rgb_64.png"]
    assert runner.saved.startswith("saved ") and runner.saved.endswith("race_my_rgb_64-2.json")
    runner.close()


def test_a_users_kernel_file_races_too(tmp_path):
    kind = FakeKind()
    kind.gate.set()
    runner, session = RaceRunner(), fake_session(kind, tmp_path)
    session.variant = VariantChoice("file", (), "/home/me/mine.cu")
    runner.start(session)
    wait_for(lambda: runner.poll(session))
    assert kind.requests[0].also == ("file:/home/me/mine.cu",)
    runner.close()


def test_saving_into_a_missing_folder_says_so(tmp_path):
    kind, runner = FakeKind(), RaceRunner()
    kind.gate.set()
    session = fake_session(kind, tmp_path)
    runner.start(session)
    wait_for(lambda: runner.poll(session))
    runner.save(str(tmp_path / "missing"))
    assert runner.saved.startswith("not saved:") and not (tmp_path / "missing").exists()
    runner.close()


def test_closing_stops_a_race_at_its_next_step(tmp_path):
    kind, runner = FakeKind(), RaceRunner()
    session = fake_session(kind, tmp_path)
    runner.start(session)
    wait_for(lambda: runner.progress[2] == "tile-warp")
    closer = threading.Thread(target=runner.close)
    closer.start()
    time.sleep(0.1)
    kind.gate.set()
    closer.join(10)
    assert not closer.is_alive()
    with pytest.raises(RaceStopped):
        runner._job.result()


def test_the_race_section_draws_its_bars(app, run_until_shown, monkeypatch):
    import app.panel_race as panel_race

    monkeypatch.setattr("app.panel.SECTIONS_CLOSED_AT_START", ())
    drawn = []
    bars = panel_race._bars
    monkeypatch.setattr(panel_race, "_bars", lambda rows: drawn.append(rows) or bars(rows))
    app.race.outcome = BenchOutcome(["table"], race_payload(ROWS, scene="rgb"), None)
    run_until_shown(app)
    assert drawn and [row.variant for row in drawn[-1]] == ["tile-warp", "per-pixel", "tile-sort"]
