"""Notes on queries in the report: `ndcg-inspect RUN --qrels Q --report OUT.html` reads the notes kept
beside the run (`RUN.notes.tsv`) and shows each where its query is listed, escaped; a bad sidecar is
one line on stderr and the report is written all the same."""

from __future__ import annotations

import re

import pytest

from ndcg_gui.cli.main import main
from ndcg_gui.core.formats.query_notes import notes_path
from ndcg_gui.core.writing.query_notes import write_notes

HOSTILE = '<script>alert("x")</script> & the\tacronym\nsecond line'


@pytest.fixture
def run(tmp_path):
    run, qrels = tmp_path / "bm25.run", tmp_path / "qrels.txt"
    run.write_text("q1 Q0 a 1 3.0 t\nq1 Q0 b 2 2.0 t\nq1 Q0 c 3 1.0 t\n"
                   "q2 Q0 d 1 3.0 t\nq2 Q0 e 2 2.0 t\n"
                   "q3 Q0 f 1 3.0 t\nq3 Q0 g 2 2.0 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 0\nq1 0 c 2\nq2 0 d 1\nq3 0 g 1\n")
    return run, qrels


def test_the_report_shows_each_note_escaped(run, tmp_path, capsys):
    run, qrels = run
    write_notes(notes_path(run), {"q1": HOSTILE, "q2": "fine: one relevant at 1"})
    out = tmp_path / "r.html"
    assert main([str(run), "--qrels", str(qrels), "--report", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; the" in html
    # q1, the worst query, carries its note in its section, line breaks kept
    section = html[html.index("<h3>Query q1"):]
    section = section[:section.index("</div></div>") if "</div></div>" in section else len(section)]
    assert '<p class="query-note"><b>Note:</b> &lt;script&gt;' in section and "<br>second line" in section
    # the table of every query has the note column, each note on one line, whole in its tooltip
    assert re.search(r"<th[^>]*>note</th>", html)
    assert '<td title="fine: one relevant at 1">fine: one relevant at 1</td>' in html
    assert capsys.readouterr().err.strip() == f"ndcg-inspect: wrote {out}"


def test_no_sidecar_no_note_column(run, tmp_path):
    run, qrels = run
    out = tmp_path / "r.html"
    assert main([str(run), "--qrels", str(qrels), "--report", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "query-note" not in html and not re.search(r"<th[^>]*>note</th>", html)


def test_a_bad_sidecar_is_one_line_and_the_report_is_written(run, tmp_path, capsys):
    run, qrels = run
    notes_path(run).write_text("q1 no tab\n")
    out = tmp_path / "r.html"
    assert main([str(run), "--qrels", str(qrels), "--report", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["ndcg-inspect: notes not read: bm25.run.notes.tsv:1: expected query<TAB>note (tabs in a "
                   "note written \\t), found no tab", f"ndcg-inspect: wrote {out}"]
    assert out.exists()


def test_a_comparison_report_shows_the_first_runs_notes(run, tmp_path):
    run, qrels = run
    worse = tmp_path / "worse.run"  # q1 as bm25 ranks it, q3 with its relevant document first lost
    worse.write_text("q1 Q0 a 1 3.0 t\nq1 Q0 b 2 2.0 t\nq1 Q0 c 3 1.0 t\n"
                     "q2 Q0 d 1 3.0 t\nq2 Q0 e 2 2.0 t\nq3 Q0 f 1 3.0 t\n")
    write_notes(notes_path(run), {"q3": HOSTILE})
    out = tmp_path / "c.html"
    assert main([str(run), str(worse), "--qrels", str(qrels), "--report", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<script>alert" not in html and re.search(r"<th[^>]*>note</th>", html)
    loss = html[html.index("<h3>Query q3"):]
    assert loss.index('<p class="query-note"><b>Note:</b> &lt;script&gt;') < loss.index("</div>")
