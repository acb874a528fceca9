"""How well the CPU frame's label foretells the time left: renders one frame of a scene on the CPU
reference through the app's Session (as the window does) and prints, for each moment the label
showed a time left while a quarter of the frame or more was to come, foretold / actual.

    python3 docs/tools/cpu_time_left.py [--scene rand1M] [--size 1024]
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.session import Session  # noqa: E402
from app.settings import Settings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="rand1M")
    parser.add_argument("--size", type=int, default=1024)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(scene="rgb", size=options.size, export_folder=folder)
        session = Session(settings, backend="cpu")
        try:
            assert session.select_scene(options.scene, confirmed=True), session.status
            seen = []
            while not session.update():
                if session.cpu.progress is not None:
                    seen.append(session.cpu.progress)
                time.sleep(0.01)
            seconds = session.history[-1]["cpu frame"] / 1000
        finally:
            session.close()
    early = [s for s in seen if s.remaining is not None and s.elapsed < 0.75 * seconds]
    ratios = [s.remaining / (seconds - s.elapsed) for s in early]
    print(f"{options.scene} at {options.size}: frame {seconds:.1f} s; time left shown from {early[0].elapsed:.1f} s")
    print(f"foretold / actual: median {statistics.median(ratios):.2f}, range {min(ratios):.2f}..{max(ratios):.2f}")


if __name__ == "__main__":
    main()
