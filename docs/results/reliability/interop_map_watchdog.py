"""Can a process whose first interop map hangs in the driver go on without interop? Maps a small
registered buffer on a helper thread and waits 5 s; if the map has not returned, the main thread
tries what the host-copy path needs (CUDA work, a copy to the host, a GL texture upload). Prints one
JSON line per step, then leaves by os._exit (a thread stuck in the driver cannot be joined).
Run from the repository root: python3 docs/results/reliability/interop_map_watchdog.py
"""

import faulthandler
import json
import os
import sys
import threading
import time
from pathlib import Path

os.environ["PYOPENGL_PLATFORM"] = "egl"
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import cupy  # noqa: E402
import numpy as np  # noqa: E402
from OpenGL import GL  # noqa: E402

from app.display import _InteropBuffer  # noqa: E402
from app.surfaces import EglSurface  # noqa: E402

SIDE = 64


def say(step: str, **fields) -> None:
    print(json.dumps({"step": step, "t": round(time.monotonic() - START, 3), **fields}), flush=True)


START = time.monotonic()
faulthandler.dump_traceback_later(40, exit=True)
surface = EglSurface(SIDE, SIDE)
pbo = GL.glGenBuffers(1)
GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, pbo)
GL.glBufferData(GL.GL_PIXEL_UNPACK_BUFFER, SIDE * SIDE * 4, None, GL.GL_STREAM_DRAW)
GL.glBindBuffer(GL.GL_PIXEL_UNPACK_BUFFER, 0)
buffer = _InteropBuffer(int(pbo), SIDE * SIDE)
image = cupy.full((SIDE, SIDE, 4), 5, cupy.uint8)
cupy.cuda.Device().synchronize()
say("registered")
mapped = threading.Event()


def map_once() -> None:
    buffer.write(image)
    cupy.cuda.get_current_stream().synchronize()
    mapped.set()


threading.Thread(target=map_once, daemon=True).start()
say("map", returned=mapped.wait(5))
total = int((cupy.arange(1000) + 1).sum())
say("cuda work on the main thread", total=total)
host = cupy.asnumpy(image)
say("copy to the host", mean=float(host.mean()))
texture = GL.glGenTextures(1)
GL.glBindTexture(GL.GL_TEXTURE_2D, texture)
GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, SIDE, SIDE, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, host)
GL.glFinish()
back = np.frombuffer(GL.glGetTexImage(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE), np.uint8)
say("texture upload", equal=bool((back == 5).all()))
os._exit(0)
