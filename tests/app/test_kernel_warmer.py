"""The app's background compiler thread with a stand-in compile (no GPU): the latest wanted build
list goes first and replaces older ones, warm-ups wait behind it, errors are reported for wanted
compiles, and closing waits for a compile that is running only as long as asked."""

import subprocess
import sys
import threading
import time

import pytest

from app.kernel_warmer import KernelWarmer
from render.core.module_cache import ModuleCache


class StandIn:
    """Compiles by sleeping ``seconds[source]`` (default 0); records the order compiles start in."""

    def __init__(self, **seconds):
        self.seconds = seconds
        self.started: list[str] = []
        self.threads: set[str] = set()
        self.failing: set[str] = set()

    def __call__(self, source, defines):
        self.started.append(source)
        self.threads.add(threading.current_thread().name)
        time.sleep(self.seconds.get(source.removesuffix(".cu"), 0))
        if source in self.failing:
            raise RuntimeError(f"{source}(3): error: expected a ';'\n\n1 error detected")
        return source


def job(*sources):
    return [(f"{source}.cu", {}) for source in sources]


def wait_until(condition, timeout=20):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


@pytest.fixture
def warmer_of():
    made = []

    def make(compile):
        made.append(KernelWarmer(ModuleCache(compile)))
        return made[-1]

    yield make
    for warmer in made:
        warmer.close()


def test_the_latest_want_replaces_the_ones_not_started(warmer_of):
    compile = StandIn(a=0.4)
    warmer = warmer_of(compile)
    first = warmer.want(job("a"))
    wait_until(lambda: compile.started == ["a.cu"])
    warmer.want(job("b"))
    latest = warmer.want(job("c"))
    wait_until(lambda: warmer.idle)
    assert compile.started == ["a.cu", "c.cu"]  # a could not be stopped; b was replaced before it began
    assert compile.threads == {"rasterlab-kernels"}
    outcome = warmer.finished()
    assert outcome.ticket == latest != first and outcome.error is None
    assert warmer.finished() is None  # reported once
    assert warmer.ready(job("a", "c")) and not warmer.ready(job("b"))


def test_a_want_goes_before_the_warm_ups_still_queued(warmer_of):
    compile = StandIn(w1=0.3)
    warmer = warmer_of(compile)
    warmer.warm([job("w1"), job("w2", "w3"), job("w4")])
    wait_until(lambda: compile.started == ["w1.cu"])
    ticket = warmer.want(job("x"))
    wait_until(lambda: warmer.idle)
    assert compile.started == ["w1.cu", "x.cu", "w2.cu", "w3.cu", "w4.cu"]
    assert warmer.finished().ticket == ticket


def test_a_failed_want_reports_its_error_and_a_failed_warm_up_does_not(warmer_of):
    compile = StandIn()
    compile.failing = {"bad.cu", "worse.cu"}
    warmer = warmer_of(compile)
    warmer.warm([job("worse"), job("fine")])
    wait_until(lambda: warmer.idle)
    assert warmer.finished() is None and warmer.ready(job("fine"))
    ticket = warmer.want(job("ok", "bad"))
    wait_until(lambda: warmer.idle)
    outcome = warmer.finished()
    assert outcome.ticket == ticket and "expected a ';'" in str(outcome.error)
    assert warmer.ready(job("ok")) and not warmer.ready(job("bad"))


def test_close_returns_at_once_and_drops_the_queue(warmer_of):
    compile = StandIn(slow=30)
    warmer = warmer_of(compile)
    warmer.want(job("slow"))
    warmer.warm([job("never")])
    wait_until(lambda: compile.started == ["slow.cu"])
    started = time.monotonic()
    warmer.close()
    assert time.monotonic() - started < 0.5
    workers = [thread for thread in threading.enumerate() if thread.name == "rasterlab-kernels"]
    assert workers and all(thread.daemon for thread in workers)  # the process may exit mid-compile
    warmer.want(job("after"))
    time.sleep(0.2)
    assert compile.started == ["slow.cu"]


def test_close_can_wait_for_the_compile_that_is_running_and_no_longer(warmer_of):
    compile = StandIn(short=0.5, slow=30)
    before = set(threading.enumerate())
    warmer = warmer_of(compile)
    (thread,) = set(threading.enumerate()) - before
    warmer.want(job("short"))
    warmer.warm([job("never")])
    wait_until(lambda: compile.started == ["short.cu"])
    warmer.close(wait_s=10)
    assert warmer.ready(job("short")) and compile.started == ["short.cu"]
    assert not thread.is_alive()
    other = warmer_of(compile)
    other.want(job("slow"))
    wait_until(lambda: compile.started[-1] == "slow.cu")
    started = time.monotonic()
    other.close(wait_s=0.3)
    assert 0.3 <= time.monotonic() - started < 2


def test_a_process_exits_at_once_while_its_compiler_is_mid_compile(repo_root):
    script = """
import time
from app.kernel_warmer import KernelWarmer
from render.core.module_cache import ModuleCache

warmer = KernelWarmer(ModuleCache(lambda source, defines: time.sleep(120)))
warmer.want([("slow.cu", {})])
warmer.warm([[("queued.cu", {})]])
time.sleep(0.3)
warmer.close()
print("closed", flush=True)
"""
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", script], cwd=repo_root, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == "closed\n", result.stderr
    assert time.monotonic() - started < 15  # interpreter start and imports; the compile would take 120 s
