"""Recording in the app, driven as the window loop drives it (``session.update`` then
``recorder.update``, once per pass) without a window: the PNGs are the frames ``render --frame k``
makes, the GIF holds them, nothing is overwritten, and every way a recording ends early keeps what
was written and says so in one status line."""

import threading
import time

import numpy as np
import pytest
from PIL import Image

import app.recorder as recorder_module
import app.recording as recording_module
from app.camera import shading_of
from app.recorder import MAX_PENDING_WRITES, Recorder
from app.recording import GIF_FPS, gif_side, recording_name, write_gif
from app.session import Session
from app.settings import Settings
from render.circles.reference import ReferenceRenderer
from render.core.image_io import to_rgb8
from render.core.limits import RECORD_FRAMES
from render.core.renderer import render_frame
from render.spheres.view import SphereView
from scenes.builtin import build_scene
from scenes.safe_write import OutputError
from scenes.spheres import build_sphere_scene

SIZE = 256  # the app's smallest resolution


@pytest.fixture
def session(tmp_path):
    (tmp_path / "exports").mkdir()
    made = Session(Settings(scene="hypnosis", size=SIZE, export_folder=str(tmp_path / "exports")), backend="cpu")
    yield made
    made.close()


@pytest.fixture
def recorder(session):
    made = Recorder(session)
    yield made
    made.close()


def run_loop(session, recorder, until, timeout=60):
    """Pass the loop (the session's update, then the recorder's) until ``until()`` holds."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, f"timed out; status: {session.status}"
        recorder.update(session.update())
        time.sleep(0.002)


def record(session, recorder, count):
    recorder.set_count(count)
    assert recorder.start(), session.status
    folder = recorder._take.folder
    run_loop(session, recorder, lambda: not recorder.active)
    return folder


def circle_frame(name, frame):
    renderer = ReferenceRenderer(workers=1)
    renderer.load(build_scene(name), SIZE, SIZE)
    return to_rgb8(render_frame(renderer, frame))


def pngs(folder):
    return {path.name: np.asarray(Image.open(path)) for path in sorted(folder.glob("*.png"))}


def assert_gif_shows(frames, pngs_in_order):
    """Each GIF frame is its PNG after reducing it to 256 colours: close everywhere, mostly exact."""
    assert len(frames) == len(pngs_in_order)
    for shown, png in zip(frames, pngs_in_order, strict=True):
        assert shown.shape == png.shape
        difference = np.abs(shown.astype(int) - png.astype(int))
        assert difference.mean() < 2 and np.percentile(difference, 99) <= 16


def test_an_animated_scene_records_from_the_current_frame(gif_frames, session, recorder):
    session.step()
    session.step()
    folder = record(session, recorder, 4)
    assert folder.name == recording_name("hypnosis", "reference", 2, 5) == "hypnosis_reference_0002-0005"
    gif = folder / f"{folder.name}.gif"
    assert session.status == f"recorded 4 frames to {folder} (GIF {gif})"
    written = pngs(folder)
    assert list(written) == [f"frame_0000{k}.png" for k in (2, 3, 4, 5)]
    for k in (2, 3, 4, 5):
        assert np.array_equal(written[f"frame_0000{k}.png"], circle_frame("hypnosis", k)), k
    frames, durations = gif_frames(gif)
    assert durations == [1000 // GIF_FPS] * 4
    assert_gif_shows(frames, list(written.values()))
    assert sorted(p.name for p in folder.iterdir()) == [*written, gif.name]  # nothing else, no .part
    assert session.frame == 5 and not session.playing


def test_the_shaded_sphere_view_records_its_orbit(session, recorder):
    assert session.set_renderer("spheres") and session.set_view("shaded") and session.select_scene("classic")
    folder = record(session, recorder, 3)
    assert folder.name == "classic_reference_shaded_0000-0002"
    view = SphereView(None, "shaded", shading_of(session.settings))
    view.load(build_sphere_scene("classic"), SIZE, SIZE)
    written = list(pngs(folder).values())
    assert len(written) == 3
    for k, png in enumerate(written):
        assert np.array_equal(png, to_rgb8(render_frame(view, 0) if k == 0 else _next(view))), k
    assert not np.array_equal(written[0], written[1])  # the camera turned


def _next(renderer):
    renderer.advance()
    renderer.clear()
    renderer.render()
    return renderer.image()


def test_a_static_scene_is_said_to_be_static_and_recorded_anyway(gif_frames, session, recorder):
    assert session.select_scene("rgb", confirmed=True)
    recorder.set_count(3)
    assert recorder.start()
    assert session.status.endswith("(rgb is static: every frame is the same picture)")
    folder = recorder._take.folder
    run_loop(session, recorder, lambda: not recorder.active)
    written = list(pngs(folder).values())
    assert len(written) == 3 and all(np.array_equal(png, circle_frame("rgb", 0)) for png in written)
    frames, durations = gif_frames(folder / f"{folder.name}.gif")
    # Identical frames in a row are one GIF frame shown for their total time.
    assert len(frames) == 1 and durations == [3 * 1000 // GIF_FPS]


def test_a_taken_folder_name_gives_the_next_free_one(session, recorder, tmp_path):
    exports = tmp_path / "exports"
    taken = exports / "hypnosis_reference_0000-0001"
    taken.mkdir(parents=True)
    (taken / "frame_00000.png").write_bytes(b"the user's own")
    (exports / "hypnosis_reference_0000-0001-2").write_bytes(b"a file of that name")
    folder = record(session, recorder, 2)
    assert folder == exports / "hypnosis_reference_0000-0001-3"
    assert (taken / "frame_00000.png").read_bytes() == b"the user's own"
    assert [p.name for p in taken.iterdir()] == ["frame_00000.png"]
    assert len(pngs(folder)) == 2


def test_an_export_folder_that_cannot_be_is_one_status_line(session, recorder, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the export folder would be")
    session.set_export_folder(str(blocker / "exports"))
    assert not recorder.start()
    assert session.status == f"recording failed: {blocker} is not a folder" and not recorder.active
    recorder.update(session.update())  # the loop goes on
    assert blocker.read_text() == "a file where the export folder would be"


def test_a_folder_that_takes_nothing_new_is_one_status_line(session, recorder, monkeypatch):
    # sysfs takes no new folders, whoever asks (the tests may run as root, who may write anywhere else).
    session.set_export_folder("/sys")
    assert not recorder.start()
    # As root: the folder cannot be made; as anyone else: /sys is not writable. One line either way.
    assert session.status.startswith("recording failed: ") and "/sys" in session.status
    assert "\n" not in session.status and not recorder.active


def test_a_missing_export_folder_is_asked_about_and_made_only_then(session, recorder, tmp_path):
    from app.export_folder import RECORD, answer_missing_folder

    missing = tmp_path / "new" / "exports"
    session.set_export_folder(str(missing))
    assert not recorder.start() and not recorder.active
    assert session.missing_folder.folder == missing and session.missing_folder.then == RECORD
    assert session.status == f"export folder {missing} does not exist" and not missing.parent.exists()
    assert answer_missing_folder(session, session.missing_folder, create=True) and missing.is_dir()
    assert recorder.start() and recorder.active


def test_a_write_failing_part_way_keeps_the_frames_before_it(session, recorder, monkeypatch):
    gate = threading.Event()
    real_write = recorder_module.write_frame

    def fill_the_disk(folder, frame, pixels):
        gate.wait(60)  # until frames 0..3 are queued, so frame 3 waits behind the failing frame 2
        if frame == 2:
            raise OutputError(f"cannot write {folder / 'frame_00002.png'}: No space left on device")
        return real_write(folder, frame, pixels)

    monkeypatch.setattr(recorder_module, "write_frame", fill_the_disk)
    recorder.set_count(5)
    assert recorder.start()
    folder = recorder._take.folder
    run_loop(session, recorder, lambda: recorder._take.taken == MAX_PENDING_WRITES)
    gate.set()
    run_loop(session, recorder, lambda: not recorder.active)
    assert session.status == (
        f"recording failed at frame 2: cannot write {folder / 'frame_00002.png'}: No space left on device; "
        f"2 frames kept in {folder}"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["frame_00000.png", "frame_00001.png"]  # no gap, no GIF


def test_stop_keeps_the_frames_taken_and_writes_their_gif(gif_frames, session, recorder):
    recorder.set_count(RECORD_FRAMES.high)
    assert recorder.start()
    folder = recorder._take.folder
    run_loop(session, recorder, lambda: recorder._take.taken >= 3)
    taken = recorder._take.taken
    assert recorder.progress_line() == f"recording {taken}/{RECORD_FRAMES.high} -> {folder}"
    recorder.stop()
    run_loop(session, recorder, lambda: not recorder.active)
    gif = folder / f"{folder.name}.gif"
    assert session.status == (
        f"recording stopped after {taken} of {RECORD_FRAMES.high} frames: "
        f"recorded {taken} frames to {folder} (GIF {gif})"
    )
    written = pngs(folder)
    assert list(written) == [f"frame_{k:05d}.png" for k in range(taken)]
    assert_gif_shows(gif_frames(gif)[0], list(written.values()))


@pytest.mark.parametrize(
    "move, reason",
    [
        (lambda session: session.select_scene("bouncingballs"), "the scene, size or view changed"),
        (lambda session: session.toggle_play(), "playback started"),
        (lambda session: session.reset(), "the scene, size or view changed"),
        (lambda session: session.step(), "the frame was moved to "),
    ],
)
def test_moving_the_frames_by_hand_ends_the_recording(session, recorder, move, reason):
    recorder.set_count(50)
    assert recorder.start()
    folder = recorder._take.folder
    run_loop(session, recorder, lambda: recorder._take.taken >= 2)
    move(session)
    run_loop(session, recorder, lambda: not recorder.active)
    assert session.status.startswith(f"recording stopped ({reason}")
    kept = pngs(folder)
    assert len(kept) >= 2
    for name, png in kept.items():
        assert np.array_equal(png, circle_frame("hypnosis", int(name[6:11]))), name


def test_stopping_before_the_first_frame_leaves_no_folder(session, recorder, tmp_path):
    assert session.select_scene("bouncingballs")  # its frame 0 is still owed
    assert recorder.start()
    folder = recorder._take.folder
    recorder.stop()
    run_loop(session, recorder, lambda: not recorder.active)
    assert session.status == "recording stopped after 0 of 60 frames: nothing recorded"
    assert not folder.exists()


def test_a_slow_disk_holds_the_frames_back_instead_of_piling_them_up(session, recorder, monkeypatch):
    gate = threading.Event()
    real_write = recorder_module.write_frame

    def slow_write(folder, frame, pixels):
        gate.wait(60)
        return real_write(folder, frame, pixels)

    monkeypatch.setattr(recorder_module, "write_frame", slow_write)
    recorder.set_count(10)
    assert recorder.start()
    folder = recorder._take.folder
    run_loop(session, recorder, lambda: recorder._take.taken == MAX_PENDING_WRITES)
    for _ in range(200):  # frames would be ready at once; the recorder waits for the writer
        recorder.update(session.update())
        time.sleep(0.002)
    assert recorder._take.taken == MAX_PENDING_WRITES and session.frame == MAX_PENDING_WRITES - 1
    gate.set()
    run_loop(session, recorder, lambda: not recorder.active)
    assert len(pngs(folder)) == 10 and session.status.startswith("recorded 10 frames")


def test_the_frame_count_is_clamped_to_its_limit(recorder):
    for asked, kept in ((1, RECORD_FRAMES.low), (5000, RECORD_FRAMES.high), (7, 7)):
        recorder.set_count(asked)
        assert recorder.count == kept


def test_a_long_large_recording_is_scaled_down_in_the_gif_only(gif_frames, tmp_path, monkeypatch):
    assert gif_side(64, 5) == 64 and gif_side(64, RECORD_FRAMES.high) == 64
    for frames in (60, RECORD_FRAMES.high):
        side = gif_side(4096, frames)  # the largest that fits
        assert side**2 * frames <= recording_module.GIF_MAX_BYTES < (side + 1) ** 2 * frames
    monkeypatch.setattr(recording_module, "GIF_MAX_BYTES", 3 * 32 * 32)
    paths = []
    for k in range(3):
        path = tmp_path / f"frame_{k:05d}.png"
        Image.new("RGB", (64, 64), (80 * k, 0, 0)).save(path)
        paths.append(path)
    gif = write_gif(paths, tmp_path / "out.gif")
    frames, _ = gif_frames(gif)
    assert [frame.shape for frame in frames] == [(32, 32, 3)] * 3
    assert [int(frame[..., 0].mean()) for frame in frames] == [0, 80, 160]


@pytest.mark.gpu
def test_recording_on_the_gpu_writes_the_reference_frames(tmp_path):
    settings = Settings(scene="bouncingballs", size=SIZE, export_folder=str(tmp_path))
    session = Session(settings, backend="cuda")
    recorder = Recorder(session)
    try:
        folder = record(session, recorder, 5)
    finally:
        recorder.close()
        session.close()
    written = pngs(folder)
    assert len(written) == 5
    for k in range(5):
        assert np.array_equal(written[f"frame_{k:05d}.png"], circle_frame("bouncingballs", k)), k


@pytest.mark.gpu
def test_the_gpu_failing_part_way_keeps_the_frames_and_goes_on_on_the_cpu(tmp_path, monkeypatch):
    import cupy

    settings = Settings(scene="bouncingballs", size=SIZE, export_folder=str(tmp_path))
    session = Session(settings, backend="cuda")
    recorder = Recorder(session)
    try:
        recorder.set_count(50)
        assert recorder.start()
        folder = recorder._take.folder
        run_loop(session, recorder, lambda: recorder._take.taken >= 3)

        def lost():
            raise cupy.cuda.runtime.CUDARuntimeError(700)  # cudaErrorIllegalAddress

        monkeypatch.setattr(session.renderer, "advance", lost)
        run_loop(session, recorder, lambda: not recorder.active)
    finally:
        recorder.close()
        session.close()
    assert session.backend == "cpu"
    assert session.status.startswith("recording stopped (the GPU failed) after ")
    kept = pngs(folder)
    assert len(kept) >= 3 and (folder / f"{folder.name}.gif").exists()
    for name, png in kept.items():
        assert np.array_equal(png, circle_frame("bouncingballs", int(name[6:11]))), name
