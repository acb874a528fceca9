"""Worker start times, frame time and worker memory of a parallel CPU reference frame.

python3 start_probe.py TREE COUNT SIZE: rand1M (COUNT 0) or COUNT random circles at SIZE, two
workers, with the code of the checkout TREE."""

import hashlib
import json
import os
import sys
import threading
import time


def memory_kb(pid):
    """(private, Pss, Rss) of a process, in kB, or None once it is gone."""
    try:
        text = open(f"/proc/{pid}/smaps_rollup").read()
    except OSError:
        return None
    values = {}
    for line in text.splitlines()[1:]:
        fields = line.split()
        if fields[-1] == "kB":
            values[fields[0].rstrip(":")] = int(fields[1])
    private = values.get("Private_Clean", 0) + values.get("Private_Dirty", 0)
    return private, values.get("Pss", 0), values.get("Rss", 0)


def main():
    tree, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sys.path.insert(0, tree)
    os.chdir(tree)
    from render.circles import band_pool, reference
    from scenes.builtin import build_scene, random_circles

    scene = random_circles("r", count, 0) if count else build_scene("rand1M")
    starts = []
    start = band_pool._Worker.__init__

    def timed(self, *args):
        began = time.perf_counter()
        start(self, *args)
        starts.append(time.perf_counter() - began)

    band_pool._Worker.__init__ = timed
    peak = {}
    done = threading.Event()

    def sample():
        while not done.is_set():
            for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
                try:
                    command = open(f"/proc/{pid}/cmdline").read()
                except OSError:
                    continue
                if "multiprocessing" in command and (now := memory_kb(pid)):
                    peak[pid] = tuple(max(a, b) for a, b in zip(peak.get(pid, (0, 0, 0)), now, strict=True))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    image = reference.clear_image(scene, size, size)
    began = time.perf_counter()
    reference.render_reference(scene, image, workers=2)
    frame = time.perf_counter() - began
    done.set()
    sampler.join()
    largest = sorted(tuple(round(v / 1024) for v in m) for m in peak.values())[-3:]
    print(
        json.dumps(
            {
                "count": scene.count,
                "size": size,
                "starts_s": [round(s, 4) for s in starts],
                "frame_s": round(frame, 3),
                "workers_peak_private_pss_rss_MB": largest,
                "digest": hashlib.sha256(image.tobytes()).hexdigest()[:16],
            }
        )
    )


if __name__ == "__main__":
    main()
