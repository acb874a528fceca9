"""The window's hot reload of kernel files, without a GPU: a session and a compiler stand in, the
files are real. A saved edit (of the file or of a header it includes) builds in the background and
then reloads the variant and checks it; a build that fails keeps the previous one and its log; a
variant changed meanwhile drops the build; ``--dev`` reloads after a built-in shader changes. And a
user's kernel that fails with CUDA still working goes back to the latest variant that rendered."""

import time

import pytest

from app.kernel_file_watch import KernelFileWatch
from app.variant_actions import VariantActions
from render.circles.user_file import includes, read_user_source
from render.circles.user_kernel import UserKernelError
from render.core.variants import VariantChoice

KERNEL = """// rasterlab: kernel = k
// rasterlab: grid = pixels
#include "mine.cuh"
extern "C" __global__ void k() {}
"""


class FakeSession:
    backend = "cuda"

    def __init__(self, path):
        self.variant = VariantChoice("file", (), str(path))
        self.loads, self.checks, self.status = [], 0, ""

    def set_variant(self, choice):
        self.loads.append(choice.label())
        return True

    def start_check(self):
        self.checks += 1


@pytest.fixture
def kernel(tmp_path):
    (tmp_path / "mine.cuh").write_text("#pragma once\n")
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    return path


def compiles(path):
    return read_user_source(path), None, None


def does_not_compile(path):
    raise UserKernelError(f"file:{path} does not compile: {path}(4): error: oops", f"{path}(4): error: oops\n1 error")


def poll_until(watch, session, done, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        watch.poll(session)
        time.sleep(0.01)
    assert done()


def edit(path, text):
    path.write_text(text)


def test_an_edit_builds_then_reloads_and_checks(kernel):
    watch, session = KernelFileWatch(build=compiles, headers=includes), FakeSession(kernel)
    watch.poll(session)  # the file just loaded: its build draws, nothing to do
    assert watch.files[0] == kernel.resolve() and any(p.name == "mine.cuh" for p in watch.files)
    assert not session.loads
    edit(kernel, KERNEL + "// a comment\n")
    poll_until(watch, session, lambda: watch.reloads == 1)
    assert session.loads == [f"file:{kernel}"] and session.checks == 1 and not watch.error
    edit(kernel.parent / "mine.cuh", "#pragma once\n#define MORE 1\n")  # a header counts as an edit too
    poll_until(watch, session, lambda: watch.reloads == 2)
    watch.close()


def test_a_build_that_fails_keeps_the_previous_one_and_its_log(kernel):
    watch, session = KernelFileWatch(build=does_not_compile, headers=includes), FakeSession(kernel)
    watch.poll(session)
    edit(kernel, KERNEL + "nonsense\n")
    poll_until(watch, session, lambda: bool(watch.error))
    assert not session.loads and watch.reloads == 0
    assert watch.log.startswith(f"{kernel}(4): error: oops") and "keeps drawing" in session.status
    watch._build = compiles  # fixed: the next save reloads and clears the log
    edit(kernel, KERNEL)
    poll_until(watch, session, lambda: watch.reloads == 1)
    assert not watch.log and not watch.error
    watch.close()


def test_a_build_that_raises_anything_else_is_its_failure_not_the_windows(kernel):
    def broken(path):
        raise OSError("the disk went away")

    watch, session = KernelFileWatch(build=broken, headers=includes), FakeSession(kernel)
    watch.poll(session)
    edit(kernel, KERNEL + "// edit\n")
    poll_until(watch, session, lambda: bool(watch.error))
    assert watch.error == f"file:{kernel}: the build failed: the disk went away" and not session.loads
    assert session.status.endswith("the previous build keeps drawing")
    watch.close()


def test_a_variant_changed_during_the_build_drops_it(kernel):
    def slow(path):
        time.sleep(0.3)
        return compiles(path)

    watch, session = KernelFileWatch(build=slow, headers=includes), FakeSession(kernel)
    watch.poll(session)
    edit(kernel, KERNEL + "// edit\n")
    poll_until(watch, session, lambda: watch._job is not None)
    session.variant = VariantChoice("auto")
    poll_until(watch, session, lambda: watch._job is None)
    assert not session.loads and watch.reloads == 0
    watch.close()


def test_dev_reloads_the_variant_after_a_built_in_shader_changes(tmp_path, monkeypatch):
    shader = tmp_path / "fake.cu"
    shader.write_text("// one\n")
    monkeypatch.setattr("app.kernel_file_watch.built_in_shaders", lambda: [shader])
    forgotten = []
    monkeypatch.setattr("app.kernel_file_watch.MODULES.forget", lambda: forgotten.append(True))
    watch, session = KernelFileWatch(dev=True, build=compiles, headers=includes), FakeSession(tmp_path / "x.cu")
    session.variant = VariantChoice("auto")
    watch.poll(session)
    assert not session.loads
    shader.write_text("// two, longer\n")
    poll_until(watch, session, lambda: bool(session.loads))
    assert session.loads == ["auto"] and forgotten == [True]
    watch.close()


class FakeActions(VariantActions):
    """The variant actions with a session's other parts standing in."""

    backend, scene, frame = "cuda", object(), 7

    def __init__(self):
        self.kind = type("Kind", (), {"variants": type("T", (), {"parse": staticmethod(VariantChoice)})()})()
        self.settings = type("S", (), {"size": 64})()
        self.loaded, self.stored, self.status, self.renderer = [], [], "", object()

    def _load(self, scene, choice, size, frame):
        self.loaded.append(choice.label())
        return True

    def _store(self, role, value):
        self.stored.append(value)

    def _default_variant(self):
        return VariantChoice("auto")


def test_a_user_kernel_that_fails_with_cuda_working_goes_back_to_the_latest_variant_that_rendered(monkeypatch):
    monkeypatch.setattr("app.variant_actions.cuda_context_works", lambda: True)
    actions = FakeActions()
    for label in ("tile-scan", "file:/a.cu", "file:/b.cu"):
        actions.variant = VariantChoice(label.split(":")[0], (), label.partition(":")[2] if ":" in label else "")
        actions.rendered_well()
    assert actions.back_from_a_failed_file(RuntimeError("too many resources requested for launch"))
    assert actions.loaded == ["file:/a.cu"] and actions.variant.label() == "file:/a.cu"
    assert (
        actions.status == "file:/b.cu failed on the GPU (too many resources requested for launch); back to file:/a.cu"
    )


def test_a_lost_context_or_a_built_in_variant_is_not_a_user_kernels_to_go_back_from(monkeypatch):
    actions = FakeActions()
    actions.variant = VariantChoice("file", (), "/b.cu")
    monkeypatch.setattr("app.variant_actions.cuda_context_works", lambda: False)
    assert not actions.back_from_a_failed_file(RuntimeError("illegal address")) and not actions.loaded
    monkeypatch.setattr("app.variant_actions.cuda_context_works", lambda: True)
    assert actions.back_from_a_failed_file(RuntimeError("x")) and actions.loaded == ["auto"]  # none rendered
    actions.variant = VariantChoice("tile-scan")
    assert not actions.back_from_a_failed_file(RuntimeError("x"))


def test_a_kernel_file_that_no_longer_loads_at_start_gives_way_to_the_default_variant(tmp_path, monkeypatch):
    from app.session import Session
    from app.settings import Settings

    kernel = tmp_path / "mine.cu"
    kernel.write_text(KERNEL)
    loads = Session._load

    def load(self, scene, choice, size, frame):
        if choice.path:  # as a file that no longer compiles does on the GPU
            self.status = f"{choice.label()} does not compile: mine.cu(4): error: oops"
            return False
        return loads(self, scene, choice, size, frame)

    monkeypatch.setattr(Session, "_load", load)
    session = Session(Settings(scene="rgb", size=64, variant=f"file:{kernel}"), backend="cpu")
    try:
        assert session.variant.label() == "auto" and session.renderer is not None and session.start_problem is None
        assert session.status == f"file:{kernel} does not compile: mine.cu(4): error: oops; running auto instead"
    finally:
        session.close()
