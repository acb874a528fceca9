"""The CPU reference's compiled blend under what the environment and the disk do to Numba: NUMBA_*
variables it cannot take, its compiler switched off, and a cache damaged on disk. Each is a line
that names the cause, never a traceback; a damaged cache is compiled again."""

import os

import pytest

RENDER = ("render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--overwrite", "--out")


@pytest.fixture
def numba_cache(tmp_path):
    """A Numba cache folder of the test's own, as NUMBA_CACHE_DIR."""
    folder = tmp_path / "numba-cache"
    folder.mkdir()
    return folder


def _render(run_main, tmp_path, name, **env):
    out = tmp_path / name
    result = run_main(*RENDER, out, env={**os.environ, **env}, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    return result, out


def _messages(result):
    return [line for line in result.stderr.splitlines() if not line.startswith("backend:")]


def test_a_numba_variable_its_import_refuses_is_one_line(run_main, tmp_path):
    result, out = _render(run_main, tmp_path, "a.png", NUMBA_NUM_THREADS="0")
    assert result.returncode == 1 and not out.exists()
    assert _messages(result) == [
        "error: the CPU reference cannot run: Numba did not load (Number of threads specified must be > 0.);"
        " the environment sets NUMBA_NUM_THREADS='0'"
    ]


@pytest.mark.parametrize(("name", "value"), [("NUMBA_OPT", "x"), ("NUMBA_NUM_THREADS", "abc")])
def test_a_numba_variable_it_cannot_parse_is_one_warning(run_main, tmp_path, name, value):
    result, out = _render(run_main, tmp_path, "a.png", **{name: value})
    assert result.returncode == 0 and out.is_file()
    assert _messages(result) == [
        f"warning: Environment variable '{name}' is defined but its associated value '{value}' could not be parsed."
    ]


def test_with_band_workers_numba_s_warning_is_still_one_line(run_main, tmp_path):
    # The workers' forkserver imports Numba too, and printed the warning again with its traceback.
    out = tmp_path / "a.png"
    command = ("render", "--scene", "rand1M", "--size", "256", "--backend", "cpu", "--out", out)
    result = run_main(*command, env={**os.environ, "NUMBA_OPT": "x"}, cwd=tmp_path)
    assert result.returncode == 0 and out.is_file(), result.stderr
    assert _messages(result) == [
        "warning: Environment variable 'NUMBA_OPT' is defined but its associated value 'x' could not be parsed."
    ]


def test_numba_switched_off_renders_the_same_pixels_in_python(run_main, tmp_path):
    compiled, first = _render(run_main, tmp_path, "compiled.png")
    plain, second = _render(run_main, tmp_path, "plain.png", NUMBA_DISABLE_JIT="1")
    assert compiled.returncode == plain.returncode == 0, plain.stderr
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("damage", ["data cut short", "index overwritten"])
def test_a_damaged_cache_is_compiled_again_once(run_main, tmp_path, numba_cache, damage):
    _, before = _render(run_main, tmp_path, "before.png", NUMBA_CACHE_DIR=str(numba_cache))
    suffix = ".nbc" if damage == "data cut short" else ".nbi"
    (damaged,) = [p for p in numba_cache.rglob(f"flat_blend._blend_flat-*{suffix}")]
    damaged.write_bytes(damaged.read_bytes()[:100] if suffix == ".nbc" else b"garbage\n")
    result, after = _render(run_main, tmp_path, "after.png", NUMBA_CACHE_DIR=str(numba_cache))
    assert result.returncode == 0 and after.read_bytes() == before.read_bytes()
    (warning,) = [line for line in _messages(result) if line.startswith("warning:")]
    assert warning.startswith("warning: Numba's cache of the CPU reference's blend could not be read (")
    assert warning.endswith("): it was compiled again")
    again, _ = _render(run_main, tmp_path, "again.png", NUMBA_CACHE_DIR=str(numba_cache))
    assert again.returncode == 0 and not [line for line in _messages(again) if line.startswith("warning:")]
