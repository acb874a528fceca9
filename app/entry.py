"""The ``rasterlab`` command and ``main.py``: the command line, imported only once Ctrl-C can be
answered, so an interrupt while Python loads it ends quietly like one during the work."""

import sys


def main() -> int:
    try:
        from app.cli import main as run

        return run()
    except KeyboardInterrupt:
        # Before or after the command's own handling: during imports or argument parsing.
        if sys.stderr is not None:
            print("interrupted", file=sys.stderr)
        return 130
