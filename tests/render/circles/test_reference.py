"""The CPU reference circle renderer: the cleared background, the inclusive pixel test and clamped
pixel boxes, blending in index order, row 0 at the bottom, unclamped colours, the snowflake ramp,
the compiled flat blend equal bit for bit to the NumPy passes (its oracle) on every flat scene and
the edge scenes, in bands too, and given up between its runs, parallel bands equal to one serial
pass, worker processes (and their forkserver) that ignore Ctrl-C, SIGTERM and SIGHUP from their
start, and a frame that ends its workers whatever state they are in."""

import array
import contextlib
import errno
import multiprocessing
import os
import pickle
import resource
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from render.circles import band_pool, flat_blend, reference
from render.circles.band_pool import END_SECONDS, SharedScene
from render.circles.reference import ReferenceRenderer, blend_rows, clear_image, render_reference
from render.circles.shading import SNOW_RAMP, pixel_bounds, snowflake_rgba
from render.core import progress
from render.core.renderer import OutOfHostMemory, RendererUnavailable, render_frame
from scenes.builtin import SCENE_NAMES, build_scene
from scenes.model import CircleScene, empty_arrays

f32 = np.float32


def scene_of(circles, shading="flat", background="white"):
    """circles: list of (x, y, z, r, (red, green, blue))."""
    arrays = empty_arrays(len(circles))
    for i, (x, y, z, r, rgb) in enumerate(circles):
        arrays["position"][i] = (x, y, z)
        arrays["radius"][i] = r
        arrays["color"][i] = rgb
    return CircleScene("test", **arrays, shading=shading, background=background)


def render(scene, size, workers=1):
    renderer = ReferenceRenderer(workers=workers)
    renderer.load(scene, size, size)
    return render_frame(renderer, 0)


def test_clear_white_and_snow_gradient():
    white = clear_image(scene_of([]), 4, 4)
    assert np.all(white == 1)
    snow = clear_image(scene_of([], "snowflake", "snow"), 4, 8)
    assert snow.shape == (8, 4, 4)
    assert snow[0, 0, 0] == f32(0.4) + f32(0.45)  # brightest, bottom row
    assert snow[7, 0, 0] == f32(0.4) + (f32(0.45) * f32(1)) / f32(8)  # darkest, top row
    assert np.all(snow[..., 3] == 1)


def test_inclusive_boundary():
    # 4x4 image: pixel centers at .125, .375, ...; a circle at pixel (1,1)'s center with radius
    # exactly one pixel spacing (.25) reaches the centers of its 4 neighbours: inclusive.
    image = render(scene_of([(0.375, 0.375, 0, 0.25, (0, 0, 0))]), 4)
    covered = image[..., 0] < 1
    expected = np.zeros((4, 4), bool)
    expected[1, 1] = expected[0, 1] = expected[2, 1] = expected[1, 0] = expected[1, 2] = True
    assert np.array_equal(covered, expected)
    assert np.all(image[covered, :3] == 0.5) and np.all(image[covered, 3] == 1.5)


def test_blend_order_is_index_order():
    red, blue = (1, 0, 0), (0, 0, 1)
    a = render(scene_of([(0.5, 0.5, 0, 0.4, red), (0.5, 0.5, 0, 0.4, blue)]), 8)[4, 4]
    b = render(scene_of([(0.5, 0.5, 0, 0.4, blue), (0.5, 0.5, 0, 0.4, red)]), 8)[4, 4]
    # White, 50% red over it: (1, .5, .5); 50% blue over that: (.5, .25, .75). Swapped: (.75, .25, .5).
    assert tuple(a[:3]) == (0.5, 0.25, 0.75) and tuple(b[:3]) == (0.75, 0.25, 0.5)
    assert a[3] == 2.0


def test_row_zero_is_the_bottom():
    image = render(scene_of([(0.5, 0.1, 0, 0.1, (0, 0, 0))]), 10)
    assert image[0, 5, 0] < 1 and image[9, 5, 0] == 1


def test_colors_are_not_clamped():
    image = render(scene_of([(0.5, 0.5, 0, 0.5, (3, 0, 0))]), 4)
    assert image[2, 2, 0] == f32(0.5) * f32(3) + f32(0.5)


def test_snow_ramp_and_alpha():
    rgb, alpha = snowflake_rgba(np.array([0.0, 1.0], np.float32), f32(1.0), f32(0.0))
    assert np.array_equal(rgb[0], SNOW_RAMP[0]) and np.array_equal(rgb[1], SNOW_RAMP[4])  # t = 1 -> T4
    assert alpha[0] == f32(0.5)  # z = 0: max alpha .5, at the center exp(0) = 1
    assert alpha[1] == np.float32(0.5 * np.exp(np.float64(np.float32(-4))))
    _, deep = snowflake_rgba(np.array([0.0], np.float32), f32(1.0), f32(1.0))
    assert deep[0] == f32(0.5) * f32(0.6)  # z = 1: max alpha .3
    mid, _ = snowflake_rgba(np.array([0.375**2], np.float32), f32(1.0), f32(0.0))
    assert np.allclose(mid[0], 0.5 * SNOW_RAMP[1] + 0.5 * SNOW_RAMP[2])  # t = .375 -> s = 1.5


def test_pixel_bounds_clamp():
    bounds = pixel_bounds(np.float32([[-0.5, 0.5, 0], [0.5, 0.5, 0]]), np.float32([0.1, 0.01]), 100, 100)
    assert bounds[0].tolist() == [0, 0, 40, 61]  # off screen to the left: empty x range
    assert bounds[1].tolist() == [49, 52, 49, 52]


MOST_CIRCLES = 30_000  # the NumPy passes take tens of microseconds a circle: larger scenes are cut to this


def blended(scene, size, compiled, row0=0, rows=None):
    """Rows [row0, row0 + rows) of ``scene`` at size x size, blended over the cleared picture's."""
    rows = size - row0 if rows is None else rows
    planes = np.ascontiguousarray(np.moveaxis(clear_image(scene, size, size), -1, 0)[:, row0 : row0 + rows])
    blend_rows(scene, planes, row0, size, compiled=compiled)
    return planes


def first_circles(scene, count):
    arrays = {key: getattr(scene, key)[:count].copy() for key in ("position", "velocity", "color", "radius")}
    return CircleScene(scene.name, **arrays, shading=scene.shading, background=scene.background)


@pytest.mark.parametrize("size", [97, 256])
@pytest.mark.parametrize("name", SCENE_NAMES)
def test_the_compiled_blend_equals_the_numpy_passes(name, size):
    scene = build_scene(name)
    if scene.shading != "flat":
        pytest.skip("snowflakes blend through the NumPy passes themselves")
    scene = first_circles(scene, MOST_CIRCLES)
    compiled, passes = blended(scene, size, True), blended(scene, size, False)
    assert np.array_equal(compiled.view(np.uint32), passes.view(np.uint32))  # bit for bit, NaN or not


def test_the_compiled_blend_equals_the_numpy_passes_in_a_band_and_on_the_edge_scenes(edge_scenes):
    for make in edge_scenes.values():
        scene = make()
        if scene.shading != "flat":
            continue
        for size, row0, rows in ((257, 0, 257), (257, 37, 50), (1000, 990, 10)):
            compiled, passes = blended(scene, size, True, row0, rows), blended(scene, size, False, row0, rows)
            assert np.array_equal(compiled.view(np.uint32), passes.view(np.uint32)), (scene.name, size, row0)


def test_a_frame_given_up_stops_the_compiled_blend_between_its_runs(monkeypatch):
    monkeypatch.setattr(flat_blend, "RUN_PIXELS", 1 << 12)  # a run a circle or so: many runs
    scene = first_circles(build_scene("rand10k"), 2000)
    reports = []

    def listen(fraction):
        reports.append(fraction)
        if len(reports) == 2:
            raise _GivenUp

    monkeypatch.setattr(progress, "REPORT_SECONDS", 0.0)
    with pytest.raises(_GivenUp), progress.reporting(listen):
        blended(scene, 256, True)
    assert 0 < reports[-1] < 0.01  # stopped at the second run, not at the end


@pytest.mark.parametrize("name", ["rand10k", "snowsingle"])
def test_parallel_bands_equal_serial(name):
    scene = build_scene(name)
    serial = clear_image(scene, 128, 128)
    parallel = serial.copy()
    render_reference(scene, serial, workers=1)
    render_reference(scene, parallel, workers=2)
    assert np.array_equal(serial, parallel)


class _Start:
    """What a forkserver start pickles a worker's arguments through: descriptors go beside the
    pickle, by number (``multiprocessing.reduction.DupFd``)."""

    def __init__(self):
        self.fds = []

    def duplicate_for_child(self, fd):
        return fd

    def DupFd(self, fd):  # noqa: N802 (multiprocessing's name)
        self.fds.append(fd)
        return _Passed(fd)


class _Passed:
    """A descriptor as a worker receives it: its own duplicate."""

    def __init__(self, fd):
        self.fd = fd

    def detach(self):
        return os.dup(self.fd)


def test_a_worker_start_carries_the_scene_as_a_descriptor_and_the_worker_maps_its_arrays(monkeypatch):
    # Before, each worker's start pickled the whole scene (40 bytes a circle) and piped it, and each
    # worker held a copy of its own.
    scene = build_scene("snowsingle")
    shared = SharedScene(scene)
    try:
        start = _Start()
        multiprocessing.context.set_spawning_popen(start)
        try:
            pickled = pickle.dumps(shared)
        finally:
            multiprocessing.context.set_spawning_popen(None)
        assert len(pickled) < 1000 < scene.radius.nbytes
        assert start.fds == [shared.fd]
        mapped = pickle.loads(pickled).scene()
        for name in ("position", "color", "radius"):
            array = getattr(mapped, name)
            assert array.dtype == np.float32 and np.array_equal(array, getattr(scene, name)), name
            assert not array.flags.writeable, name
        assert mapped.velocity.shape == (scene.count, 3) and not mapped.velocity.any()
        assert (mapped.name, mapped.shading, mapped.background) == (scene.name, "snowflake", "snow")
    finally:
        shared.close()


def _shared_scene_files():
    """This process's descriptors of shared scenes (other descriptors come and go with the
    forkserver, which a first frame starts)."""
    links = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            links.append(os.readlink(f"/proc/self/fd/{fd}"))
    return [link for link in links if "rasterlab-scene" in link]


def _fails(number):
    def fail(*args, **options):
        raise OSError(number, os.strerror(number))

    return fail


@pytest.mark.parametrize("call, number", [("posix_fallocate", errno.ENOSPC), ("mmap", errno.ENOMEM)])
def test_no_memory_for_the_shared_scene_is_one_line_and_leaves_no_descriptor(monkeypatch, call, number):
    # Before, a failed map reached the command as an OSError, which it took for a failed write to
    # standard output.
    monkeypatch.setattr(band_pool.mmap if call == "mmap" else band_pool.os, call, _fails(number))
    renderer = ReferenceRenderer(workers=2)
    renderer.load(build_scene("rand100k"), 64, 64)
    with pytest.raises(OutOfHostMemory, match=r"^not enough host memory for rendering rand100k at 64x64$"):
        renderer.render()
    assert _shared_scene_files() == []
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize(
    "call, number", [("memfd_create", errno.EMFILE), ("memfd_create", errno.ENOSYS), ("mmap", errno.EACCES)]
)
def test_a_host_that_cannot_share_the_scene_renders_the_frame_in_one_thread(monkeypatch, call, number):
    # As where a sandbox refuses memfd_create, or no descriptor is left: the same pixels, slower.
    scene = build_scene("rand100k")
    serial = clear_image(scene, 64, 64)
    render_reference(scene, serial, workers=1)
    monkeypatch.setattr(band_pool.mmap if call == "mmap" else band_pool.os, call, _fails(number))
    with pytest.raises(band_pool.NoWorkers, match=os.strerror(number)):
        band_pool.SharedScene(scene)
    started = []
    monkeypatch.setattr(band_pool, "worker_context", lambda: started.append(True))
    image = clear_image(scene, 64, 64)
    render_reference(scene, image, workers=2)
    assert np.array_equal(image, serial) and started == []
    assert _shared_scene_files() == []


def _limit_descriptors(soft):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


@pytest.mark.parametrize("soft", [12, 17])
def test_a_limit_on_open_descriptors_too_low_for_the_workers_renders_with_fewer_or_one_thread(run_main, tmp_path, soft):
    # Before, a worker's start failed for want of a descriptor: an error line, and at 16-18 on two
    # cores a traceback too, from the forkserver, which the half-made request had killed.
    full = tmp_path / "full.png"
    assert run_main("render", "--scene", "rand100k", "--size", "64", "--backend", "cpu", "--out", full).returncode == 0
    out = tmp_path / "limited.png"
    command = ["render", "--scene", "rand100k", "--size", "64", "--backend", "cpu", "--out", out]
    result = run_main(*command, preexec_fn=_limit_descriptors(soft))
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    if result.returncode == 0:
        assert errors == [] and out.read_bytes() == full.read_bytes()
    else:
        # Where the libraries the command loads hold more (CuPy and CUDA's on a GPU machine), the
        # output's own file may find none left: one line, naming it.
        assert result.returncode == 1 and errors == [f"error: cannot write {out}: Too many open files"], errors
        assert not out.exists()


@pytest.mark.parametrize(
    "order",
    [
        ["18", "21", "24", "27", "30", "33", "40", "60"],  # the forkserver started under the lowest
        ["60", "40", "33", "30", "27", "24", "21", "18"],
        ["--lowered", "14", "18", "21", "24", "40"],  # lowered once the frame has counted
    ],
)
@pytest.mark.skipif(
    resource.getrlimit(resource.RLIMIT_NOFILE)[1] in range(128),
    reason="needs a hard limit on open descriptors of 128 or more",
)
def test_frames_under_changing_descriptor_limits_are_exact_and_print_no_traceback(probe_path, order):
    # Before, a limit raised after the forkserver had started under a lower one, or lowered while a
    # frame started its workers, failed the frame, and the forkserver died printing a traceback
    # (an EOFError or an AssertionError from recvfds).
    result = subprocess.run(
        [sys.executable, str(probe_path("descriptor_limits_probe.py")), *order],
        capture_output=True,
        text=True,
        timeout=240,
    )
    limits = [soft for soft in order if soft != "--lowered"]
    assert result.stdout.split() == [word for soft in limits for word in (soft, "same")], result.stderr
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_without_proc_the_open_descriptors_are_counted_one_by_one(monkeypatch):
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    # A descriptor at or above the limit (one inherited, say) takes no place a new one could.
    listed = sum(1 for fd in os.listdir("/proc/self/fd") if int(fd) < soft) - 1

    def no_proc(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)

    monkeypatch.setattr(band_pool.os, "listdir", no_proc)
    if soft <= 4096:
        assert band_pool._open_descriptors(soft) == listed
    assert band_pool._open_descriptors(64) == sum(1 for fd in range(64) if _is_open(fd))
    assert band_pool._open_descriptors(4097) is None


def _is_open(fd):
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def test_the_forkserver_drops_a_request_whose_descriptors_did_not_all_arrive():
    from multiprocessing import reduction

    from render.circles.forkserver_guard import receive_descriptors

    ours, theirs = socket.socketpair()
    with ours, theirs, open(os.devnull) as one, open(os.devnull) as two:
        reduction.sendfds(theirs, [one.fileno(), two.fileno()])
        received = receive_descriptors(ours, 8)
        assert len(received) == 2 and all(os.path.samestat(os.fstat(fd), os.fstat(one.fileno())) for fd in received)
        for fd in received:
            os.close(fd)
        open_before = len(os.listdir("/proc/self/fd"))
        # A count that does not match the descriptors, as where some did not fit.
        theirs.sendmsg([bytes([3])], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [one.fileno()]))])
        with pytest.raises(ConnectionAbortedError) as error:
            receive_descriptors(ours, 8)
        assert error.value.errno == errno.ECONNABORTED
        assert len(os.listdir("/proc/self/fd")) == open_before  # the one that came is closed again
        theirs.close()  # the sender gone before sending: the server's EOFError before
        with pytest.raises(ConnectionAbortedError):
            receive_descriptors(ours, 8)


def test_a_refused_fork_drops_its_request_and_closes_the_descriptors_it_came_with():
    from render.circles import forkserver_guard

    def refused():
        raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))

    ours, theirs = socket.socketpair()
    with ours, theirs, open(os.devnull) as one:
        open_before = len(os.listdir("/proc/self/fd"))
        multiprocessing.reduction.sendfds(theirs, [one.fileno(), one.fileno(), one.fileno()])
        received = forkserver_guard.receive_descriptors(ours, 8)
        assert len(os.listdir("/proc/self/fd")) == open_before + len(received) == open_before + 3
        with pytest.raises(ConnectionAbortedError) as error:
            forkserver_guard.dropping_refused_forks(refused)()
        assert error.value.errno == errno.ECONNABORTED and "Resource temporarily unavailable" in str(error.value)
        assert len(os.listdir("/proc/self/fd")) == open_before
        # Once a fork is made, the request's descriptors are the server's: a later fork refused,
        # with no request received since, closes none of their numbers, which may be taken again.
        multiprocessing.reduction.sendfds(theirs, [one.fileno(), one.fileno()])
        received = forkserver_guard.receive_descriptors(ours, 8)
        assert forkserver_guard.dropping_refused_forks(lambda: 4321)() == 4321
        for fd in received:
            os.close(fd)
        kept = os.dup(one.fileno())
        assert kept in received
        with pytest.raises(ConnectionAbortedError):
            forkserver_guard.dropping_refused_forks(refused)()
        os.close(kept)  # still open: this would raise otherwise


def test_only_a_child_of_the_forkserver_meeting_the_end_of_its_work_ends_without_a_report():
    from render.circles.forkserver_guard import quiet_when_given_up

    reported = []

    def hook(kind, value, trace):
        reported.append(kind)

    quiet_when_given_up(os.getpid(), hook)(EOFError, EOFError(), None)  # the server's own
    quiet_when_given_up(os.getpid() + 1, hook)(ValueError, ValueError(), None)  # a child's other error
    quiet_when_given_up(os.getpid() + 1, hook)(EOFError, EOFError(), None)  # a child given up
    assert reported == [EOFError, ValueError]


def test_a_fork_the_system_refuses_renders_the_frame_in_one_thread_and_the_forkserver_lives_on(probe_path):
    # Before, the forkserver died printing a BlockingIOError traceback (the limit on processes,
    # ulimit -u, met by a user who is not root), and each frame started one that died the same way.
    result = subprocess.run(
        [sys.executable, str(probe_path("refused_fork_probe.py")), "2", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout == "same 0\nsame 0\nsame 4\n", result.stderr
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_a_worker_whose_start_the_command_gave_up_after_its_fork_ends_without_a_traceback(probe_path):
    # Before, that worker printed an EOFError traceback when the command exited.
    result = subprocess.run(
        [sys.executable, str(probe_path("refused_dup_probe.py"))], capture_output=True, text=True, timeout=120
    )
    assert result.stdout == "same\nsame\n", result.stderr
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.skipif(
    resource.getrlimit(resource.RLIMIT_NOFILE)[1] in (*range(64), resource.RLIM_INFINITY),
    reason="needs a finite hard limit on open descriptors of 64 or more",
)
def test_the_forkserver_takes_its_hard_limit_on_descriptors(probe_path):
    script = (
        "import resource, sys; sys.path.insert(0, sys.argv[1]);"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (32, resource.getrlimit(resource.RLIMIT_NOFILE)[1]));"
        "from render.circles import forkserver_guard; forkserver_guard.guard();"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE); print(soft == hard)"
    )
    root = str(probe_path("x").parents[2])
    result = subprocess.run([sys.executable, "-c", script, root], capture_output=True, text=True, timeout=60)
    assert result.stdout == "True\n", result.stderr


@pytest.mark.skipif(
    resource.getrlimit(resource.RLIMIT_NOFILE)[1] in range(128),  # RLIM_INFINITY (-1) passes
    reason="needs a hard limit on open descriptors of 128 or more",
)
def test_a_worker_keeps_the_commands_limit_on_descriptors(probe_path):
    # Before, the workers inherited the hard limit that the forkserver takes as its own.
    result = subprocess.run(
        [sys.executable, str(probe_path("worker_limit_probe.py"))], capture_output=True, text=True, timeout=120
    )
    assert result.stdout == "64\n" and result.returncode == 0, result.stderr


def test_the_workers_a_frame_starts_fit_the_descriptors_left(monkeypatch):
    def limit(soft):
        monkeypatch.setattr(band_pool.resource, "getrlimit", lambda _: (soft, resource.RLIM_INFINITY))

    open_now = len(os.listdir("/proc/self/fd")) - 1
    room_for_4 = open_now + band_pool.DESCRIPTORS_BESIDE + 4 * band_pool.DESCRIPTORS_A_WORKER
    limit(room_for_4)
    assert band_pool.workers_within_descriptors(16) == 4 and band_pool.workers_within_descriptors(2) == 2
    limit(room_for_4 - 1)
    assert band_pool.workers_within_descriptors(16) == 3
    limit(open_now)
    assert band_pool.workers_within_descriptors(16) == 0 and reference.worker_count(10**5, 16) == 1
    limit(resource.RLIM_INFINITY)
    assert band_pool.workers_within_descriptors(16) == 16


def test_a_copy_into_the_shared_scene_that_fails_leaves_no_descriptor():
    scene = build_scene("rand10k")
    scene.position = np.zeros((scene.count + 1, 3), np.float32)  # not the scene's shape
    with pytest.raises(ValueError):
        SharedScene(scene)
    assert _shared_scene_files() == []


def test_a_worker_that_cannot_map_the_scene_answers_each_band_with_the_error():
    class _Closed:
        def detach(self):
            return os.open("/dev/null", os.O_WRONLY)  # mapped for reading: EACCES

    ours, theirs = multiprocessing.Pipe()
    answers = []

    def command():
        ours.send("a band")
        answers.append(ours.recv())
        ours.close()

    thread = threading.Thread(target=command)
    thread.start()
    band_pool.serve_bands(theirs, blend_rows, band_pool.SceneHandle(_Closed(), 10, {}), None, None)
    thread.join()
    assert [type(answer) for answer in answers] == [RendererUnavailable]
    assert str(answers[0]).startswith("a CPU worker process cannot map the scene: ")


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_to_the_group_while_the_forkserver_starts_harms_no_process(probe_path, run_own_group, name):
    # A terminal's Ctrl-C or a supervisor's SIGTERM reaches the whole process group. Before, the
    # forkserver still starting printed a KeyboardInterrupt traceback or died, a SIGHUP killed the
    # resource tracker (its warnings and KeyErrors came at the command's exit), and a worker ignored
    # only SIGINT: SIGTERM or SIGHUP killed it and left the pool waiting on the others forever.
    result = run_own_group([sys.executable, str(probe_path("worker_signals_probe.py")), name], timeout=120)
    assert result.stdout == "ignored: SIGINT SIGTERM SIGHUP\ntracker: running\n", result.stderr
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


class _GivenUp(Exception):
    pass


def _on_first_report(action):
    """A progress listener that runs ``action(workers)`` once, at the frame's first report, with the
    worker processes then running."""
    done = []

    def listener(_fraction):
        workers = multiprocessing.active_children()
        if workers and not done:
            done.append(True)
            action(workers)

    return listener


def test_a_worker_killed_mid_frame_is_one_clear_error():
    # As the kernel's out-of-memory killer does. Before, the pool's BrokenProcessPool reached the
    # command, which printed its traceback.
    scene = build_scene("rand100k")
    image = clear_image(scene, 512, 512)
    started = time.monotonic()
    with pytest.raises(RendererUnavailable, match="a CPU worker process was killed by SIGKILL"):
        with progress.reporting(_on_first_report(lambda workers: workers[0].kill())):
            render_reference(scene, image, workers=2)
    assert time.monotonic() - started < 15
    assert multiprocessing.active_children() == []


def test_a_given_up_frame_ends_workers_that_do_not_stop_within_a_bound():
    # Workers that cannot read the stop flag (here: stopped; as well, ones stuck on a lock that a
    # killed worker held) are killed once the bound has passed. Before, the pool waited for them for
    # as long as they took: forever, but for the timer that lets them go on after 20 s.
    scene = build_scene("rand100k")
    image = clear_image(scene, 512, 512)

    timers = []

    def freeze(workers):
        for worker in workers:
            os.kill(worker.pid, signal.SIGSTOP)
        timers.append(threading.Timer(20, lambda: [os.kill(worker.pid, signal.SIGCONT) for worker in workers]))
        timers[0].start()
        raise _GivenUp

    started = time.monotonic()
    try:
        with pytest.raises(_GivenUp):
            with progress.reporting(_on_first_report(freeze)):
                render_reference(scene, image, workers=2)
        assert time.monotonic() - started < END_SECONDS + 5
        assert multiprocessing.active_children() == []
    finally:
        for timer in timers:
            timer.cancel()
