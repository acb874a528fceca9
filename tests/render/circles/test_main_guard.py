"""A script that renders a parallel CPU frame at its top level, outside an ``if __name__ ==
"__main__":`` block, is refused with one line naming where, before any worker process starts (each
worker runs the script's top level again as it starts); guarded scripts render; a process that is
itself loading its parent's script ends with one line rather than start workers of its own."""

import os
import sys
import textwrap

import pytest

from render.circles import band_pool, main_guard

_RENDER = """\
from render.circles.reference import clear_image, render_reference
from render.core.renderer import RendererUnavailable
from scenes.builtin import build_scene


def frame():
    scene = build_scene("rand100k")  # over the parallel threshold: two workers
    image = clear_image(scene, 64, 64)
    try:
        render_reference(scene, image, workers=2)
    except RendererUnavailable as error:
        print(error)
    else:
        print("rendered")
"""


def _script(tmp_path, top_level: str):
    path = tmp_path / "script.py"
    path.write_text(_RENDER + textwrap.dedent(top_level))
    return path


def _run(run_own_group, repo_root, path):
    return run_own_group(
        [sys.executable, str(path)], timeout=120, env={**os.environ, "PYTHONPATH": str(repo_root)}, cwd=path.parent
    )


@pytest.mark.parametrize(
    "top_level, where",
    [
        ("\nframe()\n", 18),
        ('\nif __name__ != "__main__":\n    pass\nframe()\n', 21),
        ("\nif True:\n    frame()\n", 19),
    ],
)
def test_a_script_that_renders_at_its_top_level_is_refused_in_one_line(
    tmp_path, run_own_group, repo_root, top_level, where
):
    # Before, each worker ran the script again as it started, which rendered and started workers of
    # its own until CPython refused: tracebacks from every worker, then "a CPU worker process ended
    # unexpectedly (exit code 1)"; with a costly top level (a scene of 10^8 circles built) each
    # worker built it again, and the host ran out of memory.
    path = _script(tmp_path, top_level)
    where = path.read_text().splitlines().index(top_level.splitlines()[-1]) + 1  # the call's line
    result = _run(run_own_group, repo_root, path)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout == f"{path}:{where}: {band_pool.UNGUARDED}\n"


@pytest.mark.parametrize("test", ['__name__ == "__main__"', "'__main__' == __name__"])
def test_a_guarded_script_renders(tmp_path, run_own_group, repo_root, test):
    path = _script(tmp_path, f"\nif {test}:\n    frame()\n")
    result = _run(run_own_group, repo_root, path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "rendered\n", "")


def test_a_packages_main_renders_at_its_top_level(tmp_path, run_own_group, repo_root):
    # python -m PACKAGE: multiprocessing does not load a package's __main__ again in its workers.
    package = tmp_path / "tool"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(_RENDER + "\nframe()\n")
    environment = {**os.environ, "PYTHONPATH": f"{repo_root}{os.pathsep}{tmp_path}"}
    result = run_own_group([sys.executable, "-m", "tool"], timeout=120, env=environment, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "rendered\n", "")


def test_a_process_loading_its_parents_script_that_would_start_workers_ends_in_one_line(run_own_group, repo_root):
    start = "import multiprocessing; multiprocessing.current_process()._inheriting = True\n"
    start += "from render.circles import band_pool; band_pool.worker_context()"
    result = run_own_group([sys.executable, "-c", start], cwd=repo_root)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: {band_pool.UNGUARDED}\n"


def test_the_guarded_lines_are_those_of_top_level_main_tests(tmp_path):
    path = tmp_path / "lines.py"
    path.write_text(
        textwrap.dedent(
            """\
            import os
            if __name__ == "__main__":
                a = 1
                b = 2
            def f():
                if __name__ == "__main__":
                    pass
            if __name__ == "__main__" or os:
                pass
            if "__main__" == __name__:
                c = 3
            """
        )
    )
    assert main_guard._guarded_lines(str(path)) == frozenset({2, 3, 4, 10, 11})
    (tmp_path / "broken.py").write_text("if (:\n")
    assert main_guard._guarded_lines(str(tmp_path / "broken.py")) is None
    assert main_guard._guarded_lines(str(tmp_path / "missing.py")) is None


def test_this_process_is_not_refused():
    # pytest's own entry point calls its main under the guard, or there is no script at all.
    assert main_guard.unguarded() is None and not main_guard.starting()
