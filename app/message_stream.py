"""Standard error as the command's messages reach it. Where it cannot take one (a pipe whose reader
has gone, a full disk), that message and every later one are dropped and the work goes on, so that
the files the command was asked for are still written; its exit code says how the work went.
Descriptor 2 then points at /dev/null, where libraries write and the interpreter's last flush
lands."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from scenes.safe_write import reserve_standard_descriptors


def take_messages() -> None:
    """Ready standard error for the command's messages, before the first: descriptors 0-2 held
    where they started closed (reserve_standard_descriptors), a closed standard error's messages
    dropped (never sent to standard output), and every later failure of it dropping them too
    (DroppingStream). Calling it again changes nothing."""
    reserve_standard_descriptors()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if not isinstance(sys.stderr, DroppingStream):
        sys.stderr = DroppingStream(sys.stderr)  # type: ignore[assignment]


class DroppingStream:
    """``stream`` (standard error, on ``descriptor``), whose writes and flushes that fail drop the
    message instead of raising. Everything else is the stream's own."""

    def __init__(self, stream: TextIO, descriptor: int = 2) -> None:
        self._stream = stream
        self._descriptor = descriptor
        # Held for good: collected, it would close the descriptor, and the next file opened would
        # take its number.
        self._first = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError:
            self._drop()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError:
            self._drop()

    def _drop(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._descriptor)
        os.close(devnull)
        self._stream = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
