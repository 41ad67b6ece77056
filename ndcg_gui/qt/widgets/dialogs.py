"""Every message box the window shows goes through these few functions, so tests can replace
them (monkeypatch) and never block on a modal dialog, and `--screenshot` runs without any
(`go_headless`)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import QDialog, QInputDialog, QLayout, QMessageBox, QWidget

_headless: list[str] | None = None  # after `go_headless`: the errors that would have been shown


def go_headless() -> list[str]:
    """From now on no dialog opens (a `--screenshot` run has no one to answer it): an error is
    printed on stderr as one line and kept in the list returned; a question gets its cautious
    answer (cancel, no)."""
    global _headless
    _headless = []
    return _headless


def headless_error(message: str) -> bool:
    """Print and keep `message` when headless (True); False when a dialog should show it."""
    if _headless is None:
        return False
    from ndcg_gui.core.errors import printable

    line = printable(" ".join(message.splitlines()))
    _headless.append(line)
    print(f"ndcg-gui: {line}", file=sys.stderr)
    return True


class Unsaved(Enum):
    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


def show_error(parent: QWidget | None, title: str, message: str, details: str | None = None) -> None:
    if headless_error(message):
        return
    box = QMessageBox(QMessageBox.Critical, title, message, QMessageBox.Ok, parent)
    if details:
        box.setDetailedText(details)
    box.exec()


def ask_unsaved(parent: QWidget | None, what: str) -> Unsaved:
    """Unsaved changes: save them, discard them, or cancel `what` (e.g. "closing")."""
    if _headless is not None:
        return Unsaved.CANCEL
    answer = QMessageBox.warning(
        parent,
        "Unsaved changes",
        f"The list has changes that are not saved. Save them before {what}?",
        QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
        QMessageBox.Save,
    )
    if answer == QMessageBox.Save:
        return Unsaved.SAVE
    if answer == QMessageBox.Discard:
        return Unsaved.DISCARD
    return Unsaved.CANCEL


def ask_judgments(parent: QWidget | None, loaded: Path, backup: bool, beside: Path) -> str | None:
    """Grades were edited in a run opened with qrels: where do the judgments go? "loaded" (over the
    loaded qrels, after a NAME.bak copy), "beside" (a new file), or None to cancel the save."""
    if _headless is not None:
        return None
    box = QMessageBox(QMessageBox.Question, "Save the edited judgments",
                      f"Grades were edited. The judgments can replace the qrels file you opened, "
                      f"{loaded.name}" + (f" (kept first as {loaded.name}.bak)" if backup else "")
                      + f", or go to a new file, {beside.name}.", QMessageBox.Cancel, parent)
    over = box.addButton(f"Replace {loaded.name}", QMessageBox.AcceptRole)
    new = box.addButton(f"Save as {beside.name}", QMessageBox.AcceptRole)
    box.setDefaultButton(new)
    box.exec()
    clicked = box.clickedButton()
    return "loaded" if clicked is over else "beside" if clicked is new else None


def rescore_question(queries: list[str], target: Path, rank: bool = False) -> str:
    """What `ask_rescore` asks, in short sentences, each query id quoted (an id of several words
    read as part of the sentence); `rank`: a rank column is offered too."""
    more = f" and {len(queries) - 5:,} more" if len(queries) > 5 else ""
    named = ", ".join(f"“{q}”" for q in queries[:5]) + more
    one = len(queries) == 1
    text = (f"You changed the order of {'the list of query' if one else 'the lists of queries'} {named}.\n\n"
            f"{target.name} is read back in score order. To keep your order, {'its' if one else 'their'} "
            "scores can be saved as n, n-1, … 1 and the window shows them. The old scores are not kept "
            "in the file (Undo brings them back here).")
    if rank:
        text += ("\n\nOr the file gets a rank column (1, 2, 3, …) that gives the order, and every "
                 "score is kept. Its columns are then written as query, rank, doc, grade, score, "
                 "then the others.")
    return text


def ask_rescore(parent: QWidget | None, queries: list[str], target: Path, rank: bool = False) -> str | None:
    """Lists reordered by hand are about to be saved: keep their order by new scores (n, n-1, … 1:
    "scores"), by a rank column when `rank` ("rank"), or None: cancel the save."""
    if _headless is not None:
        return None
    box = QMessageBox(QMessageBox.Question, "Keep the new order?", rescore_question(queries, target, rank),
                      QMessageBox.Cancel, parent)
    scores = box.addButton("New scores n … 1", QMessageBox.AcceptRole)
    ranks = box.addButton("Add a rank column", QMessageBox.AcceptRole) if rank else None
    box.setDefaultButton(scores)
    box.exec()
    clicked = box.clickedButton()
    return "scores" if clicked is scores else "rank" if ranks is not None and clicked is ranks else None


def ask_overwrite_changed(parent: QWidget | None, path: Path) -> bool:
    """The file about to be saved over was changed by another program since it was opened (or
    last saved) here: overwrite those changes?"""
    box = QMessageBox(QMessageBox.Warning, "File changed on disk",
                      f"{path.name} was changed by another program since it was opened here. "
                      "Overwriting replaces those changes with the lists as they are here.\n\n"
                      "To keep both, cancel and use File ▸ Save As… instead.",
                      QMessageBox.Cancel, parent)
    overwrite = box.addButton("Overwrite", QMessageBox.DestructiveRole)
    box.setDefaultButton(QMessageBox.Cancel)
    box.exec()
    return box.clickedButton() is overwrite


def ask_restore(parent: QWidget | None, description: str) -> bool:
    """Edits of a session that ended without saving: restore them?"""
    if _headless is not None:
        return False
    answer = QMessageBox.question(
        parent,
        "Restore unsaved edits?",
        f"NDCG Inspector closed without saving these edits:\n\n{description}\n\nRestore them?",
        QMessageBox.Yes | QMessageBox.No,
        QMessageBox.Yes,
    )
    return answer == QMessageBox.Yes


def ask_stop_restore(parent: QWidget | None, restoring: str, opening: str) -> bool:
    """A file opened while the edits of a session that closed are being restored: stop that?"""
    if _headless is not None:
        return False
    answer = QMessageBox.question(
        parent,
        "Stop restoring the edits?",
        f"The unsaved edits of {restoring} are being restored.\n\nStop restoring them and open "
        f"{opening}? They are kept, and offered again at the next start.",
        QMessageBox.Yes | QMessageBox.No,
        QMessageBox.No,
    )
    return answer == QMessageBox.Yes


# What a title bar holds beside its title: the window's icon and its buttons (three, in openbox,
# GNOME's and KDE's defaults), with their padding.
TITLE_BAR_EXTRA = 130


def fit_title(dialog: QWidget) -> None:
    """`dialog` at least as wide as its title bar needs to show its whole title, with the name Qt
    adds ("Move to rank — NDCG Inspector": a narrow dialog's read "Move to…spector"), in a bold
    title font a little larger than the text's."""
    title, app = dialog.windowTitle(), QGuiApplication.applicationDisplayName()
    if app and not title.endswith(app):
        title = f"{title} — {app}"
    font = QFont(dialog.font())
    font.setBold(True)
    font.setPointSizeF(font.pointSizeF() * 1.1)
    need = QFontMetrics(font).horizontalAdvance(title) + TITLE_BAR_EXTRA
    dialog.sizeHint()  # (a QInputDialog makes its layout when first measured)
    layout = dialog.layout()
    if layout is not None and layout.sizeConstraint() != QLayout.SizeConstraint.SetDefaultConstraint:
        # (QInputDialog's layout sets its least size itself, over any set here)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetDefaultConstraint)
    dialog.setMinimumWidth(max(dialog.minimumWidth(), need))


def ask_number(parent: QWidget | None, title: str, label: str, value: int, low: int,
               high: int) -> tuple[int, bool]:
    """A whole number from `low` to `high` (QInputDialog.getInt's), in a dialog wide enough for its
    title; (value, False) when cancelled, or headless."""
    if _headless is not None:
        return value, False
    dialog = QInputDialog(parent)
    dialog.setInputMode(QInputDialog.InputMode.IntInput)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setIntRange(low, high)
    dialog.setIntValue(value)
    fit_title(dialog)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    return dialog.intValue(), accepted


def show_info(parent: QWidget | None, title: str, message: str) -> None:
    if _headless is not None:
        return
    QMessageBox.information(parent, title, message)


def ask_note(parent: QWidget | None, query: str, note: str) -> tuple[str, bool]:
    """The note on `query`, typed (several lines; empty: none); (note, False) when cancelled, or headless."""
    if _headless is not None:
        return note, False
    dialog = QInputDialog(parent)
    dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput)
    dialog.setWindowTitle(f"Note on query {query}")
    dialog.setLabelText("Why this query ranks as it does (empty: no note). Kept beside the run when saved.")
    dialog.setTextValue(note)
    fit_title(dialog)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    return dialog.textValue(), accepted
