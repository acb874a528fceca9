"""python3 big.py TREE COUNT: COUNT circles of radius 0.0005 at 1024 on the CPU reference, with the
workers worker_count allows, with the code of the checkout TREE."""

import os
import sys
import time


def main():
    sys.path.insert(0, sys.argv[1])
    os.chdir(sys.argv[1])
    from render.circles import reference
    from render.core import memory_left
    from scenes.builtin import fixed_size_circles

    began = time.time()
    scene = fixed_size_circles("f", int(float(sys.argv[2])), 0.0005, 0)
    available = memory_left.available_host_bytes() / 1e9
    workers = reference.worker_count(scene.count)
    print("scene", round(time.time() - began, 1), "s; available GB", available, "workers", workers, flush=True)
    image = reference.clear_image(scene, 1024, 1024)
    began = time.time()
    reference.render_reference(scene, image)
    print("frame", round(time.time() - began, 1), "s", flush=True)


if __name__ == "__main__":
    main()
