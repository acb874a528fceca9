"""Every error path of the command line. Arguments that do not parse print the usage and one
``error:`` line; every other error is one ``error:`` line: bad arguments exit 2, runtime failures
(an existing output, a bad scene file, a full disk) 1, a GPU that is needed and missing 3. No
traceback reaches the user. In-process where it can be, so each case costs milliseconds."""

import errno
import os
import pty
import resource
import shlex
import signal
import subprocess

import numpy as np
import pytest

import app.cli
import app.commands
from app.cli import main
from render.core.gpu import gpu_problem
from scenes.builtin import build_scene
from scenes.files import save_scene

# Rejected by argparse: usage, then "main.py <command>: error: ...".
PARSE_ERRORS = [  # command lines as a shell would split them
    ("frobnicate", "invalid choice: 'frobnicate'"),
    ("render", "the following arguments are required: --scene"),
    ("render --scene rgb --size 0", "size must be an integer in 1..16384, got 0"),
    ("render --scene rgb --size x", "size must be an integer in 1..16384, got 'x'"),
    ("render --scene rgb --size 20000", "size must be an integer in 1..16384, got 20000"),
    ("render --scene rgb --seed -1", "seed must be an integer in 0..4294967295, got -1"),
    ("render --scene rgb --frame x", "frame must be an integer in 0..2147483647, got 'x'"),
    ("render --scene rgb --renderer cubes", "invalid choice: 'cubes'"),
    ("render --scene rgb --backend opencl", "invalid choice: 'opencl'"),
    ("render --scene rgb --view fancy", "invalid choice: 'fancy'"),
    ("render --scene classic --azimuth north", "azimuth must be a number in -360..360, got 'north'"),
    ("render --scene classic --roughness 2", "roughness must be a finite number in 0..1, got 2.0"),
    ("render --scene classic --metalness x", "metalness must be a number in 0..1, got 'x'"),
    ("render --scene rgb --bogus", "unrecognized arguments: --bogus"),
    ("check --size 0", "size must be an integer in 1..16384, got 0"),
    ("bench --runs 0", "runs must be an integer in 1..100, got 0"),
    ("bench --frames x", "frames must be an integer in 1..1000, got 'x'"),
    ("bench --renderer spheres --counts 0", "sphere count must be an integer in 1..65536, got 0"),
    ("sortbench --counts 1", "key count must be an integer in 2..268435456, got 1"),
    ("sortbench --sorts quick", "invalid choice: 'quick'"),
    ("scale --counts 0", "circle count must be an integer in 1..100000000, got 0"),
    ("scale --counts 100000001", "circle count must be an integer in 1..100000000, got 100000001"),
    ("scale --families huge", "invalid choice: 'huge'"),
    ("scale --sizes 0", "size must be an integer in 1..16384, got 0"),
    ("gui --frames 0", "frames must be an integer in 1..10000000, got 0"),
    ("gui --frames 1 --size 100", "size must be an integer in 256..4096, got 100"),
    ("gui --frames 1 --window big", "window size must be WxH, e.g. 1280x800, got 'big'"),
    ("gui --frames 1 --window 100x100", "window size must be 200..16384 each way"),
    ("scene", "the following arguments are required: ACTION"),
    ("scene save rgb", "the following arguments are required: file"),
    ("scene save rgb x.txt", "'x.txt' must end in .npz or .json"),
    ("scene save rgb /dev/stdout", "'/dev/stdout' must end in .npz or .json"),
    ("render --scene rgb --out x.jpg", "'x.jpg' must end in .png (or be - for standard output)"),
    ("render --scene rgb --raw x.png", "'x.png' must end in .npy"),
    ("render --scene rgb --out ''", "the output path is empty"),
    ("bench --json b.txt", "'b.txt' must end in .json"),
    ("gui --frames 1 --screenshot s.jpeg", "'s.jpeg' must end in .png"),
    ("gui --frames 1 --stats s", "'s' must end in .json"),
    ("render --scene rgb --seed 4294967296", "seed must be an integer in 0..4294967295, got 4294967296"),
    ("render --scene classic --elevation 90", "elevation must be a finite number in -89..89, got 90.0"),
    ("render --scene classic --azimuth nan", "azimuth must be a finite number in -360..360, got nan"),
    ("render --scene classic --count 65537", "sphere count must be an integer in 1..65536, got 65537"),
    ("gui --frames 1 --count 0", "sphere count must be an integer in 1..65536, got 0"),
    ("gui --frames 1 --seed -5", "seed must be an integer in 0..4294967295, got -5"),
]


@pytest.mark.parametrize("command, message", PARSE_ERRORS)
def test_argparse_errors_give_usage_and_exit_2(call_main, command, message):
    code, lines = call_main(shlex.split(command))
    assert code == 2 and lines[0].startswith("usage: rasterlab")
    assert lines[-1].startswith("rasterlab") and "error: " in lines[-1] and message in lines[-1], lines


# Rejected by our code, in one line without the usage; {tmp} stands for the test's folder.
_SPHERES = ["render", "--renderer", "spheres", "--scene", "classic"]
USAGE_ERRORS = [
    (["render", "--scene", "rgb", "--count", "5"], "--count applies to --renderer spheres"),
    (["render", "--scene", "rgb", "--view", "shaded"], "--view applies to --renderer spheres"),
    (["render", "--scene", "rgb", "--roughness", ".5", "--metalness", ".5"], "--metalness apply to --renderer"),
    (["check", "--view", "shaded"], "--view applies to --renderer spheres"),
    (["bench", "--counts", "5"], "--counts applies to --renderer spheres"),
    (["bench", "--chart", "c.png"], "--chart applies to bench --renderer spheres"),
    (["bench", "--renderer", "spheres", "--frames", "9"], "--frames applies to bench --renderer circles"),
    (
        ["bench", "--renderer", "spheres", "--scenes", "rgb", "--runs", "2"],
        "--scenes, --runs apply to bench --renderer",
    ),
    (["bench", "--renderer", "spheres", "--size", "4"], "--size applies to bench --renderer circles"),
    (["gui", "--frames", "1", "--scene", "rgb", "--view", "shaded"], "--view applies to --renderer spheres"),
    (["gui", "--frames", "1", "--renderer", "circles", "--count", "3"], "--count applies to --renderer spheres"),
    (["render", "--scene", "rgb", "--variant", "fast"], "unknown variant 'fast'; valid variants are: per-pixel"),
    (["render", "--scene", "rgb", "--variant", "tile-scan:tile=8"], "choose one of: 16, 32"),
    (["render", "--scene", "rgb", "--variant", "tile-scan:warp=1"], "has no option 'warp'"),
    (["render", "--scene", "rgb", "--backend", "cpu", "--variant", "per-pixel"], "applies to the cuda backend"),
    (["check", "--variants", "bogus"], "unknown variant 'bogus'"),
    (["check", "--against", "bogus"], "unknown variant 'bogus'"),
    (["check", "--renderer", "spheres", "--against", "global"], "--against applies to check --renderer circles"),
    (["check", "--against", "tile-sort", "--variants", "tile-sort"], "tile-sort:sort=cub,test=box,tile=16 is also in"),
    (["scale", "--against", "auto"], "--against auto: auto cannot check itself"),
    (["scale", "--against", "tile-sort:tile=7"], "choose one of"),
    (["bench", "--variants", "bogus"], "unknown variant 'bogus'"),
    (["check", "--renderer", "spheres", "--variants", "bogus"], "unknown spheres variant 'bogus'"),
    (["bench", "--renderer", "spheres", "--variants", "per-pixel"], "unknown spheres variant 'per-pixel'"),
    (["sortbench", "--scenes", "rand1M", "nope"], "unknown scene 'nope'"),
    (["gui", "--frames", "1", "--variant", "fastest"], "unknown variant 'fastest'"),
    (["render", "--scene", "nope"], "unknown scene 'nope'"),
    (["gui", "--frames", "1", "--scene", "nonesuch"], "unknown scene 'nonesuch'"),
    (["gui", "--headless"], "--headless needs --frames N"),
    (["gui", "--screenshot", "s.png"], "--screenshot needs --frames N"),
    (["gui", "--stats", "s.json"], "--stats needs --frames N"),
    (["render", "--renderer", "spheres", "--scene", "nope"], "unknown sphere scene 'nope'"),
    (["gui", "--frames", "1", "--renderer", "spheres", "--scene", "nope"], "unknown sphere scene 'nope'"),
    ([*_SPHERES, "--variant", "fast"], "unknown spheres variant 'fast'"),
    ([*_SPHERES, "--backend", "cpu", "--variant", "global"], "applies to the cuda backend"),
    ([*_SPHERES, "--azimuth", "10"], "--azimuth applies to --view shaded"),
    (["scene", "save", "nope", "x.npz"], "unknown scene 'nope'"),
    (["render", "--scene", "rgb", "--raw", "{tmp}/folder.npy"], "folder.npy: it is a folder"),
    (["render", "--scene", "rgb", "--out", "-", "--raw", "/dev/stdout"], "- and /dev/stdout name the same file"),
    (["render", "--scene", "bouncingballs", "--frame", "10001"], "bouncingballs is animated, and frame k costs"),
    (["scene", "save", "snow", "s.npz", "--frame", "20000"], "frame of an animated scene must be in 0..10000"),
    (["render", "--scene", "rgb", "--out", "{tmp}/no/x.png"], "its folder does not exist"),
    (["bench", "--renderer", "spheres", "--json", "{tmp}/no/b.json"], "its folder does not exist"),
]
# An output that exists is a runtime refusal (exit 1): the arguments were fine.
EXISTING_OUTPUTS = [
    ["render", "--scene", "rgb", "--out", "{tmp}/existing.png"],
    ["scene", "save", "rgb", "{tmp}/existing.json"],
    ["bench", "--json", "{tmp}/existing.json"],
    ["bench", "--renderer", "spheres", "--chart", "{tmp}/existing.png"],
    ["gui", "--frames", "1", "--screenshot", "{tmp}/existing.png"],
    ["gui", "--frames", "1", "--stats", "{tmp}/existing.json"],
]


@pytest.fixture
def folder_with_outputs(tmp_path, monkeypatch):
    """The test's folder, made current, holding existing.png, existing.json and the folder folder.npy;
    ``fill(args)`` puts its path where the arguments say {tmp}."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing.png").write_bytes(b"keep")
    (tmp_path / "existing.json").write_bytes(b"keep")
    (tmp_path / "folder.npy").mkdir()
    yield lambda text: text.replace("{tmp}", str(tmp_path))
    assert (tmp_path / "existing.png").read_bytes() == b"keep" and (tmp_path / "existing.json").read_bytes() == b"keep"


@pytest.mark.parametrize("case", range(len(USAGE_ERRORS)))
def test_bad_arguments_are_one_line_and_exit_2(call_main, folder_with_outputs, case):
    args, message = USAGE_ERRORS[case]
    code, lines = call_main([folder_with_outputs(arg) for arg in args])
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), lines
    assert folder_with_outputs(message) in lines[0]


@pytest.mark.parametrize("args", EXISTING_OUTPUTS)
def test_an_existing_output_is_one_line_and_exit_1(call_main, folder_with_outputs, args):
    args = [folder_with_outputs(arg) for arg in args]
    code, lines = call_main(args)
    existing = next(arg for arg in args if "existing" in arg)
    assert (code, lines) == (1, [f"error: {existing} exists; pass --overwrite to replace it"])


def test_count_with_a_sphere_scene_file_is_a_usage_error(call_main, tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"kind": "spheres", "center": [[0, 0, 0]], "radius": [1], "color": [[1, 0, 0]]}')
    code, lines = call_main(["render", "--renderer", "spheres", "--scene", str(path), "--count", "3"])
    assert code == 2 and len(lines) == 1 and "--count applies to the built-in sphere scenes" in lines[0]


@pytest.mark.parametrize("command", ["render", "record", "check"])
@pytest.mark.parametrize(
    ("renderer", "content"),
    [
        ("circles", '{"kind": "circles", "position": [[0.5, 0.5, 0]], "radius": [0.1], "color": [[1, 0, 0]]}'),
        ("spheres", '{"kind": "spheres", "center": [[0, 0, 0]], "radius": [1], "color": [[1, 0, 0]]}'),
    ],
)
def test_seed_with_a_scene_file_is_a_usage_error(call_main, tmp_path, command, renderer, content):
    # A file's scene has no seed: the option was ignored without a word, where --count was refused.
    path = tmp_path / "s.json"
    path.write_text(content)
    args = [command, "--renderer", renderer, "--scene", str(path), "--seed", "3"]
    outputs = {"render": ["--out", str(tmp_path / "out.png")], "record": ["--out", str(tmp_path / "take")]}
    args += outputs.get(command, []) + (["--frames", "0:1"] if command == "record" else [])
    code, lines = call_main(args)
    assert code == 2 and len(lines) == 1, lines
    assert "--seed applies to the built-in" in lines[0] and "not to a scene file" in lines[0], lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "missing.npz: no such scene file"),
        ('{"kind": "circles", "radius": [1]}', "bad.json: missing field 'position'"),
        ("{not json", "bad.json: not a readable JSON file"),
    ],
)
def test_bad_scene_files_are_one_line(call_main, tmp_path, content, message):
    path = tmp_path / ("missing.npz" if content is None else "bad.json")
    if content is not None:
        path.write_text(content)
    out = tmp_path / "o.png"
    code, lines = call_main(["render", "--scene", str(path), "--backend", "cpu", "--out", str(out)])
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert not out.exists()


@pytest.mark.skipif(gpu_problem() is None, reason="the no-GPU error path")
@pytest.mark.parametrize(
    "args",
    [
        ["render", "--scene", "rgb", "--backend", "cuda"],
        ["check"],
        ["bench"],
        ["check", "--renderer", "spheres"],
        ["bench", "--renderer", "spheres"],
        ["sortbench", "--counts", "1024", "--scenes"],
        ["scale", "--counts", "1000"],
        ["check", "--against", "tile-sort", "--scenes", "rgb"],
        ["gui", "--frames", "1", "--backend", "cuda"],
        ["render", "--scene", "rgb", "--variant", "tile-warp"],
        ["render", "--renderer", "spheres", "--scene", "classic", "--variant", "global"],
        ["gui", "--frames", "1", "--variant", "per-pixel"],
        ["gui", "--frames", "1", "--renderer", "spheres", "--variant", "constant"],
    ],
)
def test_no_gpu_is_one_line_and_exit_3(call_main, args):
    code, lines = call_main(args)
    assert code == 3 and len(lines) == 1 and lines[0].startswith("error: ") and "needs a CUDA GPU" in lines[0]


def test_interrupt_exits_130(call_main, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(app.commands.COMMANDS, "render", interrupted)
    code, lines = call_main(["render", "--scene", "rgb"])
    assert code == 130 and lines == ["interrupted"]


def test_overwrite_replaces_and_a_terminal_is_asked(tmp_path, main_command):
    out = tmp_path / "rgb.png"
    out.write_bytes(b"old")
    command = [*main_command, "render", "--scene", "rgb", "--size", "16", "--backend", "cpu"]
    command += ["--out", str(out)]
    for answer, code in ((b"n\n", 1), (b"y\n", 0)):
        leader, follower = pty.openpty()
        process = subprocess.Popen(command, stdin=follower, stderr=follower, stdout=subprocess.PIPE)
        os.close(follower)
        os.write(leader, answer)
        assert process.wait(60) == code
        prompt = os.read(leader, 4096).decode()
        os.close(leader)
        assert f"{out} exists. Replace it? [y/N]" in prompt
        assert (out.read_bytes() == b"old") == (answer == b"n\n")
    out.write_bytes(b"old")
    assert subprocess.run([*command, "--overwrite"], capture_output=True).returncode == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def _limit_file_size():
    # A file-size limit makes write() fail part-way with EFBIG, as a full disk fails with ENOSPC.
    resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


@pytest.mark.parametrize(
    "args, name",
    [
        (["render", "--scene", "rand10k", "--size", "256", "--backend", "cpu", "--out"], "r.png"),
        (["render", "--scene", "rand10k", "--size", "64", "--backend", "cpu", "--raw"], "r.npy"),
        (["scene", "save", "rand10k"], "s.npz"),
    ],
)
def test_a_full_disk_is_one_line_and_leaves_no_partial_file(tmp_path, args, name, run_main):
    target = tmp_path / name
    result = run_main(*args, target, preexec_fn=_limit_file_size)
    assert result.returncode == 1, result.stderr
    reason = "the disk took only part of the data (" if name.endswith(".npy") else "File too large"
    assert result.stderr.strip().splitlines()[-1].startswith(f"error: cannot write {target}: {reason}")
    assert list(tmp_path.iterdir()) == []


def test_cli_outputs_are_complete_files(tmp_path):
    raw = tmp_path / "r.npy"
    assert main(["render", "--scene", "rgb", "--size", "8", "--backend", "cpu", "--raw", str(raw)]) == 0
    assert np.load(raw).shape == (8, 8, 4) and [p.name for p in tmp_path.iterdir()] == ["r.npy"]


@pytest.mark.parametrize("window", [" 300x300", "３００x３００", "3_00x300", "+300x300"])
def test_window_sizes_are_plain_ascii_digits(call_main, window):
    code, lines = call_main(["gui", "--frames", "1", f"--window={window}"])
    assert code == 2 and "window size must be WxH" in lines[-1]


def test_a_scene_file_of_the_other_kind_says_which_renderer_takes_it(call_main, tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"kind": "spheres", "center": [[0, 0, 0]], "radius": [1], "color": [[1, 0, 0]]}')
    code, lines = call_main(["render", "--scene", str(path), "--backend", "cpu", "--out", str(tmp_path / "o.png")])
    refusal = f"error: {path}: field 'kind' must be 'circles', got 'spheres'"
    assert code == 1 and lines == [f"{refusal}; it is a spheres scene file: add --renderer spheres"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["render", "--out", "{tmp}/taken.png"], "taken.png exists"),
        (["render", "--raw", "{tmp}/missing/x.npy"], "does not exist"),
        (["render", "--backend", "cuda", "--out", "{tmp}/new.png"], "--backend cuda needs a CUDA GPU"),
        (["record", "--frames", "0:1", "--out", "{tmp}/taken.png"], "is not a folder"),
    ],
)
def test_outputs_and_the_backend_are_refused_before_a_scene_file_loads(call_main, tmp_path, monkeypatch, args, message):
    """A scene file of 10^8 circles takes seconds and gigabytes to load: what refuses the command
    without it comes first."""
    if "cuda" in args and gpu_problem() is None:
        pytest.skip("a usable GPU takes --backend cuda")
    (tmp_path / "taken.png").write_bytes(b"mine")
    scene = save_scene(build_scene("rgb"), tmp_path / "big.npz")
    monkeypatch.setattr("scenes.lookup.load_scene", lambda path: pytest.fail("the scene file was loaded"))
    code, lines = call_main([*(arg.replace("{tmp}", str(tmp_path)) for arg in args), "--scene", str(scene)])
    assert code in (1, 2, 3) and len(lines) == 1 and message in lines[0], lines
    assert (tmp_path / "taken.png").read_bytes() == b"mine"


def _full_output():
    error = BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
    error.characters_written = 0  # as a buffered write to a full non-blocking pipe says
    return error


# A failure of the host inside a command, and its one line. Before: an EMFILE from something the
# command opened (under `ulimit -n 7`, glfw's import starting a process) and a fork refused (under
# `ulimit -u`) read `cannot write to standard output`, a thread refused printed a traceback, and
# under `ulimit -v` llvmlite's library not loaded (an OSError without an error number) read
# `cannot write to standard output` and imgui_bundle's (an ImportError) printed a traceback.
HOST_FAILURES = [
    (
        OSError(errno.EMFILE, os.strerror(errno.EMFILE)),
        "error: no file descriptor left (Too many open files): raise the limit on open files (ulimit -n)",
    ),
    (BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN)), f"error: {app.cli.REFUSED}"),
    (RuntimeError("can't start new thread"), f"error: {app.cli.REFUSED}"),
    (
        OSError("Could not find/load shared object file 'libllvmlite.so'"),
        "error: Could not find/load shared object file 'libllvmlite.so'",
    ),
    (
        ImportError("/x/_imgui_bundle.so: failed to map segment from shared object"),
        "error: cannot load a library: /x/_imgui_bundle.so: failed to map segment from shared object",
    ),
    (RuntimeError("can't allocate read lock"), "error: not enough memory (can't allocate read lock)"),
    (
        OSError(errno.ENOMEM, os.strerror(errno.ENOMEM), "/x/llvmlite/binding"),
        "error: not enough memory: [Errno 12] Cannot allocate memory: '/x/llvmlite/binding'",
    ),
    (_full_output(), "error: cannot write to standard output: Resource temporarily unavailable"),
]


@pytest.mark.parametrize(
    ("failure", "line"),
    HOST_FAILURES,
    ids=["descriptors", "fork", "thread", "no-errno", "import", "no-lock", "no-memory", "full-output"],
)
def test_a_failure_of_the_host_is_named_as_such(tmp_path, monkeypatch, capsys, failure, line):
    from render.circles.reference import ReferenceRenderer

    def failed(self):
        raise failure

    monkeypatch.setattr(ReferenceRenderer, "render", failed)
    monkeypatch.setattr(app.cli, "_silence_stdout", lambda: None)  # not this process's own output
    out = tmp_path / "a.png"
    assert main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(out)]) == 1
    errors = [text for text in capsys.readouterr().err.splitlines() if text.startswith("error:")]
    assert errors == [line]
    assert not out.exists()
    assert "ulimit -u" in app.cli.REFUSED and "ulimit -v" in app.cli.REFUSED


UNDER_A_LIMIT = "; under the limit on memory (ulimit -v 500000), which may be too low: raise it"


@pytest.mark.parametrize(
    ("failure", "line"),
    [
        (MemoryError(), "error: not enough host memory for this render"),  # the limit, not the size, is advised
        (
            SystemError("error return without exception set"),
            "error: a library ran out of memory (error return without exception set)",
        ),
        (
            ImportError("/x/libGLX.so: failed to map segment"),
            "error: cannot load a library: /x/libGLX.so: failed to map segment",
        ),
        (RuntimeError("can't start new thread"), f"error: {app.cli.REFUSED}"),
    ],
    ids=["memory", "system-error", "import", "thread"],
)
def test_under_a_limit_on_address_space_a_host_failure_names_the_limit(tmp_path, monkeypatch, capsys, failure, line):
    # Before, a SystemError (NumPy's or Numba's set-up short of memory) printed a traceback, and no
    # line said that the limit could be the cause.
    from render.circles.reference import ReferenceRenderer
    from render.core import address_space

    def failed(self):
        raise failure

    monkeypatch.setattr(ReferenceRenderer, "render", failed)
    monkeypatch.setattr(address_space, "limit_bytes", lambda: 500000 * 1024)
    assert main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "a.png")]) == 1
    errors = [text for text in capsys.readouterr().err.splitlines() if text.startswith("error:")]
    assert errors == [line + UNDER_A_LIMIT]
    assert list(tmp_path.iterdir()) == []


def test_the_gpu_out_of_memory_is_not_called_a_failure_of_the_gpu(tmp_path, monkeypatch, capsys):
    # On the H200 machine under ulimit -v 14,000,000, CUDA started and then could not map its
    # memory: the line said "the GPU failed", as for a kernel that faulted.
    cupy = pytest.importorskip("cupy")
    from render.circles.reference import ReferenceRenderer
    from render.core import address_space

    def failed(self):
        raise cupy.cuda.runtime.CUDARuntimeError(2)  # cudaErrorMemoryAllocation

    monkeypatch.setattr(ReferenceRenderer, "render", failed)
    monkeypatch.setattr(app.cli, "_quiet_teardown", lambda: None)  # this process's hooks stay
    monkeypatch.setattr(address_space, "limit_bytes", lambda: 14_000_000 * 1024)
    assert main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "a.png")]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: the GPU ran out of memory while the render ran: cudaErrorMemoryAllocation: out of memory"
        "; under the limit on memory (ulimit -v 14000000), which may be too low: raise it"
    )


def test_opengl_out_of_memory_is_one_line(tmp_path, monkeypatch, capsys):
    # `gui --headless` under ulimit -v 1,200,000-1,250,000 printed PyOpenGL's GLError tracebacks
    # (glViewport, glTexImage2D: GL_OUT_OF_MEMORY).
    from OpenGL import GL, error

    from render.circles.reference import ReferenceRenderer
    from render.core import address_space

    def failed(self):
        raise error.GLError(
            err=0x0505, result=None, cArguments=(), description=b"out of memory", baseOperation=GL.glViewport
        )

    monkeypatch.setattr(ReferenceRenderer, "render", failed)
    monkeypatch.setattr(address_space, "limit_bytes", lambda: 1_200_000 * 1024)
    assert main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "a.png")]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "error: OpenGL ran out of memory in glViewport" + (
        "; under the limit on memory (ulimit -v 1200000), which may be too low: raise it"
    )
    monkeypatch.setattr(ReferenceRenderer, "render", lambda self: (_ for _ in ()).throw(error.GLError(err=0x0502)))
    with pytest.raises(error.GLError):  # another OpenGL error is a bug of the app's: not hidden
        main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "b.png")])


def test_without_a_limit_on_address_space_a_system_error_is_not_taken_for_memory(tmp_path, monkeypatch):
    from render.circles.reference import ReferenceRenderer
    from render.core import address_space

    def failed(self):
        raise SystemError("a bug in a library")

    monkeypatch.setattr(ReferenceRenderer, "render", failed)
    monkeypatch.setattr(address_space, "limit_bytes", lambda: None)
    with pytest.raises(SystemError):
        main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "a.png")])


@pytest.mark.parametrize(("failure", "line"), HOST_FAILURES[1:5], ids=["fork", "thread", "no-errno", "import"])
def test_a_failure_of_the_host_while_looking_for_a_display_is_one_line(monkeypatch, capsys, failure, line):
    # Before, with no command at `ulimit -u 1`, glfw's import (its process refused) printed a traceback.
    import app.displays

    def failed():
        raise failure

    monkeypatch.setattr(app.displays, "has_display", failed)
    assert main([]) == 1
    assert capsys.readouterr().err == line + "\n"


def test_a_removed_working_folder_met_outside_the_writes_is_one_line(tmp_path, monkeypatch, capsys):
    # As numba's import of coverage, which reads the working folder, meets it on some machines:
    # before, "cannot write to standard output".
    from render.circles.reference import ReferenceRenderer

    def failed(self):
        os.path.abspath(".")

    monkeypatch.setattr(ReferenceRenderer, "render", failed)
    monkeypatch.setattr(app.cli, "_silence_stdout", lambda: None)
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    out = tmp_path / "a.png"
    assert main(["render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(out)]) == 1
    errors = [text for text in capsys.readouterr().err.splitlines() if text.startswith("error:")]
    assert errors == ["error: the working folder was removed: No such file or directory"]
