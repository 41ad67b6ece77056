"""The input checks of the open document (qt/document/input_checks.py): a big file is checked in
a worker process, so the window's own process is left free (keying millions of ids holds the GIL:
in a thread it slowed every frame, and the adding of a run, by seconds); a big list that no
longer reads as written is checked as loaded."""

from __future__ import annotations

import pytest

from ndcg_gui.core.analysis import checks as core_checks
from ndcg_gui.qt.document import input_checks

RUN = "1 Q0 a 1 2.0 t\n1 Q0 b 2 2.0 t\n1 Q0 c 3 1.0 t\n2 Q0 x 1 1.0 t\n2 Q0 X 2 0.5 t\n"
QRELS = "1 0 a 1\n1 0 c 2\n2 0 x 1\n9 0 z 1\n"


@pytest.fixture
def files(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    return run, qrels


def test_a_big_file_is_checked_in_a_worker_process(qtbot, window, files, monkeypatch):
    monkeypatch.setattr(input_checks, "BACKGROUND_ROWS", 1)

    def not_here(*args, **kwargs):
        raise AssertionError("a big file was checked in the window's own process")

    monkeypatch.setattr(core_checks, "check", not_here)
    assert window.files.open(files[0], files[1], ask=False)
    checks = window.input_checks
    assert checks.pending
    assert checks.wait()
    found = {f.name: f.count for f in checks.findings}
    assert checks.as_written and checks.k == window.document.k
    assert found["ties across the cut-off"] == 0 and found["queries only in the qrels"] == 1
    assert found["ids that differ only by case or spaces"] == 1
    # k changes: checked again there (ties at k = 1 in query 1: a and b both score 2.0).
    window.document.set_measure(k=1)
    assert checks.wait()
    assert checks.k == 1 and {f.name: f.count for f in checks.findings}["ties across the cut-off"] == 1


def test_a_big_list_that_no_longer_reads_as_written_is_checked_as_loaded(qtbot, window, files,
                                                                         monkeypatch):
    monkeypatch.setattr(input_checks, "BACKGROUND_ROWS", 1)
    monkeypatch.setattr(input_checks.InputChecks, "_follow", lambda self, changes: None)
    assert window.files.open(files[0], files[1], ask=False)
    files[0].unlink()  # (gone since it was opened)
    monkeypatch.undo()
    monkeypatch.setattr(input_checks, "BACKGROUND_ROWS", 1)
    checks = input_checks.InputChecks(window.document)
    checks.ensure()
    assert checks.pending and checks.wait()
    assert checks.findings is not None and not checks.as_written
    assert {f.name: f.count for f in checks.findings}["queries only in the qrels"] == 1
