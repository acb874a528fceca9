"""rasterlab entry point: ``python main.py COMMAND ...`` (see ``python main.py --help``)."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
