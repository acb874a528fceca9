"""The module cache that the renderers and the app's background compiler share: many threads asking
at once start one compile per key, waiters get its module or its error, and a failure is retried
(with a stand-in compile function: no GPU or NVRTC needed)."""

import threading
import time

import pytest

from render.core import kernels
from render.core.module_cache import ModuleCache


class CountingCompile:
    """A compile that takes ``seconds``, counts its runs per key and fails while ``failing`` says so."""

    def __init__(self, seconds=0.2):
        self.seconds = seconds
        self.runs: dict = {}
        self.failing = False
        self.lock = threading.Lock()

    def __call__(self, source, defines):
        with self.lock:
            self.runs[(source, defines)] = self.runs.get((source, defines), 0) + 1
        time.sleep(self.seconds)
        if self.failing:
            raise RuntimeError(f"{source}(7): error: identifier is undefined")
        return object()  # a distinct module per compile


def ask_at_once(cache, requests):
    """Every ``(source, defines)`` of ``requests`` asked from a thread of its own, all released at
    the same moment; returns each thread's module or exception, in request order."""
    results = [None] * len(requests)
    barrier = threading.Barrier(len(requests))

    def ask(index, source, defines):
        barrier.wait()
        try:
            results[index] = cache.load(source, defines)
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=ask, args=(i, *request)) for i, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_many_threads_start_one_compile_per_key_and_share_its_module():
    compile = CountingCompile()
    cache = ModuleCache(compile)
    keys = [("a.cu", {"TILE": 16}), ("a.cu", {"TILE": 32}), ("b.cu", {})]
    # Defines given in another order name the same module.
    requests = [keys[i % 3] for i in range(24)] + [("a.cu", {"TILE": 16})] * 4
    started = time.monotonic()
    results = ask_at_once(cache, requests)
    assert time.monotonic() - started < 3 * compile.seconds  # in parallel, not one after another
    assert sorted(compile.runs.values()) == [1, 1, 1]
    for key in keys:
        modules = {id(module) for request, module in zip(requests, results, strict=True) if request == key}
        assert len(modules) == 1 and None not in results
    assert cache.load("a.cu", {"TILE": 16}) is results[0] and sum(compile.runs.values()) == 3


def test_defines_in_any_order_are_one_module():
    compile = CountingCompile(seconds=0)
    cache = ModuleCache(compile)
    first = cache.load("a.cu", {"TILE": 16, "SCAN": 2})
    assert cache.load("a.cu", {"SCAN": 2, "TILE": 16}) is first and len(compile.runs) == 1


def test_waiters_get_the_error_of_the_compile_they_waited_for_and_a_later_call_tries_again():
    compile = CountingCompile()
    compile.failing = True
    cache = ModuleCache(compile)
    results = ask_at_once(cache, [("bad.cu", {})] * 8)
    assert all(isinstance(result, RuntimeError) and "error: identifier" in str(result) for result in results)
    assert compile.runs == {("bad.cu", ()): 1}
    assert not cache.ready([("bad.cu", {})])
    compile.failing = False
    module = cache.load("bad.cu", {})
    assert compile.runs == {("bad.cu", ()): 2} and cache.load("bad.cu", {}) is module


def test_ready_and_warm():
    compile = CountingCompile(seconds=0)
    cache = ModuleCache(compile)
    builds = [("a.cu", {"TILE": 16}), ("b.cu", {})]
    assert not cache.ready(builds) and cache.ready([])
    cache.warm(builds)
    assert cache.ready(builds) and cache.ready(builds[:1]) and not cache.ready([("a.cu", {"TILE": 32})])
    cache.warm(builds)
    assert sum(compile.runs.values()) == 2
    compile.failing = True
    with pytest.raises(RuntimeError):
        cache.warm([("c.cu", {})])


def test_load_module_goes_through_the_process_cache(monkeypatch):
    compile = CountingCompile(seconds=0)
    monkeypatch.setattr(kernels, "MODULES", ModuleCache(compile))
    module = kernels.load_module("to_rgba8.cu", B=2, A=1)
    kernels.warm([("to_rgba8.cu", {"A": 1, "B": 2})])
    assert kernels.load_module("to_rgba8.cu", A=1, B=2) is module
    assert compile.runs == {("to_rgba8.cu", (("A", 1), ("B", 2))): 1}
