"""A note on a query through the window: typed (Edit ▸ Note on query…, Ctrl+Alt+M), shown in the
query table and above the list, undone and redone with the keys, saved beside the run, read back when
the run is opened again, and kept in the recovery file."""

from __future__ import annotations

import json

from conftest import show_active
from PySide6.QtCore import Qt

from ndcg_gui.core.formats.query_notes import notes_path, read_notes
from ndcg_gui.qt.models.query_model import COL_EDITED, COL_QUERY, NOTE_MARK
from ndcg_gui.qt.widgets import dialogs

NOTE = 'bm25 misses "NDCG"\tthe acronym\n<script>alert(1)</script> — ünï'


def _cell(window, query: str, column: int, role=Qt.ItemDataRole.DisplayRole):
    model = window.query_panel.model
    return model.data(model.index(model.row_of(query), column), role)


def _type_note(window, qtbot, monkeypatch, note: str) -> None:
    asked = []

    def answer(_parent, query, before):
        asked.append((query, before))
        return note, True

    monkeypatch.setattr(dialogs, "ask_note", answer)
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_M,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: bool(asked))


def test_a_note_typed_is_shown_undone_redone_saved_and_read_back(qtbot, opened, files, monkeypatch):
    window, (run, qrels, _second) = opened, files
    show_active(window, qtbot)
    query = window.document.current_query
    run_bytes = run.read_bytes()
    assert NOTE_MARK not in (_cell(window, query, COL_EDITED) or "")

    _type_note(window, qtbot, monkeypatch, NOTE)
    assert window.document.note(query) == NOTE
    assert _cell(window, query, COL_EDITED) == NOTE_MARK
    assert _cell(window, query, COL_QUERY, Qt.ItemDataRole.ToolTipRole) == f"Note: {NOTE}"
    assert window.headline.note.isVisibleTo(window) and NOTE in window.headline.note.text()

    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.document.note(query) == "" and _cell(window, query, COL_EDITED) == ""
    assert not window.headline.note.isVisibleTo(window)
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert _cell(window, query, COL_EDITED) == NOTE_MARK and not window.document.is_clean()

    assert window.files.save()  # only a note typed: the sidecar is written, the run left as it was
    assert read_notes(notes_path(run)) == {query: NOTE}
    assert run.read_bytes() == run_bytes and window.document.is_clean()

    window.document.set_note(query, "")  # (gone from the document, kept in the sidecar)
    window.files.maybe_discard = lambda _what: True
    window.files.open(run, qrels, ask=False)
    qtbot.waitUntil(lambda: window.document.note(query) == NOTE)
    assert window.document.is_clean() and _cell(window, query, COL_EDITED) == NOTE_MARK


def test_a_bad_sidecar_is_said_and_the_run_opens(qtbot, window, files):
    run, qrels, _second = files
    notes_path(run).write_text("401 no tab here\n")
    said = []
    window.statusBar().messageChanged.connect(said.append)
    window.files.open(run, qrels, ask=False)
    qtbot.waitUntil(lambda: window.document.path == run)
    assert any("notes not read: sample.run.notes.tsv:1: expected query<TAB>note" in s for s in said)
    assert dict(window.document.state.notes) == {}


def test_the_recovery_file_carries_the_notes(qtbot, opened, recovery_folder):
    window = opened
    query = window.document.current_query
    window.document.set_note(query, NOTE)
    window.recovery.write_now()
    window.recovery.wait()
    (path,) = recovery_folder.glob("recovery-*.json")
    assert json.loads(path.read_text(encoding="utf-8"))["notes"] == {query: NOTE}


def test_the_exported_report_shows_the_note_escaped(qtbot, opened, tmp_path):
    window = opened
    query = window.document.current_query
    window.document.set_note(query, NOTE)
    out = tmp_path / "report.html"
    assert window.exports.export_report(out)
    html = out.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_the_query_tables_context_menu_offers_the_note(window):
    table = window.query_panel.table
    assert table.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    assert window.actions.edit_note in table.actions()
