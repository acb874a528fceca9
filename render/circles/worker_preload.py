"""Loaded by the forkserver that starts the reference renderer's worker processes (its preload).

A process the forkserver starts takes the SIGINT handling the forkserver had before it set its own:
ignoring SIGINT here makes every worker ignore a terminal's Ctrl-C from its first instant, not only
once its initializer runs (a Ctrl-C in between printed a KeyboardInterrupt traceback from the worker;
the command stops its workers through a flag). The renderer's modules are loaded here once, not in
each worker.
"""

import signal

import render.circles.reference  # noqa: F401

signal.signal(signal.SIGINT, signal.SIG_IGN)
