"""rasterlab entry point: ``python main.py COMMAND ...`` (see ``python main.py --help``)."""

import sys

# Checked before the package loads, whose code older Pythons cannot parse; written so that they can
# parse this file.
if sys.version_info < (3, 11):  # noqa: UP036
    found = (sys.executable,) + tuple(sys.version_info[:2])
    sys.exit("error: rasterlab needs Python 3.11 or newer; %s is Python %d.%d" % found)  # noqa: UP031

try:
    from app.entry import main
except (ImportError, MemoryError) as error:  # the entry's own modules, under ulimit -v of a few MiB
    sys.exit("error: cannot start rasterlab: %s" % (str(error) or "not enough memory"))  # noqa: UP031

if __name__ == "__main__":
    sys.exit(main())
