"""File ▸ Export report… in the window: one HTML page of what the window holds, edits included:
the run's report, or while runs are compared the comparison's (the window's own statistics)."""

from __future__ import annotations

import hashlib
import re

import pytest

from ndcg_gui.core.analysis.workspace_report import SAMPLES


def text_of(html: str) -> str:
    html = re.sub(r"<(script|style)>.*?</\1>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_menu_has_the_export(opened):
    window = opened
    file_menu = window.menuBar().actions()[0].menu()
    assert window.actions.export_report in file_menu.actions()


def test_the_run_report_follows_the_edits(opened, files, tmp_path, dialog_log):
    window = opened
    doc = window.document
    doc.set_current_query("412")
    before = doc.summary.ndcg
    doc.move_to(12, 1)  # the fix the report suggests for query 412
    after = doc.summary.ndcg
    assert after > before
    out = tmp_path / "r.html"
    assert window.exports.export_report(out), dialog_log
    text = text_of(out.read_text(encoding="utf-8"))
    assert f"Query 412: NDCG@10 {before:.4f}" not in text
    assert "1 query edited in the window since the file was read" in text
    mean = window.document.evaluate()["ndcg"].mean()
    assert f"Mean NDCG@10 = {mean:.4f}" in text
    assert hashlib.sha256(files[0].read_bytes()).hexdigest() in text
    assert "Exported the report to r.html" in window.statusBar().currentMessage()


def test_the_comparison_report_while_runs_are_compared(opened, files, tmp_path):
    window = opened
    window.compare.add_run(files[2])
    window.compare.flush()
    cmp = window.comparison.comparison
    out = tmp_path / "c.html"
    assert window.exports.export_report(out)
    text = text_of(out.read_text(encoding="utf-8"))
    assert "NDCG@10: second against sample" in text and "Statistics" in text
    row = cmp.summary.loc["second"]
    assert f"{row['delta']:+.4f}" in text and f"{SAMPLES:,} random sign flips" in text
    assert hashlib.sha256(files[2].read_bytes()).hexdigest() in text
    assert "The biggest losses of second" in text or row["losses"] == 0


def test_a_failed_export_says_why(opened, tmp_path, dialog_log):
    window = opened
    assert not window.exports.export_report(tmp_path / "no" / "r.html")
    assert dialog_log and dialog_log[-1][0] == "Could not export the report"


@pytest.mark.parametrize("export", ["export_report", "export_summary", "export_metrics", "export_plot"])
@pytest.mark.parametrize("victim", [0, 1, 2])  # the open run, its qrels, a run compared
def test_no_export_replaces_a_file_the_window_read(opened, files, tmp_path, dialog_log, export, victim):
    """Through a symbolic link too (issue 33, finding 1); the document's own Save is another flow."""
    window = opened
    window.compare.add_run(files[2])
    window.compare.flush()
    link = tmp_path / "link.png"
    link.symlink_to(files[victim])
    before = [f.read_bytes() for f in files]
    for out in (files[victim], link):
        assert not getattr(window.exports, export)(out)
        assert dialog_log[-1][0].startswith("Could not export")
        assert f"is {files[victim].name}, an input too" in dialog_log[-1][1]
    assert [f.read_bytes() for f in files] == before
