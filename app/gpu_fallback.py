"""Surviving a GPU that fails mid-run: the session then goes on with the CPU reference."""

from __future__ import annotations

import functools

from render.core.gpu import gpu_failures


def survives_gpu_failure(failed_result=None):
    """Turn a CUDA failure inside a Session method into ``gpu_failed`` plus ``failed_result``."""

    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except gpu_failures() as error:
                self.gpu_failed(error)
                return failed_result

        return guarded

    return wrap
