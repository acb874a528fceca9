"""rasterlab entry point: ``python main.py COMMAND ...`` (see ``python main.py --help``)."""

import sys

from app.entry import main

if __name__ == "__main__":
    sys.exit(main())
