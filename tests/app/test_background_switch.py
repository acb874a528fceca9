"""Switches on the GPU backend that wait for a background compile, with stand-ins: each kind's
renderer "compiles" its module through a module cache whose compile sleeps, and paints its image in
a colour of its variant. Checked through the Session (the calls the widgets make) and in the real
window under Xvfb: the old variant keeps drawing while the new one compiles, the switch lands when
the compile is over, the latest switch wins, a compile error keeps the old renderer, a close never
waits for a compile, and the cache is warmed with the kind's variants after the first frame."""

import threading
import time
import types
import zlib

import numpy as np
import pytest

import app.session
from app.background_switch import MAX_ERROR_CHARS, one_line
from app.session import Session
from app.settings import Settings
from render.core.module_cache import ModuleCache
from render.core.renderer import Renderer
from render.kinds import KINDS

SLOW = 1.0  # seconds a slow stand-in compile takes


def colour(label: str) -> np.ndarray:
    """The stand-in renderer's RGB for a variant label, float32 (3,), each 8-bit value's centre."""
    return ((np.frombuffer(zlib.crc32(label.encode()).to_bytes(4, "little")[:3], np.uint8) + 0.5) / 255).astype(
        np.float32
    )


def build_of(choice, scene, size):
    """The stand-in kinds' one module: it depends on the variant, the scene's contents and the size."""
    digest = zlib.crc32(scene.radius.tobytes() + scene.color.tobytes())
    return f"{choice.name}.cu", {"OPTIONS": choice.label(), "SCENE": f"{scene.name}-{digest}", "SIZE": size}


class StandInCompile:
    """Sleeps ``seconds.get(variant name, 0)``; fails for the names in ``failing``; records each start."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.failing: set[str] = set()
        self.started: list[tuple[str, str]] = []  # (source, thread name)

    def __call__(self, source, defines):
        self.started.append((source, threading.current_thread().name))
        time.sleep(self.seconds.get(source.removesuffix(".cu"), 0))
        if source.removesuffix(".cu") in self.failing:
            raise RuntimeError(f'{source}(12): error: identifier "TIEL" is undefined\n\n1 error detected in {source}')
        return source


class StandInRenderer(Renderer):
    """Loads its module from the cache (compiling it on first use, as the CUDA renderers do) and
    paints every pixel in ``colour(its label)``."""

    def __init__(self, choice, look, cache, made):
        self.choice, self.resolved, self.name, self.cache = choice, choice, choice.label(), cache
        made.append(self.name)

    def load(self, scene, width, height):
        self.cache.load(*build_of(self.choice, scene, width))
        self.shape = (height, width)

    def clear(self):
        pass

    def advance(self):
        pass

    @property
    def animated(self):
        return False

    def render(self):
        pass

    def image(self):
        return np.broadcast_to(np.append(colour(self.name), 1).astype(np.float32), (*self.shape, 4)).copy()

    def stage_times_ms(self):
        return {"blending": 0.01}

    def poison(self):
        pass


@pytest.fixture
def stand_in(monkeypatch):
    """Every kind's renderer and builds replaced by the stand-ins, sharing one slow module cache."""
    compile = StandInCompile()
    cache = ModuleCache(compile)
    made: list[str] = []
    for kind in KINDS.values():
        monkeypatch.setattr(kind, "make_renderer", lambda choice, look: StandInRenderer(choice, look, cache, made))
        monkeypatch.setattr(kind, "kernel_builds", lambda choice, scene, size, look: [build_of(choice, scene, size)])
    monkeypatch.setattr("render.core.gpu.gpu_name", lambda: "stand-in GPU")
    monkeypatch.setattr("app.session.release_cached_gpu_memory", lambda: None)  # CuPy's pool, after a resize
    return types.SimpleNamespace(compile=compile, cache=cache, made=made)


@pytest.fixture
def session(stand_in, tmp_path):
    made = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path)), backend="cuda")
    made.compile_in_background(stand_in.cache)
    yield made
    made.close()


def shown_colour(session):
    """One displayed frame, as the window loop makes it; the colour of its image."""
    session.poll_compile()
    assert session.update()
    return session.host_image()[0, 0, :3]


def frames_until_landed(session, timeout=30):
    """Drive the loop until no switch waits; the colour of each frame shown meanwhile (the last
    one is the frame in which the switch landed)."""
    colours = []
    deadline = time.monotonic() + timeout
    while session.compiling is not None:
        assert time.monotonic() < deadline, "the switch never landed"
        colours.append(shown_colour(session))
        time.sleep(0.01)
    return colours


def test_a_switch_to_an_uncompiled_variant_returns_at_once_and_lands_after_the_compile(session, stand_in):
    stand_in.compile.seconds["tile-scan"] = SLOW
    old = colour("auto")
    assert np.array_equal(shown_colour(session), old)
    started = time.monotonic()
    assert session.set_variant("tile-scan:tile=32")
    assert time.monotonic() - started < SLOW / 3
    label = "tile-scan:scan=warp,test=box,tile=32"
    assert session.compiling == label
    assert session.variant.label() == "auto" and session.settings.variant == "auto"
    during = frames_until_landed(session)
    assert time.monotonic() - started >= SLOW and len(during) >= 10
    assert all(np.array_equal(seen, old) for seen in during[:-1])  # the old variant drew all along
    assert np.array_equal(during[-1], colour(label)) and session.variant_label() == label
    assert session.variant.label() == label == session.settings.variant
    assert ("tile-scan.cu", "rasterlab-kernels") in stand_in.compile.started
    assert stand_in.made == ["auto", label]  # no renderer was built before its module was compiled


def test_the_latest_switch_wins(session, stand_in):
    stand_in.compile.seconds.update({"tile-scan": SLOW, "tile-sort": SLOW})
    assert session.set_variant("tile-scan")
    while not any(source == "tile-scan.cu" for source, _ in stand_in.compile.started):
        time.sleep(0.005)
    assert session.set_variant("tile-sort") and session.compiling.startswith("tile-sort")
    assert session.set_option("tile", "64") is False  # tile-sort has no tile 64: refused, nothing changes
    assert (
        session.set_variant("tile-warp:tile=64") and session.compiling == "tile-warp:bins=on,pixels=8,tile=64,walk=warp"
    )
    frames_until_landed(session)
    assert session.variant.label() == "tile-warp:bins=on,pixels=8,tile=64,walk=warp"
    assert stand_in.made == ["auto", "tile-warp:bins=on,pixels=8,tile=64,walk=warp"]
    # tile-sort was replaced before its compile began (no pile-up); the warm-up comes after.
    assert [source for source, _ in stand_in.compile.started][:3] == ["auto.cu", "tile-scan.cu", "tile-warp.cu"]


def test_a_switch_that_needs_no_compile_goes_through_at_once_and_drops_the_waiting_one(session, stand_in):
    stand_in.compile.seconds["tile-scan"] = SLOW / 2
    stand_in.cache.warm([build_of(session.kind.variants.parse("per-pixel"), session.scene, 256)])
    assert session.set_variant("tile-scan") and session.compiling
    assert session.set_variant("per-pixel") and session.compiling is None
    assert session.variant.label() == "per-pixel"
    time.sleep(SLOW)  # the tile-scan compile ends meanwhile; its switch must not land
    for _ in range(5):
        assert np.array_equal(shown_colour(session), colour("per-pixel"))
    assert session.variant.label() == "per-pixel"


def test_a_compile_error_is_one_status_line_and_keeps_the_old_renderer(session, stand_in):
    stand_in.compile.failing.add("tile-sort")
    shown_colour(session)
    renderer = session.renderer
    assert session.set_variant("tile-sort")
    frames_until_landed(session)
    assert (
        session.status
        == 'cannot compile tile-sort:sort=cub,test=box,tile=16: tile-sort.cu(12): error: identifier "TIEL" is undefined'
    )
    assert session.renderer is renderer and session.variant.label() == "auto" and session.settings.variant == "auto"
    assert np.array_equal(shown_colour(session), colour("auto"))
    assert session.set_variant("per-pixel")  # the next switch works as ever
    frames_until_landed(session)
    assert session.variant.label() == "per-pixel"


def test_scene_seed_size_and_renderer_switches_wait_for_their_kernels_too(session, stand_in):
    for name in ("auto", "constant"):
        stand_in.compile.seconds[name] = SLOW / 2
    settings = session.settings
    for action, field, old, new in (
        (lambda: session.select_scene("rand10k"), "scene", "rgb", "rand10k"),
        (lambda: session.set_seed(5), "seed", 0, 5),
        (lambda: session.set_size(300), "size", 256, 300),
        (lambda: session.set_renderer("spheres"), "renderer", "circles", "spheres"),
    ):
        before = session.renderer
        assert action() and session.compiling is not None
        # Nothing changed yet: the settings hold the old value and the old renderer draws.
        assert getattr(settings, field) == old and session.renderer is before
        frames_until_landed(session)
        assert getattr(settings, field) == new and session.renderer is not before, session.status
    assert session.scene.name == "classic" and session.host_image().shape == (300, 300, 4)
    assert session.variant.label() == "constant" and settings.seed == 5 and settings.scene == "rand10k"


def test_the_cache_is_warmed_with_every_variant_after_the_first_frame(session, stand_in):
    kind = session.kind
    session.poll_compile()
    time.sleep(0.2)
    assert [source for source, _ in stand_in.compile.started] == ["auto.cu"]  # only the start's, so far
    shown_colour(session)
    session.poll_compile()
    deadline = time.monotonic() + 30
    wanted = [build_of(kind.variants.parse(name), session.scene, 256) for name in kind.variants]
    while not stand_in.cache.ready(wanted):
        assert time.monotonic() < deadline, "the warm-up never finished"
        time.sleep(0.01)
    assert {thread for _, thread in stand_in.compile.started[1:]} == {"rasterlab-kernels"}
    assert session.set_variant("tile-scan") and session.compiling is None  # warm: switched at once
    assert stand_in.made[-1] == "tile-scan:scan=warp,test=box,tile=16"


def test_closing_during_a_compile_waits_for_it_only_so_long(session, stand_in, monkeypatch):
    monkeypatch.setattr(app.session, "COMPILE_EXIT_WAIT_S", 0.5)
    stand_in.compile.seconds["tile-warp"] = 60
    assert session.set_variant("tile-warp")
    while not any(source == "tile-warp.cu" for source, _ in stand_in.compile.started):
        time.sleep(0.005)
    started = time.monotonic()
    session.close()
    assert 0.5 <= time.monotonic() - started < 1.5 and session.compiling is None


def test_the_cpu_backend_switches_at_once_and_starts_no_compiler(tmp_path):
    def compilers():
        return sum(thread.name == "rasterlab-kernels" for thread in threading.enumerate())

    session = Session(Settings(scene="rgb", size=64, export_folder=str(tmp_path)), backend="cpu")
    try:
        before = compilers()
        session.compile_in_background()
        assert session.set_variant("tile-scan") and session.compiling is None
        assert session.variant.label() == "tile-scan:scan=warp,test=box,tile=16"
        assert compilers() == before
    finally:
        session.close()


def test_the_window_keeps_delivering_frames_of_the_old_variant_while_the_new_one_compiles(
    x_display, config, stand_in, tmp_path
):
    from app.surfaces import GlfwWindow, read_framebuffer
    from app.window import App

    settings = Settings(scene="rgb", size=256, vsync=False, export_folder=str(tmp_path))
    app = App(GlfwWindow(900, 600, "rasterlab test"), Session(settings, backend="cuda"))
    try:
        app.session.compile_in_background(stand_in.cache)  # the stand-in cache instead of NVRTC's

        def centre_pixel():
            x, y, width, height = app.view_rect()
            screen = read_framebuffer(*app.surface.framebuffer_size())
            return screen[screen.shape[0] - 1 - (y + height // 2), x + width // 2]

        def eight_bit(label):
            return (colour(label) * 255).astype(np.uint8)

        for _ in range(3):
            app.frame()
        assert np.array_equal(centre_pixel(), eight_bit("auto"))
        stand_in.compile.seconds["tile-warp"] = 1.5
        shown_before = app.frames_shown
        assert app.session.set_variant("tile-warp:bins=off")
        pixels, longest = [], 0.0
        deadline = time.monotonic() + 30
        while app.session.compiling is not None:
            assert time.monotonic() < deadline, "the switch never landed"
            started = time.monotonic()
            assert app.frame()
            longest = max(longest, time.monotonic() - started)
            pixels.append(centre_pixel())
        assert app.frames_shown - shown_before >= 10  # new frames kept coming, not redraws alone
        assert longest < 0.75  # never frozen for the 1.5 s compile
        assert all(np.array_equal(pixel, eight_bit("auto")) for pixel in pixels[:-1])
        assert np.array_equal(pixels[-1], eight_bit("tile-warp:bins=off,pixels=4,tile=32,walk=warp"))
        assert app.session.variant_label() == "tile-warp:bins=off,pixels=4,tile=32,walk=warp"
    finally:
        app.close()


def test_a_compiler_message_of_any_shape_becomes_one_short_line():
    nvrtc = "render_x.cu(4): warning: unused\nrender_x.cu(9): error: expected a ';'\n\n1 error detected"
    assert one_line(RuntimeError(nvrtc)) == "render_x.cu(9): error: expected a ';'"
    assert one_line(RuntimeError("\n\n  link failed  \nmore")) == "link failed"
    assert one_line(MemoryError()) == "MemoryError"
    assert one_line(RuntimeError("error: " + "x" * 10_000)) == ("error: " + "x" * 10_000)[:MAX_ERROR_CHARS]
