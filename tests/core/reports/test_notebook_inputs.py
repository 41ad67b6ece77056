"""What `ndcg_gui.report` (and `ndcg_gui.inspect`, which reads its inputs the same way) makes of
inputs that look like something else: bytes are a file's content, read by the file readers (the
figures `ndcg-inspect` prints for the same bytes in a file); a list of grades or a `RankedList`
given with qrels, keys of mixed types, an empty run, None, an unknown preset: one line naming the
input and what was expected, never another reading."""

from __future__ import annotations

import gzip
import json
import re

import numpy as np
import pandas as pd
import pytest

import ndcg_gui
from ndcg_gui.cli.main import main
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.core.reports.inputs import load_objects

# Valid but unusual: near-ties equal in float32 only, exact ties, comments, CRLF, runs of blanks,
# a tab, unicode ids, unjudged documents, a query without judgments, a judged document not retrieved.
RUN = ("# a comment\r\n"
       "q1 Q0 d1 1 12.34567891 t\r\n"
       "q1 Q0 d2 2 12.3456789 t\r\n"
       "q1  Q0 d3 3   11.0 t\r\n"
       "q1 Q0 é4 4 11.0 t\r\n"
       "q1\tQ0 d5 5 10.5 t\r\n"
       "q2 Q0 x 1 3 t\r\n"
       "q2 Q0 y 2 2e0 t\r\n"
       "q3 Q0 z 1 1 t\r\n").encode()
QRELS = b"q1 0 d1 0\nq1 0 d2 3\nq1 0 d3 1\nq1 0 \xc3\xa94 2\nq1 0 gone 3\nq2 0 y 1\nq2 0 w 2\n"
CSV = b"query,doc,score,grade\nq1,a,0.5,1\nq1,b,0.5,3\nq1,c,0.25,\nq2,x,1,0\nq2,y,2,2\n"


def cli_figures(capsys, run, qrels=None) -> dict[str, float]:
    """The per-query NDCG@10 `ndcg-inspect` prints for files."""
    capsys.readouterr()
    assert main([str(run), *(["--qrels", str(qrels)] if qrels else []), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    return {row["query"]: row["ndcg"] for row in printed["queries"]}


def without_inputs(html: str) -> str:
    """The page with its input rows' names dropped (a file's name, or "run (bytes, …)")."""
    return re.sub(r"<tr><td>input [^<]*</td>", "<tr><td>input</td>", html)


@pytest.mark.parametrize(("run", "qrels"), [
    (RUN, QRELS),
    (gzip.compress(RUN), QRELS),  # recognised by content, as a file is
    (bytearray(RUN), memoryview(QRELS)),
    (CSV, None),
])
def test_bytes_are_read_as_the_file_they_hold(tmp_path, capsys, run, qrels):
    (tmp_path / "run").write_bytes(run)
    if qrels is not None:
        (tmp_path / "qrels").write_bytes(qrels)
    expected = cli_figures(capsys, tmp_path / "run", qrels and tmp_path / "qrels")
    trec_eval = PRESETS["trec_eval"]  # (ndcg-inspect's default definition)
    got = load_objects(run, qrels).dataset.evaluate(trec_eval.at(10))["ndcg"]
    assert got.to_dict() == expected  # equal, not close: one reader
    assert len(expected) == 2  # (q3 has no judgments: skipped by both, as trec_eval does)

    from_bytes = ndcg_gui.report(run, qrels)
    from_files = ndcg_gui.report(tmp_path / "run", qrels and tmp_path / "qrels")
    assert without_inputs(from_bytes.html) == without_inputs(from_files.html)
    assert "input run (bytes, read as a file)" in from_bytes.html  # with the same sha256 as the file's


def generated(seed: int) -> tuple[bytes, bytes]:
    """A TREC run and qrels from a seed: near-ties (equal in float32 only), exact ties, ids that
    look like numbers or are unicode, unjudged documents, judged ones not retrieved, blank runs
    and tabs between fields, CRLF or LF, comment lines."""
    rng = np.random.default_rng(seed)
    ids = ["d1", "D1", "001", "1", "é", "é", "x-y", "ß", "10", "9"]
    end = "\r\n" if seed % 2 else "\n"
    run, qrels = [f"# seed {seed}"], []
    for q in range(int(rng.integers(1, 5))):
        docs = rng.choice(ids, size=int(rng.integers(1, len(ids))), replace=False)
        base = float(rng.integers(1, 20))
        for rank, doc in enumerate(docs, start=1):
            score = base - [0.0, 1e-8, 0.5, 0.0][int(rng.integers(4))] * rank
            gap = " " * int(rng.integers(1, 3)) if rng.random() < 0.8 else "\t"
            run.append(f"q{q}{gap}Q0 {doc} {rank} {score!r} tag")
        for doc in rng.choice(ids, size=int(rng.integers(1, 6)), replace=False):
            qrels.append(f"q{q} 0 {doc} {int(rng.integers(-1, 4))}")
    return (end.join(run) + end).encode(), ("\n".join(qrels) + "\n").encode()


@pytest.mark.parametrize("seed", range(12))
def test_generated_runs_as_bytes_give_ndcg_inspects_figures(tmp_path, capsys, seed):
    run, qrels = generated(seed)
    (tmp_path / "run").write_bytes(run)
    (tmp_path / "qrels").write_bytes(qrels)
    expected = cli_figures(capsys, tmp_path / "run", tmp_path / "qrels")
    trec_eval = PRESETS["trec_eval"]  # (ndcg-inspect's default definition)
    got = load_objects(run, qrels).dataset.evaluate(trec_eval.at(10))["ndcg"]
    assert got.to_dict() == expected


def test_bytes_with_a_typed_dict_of_qrels():
    run = b"q Q0 a 1 1 t"
    got = load_objects(run, {"q": {"a": 1}}).dataset.evaluate(Measure(k=10))
    assert got["ndcg"].to_dict() == {"q": 1.0} and got["n_retrieved"].to_dict() == {"q": 1}


def test_a_fault_in_bytes_names_the_input_and_its_line():
    with pytest.raises(InputError) as info:
        ndcg_gui.report(b"q Q0 a 1 1 t\nq Q0 b 2 high t\n", {"q": {"a": 1}}, name="bm25")
    assert str(info.value) == 'bm25:2: score "high" (field 5) is not a finite number; expected ' \
                              "qid Q0 docno rank score tag"


@pytest.mark.parametrize("run", [[3, 2, 1], RankedList.from_grades([3, 2, 1], query="q")])
def test_grades_given_with_qrels_are_refused(run):
    with pytest.raises(InputError) as info:
        ndcg_gui.report(run, {"q": {"a": 1}})
    message = str(info.value)
    assert message.startswith("run: ") and "qrels" in message and "\n" not in message


def test_a_list_of_numpy_grades_is_grades():
    html = ndcg_gui.report([np.int64(3), np.float64(2.0), 3, 0, 1], k=5)._repr_html_()
    assert "NDCG@5 = <b>0.9724</b>" in html  # the figure of [3, 2, 3, 0, 1]


@pytest.mark.parametrize(("run", "qrels", "said"), [
    ({1: {"a": 1.0}, "1": {"b": 2.0}}, None, "run: query ids mix types: 1 (int) and '1' (str)"),
    ({"q": {"a": 1.0}}, {"q": {7: 1, "7": 2}}, "qrels: doc ids mix types: 7 (int) and '7' (str)"),
    ({"q": {"a": 1.0}}, {("q",): {"a": 1}}, "qrels: query id ('q',) is a tuple"),
    (pd.DataFrame({"qid": [1, "1"], "docno": ["a", "b"], "score": [1.0, 2.0]}), {"1": {"a": 1}},
     'run: column "qid" mixes types: 1 (int) and \'1\' (str)'),
])
def test_ids_of_mixed_types_are_refused(run, qrels, said):
    with pytest.raises(InputError) as info:
        load_objects(run, qrels)
    assert str(info.value).startswith(said) and "\n" not in str(info.value)


def test_number_keys_are_read_as_a_number_column_is():
    """An int or float key is the query a DataFrame column of those numbers gives (401.0 is 401),
    and a query named by text in the qrels is the same query."""
    qrels = {"401": {"7": 1, "8": 2}, "402": {"7": 1}}
    by_dict = load_objects({401.0: {7: 2.0, 8: 1.0}, 402: {7: 1.0}}, qrels).dataset.evaluate(Measure(k=10))
    frame = pd.DataFrame({"qid": [401.0, 401.0, 402.0], "docno": [7, 8, 7], "score": [2.0, 1.0, 1.0]})
    by_frame = load_objects(frame, qrels).dataset.evaluate(Measure(k=10))
    pd.testing.assert_frame_equal(by_dict, by_frame)
    assert by_dict.index.tolist() == ["401", "402"] and by_dict["n_judged"].tolist() == [2, 1]


@pytest.mark.parametrize(("run", "qrels", "said"), [
    ({}, {"q": {"a": 1}}, "run: the dict holds no rows; expected at least one document"),
    ({"q": {}}, {"q": {"a": 1}}, "run: the dict holds no rows; expected at least one document"),
    (pd.DataFrame(columns=["qid", "docno", "score"]), {"q": {"a": 1}},
     "run: the DataFrame holds no rows; expected at least one document"),
    ({"q": {"a": 1.0}}, {}, "qrels: the dict holds no rows; expected at least one judgment"),
    (b"", {"q": {"a": 1}}, "run: the file is empty"),
])
def test_an_empty_input_says_it_is_empty(run, qrels, said):
    with pytest.raises(InputError) as info:
        ndcg_gui.report(run, qrels)
    assert str(info.value) == said


def test_multiindex_columns_are_refused_as_such():
    frame = pd.DataFrame({("x", "docno"): ["a"], ("x", "score"): [1.0]})
    with pytest.raises(InputError) as info:
        ndcg_gui.report(frame, {"q": {"a": 1}})
    message = str(info.value)
    assert message.startswith("run: the DataFrame's columns have 2 levels") and "--qrels" not in message


def test_columns_no_reader_knows_with_qrels_given_do_not_ask_for_qrels():
    frame = pd.DataFrame({"who": ["a"], "what": [1.0]})
    with pytest.raises(InputError) as info:
        ndcg_gui.report(frame, {"q": {"a": 1}})
    message = str(info.value)
    assert message.startswith('run: no column names a query, doc, grade or score: found "who", "what"')
    assert "qrels" not in message


def test_without_qrels_a_frame_without_grades_asks_for_them_in_python_terms():
    with pytest.raises(InputError) as info:
        ndcg_gui.report(pd.DataFrame({"qid": ["1"], "docno": ["a"]}))
    assert "(or give its qrels)" in str(info.value) and "--qrels" not in str(info.value)


def test_an_unknown_preset_names_the_presets():
    with pytest.raises(ValueError, match=r"^unknown preset 'nope'; choose one of: trec_eval, ") as info:
        ndcg_gui.report({"q": {"a": 1.0}}, {"q": {"a": 1}}, preset="nope")
    assert all(name in str(info.value) for name in PRESETS)


def test_a_report_is_under_a_preset_at_k_or_a_measure_of_ones_own():
    run, qrels = {"q": {"a": 2.0, "b": 1.0, "c": 0.5}}, {"q": {"a": 0, "b": 0, "c": 3}}
    text = ndcg_gui.report(run, qrels, k=2, preset="sklearn").html
    same = ndcg_gui.report(run, qrels, measure=PRESETS["sklearn"].at(2)).html
    assert "NDCG@2" in text and text == same
    at10 = ndcg_gui.report(run, qrels).html  # trec_eval's at 10, as before
    assert "NDCG@10" in at10 and PRESETS["trec_eval"].describe() in at10
    with pytest.raises(ValueError, match="a measure, or k and a preset, not both"):
        ndcg_gui.report(run, qrels, measure=Measure(k=2), preset="sklearn")
    with pytest.raises(ValueError, match="measure must be a Measure, not str"):
        ndcg_gui.report(run, qrels, measure="sklearn")


@pytest.mark.parametrize(("compare", "said"), [
    ({"b": None}, "b: is None; expected a run: "),
    ({"b": 42}, "b: a int cannot be read as a run"),
])
def test_a_run_compared_that_is_no_run_is_named(compare, said):
    with pytest.raises(InputError) as info:
        ndcg_gui.report({"q": {"a": 1.0}}, {"q": {"a": 1}}, runs_to_compare=compare)
    assert str(info.value).startswith(said) and "\n" not in str(info.value)


def test_runs_to_compare_must_map_names_to_runs():
    with pytest.raises(ValueError, match=r"runs_to_compare must map names to runs"):
        ndcg_gui.report({"q": {"a": 1.0}}, {"q": {"a": 1}}, runs_to_compare=[{"q": {"a": 2.0}}])


def test_a_run_that_is_none_is_named():
    with pytest.raises(InputError, match=r"^run: is None; expected a run"):
        ndcg_gui.report(None, {"q": {"a": 1}})


def test_a_numpy_array_of_grades_is_grades():
    html = ndcg_gui.report(np.array([3, 2, 3, 0, 1]), k=5)._repr_html_()
    assert "NDCG@5 = <b>0.9724</b>" in html


def test_a_text_of_lines_is_no_path():
    with pytest.raises(InputError, match=r"^run: is a text of several lines, not a file's path: give "
                                         r"a file's content as bytes"):
        ndcg_gui.report("q Q0 a 1 1 t\n", {"q": {"a": 1}})
