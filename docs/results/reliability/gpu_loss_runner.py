"""Run the gpu-loss probe as test_gpu_faults.py does (a process of its own, its output piped), with the
app's background compiler on or off; after 40 s ask it for its threads' stacks (SIGABRT: faulthandler).

Run from the repository root:  python3 docs/results/reliability/gpu_loss_runner.py on|off
"""

import os
import runpy
import signal
import subprocess
import sys
import time


def probe(compiler: str) -> None:
    """In the child: the probe's gpu-loss mode, the background compiler turned off unless ``on``."""
    sys.path.insert(0, ".")
    if compiler == "off":
        import app.session as session

        session.Session.compile_in_background = lambda self, cache=None: None
    sys.argv = ["app_stress_probe.py", "gpu-loss"]
    runpy.run_path("tests/probes/app_stress_probe.py", run_name="__main__")


def main(compiler: str) -> None:
    env = {**os.environ, "RASTERLAB_CONFIG_DIR": "/tmp/rasterlab-probe", "PYTHONFAULTHANDLER": "1"}
    command = [sys.executable, __file__, "--child", compiler]
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = child.communicate(timeout=40)
        print("ended", child.returncode, round(time.monotonic() - started, 1), "s")
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGABRT)
        out, err = child.communicate(timeout=20)
        print("HUNG; after SIGABRT rc", child.returncode)
    print("stdout:", out[-600:])
    quiet = ("Exception ignored", "Traceback", "cupy_backends", "    ")
    print("stderr:", "\n".join([line for line in err.splitlines() if not line.startswith(quiet)][-80:]))


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        probe(sys.argv[2])
    else:
        main(sys.argv[1])
