"""Background compiles on the GPU (skipped without one): a switch to a variant whose kernels are not
compiled returns at once while NVRTC runs in the background, the old renderer keeps drawing, and the
frame after the switch equals the CPU reference; the warm-up compiles every variant of the table;
a real NVRTC error is one status line. Each test starts from empty kernel caches (the process's
and CuPy's, on disk and in memory), so the compiles are real."""

import time

import numpy as np
import pytest

from app.session import Session
from app.settings import Settings
from render.circles.reference import ReferenceRenderer
from render.core import kernels
from render.core.module_cache import ModuleCache
from render.core.renderer import render_frame
from render.kinds import KINDS
from scenes.builtin import build_scene

pytestmark = pytest.mark.gpu


@pytest.fixture
def empty_caches(monkeypatch, tmp_path):
    """A fresh process module cache, and CuPy's caches emptied (its disk cache moved to tmp_path)."""
    import cupy

    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path / "kernel-cache"))
    cupy.clear_memo()
    cache = ModuleCache(kernels.compile_module)
    monkeypatch.setattr(kernels, "MODULES", cache)
    return cache


def reference(name, size, frame):
    renderer = ReferenceRenderer()
    renderer.load(build_scene(name), size, size)
    return render_frame(renderer, frame)


def loop_until_landed(session, timeout=180):
    """The window loop's calls until no switch waits; the longest pass while one did (seconds)."""
    longest = 0.0
    deadline = time.monotonic() + timeout
    while session.compiling is not None:
        assert time.monotonic() < deadline, "the switch never landed"
        started = time.monotonic()
        session.poll_compile()
        if session.compiling is None:
            break  # this pass did the switch itself
        assert session.update()  # the old renderer keeps drawing
        longest = max(longest, time.monotonic() - started)
    return longest


@pytest.fixture
def session(tmp_path, empty_caches):
    made = Session(Settings(scene="bouncingballs", size=256, export_folder=str(tmp_path)), backend="cuda")
    made.compile_in_background()
    yield made
    made.close()


def test_a_switch_to_an_uncompiled_variant_returns_at_once_and_then_renders_exactly(session, empty_caches):
    for _ in range(3):
        session.step()
    expected = reference("bouncingballs", 256, 3)
    for label in ("tile-scan:scan=blelloch,tile=32", "tile-sort:test=exact", "tile-warp:tile=64,bins=off"):
        choice = session.kind.variants.parse(label)
        builds = session.kind.kernel_builds(choice, session.scene, 256, session.look())
        assert not empty_caches.ready(builds), label
        before = session.renderer
        started = time.monotonic()
        assert session.set_variant(label), session.status
        assert time.monotonic() - started < 0.25 and session.compiling == choice.label()
        assert session.renderer is before and session.variant != choice
        longest = loop_until_landed(session)
        assert longest < 0.25, f"a frame took {longest:.3f} s while {label} compiled"
        assert session.variant == choice and session.frame == 3 and session.renderer is not before
        assert session.update() and np.array_equal(session.host_image(), expected), label


def test_the_warm_up_compiles_every_variant_for_the_scene(tmp_path, empty_caches):
    for renderer, scene in (("circles", "rand10k"), ("spheres", "classic")):
        kind = KINDS[renderer]
        settings = Settings(renderer=renderer, size=512, export_folder=str(tmp_path))
        setattr(settings, kind.settings_fields["scene"], scene)
        session = Session(settings, backend="cuda")
        try:
            session.compile_in_background()
            table = [kind.variants.parse(name) for name in kind.variants]
            builds = [kind.kernel_builds(choice, session.scene, 512, session.look()) for choice in table]
            assert session.update()
            session.poll_compile()  # after the first frame: the warm-up starts
            deadline = time.monotonic() + 300
            while not all(empty_caches.ready(each) for each in builds):
                assert time.monotonic() < deadline, "the warm-up did not finish"
                session.poll_compile()
                assert session.update()
                time.sleep(0.01)
            for choice in table:  # every default variant is now a switch without a wait
                assert session.set_variant(choice) and session.compiling is None, choice
                assert session.variant == choice
        finally:
            session.close()


def test_an_nvrtc_error_is_one_status_line_and_the_old_renderer_stays(session, monkeypatch):
    circles = KINDS["circles"]
    real = circles.kernel_builds

    def broken(choice, scene, size, look):
        return [(source, {**defines, "TILE": "not_a_number"}) for source, defines in real(choice, scene, size, look)]

    monkeypatch.setattr(circles, "kernel_builds", broken)
    before = session.renderer
    assert session.set_variant("tile-scan") and session.compiling
    loop_until_landed(session)
    assert session.status.startswith("cannot compile tile-scan:scan=warp,test=box,tile=16: ")
    assert "\n" not in session.status and "error" in session.status, session.status
    assert session.renderer is before and session.variant.label() == "auto" and session.update()
