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
from app.software_gl import fit_software_gl_to_process_limit
from render.core import process_room
from render.core.process_room import RESERVE


@pytest.mark.parametrize(("room", "own", "after"), [(False, None, "0"), (True, None, None), (False, "3", "3")])
def test_no_room_for_the_rasterizers_sets_one_thread_of_drawing(monkeypatch, room, own, after):
    asked = []
    monkeypatch.setattr(software_gl, "has_room", lambda threads: asked.append(threads) or room)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    environ = {} if own is None else {"LP_NUM_THREADS": own}
    fit_software_gl_to_process_limit(environ)
    assert environ.get("LP_NUM_THREADS") == after
    assert asked == ([] if own else [6])  # a user's own value is kept without a count


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
    limit = process_room.user_tasks(os.getuid()) + free
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
