"""Notes on queries in the document's state: each change a new Workspace, unsaved until the sidecar
holds them, and carried through a crash by the recovery file (older files without notes still open)."""

from __future__ import annotations

import json

import pytest

from ndcg_gui.core.reading import load
from ndcg_gui.core.state.recovery import read_recovery, write_recovery
from ndcg_gui.core.state.workspace import FileRef, Workspace


def _files(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 1.0 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq2 0 c 1\n")
    return run, qrels


def test_a_note_is_a_new_state_and_unsaved_until_marked(tmp_path):
    run, qrels = _files(tmp_path)
    ws = Workspace.of(load(run, qrels), file=FileRef.of(run, qrels))
    noted = ws.with_note("q1", "bm25 misses the\tacronym\n(see ticket)")
    assert dict(ws.notes) == {} and noted.notes == {"q1": "bm25 misses the\tacronym\n(see ticket)"}
    assert noted.notes_unsaved() and noted.worth_recovering() and not ws.worth_recovering()
    assert noted.with_note("q1", "  ").notes == {}  # an empty note is no note
    assert noted.with_note("q1", noted.notes["q1"]) is noted  # the same note: nothing changed
    noted.mark_notes_saved()
    assert not noted.notes_unsaved()
    read = ws.with_notes({"q2": "from the sidecar"}, saved=True)
    assert read.notes == {"q2": "from the sidecar"} and not read.notes_unsaved()


def test_notes_come_back_after_a_crash(tmp_path):
    run, qrels = _files(tmp_path)
    ws = Workspace.of(load(run, qrels), file=FileRef.of(run, qrels)).with_note("q2", "why: <b>ünï</b>\t!")
    path = tmp_path / "recovery-1.json"
    write_recovery(path, ws)
    snapshot = read_recovery(path)
    assert snapshot.notes == {"q2": "why: <b>ünï</b>\t!"} and "1 note" in snapshot.describe()
    back = snapshot.restore(load)
    assert back.notes == ws.notes and back.notes_unsaved()


def test_a_recovery_file_written_before_notes_still_opens(tmp_path):
    run, qrels = _files(tmp_path)
    ws = Workspace.of(load(run, qrels), file=FileRef.of(run, qrels)).with_note("q1", "x")
    path = tmp_path / "recovery-1.json"
    write_recovery(path, ws)
    data = json.loads(path.read_text())
    del data["notes"]  # as an older version wrote it
    path.write_text(json.dumps(data))
    assert read_recovery(path).restore(load).notes == {}


def test_notes_that_are_not_text_make_a_damaged_file(tmp_path):
    run, qrels = _files(tmp_path)
    path = tmp_path / "recovery-1.json"
    write_recovery(path, Workspace.of(load(run, qrels), file=FileRef.of(run, qrels)))
    data = json.loads(path.read_text())
    data["notes"] = {"q1": 3}
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"recovery-1\.json: damaged recovery file \(its notes"):
        read_recovery(path)
