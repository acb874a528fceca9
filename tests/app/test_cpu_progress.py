"""The CPU backend's progress, without a window: what renders, the bands done (counted afresh for
each frame), the time left extrapolated from them (within 2x of the real frame), a frame given up at
once when a newer load or closing replaces it; and the question before every slow change (scene,
resolution, fit to window, seed, sphere count, view), which Cancel answers by keeping everything."""

import time

import numpy as np
import pytest

from app.cpu_progress import CpuProgress, frame_title
from app.session import Session
from app.settings import Settings
from render.core.progress import Bands
from scenes.builtin import build_scene

SECONDS = 60


@pytest.fixture
def session(tmp_path):
    made = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path / "exports")), backend="cpu")
    yield made
    made.close()


def watch_frame(session, timeout=SECONDS):
    """Drive update() like the window loop until a frame arrives; the progress seen on the way and
    the frame's own seconds."""
    seen, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        if session.update():
            return seen, session.history[-1]["cpu frame"] / 1000
        state = session.cpu.progress
        if state is not None:
            seen.append(state)
        time.sleep(0.01)
    raise AssertionError("no frame within the timeout")


def test_the_label_names_scene_count_view_size_and_frame():
    assert frame_title("rand1M", 1_000_000, "circles", "", 1024, 0) == "rand1M, 1,000,000 circles, 1024x1024, frame 0"
    assert frame_title("random", 65536, "spheres", "shaded", 512, 3) == (
        "random, 65,536 spheres, shaded view, 512x512, frame 3"
    )


def test_the_time_left_shows_once_a_band_is_done_in_every_worker():
    started = 100.0
    waiting = CpuProgress("rgb", started, Bands(0, 16, 0.05, rate=0.1), now=started + 4)
    assert waiting.remaining is None and waiting.lines() == ["rendering rgb on the CPU", "4 s"]
    # A quarter of the work done, at a tenth of it per second lately: 7.5 s to go.
    going = CpuProgress("rgb", started, Bands(1, 16, 0.25, rate=0.1), now=started + 4)
    assert going.remaining == pytest.approx(7.5)
    assert going.lines() == ["rendering rgb on the CPU", "4 s, about 8 s left"]
    one_of_two = CpuProgress("rgb", started, Bands(1, 8, 0.2, rate=0.1, at_once=2), now=started + 4)
    assert one_of_two.remaining is None
    both = CpuProgress("rgb", started, Bands(2, 8, 0.3, rate=0.005, at_once=2), now=started + 4)
    assert both.lines()[1] == "4 s, about 140 s left"  # tens of seconds past a minute


@pytest.mark.parametrize("scene, size", [("rand100k", 512), ("rand10k", 1024)], ids=["worker bands", "one thread"])
def test_bands_count_up_per_frame_and_the_time_left_is_foretold(session, scene, size):
    assert session.set_size(size, confirmed=True) and session.select_scene(scene, confirmed=True)
    seen, seconds = watch_frame(session)
    title = f"{scene}, {build_scene(scene).count:,} circles, {size}x{size}, frame 0"
    assert seen and all(state.what == title for state in seen)
    done = [state.bands.done for state in seen]
    assert done == sorted(done) and seen[-1].bands.total > 1
    assert done[-1] > done[0], "the bands were not counted up"  # to the end: test_band_counter.py
    # A time left is foretold before the frame ends (how well is measured, not timed in a test:
    # docs/performance.md, "CPU estimates"; the arithmetic is tested above with given rates).
    assert any(state.remaining is not None and state.elapsed < seconds for state in seen)
    session.step()  # the next frame counts its bands from none again
    seen, _ = watch_frame(session)
    assert seen[0].bands.done == 0 and seen[0].what.endswith("frame 1")


def test_a_newer_load_gives_up_the_frame_under_way(session):
    assert session.set_size(1024, confirmed=True) and session.select_scene("rand100k", confirmed=True)
    session.update()
    assert session.busy
    time.sleep(0.3)
    assert session.select_scene("rgb")
    started = time.monotonic()
    session.update()  # the rand100k frame is still stopping: the label names what is owed
    assert session.busy and session.cpu.progress.what == "rgb, 3 circles, 1024x1024, frame 0"
    watch_frame(session)
    # The rand100k frame takes seconds; rgb is shown without waiting for it.
    assert time.monotonic() - started < 2.5
    assert session.scene.name == "rgb"


def test_closing_gives_up_a_long_frame_at_once(tmp_path):
    settings = Settings(scene="rand1M", size=1024, export_folder=str(tmp_path))
    session = Session(settings, backend="cpu")
    session.update()
    deadline = time.monotonic() + SECONDS
    while session.cpu.progress is None or session.cpu.progress.bands.fraction == 0:
        assert time.monotonic() < deadline, "the bands never got under way"
        time.sleep(0.05)
    started = time.monotonic()
    session.close()
    assert time.monotonic() - started < 2.5


def test_a_slow_resolution_asks_and_cancel_keeps_the_size(session, quick_questions):
    assert session.select_scene("rand1M", confirmed=True)
    assert not session.set_size(512)
    assert session.pending.what == "rand1M at 512x512" and session.pending.seconds > quick_questions
    assert session.pending.question().startswith("rand1M at 512x512 takes about ")
    session.cancel_pending()
    assert session.pending is None and session.settings.size == 256 and session.renderer.width == 256
    assert not session.set_size(512)  # asked for again by hand: asked again
    assert session.confirm_pending() and session.settings.size == 512 and session.pending is None


def test_fit_to_window_asks_once_per_size_it_wants(session, quick_questions):
    assert session.select_scene("rand1M", confirmed=True)
    assert not session.fit_size(700) and session.pending.what == "rand1M at 700x700"
    asked, started = session.pending, time.monotonic()
    assert not session.fit_size(700)  # the next frame, the question open: not estimated again
    assert session.pending is asked and time.monotonic() - started < 0.05
    session.cancel_pending()
    for _ in range(3):  # the window loop asks every frame: no question, no estimate
        started = time.monotonic()
        assert not session.fit_size(700)
        assert session.pending is None and time.monotonic() - started < 0.05
    assert session.settings.size == 256
    assert not session.fit_size(800) and session.pending.what == "rand1M at 800x800"  # the window changed
    session.cancel_pending()
    session.set_fit_to_window(True)  # turned on again: asks again
    assert not session.fit_size(800) and session.pending is not None
    assert session.confirm_pending() and session.settings.size == 800


def test_a_slow_seed_asks_and_cancel_keeps_seed_and_scene(session, quick_questions):
    assert session.select_scene("rand1M", confirmed=True)
    positions = session.scene.position.copy()
    assert not session.set_seed(7)
    assert session.pending.what == "rand1M with seed 7 at 256x256"
    session.cancel_pending()
    assert session.settings.seed == 0 and np.array_equal(session.scene.position, positions)
    assert not session.set_seed(7) and session.confirm_pending()
    assert session.settings.seed == 7 and not np.array_equal(session.scene.position, positions)


def test_a_slow_sphere_count_or_view_asks_and_cancel_keeps_them(session):
    assert session.set_renderer("spheres") and session.set_view("shaded")
    assert session.select_scene("random", confirmed=True)
    count = session.settings.sphere_count
    assert not session.set_sphere_count(65536)
    assert session.pending.what == "random with 65,536 spheres at 256x256"
    session.cancel_pending()
    assert session.settings.sphere_count == count and session.scene.count == count
    assert session.set_sphere_count(65536, confirmed=True) and session.set_view("classic", confirmed=True)
    assert session.settings.sphere_view == "classic"
    assert not session.set_view("shaded")
    assert session.pending.what == "random in the shaded view at 256x256"
    session.cancel_pending()
    assert session.settings.sphere_view == "classic" and session.renderer.view == "classic"


def test_quick_changes_do_not_ask(session):
    assert session.set_size(512) and session.set_seed(3) and session.select_scene("pattern")
    assert session.pending is None and session.settings.size == 512


@pytest.mark.gpu
def test_on_the_gpu_no_change_asks_and_no_label_shows(tmp_path):
    session = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path)), backend="cuda")
    try:
        assert session.select_scene("rand1M") and session.set_size(2048) and session.set_seed(5)
        assert session.pending is None and session.update() and session.cpu.progress is None
    finally:
        session.close()
