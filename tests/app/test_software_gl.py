"""Mesa's software OpenGL under a limit on processes (app/software_gl.py): where the limit leaves
no room for llvmpipe's rasterizer threads, it draws in the calling thread, so that a refused thread
cannot hang the app."""

import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

from app import software_gl
from app.software_gl import RESERVE, fit_software_gl_to_process_limit, rasterizer_threads


@pytest.mark.parametrize(
    ("limit", "tasks", "cpus", "threads"),
    [
        (1000, 100, 16, None),  # room for 16 rasterizers and the reserve: llvmpipe's own choice
        (100 + 16 + RESERVE, 100, 16, None),
        (100 + 16 + RESERVE - 1, 100, 16, 0),
        (10, 30, 2, 0),  # already over the limit (as root, whom it does not bind)
        (10**6, None, 2, 0),  # the count unknown
    ],
)
def test_rasterizer_threads(limit, tasks, cpus, threads):
    assert rasterizer_threads(limit, tasks, cpus) == threads


def _fit(monkeypatch, limit, system, user, environ):
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (limit, resource.RLIM_INFINITY))
    monkeypatch.setattr(software_gl, "system_tasks", lambda: system)
    monkeypatch.setattr(software_gl, "user_tasks", lambda _uid: user)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    fit_software_gl_to_process_limit(environ)
    return environ


def test_a_low_limit_sets_one_thread_of_drawing(monkeypatch):
    assert _fit(monkeypatch, 20, 500, 15, {}) == {"LP_NUM_THREADS": "0"}


def test_room_for_the_rasterizers_leaves_the_driver_its_choice(monkeypatch):
    assert _fit(monkeypatch, 4000, 500, 15, {}) == {}  # the system's count alone decides
    assert _fit(monkeypatch, 200, 500, 150, {}) == {}  # the user's count decides


def test_no_limit_or_the_users_own_choice_is_kept(monkeypatch):
    assert _fit(monkeypatch, resource.RLIM_INFINITY, 500, 15, {}) == {}
    assert _fit(monkeypatch, 20, 500, 15, {"LP_NUM_THREADS": "3"}) == {"LP_NUM_THREADS": "3"}


def test_unreadable_counts_set_one_thread(monkeypatch):
    def unreadable(*_args):
        raise OSError("no /proc")

    monkeypatch.setattr(software_gl, "user_tasks", unreadable)
    monkeypatch.setattr(software_gl, "system_tasks", unreadable)
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (5000, resource.RLIM_INFINITY))
    environ: dict[str, str] = {}
    fit_software_gl_to_process_limit(environ)
    assert environ == {"LP_NUM_THREADS": "0"}


def test_the_counts_include_this_process():
    threads = int(Path("/proc/self/status").read_text().split("Threads:")[1].split()[0])
    assert software_gl.system_tasks() >= software_gl.user_tasks(os.getuid()) >= threads >= 1


@pytest.fixture
def refusing_mesa_thread(tmp_path):
    """A library that, preloaded, refuses the first thread Mesa's driver starts
    (tests/probes/refuse_mesa_thread.c, built here with the C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        if os.environ.get("RASTERLAB_REQUIRE_GUI"):
            pytest.fail("no C compiler to build the probe that refuses Mesa's thread")
        pytest.skip("no C compiler")
    source = Path(__file__).parents[1] / "probes" / "refuse_mesa_thread.c"
    library = tmp_path / "refuse_mesa_thread.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source), "-ldl"], check=True)
    return library


def test_a_refused_rasterizer_cannot_hang_the_app(refusing_mesa_thread, main_command, run_own_group, config):
    # A soft limit that leaves room for the app but not for llvmpipe's rasterizers beside the
    # reserve (root is not bound by it, an ordinary user is: either way the app must not need more).
    free = (os.cpu_count() or 1) + RESERVE - 1
    limit = software_gl.user_tasks(os.getuid()) + free
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    env = {k: v for k, v in os.environ.items() if k not in ("LP_NUM_THREADS", "DISPLAY")}
    env["LD_PRELOAD"] = str(refusing_mesa_thread)
    # With llvmpipe's own threads, the refusal hangs the first frame until the timeout.
    result = run_own_group(
        [*main_command, "gui", "--headless", "--backend", "cpu", "--frames", "3", "--no-settings", "--size", "256"],
        timeout=120,
        env=env,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NPROC, (limit, hard)),
    )
    assert "probe: refused the first thread of Mesa's driver" in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
