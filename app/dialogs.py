"""Native file dialogs, where the desktop has them, through imgui-bundle's portable_file_dialogs.

On Linux portable_file_dialogs runs a helper program (zenity, matedialog, qarma or kdialog, the
first it finds with ``which``) and reads the chosen path from its output. Where none is installed
it runs ``echo`` instead, which reads as a dialog cancelled at once; and it offers no call that
says which it found. So the app looks for the helpers itself, the same way, and uses its own typed
path dialog where there is none. ``RASTERLAB_FILE_DIALOGS=typed`` asks for the typed dialog always.
"""

from __future__ import annotations

import os
import shutil
import sys

DIALOGS_VARIABLE = "RASTERLAB_FILE_DIALOGS"
DIALOG_CHOICES = ("native", "typed")
# portable_file_dialogs' helpers, in the order it prefers them.
HELPERS = ("zenity", "matedialog", "qarma", "kdialog")
SCENE_FILTERS = ["Scene files (.npz, .json)", "*.npz *.json", "All files", "*"]
KERNEL_FILTERS = ["CUDA kernel files (.cu)", "*.cu", "All files", "*"]


def native_helper() -> str | None:
    """The helper program portable_file_dialogs would show its dialogs with; None where it would
    find none (it looks with ``/bin/sh -c "which NAME"``, so ``which`` must be there too)."""
    if sys.platform in ("win32", "darwin"):
        return "system"
    if not os.path.exists("/bin/sh") or shutil.which("which") is None:
        return None
    return next((name for name in HELPERS if shutil.which(name)), None)


def dialog_choice() -> tuple[bool, str | None]:
    """Whether to use native dialogs, and a warning line when RASTERLAB_FILE_DIALOGS is set to
    something other than ``native`` or ``typed`` (it is then read as unset)."""
    asked = os.environ.get(DIALOGS_VARIABLE, "")
    warning = None
    if asked and asked not in DIALOG_CHOICES:
        warning = f"warning: {DIALOGS_VARIABLE}={asked!r} is not one of {', '.join(DIALOG_CHOICES)}; ignored"
    return asked != "typed" and native_helper() is not None, warning


class NativeDialog:
    """One native dialog running beside the app: a file to open (``folder=False``: a scene file, or
    with ``filters`` = KERNEL_FILTERS a kernel file) or a folder. ``poll()`` it once per frame; it
    never waits for the user."""

    def __init__(self, title: str, start: str, folder: bool, filters: list[str] = SCENE_FILTERS) -> None:
        from imgui_bundle import portable_file_dialogs as pfd

        self.folder = folder
        self.filters = filters
        self._dialog = pfd.select_folder(title, start) if folder else pfd.open_file(title, start, filters)
        self._done = False

    def poll(self) -> str | None:
        """None while the dialog is open; then the chosen path, or "" when it was cancelled."""
        if self._done or not self._dialog.ready(0):
            return None
        self._done = True
        if self.folder:
            return self._dialog.result()
        # The helper prints one path a line; a single path that holds a newline comes back split.
        return "\n".join(self._dialog.result())

    def close(self) -> None:
        """End the helper if it still runs: dropping a running dialog would wait for the user."""
        if not self._done:
            self._done = True
            self._dialog.kill()
