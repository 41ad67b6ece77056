"""A notebook, run by nbclient in a real Jupyter kernel: it builds a run from a pandas DataFrame
(PyTerrier's column names) and qrels from a ranx-style dict of dicts, calls `ndcg_gui.report`, and
the cell's rich output is the report's HTML with the per-rank table; a second cell writes the page."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]

CELLS = [
    """import pandas as pd
import ndcg_gui
run = pd.DataFrame({"qid": ["q1"] * 5, "docno": ["A", "B", "C", "D", "E"],
                    "score": [0.9, 0.8, 0.7, 0.6, 0.5]})
qrels = {"q1": {"A": 3, "B": 2, "C": 3, "D": 0, "E": 1}}   # as ranx's Qrels.to_dict() gives it""",
    "ndcg_gui.report(run, qrels, k=3)",
    """r = ndcg_gui.report(run, qrels, k=3)
print(r.to_html(OUT).stat().st_size > 0)""",
]


def test_report_inline_in_a_jupyter_kernel(tmp_path):
    out = tmp_path / "report.html"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c.replace("OUT", repr(str(out)))) for c in CELLS]
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}})  # (the kernel imports this tree)
    client.execute()
    outputs = nb.cells[1].outputs
    assert len(outputs) == 1 and outputs[0].output_type == "execute_result"
    html = outputs[0].data["text/html"]
    assert html.startswith('<div class="ndcg-report">')
    assert "Per rank" in html and "NDCG@3 = <b>0.9778</b>" in html  # worked example E1 at k = 3
    assert "<td>doc</td>" not in html and "<td>A</td>" in html and html.count("<svg") == 2
    assert outputs[0].data["text/plain"] == "<Report: NDCG@3 of run>"
    assert nb.cells[2].outputs[0].text.strip() == "True" and out.read_text().startswith("<!DOCTYPE html>")


# --- the notes kept beside a run given as a path (RUN.notes.tsv), as `ndcg-inspect --report` reads them

RUN_CSV = "query,doc,score,grade\nq1,A,3,1\nq1,B,2,0\nq2,A,1,2\nq2,B,2,0\n"


def test_a_run_given_as_a_path_shows_the_notes_beside_it(tmp_path):
    import warnings

    from ndcg_gui.core.reports.notebook import report
    from ndcg_gui.core.writing.query_notes import write_notes

    run = tmp_path / "run.csv"
    run.write_text(RUN_CSV)
    write_notes(tmp_path / "run.csv.notes.tsv", {"q2": "tokenizer splits <the> name"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (a sidecar read well says nothing)
        for given in (run, str(run)):
            html = report(given).html
            # beside the worst query and in the table's note column, escaped as every outside text
            assert '<p class="query-note"><b>Note:</b> tokenizer splits &lt;the&gt; name</p>' in html
            note = "tokenizer splits &lt;the&gt; name"
            assert f'<td title="{note}">{note}</td>' in html
    with_runs = report(run, runs_to_compare={"other": str(run)}).html
    assert "tokenizer splits &lt;the&gt; name" in with_runs


def test_a_bad_sidecar_is_one_warning_and_the_report_is_made(tmp_path):
    import pytest

    from ndcg_gui.core.reports.notebook import report

    run = tmp_path / "run.csv"
    run.write_text(RUN_CSV)
    (tmp_path / "run.csv.notes.tsv").write_bytes(b"q1\tfine\nq2 no tab here\n")
    with pytest.warns(UserWarning) as caught:
        made = report(run)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("notes not read: ") and "run.csv.notes.tsv:2" in message
    assert "\n" not in message and "Every query" in made.html



def test_a_report_under_document_weights_is_refused_not_half_weighted(tmp_path):
    import pytest

    from ndcg_gui.core.ndcg.presets import PRESETS
    from ndcg_gui.core.reports.notebook import report

    run = tmp_path / "run.csv"
    run.write_text("query,doc,score,grade,doc_weight\nq1,A,3,1,2\nq1,B,2,0,1\n")
    with pytest.raises(ValueError, match=r"^the report does not weigh documents yet \(doc_weights\)"):
        report(run, measure=PRESETS["tf_ranking"].with_(doc_weights="tf_ranking", k=3))
