"""CUDA's early start: a thread that the app joins before its session asks whether a GPU is
usable; a start that fails says nothing (the session's check reports it), and the thread is one
the interpreter waits for at exit."""

import threading

import app.cuda_start
from app.cuda_start import CudaStart


def test_a_failing_start_is_silent_and_over_once_joined(monkeypatch, capsys):
    ran = threading.Event()

    def failing():
        ran.set()
        raise RuntimeError("cudaErrorNoDevice")

    monkeypatch.setattr(app.cuda_start, "start_cuda", failing)
    CudaStart().join()
    assert ran.is_set()
    assert capsys.readouterr() == ("", "")


def test_the_start_runs_once_in_a_thread_of_its_own(monkeypatch):
    threads = []
    monkeypatch.setattr(app.cuda_start, "start_cuda", lambda: threads.append(threading.current_thread()))
    CudaStart().join()
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert threads[0].name == "rasterlab-cuda-start" and not threads[0].daemon
