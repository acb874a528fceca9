"""Mesa's software OpenGL under a limit on processes (app/software_gl.py): where the limit leaves
no room for llvmpipe's threads, it draws in the calling thread, so that a refused rasterizer cannot
hang the app."""

import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

from app import software_gl
from app.software_gl import MOST_RASTERIZERS, fit_software_gl_to_process_limit, rasterizers


@pytest.mark.parametrize(
    ("value", "count"),
    [
        (None, 6),  # Mesa's default: one a CPU
        ("", 6),  # no digits: the default too
        ("auto", 6),
        ("0", 0),
        (" 0", 0),
        ("0x0", 0),
        ("0x", 0),  # strtol reads the 0
        ("3", 3),
        ("+3 threads", 3),
        ("010", 8),  # octal
        ("0x10", 16),
        ("-1", MOST_RASTERIZERS),
        ("999", MOST_RASTERIZERS),
    ],
)
def test_the_rasterizers_llvmpipe_starts_on_6_cpus(value, count):
    assert rasterizers(value, 6) == count


@pytest.mark.parametrize(
    ("own", "reason", "after", "replaced", "asked"),
    [
        (None, "no room", "0", None, 13),  # 6 rasterizers, 6 compute threads and one more
        (None, None, None, None, 13),
        ("2", "no room", "0", ("2", "no room"), 5),  # the user's own value, whose threads do not fit
        ("2", None, "2", None, 5),
        ("", "no room", "0", ("", "no room"), 13),  # read by Mesa as no value
        ("\x1c2", "no room", "0", ("\x1c2", "no room"), 13),  # no number for strtol either
        ("4294967296", "no room", "4294967296", None, None),  # Mesa's int: 0, nothing to fit
        ("0", "no room", "0", None, None),
    ],
)
def test_no_room_for_llvmpipes_threads_sets_one_thread_of_drawing(monkeypatch, own, reason, after, replaced, asked):
    counted = []
    monkeypatch.setattr(software_gl, "shortage", lambda threads: counted.append(threads) or reason)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    environ = {} if own is None else {"LP_NUM_THREADS": own}
    assert fit_software_gl_to_process_limit(environ) == replaced
    assert environ.get("LP_NUM_THREADS") == after
    assert counted == ([] if asked is None else [asked])


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


@pytest.mark.parametrize("own", [None, "", "2"])
def test_a_refused_rasterizer_cannot_hang_the_app(
    refusing_mesa_thread, main_command, run_own_group, config, bound_by_the_limit, own
):
    # Root in a user namespace of its own, with no ID mapped, under a low soft limit: bound by it in
    # the app's eyes, exempt in the kernel's, so that only the probe refuses a thread.
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    env = {k: v for k, v in os.environ.items() if k not in ("LP_NUM_THREADS", "DISPLAY")}
    if own is not None:
        env["LP_NUM_THREADS"] = own
    env["LD_PRELOAD"] = str(refusing_mesa_thread)
    # With llvmpipe's own threads, the refusal hangs the first frame until the timeout.
    command = [
        *main_command,
        "gui",
        "--headless",
        "--backend",
        "cpu",
        "--frames",
        "3",
        "--no-settings",
        "--size",
        "256",
    ]
    result = run_own_group(
        [*bound_by_the_limit, *command],
        timeout=120,
        env=env,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NPROC, (16, hard)),
    )
    assert "probe: loaded" in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    note = f"note: LP_NUM_THREADS={own} replaced by 0 for the software renderer: the limit on processes (ulimit -u 16)"
    assert (note in result.stderr) is (own is not None), result.stderr
