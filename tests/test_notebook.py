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
