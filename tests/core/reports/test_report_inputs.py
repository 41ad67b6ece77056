"""Other tools' objects read as the file readers read files (`core.reports.inputs`): pandas frames
with PyTerrier's, ir_measures' and ranx's column names, dicts of dicts (pytrec_eval, ranx), objects
with to_dict / to_dataframe (ranx Run and Qrels), named tuples (ir_measures, ir_datasets), Arrow
tables; each gives the NDCG the same files give. And `ndcg_gui.report` on them."""

from __future__ import annotations

from collections import namedtuple

import pandas as pd
import pyarrow as pa
import pytest

import ndcg_gui
from ndcg_gui.core import load
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reports.inputs import load_objects

RUN = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}, "q2": {"x": 5.0, "y": 4.0}}
QRELS = {"q1": {"a": 0, "b": 2, "c": 3, "z": 1}, "q2": {"y": 1}, "q3": {"w": 2}}
ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")
Qrel = namedtuple("Qrel", "query_id doc_id relevance iteration")


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    """The per-query NDCG@10 of the same run and qrels read from TREC files."""
    folder = tmp_path_factory.mktemp("files")
    run = "".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in RUN.items() for d, s in docs.items())
    qrels = "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items())
    (folder / "run").write_text(run)
    (folder / "qrels").write_text(qrels)
    return load(folder / "run", folder / "qrels").evaluate(Measure(k=10))


def rows(data, value):
    return [(q, d, v) for q, docs in data.items() for d, v in docs.items()]


class RanxLike:
    """What ranx's Run and Qrels offer: to_dict (a dict of dicts) and to_dataframe (q_id, doc_id, score)."""

    def __init__(self, data):
        self.data = data

    def to_dict(self):
        return self.data

    def to_dataframe(self):
        return pd.DataFrame(rows(self.data, "score"), columns=["q_id", "doc_id", "score"])


class QrelsIter:
    """ir_datasets' `dataset.qrels_iter()`: a fresh iterator of TrecQrel named tuples each time."""

    def __iter__(self):
        TrecQrel = namedtuple("TrecQrel", "query_id doc_id relevance iteration")
        return (TrecQrel(q, d, g, "0") for q, d, g in rows(QRELS, "relevance"))


class FrameOnly(RanxLike):
    to_dict = None  # only to_dataframe


RUN_FORMS = {
    "dict of dicts": RUN,
    "PyTerrier frame": pd.DataFrame([(q, d, s, r) for q, docs in RUN.items()
                                     for r, (d, s) in enumerate(docs.items())],
                                    columns=["qid", "docno", "score", "rank"]),
    "ir_measures frame": pd.DataFrame(rows(RUN, "score"), columns=["query_id", "doc_id", "score"]),
    "ScoredDoc tuples": [ScoredDoc(*r) for r in rows(RUN, "score")],
    "ranx Run": RanxLike(RUN),
    "to_dataframe only": FrameOnly(RUN),
    "Arrow table": pa.table(pd.DataFrame(rows(RUN, "score"), columns=["query", "doc", "score"])),
}
QRELS_FORMS = {
    "dict of dicts": QRELS,
    "PyTerrier frame": pd.DataFrame(rows(QRELS, "label"), columns=["qid", "docno", "label"]),
    "Qrel tuples": [Qrel(q, d, g, "0") for q, d, g in rows(QRELS, "relevance")],
    "ranx Qrels": RanxLike(QRELS),
    "ranx Qrels frame": FrameOnly(QRELS),
    "ir_datasets qrels_iter": QrelsIter(),
}


@pytest.mark.parametrize("run_form", list(RUN_FORMS))
@pytest.mark.parametrize("qrels_form", list(QRELS_FORMS))
def test_every_form_gives_the_files_figures(expected, run_form, qrels_form):
    loaded = load_objects(RUN_FORMS[run_form], QRELS_FORMS[qrels_form])
    got = loaded.dataset.evaluate(Measure(k=10))
    pd.testing.assert_frame_equal(got, expected)
    assert loaded.dataset.path is None and loaded.dataset.has_pool
    assert all(len(h) == 64 for h in loaded.inputs.values()) and len(loaded.inputs) == 2


def test_a_frame_with_its_own_grades_needs_no_qrels():
    frame = pd.DataFrame({"query": ["1", "1", "1"], "doc": ["a", "b", "c"], "relevance": [0, 3, 1]})
    data = load_objects(frame).dataset
    assert data.ranked_list("1").docs.tolist() == ["a", "b", "c"]  # file order without score or rank
    at3 = Measure(k=3)
    assert data.evaluate(at3)["ndcg"].iloc[0] == pytest.approx(ndcg_gui.core.ndcg_at([0, 3, 1], at3))


@pytest.mark.parametrize(("run", "qrels", "message"), [
    (pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": ["high"]}), QRELS, 'run: row 1: score "high"'),
    (pd.DataFrame({"qid": ["1"], "docno": ["a"]}), None, "run: no grade column"),
    ({"q1": [1, 2]}, QRELS, "run: query 'q1' maps to a list"),
    (42, QRELS, "a int cannot be read as a run"),
    ([("q1", "a", 1.0)], QRELS, "has no field names"),
])
def test_bad_objects_are_one_line_input_errors(run, qrels, message):
    with pytest.raises(InputError) as info:
        load_objects(run, qrels)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_report_in_a_notebook_cell():
    frame = RUN_FORMS["PyTerrier frame"]
    one = ndcg_gui.report(frame[frame["qid"] == "q1"], {"q1": QRELS["q1"]}, k=3)
    html = one._repr_html_()
    assert html.startswith('<div class="ndcg-report">') and "<!DOCTYPE" not in html
    assert "Per rank" in html and "NDCG@3 =" in html and html.count("<svg") == 2
    many = ndcg_gui.report(frame, QRELS)
    assert "Mean NDCG@10" in many._repr_html_() and "The 2 worst queries" in many._repr_html_()
    assert "run (DataFrame, as an Arrow table)" in many._repr_html_()


def test_report_of_runs_compared_and_to_html(tmp_path):
    other = {"q1": {"c": 3.0, "b": 2.0, "a": 1.0}, "q2": {"y": 5.0, "x": 4.0}}
    r = ndcg_gui.report(RUN, QRELS, name="bm25", runs_to_compare={"rerank": RanxLike(other)})
    assert "rerank against bm25" in repr(r)
    path = r.to_html(tmp_path / "r.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "Statistics" in text and "rerank (RanxLike" in text


def test_report_of_typed_grades():
    html = ndcg_gui.report([3, 2, 3, 0, 1], k=5)._repr_html_()
    assert "NDCG@5 = <b>0.9724</b>" in html
