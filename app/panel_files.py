"""The panel's file choices: a scene file to open, a kernel file to load and the export folder, each
through the desktop's own dialog where it has one (``app.dialogs``) and a typed path otherwise, and
the question asked before a missing export folder is made (``app.export_folder``).

The buttons only note what was asked; ``draw_dialogs`` runs every frame outside the panel's window
and opens, draws and polls the dialogs, so they work whichever panel sections are shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.dialogs import KERNEL_FILTERS, NativeDialog, dialog_choice
from app.export_folder import EXPORT, RECORD, SCREENSHOT, MissingFolder, answer_missing_folder, choose_export_folder
from app.panel_widgets import tip
from app.printable import printable

if TYPE_CHECKING:
    from app.window import App

OPEN_SCENE = "Open scene file"
LOAD_KERNEL = "Load a kernel file"
CHOOSE_FOLDER = "Choose the export folder"
CREATE_FOLDER = "Create the folder?"
WAITING = "Waiting for the file dialog"
FIELD_WIDTH = 520  # pixels: room for a long path
MODAL = imgui.WindowFlags_.always_auto_resize


def any_popup_open() -> bool:
    """Whether a popup or modal dialog is open (asked outside every window: any level counts)."""
    return imgui.is_popup_open("", imgui.PopupFlags_.any_popup_id)


class TypedPath:
    """A modal asking for a path. Its field has keyboard focus from the first frame, characters typed
    before the focus arrives go into it, Enter accepts, Escape cancels, and why a path was refused
    stays shown until the next try."""

    def __init__(self, title: str, prompt: str, accept: str) -> None:
        self.title, self.prompt, self.accept = title, prompt, accept
        self.text = ""
        self.error = ""
        self._early = ""  # typed before the field had focus
        self._focus = False  # ask for the keyboard focus on the next frame drawn
        self._waiting_for_focus = False

    def open(self, text: str) -> None:
        """Show the dialog with ``text`` in the field, all selected, so that typing replaces it."""
        self.text, self.error, self._early = text, "", ""
        self._focus = self._waiting_for_focus = True
        imgui.open_popup(self.title)

    def draw(self, judge: Callable[[str], str | None]) -> None:
        """Draw it when open; an accepted path goes to ``judge``, which returns why it was refused
        (shown in the dialog, which stays) or None (the dialog closes)."""
        if not imgui.begin_popup_modal(self.title, None, MODAL)[0]:
            return
        imgui.text(self.prompt)
        if self._waiting_for_focus:
            self._keep_early_characters()
        if self._focus:
            self._focus = False
            imgui.set_keyboard_focus_here()
        imgui.set_next_item_width(FIELD_WIDTH)
        flags = (
            imgui.InputTextFlags_.enter_returns_true
            | imgui.InputTextFlags_.auto_select_all
            | imgui.InputTextFlags_.callback_always
        )
        entered, self.text = imgui.input_text("##path", self.text, flags, self._place_early_characters)
        accepted = imgui.button(self.accept) | entered  # both drawn every frame
        imgui.same_line()
        if imgui.button("Cancel") or imgui.is_key_pressed(imgui.Key.escape, False):
            imgui.close_current_popup()
        elif accepted:
            self.error = judge(self.text.strip()) or ""
            if self.error:  # Enter left the field: back into it, to correct the path
                self._focus = self._waiting_for_focus = True
            else:
                imgui.close_current_popup()
        if self.error:
            imgui.push_text_wrap_pos(imgui.get_cursor_pos_x() + FIELD_WIDTH)
            imgui.text_wrapped(printable(self.error))
            imgui.pop_text_wrap_pos()
        imgui.end_popup()

    def _keep_early_characters(self) -> None:
        # ImGui drops the characters of the frame in which a focus request activates the field (they
        # could be the key that moved the focus); here they are the first ones of the path.
        io = imgui.get_io()
        if io.key_ctrl and not io.key_alt:  # shortcuts, not text (Alt+Ctrl is AltGr)
            return
        self._early += "".join(chr(code) for code in io.input_queue_characters if chr(code).isprintable())

    def _place_early_characters(self, data: imgui.InputTextCallbackData) -> int:
        """While the field is active: on its first frame, the characters typed before replace the
        text, as typing over the selected text does."""
        self._waiting_for_focus = False
        if self._early:
            data.delete_chars(0, data.buf_text_len)
            data.insert_chars(0, self._early)
            self._early = ""
        return 0


class FileDialogs:
    """The scene file, kernel file and export folder dialogs of one App's panel."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.native, warning = dialog_choice()
        if warning:
            app.session.status = f"{app.session.status}\n{warning}".lstrip()
        self.running: NativeDialog | None = None
        self.scene_path = TypedPath(OPEN_SCENE, "Path of a .npz or .json scene file:", "Open")
        self.folder_path = TypedPath(CHOOSE_FOLDER, "Folder the exports go to:", "Choose")
        self.kernel_path = TypedPath(LOAD_KERNEL, "Path of a .cu kernel file:", "Load")
        self.question: MissingFolder | None = None
        self._asked: TypedPath | None = None  # a typed dialog to show on the next draw_dialogs
        self._screenshot_next = False  # taken a frame after the question closed, so it is not in it

    # -- in the panel --------------------------------------------------------------------------

    def open_scene(self) -> None:
        """The "Open file..." button (and the drop hint beside it)."""
        if imgui.button("Open file..."):
            self._start(self.scene_path)
        tip("open a .npz or .json scene file of either renderer (the renderer follows the file)")
        imgui.same_line()
        imgui.text_disabled("or drop one on the window")

    def export_folder(self) -> None:
        """The export folder, read-only, and the "Choose folder..." button."""
        imgui.text_wrapped(f"folder: {printable(self.app.session.settings.export_folder)}")
        tip("where exports, screenshots and recordings go")
        if imgui.button("Choose folder..."):
            self._start(self.folder_path)
        tip("pick another export folder; a folder that does not exist yet is made only if you say so")

    def load_kernel(self) -> None:
        """The "Load kernel file..." button (and the drop hint beside it)."""
        if imgui.button("Load kernel file..."):
            self._start(self.kernel_path)
        tip(
            "run your own kernel: a .cu file that declares how it is launched (docs/user-kernels.md);\n"
            "edits to it, or to the headers it includes, compile and replace it while it runs"
        )
        imgui.same_line()
        imgui.text_disabled("or drop one on the window")

    def _start(self, asked: TypedPath) -> None:
        session = self.app.session
        if not self.native:
            self._asked = asked
            return
        # Where the dialog starts: the export folder, or the shown scene or kernel file's folder
        # (os.path's checks, unlike Path's, take any odd path a settings file may hold).
        if asked is self.folder_path:
            start = os.path.expanduser(session.settings.export_folder)
            self.running = NativeDialog("Export folder", f"{start}/" if os.path.isdir(start) else "", True)
            return
        shown = session.variant.path if asked is self.kernel_path else session.scene_name
        where = f"{Path(shown).absolute().parent}/" if shown and os.path.isfile(shown) else ""
        if asked is self.kernel_path:
            self.running = NativeDialog(LOAD_KERNEL, where, False, KERNEL_FILTERS)
        else:
            self.running = NativeDialog("Open a scene file", where, False)

    # -- every frame, outside the panel's window ------------------------------------------------

    def draw_dialogs(self) -> None:
        """Open, draw and poll whichever dialog is under way."""
        session = self.app.session
        if self._screenshot_next:
            self._screenshot_next = False
            self.app.request_screenshot()
        if session.missing_folder is not None and self.question is None:
            self.question, session.missing_folder = session.missing_folder, None
        if self._asked is not None and not any_popup_open():
            initial = session.settings.export_folder if self._asked is self.folder_path else self._asked.text
            self._asked.open(initial)
            self._asked = None
        self.scene_path.draw(self._open_typed_scene)
        self.folder_path.draw(self._choose_typed_folder)
        self.kernel_path.draw(self._load_typed_kernel)
        self._wait_for_native()
        self._ask_to_create()

    def _open_typed_scene(self, path: str) -> str | None:
        session = self.app.session
        if not path:
            return "type the path of a scene file"
        # A scene slow on the CPU is pending: the CPU backend's own dialog asks about it next.
        if session.select_scene(os.path.expanduser(path)) or session.pending is not None:
            return None
        return session.status

    def _load_typed_kernel(self, path: str) -> str | None:
        if not path:
            return "type the path of a .cu kernel file"
        return None if load_kernel_file(self.app.session, os.path.expanduser(path)) else self.app.session.status

    def _choose_typed_folder(self, text: str) -> str | None:
        self.question, problem = choose_export_folder(self.app.session, text)
        return problem

    def _wait_for_native(self) -> None:
        running = self.running
        if running is None:
            return
        chosen = running.poll()
        if chosen is not None:
            self.running = None
            if chosen and running.folder:
                self.question, _ = choose_export_folder(self.app.session, chosen)
            elif chosen and running.filters is KERNEL_FILTERS:
                load_kernel_file(self.app.session, chosen)
            elif chosen:
                self.app.session.select_scene(chosen)
        if self.running is not None and not any_popup_open():
            imgui.open_popup(WAITING)
        if imgui.begin_popup_modal(WAITING, None, MODAL)[0]:
            if self.running is None:
                imgui.close_current_popup()
            else:
                imgui.text(f"choosing a {'folder' if running.folder else 'file'}... (in the desktop's dialog)")
                if imgui.button("Cancel"):
                    running.close()
                    self.running = None
                    imgui.close_current_popup()
            imgui.end_popup()

    def _ask_to_create(self) -> None:
        if self.question is not None and not any_popup_open():
            imgui.open_popup(CREATE_FOLDER)
        if not imgui.begin_popup_modal(CREATE_FOLDER, None, MODAL)[0]:
            return
        missing = self.question
        if missing is None:
            imgui.close_current_popup()
        else:
            imgui.text(printable(missing.question()))
            create = imgui.button("Create")
            imgui.same_line()
            cancel = imgui.button("Cancel") or imgui.is_key_pressed(imgui.Key.escape, False)
            if create or cancel:
                self.question = None
                imgui.close_current_popup()
                if answer_missing_folder(self.app.session, missing, create):
                    self._go_on(missing.then)
        imgui.end_popup()

    def _go_on(self, then: str) -> None:
        """Do what waited for the folder that was just made."""
        if then == EXPORT:
            self.app.session.export_png()
        elif then == SCREENSHOT:
            self._screenshot_next = True
        elif then == RECORD:
            self.app.recorder.start()

    def close(self) -> None:
        """End a native dialog still open (the app is closing)."""
        if self.running is not None:
            self.running.close()
            self.running = None


def load_kernel_file(session, path: str) -> bool:
    """Run the kernel file at ``path`` as the variant ``file:PATH`` (absolute, so that it does not
    depend on the folder the app started in); False, with the status saying why, if it cannot."""
    return session.set_variant(f"file:{os.path.abspath(path)}")
