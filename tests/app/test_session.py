"""The app's actions without a window, on the CPU backend (the same methods the widgets call)."""

import errno
import os
import time

import numpy as np
import pytest

from app.exports import export_name
from app.session import Session
from app.settings import Settings
from render.circles.reference import ReferenceRenderer
from render.core.renderer import render_frame
from scenes.builtin import build_scene
from scenes.files import save_scene


def shown_image(session, timeout=60):
    """Drive update() like the window loop until the CPU frame arrives."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if session.update():
            return session.host_image()
        time.sleep(0.002)
    raise AssertionError("no frame within the timeout")


def reference(name, size, frame):
    renderer = ReferenceRenderer(workers=1)
    renderer.load(build_scene(name), size, size)
    return render_frame(renderer, frame)


@pytest.fixture
def session(tmp_path):
    (tmp_path / "exports").mkdir()  # a missing export folder is made only when the user says so
    made = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path / "exports")), backend="cpu")
    yield made
    made.close()


def test_first_frame_is_the_reference_frame_0(session):
    assert np.array_equal(shown_image(session), reference("rgb", 256, 0))
    assert session.variant_label() == "reference" and session.frame == 0


def test_step_play_and_reset_follow_the_frame_protocol(session):
    session.select_scene("bouncingballs")
    shown_image(session)
    session.step()
    session.step()
    assert session.frame == 2
    assert np.array_equal(shown_image(session), reference("bouncingballs", 256, 2))
    session.toggle_play()
    shown_image(session)  # playing: each finished frame schedules the next one
    shown_image(session)
    assert session.frame >= 3 and session.playing
    session.reset()
    assert session.frame == 0 and not session.playing
    assert np.array_equal(shown_image(session), reference("bouncingballs", 256, 0))


def test_bad_scene_keeps_the_previous_one(session, tmp_path):
    shown_image(session)
    bad = tmp_path / "broken.json"
    bad.write_text('{"position": [[0.5, 0.5]]}')
    assert not session.select_scene(str(bad))
    assert "broken.json" in session.status and session.settings.scene == "rgb"
    assert not session.select_scene("nonesuch")
    assert "unknown scene 'nonesuch'" in session.status
    assert session.scene.name == "rgb"


def test_scene_file_opens(session, tmp_path):
    path = save_scene(build_scene("pattern"), tmp_path / "pattern.npz")
    assert session.select_scene(str(path))
    assert np.array_equal(shown_image(session), reference("pattern", 256, 0))


def test_seed_and_size_changes(session):
    assert session.set_size(300) and session.settings.size == 300
    assert shown_image(session).shape == (300, 300, 4)
    assert session.set_size(10) and session.settings.size == 256  # clamped to the app's range
    session.select_scene("rand10k")
    assert session.set_seed(7)
    assert np.array_equal(session.scene.position, build_scene("rand10k", 7).position)


def test_unknown_variant_is_rejected_with_the_valid_names(session):
    assert not session.set_variant("fastest")
    assert "valid variants are: per-pixel, tile-scan, tile-sort, tile-warp, auto" in session.status
    assert session.set_variant("tile-scan:tile=32")
    assert session.settings.variant == "tile-scan:scan=warp,test=box,tile=32"
    assert session.set_option("scan", "blelloch")
    assert session.variant.label() == "tile-scan:scan=blelloch,test=box,tile=32"
    assert session.set_variant("tile-warp")
    assert session.set_option("tile", "64") and session.status == "tile=64 takes pixels=8"
    assert session.variant.label() == "tile-warp:bins=on,pixels=8,tile=64,walk=warp"
    assert not session.set_option("pixels", "16") and session.variant.option("pixels") == "8"


def test_slow_cpu_scene_waits_for_confirmation(session, monkeypatch, quick_questions):
    # The estimate divides by the cores; two cores (CI's) make rand1M slow, by the quick threshold, at any size.
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert not session.select_scene("rand1M")
    assert session.pending.what.startswith("rand1M at ") and session.pending.seconds > quick_questions
    assert session.scene.name == "rgb"
    assert session.select_scene("rand1M", confirmed=True) and session.pending is None


def test_export_writes_the_render_never_overwrites(session, tmp_path):
    expected = reference("rgb", 256, 0)
    shown_image(session)
    first = session.export_png()
    second = session.export_png()
    assert first.name == "rgb_reference_0000.png" and second.name == "rgb_reference_0000-2.png"
    from PIL import Image

    from render.core.image_io import to_rgb8

    assert np.array_equal(np.asarray(Image.open(first)), to_rgb8(expected))
    assert {p.name for p in first.parent.iterdir()} == {first.name, second.name}
    assert session.status == f"saved {second}"


def test_export_to_an_unwritable_folder_says_so(session, tmp_path):
    shown_image(session)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    assert session.export_png(str(blocker / "sub")) is None
    assert session.status.startswith(f"export failed: cannot write to {blocker / 'sub'}")


def test_export_names_are_file_name_safe():
    assert export_name("rand10k", "tile-scan:scan=warp,tile=32", 7) == "rand10k_tile-scan_scan-warp_tile-32_0007.png"
    assert export_name("/data/my scene.npz", "auto", 0) == "my scene_auto_0000.png"


def test_check_on_the_cpu_backend_explains_itself(session):
    session.start_check()
    assert "CPU backend is the reference" in session.status


# -- the sphere tracer --------------------------------------------------------------------------


def sphere_bytes(session):
    return np.rint(shown_image(session) * 255).astype(np.uint8)


def test_spheres_classic_then_shaded_equal_their_references(session):
    from render.spheres.reference import trace_reference
    from render.spheres.shading import ShadeSettings, shade_reference
    from scenes.spheres import build_sphere_scene

    assert session.set_renderer("spheres"), session.status
    assert session.status == "classic: 20 spheres at 256x256"
    classic = build_sphere_scene("classic")
    assert np.array_equal(sphere_bytes(session), trace_reference(classic, 256))
    assert not session.animated and session.export_label() == "reference"
    assert session.set_view("shaded")
    assert session.animated and session.export_label() == "reference_shaded"
    assert np.array_equal(sphere_bytes(session), shade_reference(classic, 256, ShadeSettings()))
    session.set_material(roughness=0.8, metalness=1.0)
    rough_metal = ShadeSettings(roughness=0.8, metalness=1.0)
    assert np.array_equal(sphere_bytes(session), shade_reference(classic, 256, rough_metal))
    session.orbit(40.0, -120.0)  # elevation 20 - 120 stops at -89
    assert (session.settings.camera_azimuth, session.settings.camera_elevation) == (70.0, -89.0)
    turned = ShadeSettings(azimuth=70, elevation=-89, roughness=0.8, metalness=1.0)
    assert np.array_equal(sphere_bytes(session), shade_reference(classic, 256, turned))


def test_playing_the_shaded_view_orbits_the_camera(session):
    from render.spheres.shading import ORBIT_STEP_DEGREES, ShadeSettings, shade_reference
    from scenes.spheres import build_sphere_scene

    session.set_renderer("spheres")
    session.set_view("shaded")
    shown_image(session)
    session.step()
    session.step()
    assert session.frame == 2
    expected = shade_reference(build_sphere_scene("classic"), 256, ShadeSettings().orbited(2 * ORBIT_STEP_DEGREES))
    assert np.array_equal(sphere_bytes(session), expected)
    session.reset()
    assert np.array_equal(sphere_bytes(session), shade_reference(build_sphere_scene("classic"), 256, ShadeSettings()))


def test_random_spheres_count_seed_and_switching_back(session):
    from render.spheres.reference import trace_reference
    from scenes.spheres import random_spheres

    session.set_renderer("spheres")
    assert session.select_scene("random") and session.scene.count == 1024
    assert session.set_sphere_count(300) and session.set_seed(5)
    assert session.scene.count == 300 and session.settings.sphere_seed == 5
    assert np.array_equal(sphere_bytes(session), trace_reference(random_spheres(300, 5), 256))
    assert not session.select_scene("rgb") and "unknown sphere scene 'rgb'" in session.status
    assert session.scene.count == 300
    assert session.set_renderer("circles") and session.scene.name == "rgb" and session.settings.seed == 0
    assert np.array_equal(shown_image(session), reference("rgb", 256, 0))
    assert not session.set_renderer("cubes") and "valid renderers are: circles, spheres" in session.status


def test_sphere_variants_come_from_the_sphere_registry(session):
    session.set_renderer("spheres")
    assert session.variant.name == "constant"
    assert session.set_variant("shared-tiled") and session.settings.sphere_variant == "shared-tiled"
    assert not session.set_variant("tile-sort") and "valid variants are: global, constant" in session.status
    assert session.settings.variant == "auto"  # the circle renderer's choice is its own


def test_sphere_export_and_files(session, tmp_path):
    from PIL import Image

    from render.spheres.shading import ShadeSettings, shade_reference
    from scenes.files import save_sphere_scene
    from scenes.spheres import random_spheres

    path = save_sphere_scene(random_spheres(12, 4, "dozen"), tmp_path / "dozen.npz")
    session.set_renderer("spheres")
    assert session.select_scene(str(path)) and session.scene.count == 12
    session.set_view("shaded")
    expected = shade_reference(random_spheres(12, 4), 256, ShadeSettings())
    assert np.array_equal(sphere_bytes(session), expected)
    exported = session.export_png()
    assert exported.name == "dozen_reference_shaded_0000.png"
    assert np.array_equal(np.asarray(Image.open(exported)), expected[::-1, :, :3])
    assert not session.select_scene(str(tmp_path / "missing.json")) and session.scene.count == 12


def test_a_scene_file_of_the_other_renderer_switches_to_it(session, tmp_path):
    from scenes.builtin import build_scene
    from scenes.files import save_scene, save_sphere_scene
    from scenes.spheres import random_spheres

    spheres = save_sphere_scene(random_spheres(12, 4, "dozen"), tmp_path / "dozen.npz")
    circles = save_scene(build_scene("rgby"), tmp_path / "four.json")
    assert session.select_scene(str(spheres))
    assert (session.kind.name, session.scene.count, session.scene_name) == ("spheres", 12, str(spheres))
    assert session.select_scene(str(circles))
    assert (session.kind.name, session.scene_name) == ("circles", str(circles))
    assert np.array_equal(shown_image(session), reference("rgby", 256, 0))
    odd = tmp_path / "odd.json"
    odd.write_text('{"kind": "cubes"}')
    assert not session.select_scene(str(odd)) and session.kind.name == "circles"
    assert "field 'kind' must be 'circles', got 'cubes'" in session.status


class _FillingDisk:
    """A file stream that takes ``room`` bytes, then fails like a full disk."""

    def __init__(self, stream, room):
        self.stream, self.room = stream, room

    def write(self, data):
        if len(data) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.stream.write(data)

    def __getattr__(self, name):
        return getattr(self.stream, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stream.close()


def test_export_to_a_full_disk_says_so_and_leaves_no_partial_file(session, tmp_path, monkeypatch):
    import scenes.safe_write

    shown_image(session)
    real_fdopen = os.fdopen
    monkeypatch.setattr(scenes.safe_write.os, "fdopen", lambda *a: _FillingDisk(real_fdopen(*a), room=1000))
    folder = tmp_path / "exports"
    assert session.export_png() is None
    name = folder / "rgb_reference_0000.png"
    assert session.status == f"export failed: cannot write {name}: No space left on device"
    assert list(folder.iterdir()) == []
    monkeypatch.undo()
    assert session.export_png() == name and name.stat().st_size > 1000


# -- files and numbers that do not fit -----------------------------------------------------------


def test_a_remembered_scene_file_that_no_longer_loads_falls_back_to_the_built_in_scene(tmp_path):
    path = tmp_path / "mine.json"
    save_scene(build_scene("pattern"), path)
    for spoil in (lambda: path.write_text('{"kind": "circles", "position": 1}'), path.unlink):
        spoil()
        made = Session(Settings(scene=str(path), size=256), backend="cpu")
        try:
            assert made.scene.name == "rand10k" and made.scene_name == "rand10k"
            assert str(path) in made.start_problem
            assert made.status == f"{made.start_problem}; showing the built-in scene rand10k instead"
        finally:
            made.close()


def test_a_remembered_sphere_scene_file_falls_back_too(tmp_path):
    bad = tmp_path / "spheres.npz"
    bad.write_bytes(b"not a zip")
    made = Session(Settings(renderer="spheres", sphere_scene=str(bad), size=256), backend="cpu")
    try:
        assert made.scene.name == "classic" and "showing the built-in scene classic instead" in made.status
        assert str(bad) in made.status
    finally:
        made.close()


def test_a_good_start_has_no_problem(session):
    assert session.start_problem is None


@pytest.mark.parametrize(
    "error, shown",
    [
        (MemoryError(), "MemoryError"),
        (RecursionError("maximum recursion depth exceeded"), "RecursionError: maximum recursion depth exceeded"),
        (ValueError("odd numbers"), "ValueError: odd numbers"),
        (KeyError("position"), "KeyError: 'position'"),
        (ZeroDivisionError("division by zero"), "ZeroDivisionError: division by zero"),
    ],
)
def test_any_error_while_loading_a_file_keeps_the_previous_scene(session, tmp_path, monkeypatch, error, shown):
    import scenes.lookup

    def broken_loader(path):
        raise error

    shown_image(session)
    monkeypatch.setattr(scenes.lookup, "load_scene", broken_loader)
    path = tmp_path / "dropped.json"
    path.write_text("{}")
    assert not session.select_scene(str(path))
    assert session.status == f"cannot open scene {path}: {shown}"
    assert session.scene.name == "rgb" and session.settings.scene == "rgb" and session.frame == 0
    assert not session.frame_outstanding  # nothing was reloaded: the shown image stays
    assert np.array_equal(session.host_image(), reference("rgb", 256, 0))


def test_seeds_outside_the_table_are_refused_not_wrapped(session):
    from render.core.limits import SEED

    session.select_scene("rand10k")
    for seed in (-1, 2**32, 2**64 + 7, "12x", 3.0, True):
        assert not session.set_seed(seed)
        assert session.status.startswith(f"seed must be an integer in 0..{2**32 - 1}, got "), session.status
        assert session.settings.seed == 0
    assert session.set_seed(SEED.high) and session.settings.seed == 2**32 - 1
    assert np.array_equal(session.scene.position, build_scene("rand10k", 2**32 - 1).position)


def test_sphere_counts_outside_the_table_are_refused_not_clamped(session):
    from render.core.limits import SPHERE_COUNT

    session.set_renderer("spheres")
    assert session.select_scene("random")
    for count in (0, -5, SPHERE_COUNT.high + 1, 2.5):
        assert not session.set_sphere_count(count)
        assert session.status.startswith("sphere count must be an integer in 1..65536, got "), session.status
        assert session.settings.sphere_count == 1024 and session.scene.count == 1024
    assert session.set_sphere_count(SPHERE_COUNT.low) and session.scene.count == 1


def test_size_material_and_camera_clamp_to_the_table(session, monkeypatch):
    from render.core.limits import APP_SIZE, ELEVATION

    # The clamps, not whether a busy machine's CPU estimate at 4096 asks first.
    monkeypatch.setattr("app.slow_changes.CPU_WARN_SECONDS", float("inf"))

    assert session.set_size(10**6) and session.settings.size == APP_SIZE.high
    session.set_renderer("spheres")
    session.set_view("shaded")
    session.set_material(roughness=7.0, metalness=-1.0)
    assert (session.settings.roughness, session.settings.metalness) == (1.0, 0.0)
    assert (session.renderer.shading.roughness, session.renderer.shading.metalness) == (1.0, 0.0)
    session.orbit(0.0, 500.0)
    assert session.settings.camera_elevation == ELEVATION.high == session.renderer.shading.elevation
