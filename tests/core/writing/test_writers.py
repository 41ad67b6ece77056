"""Writers: what we write reads back as the same data; writes are atomic and spreadsheet-safe."""

from __future__ import annotations

import csv
import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset_name
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing import atomic, writers

_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# Ids as people write them: any printable text; the reader strips surrounding spaces, so none here.
_TEXT = st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=8)
_CSV_ID = _TEXT.filter(lambda s: s == s.strip() and not s.startswith("\ufeff"))
_TREC_ID = st.text(
    st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp", "Zs")), min_size=1, max_size=8
).filter(lambda s: s == s.strip() and not s.startswith(("#", "\ufeff")) and s.split() == [s])
_GRADE = st.one_of(st.just(np.nan), st.floats(-5, 5, allow_nan=False), st.integers(0, 4).map(float))
_SCORE = st.floats(-1e6, 1e6, allow_nan=False)


@st.composite
def datasets(draw, ids=_CSV_ID, with_scores=None, single_unnamed=True):
    queries = draw(st.lists(ids, min_size=1, max_size=4, unique=True))
    if single_unnamed and draw(st.booleans()):
        queries = [""]
    scored = draw(st.booleans()) if with_scores is None else with_scores
    rows = []
    for q in queries:
        docs = draw(st.lists(ids, min_size=1, max_size=8, unique=True))
        for d in docs:
            rows.append((q, d, draw(_GRADE), draw(_SCORE) if scored else None))
    run = pd.DataFrame(rows, columns=["query", "doc", "grade", "score"])
    if not scored:
        run = run.drop(columns="score")
    return Dataset.of(run.astype({"query": object, "doc": object}))


def same_lists(a: Dataset, b: Dataset, scores: bool = True, ties: str | None = None) -> None:
    """The same lists, row for row; with `ties`, b's lists as that rule ranks them (the order of
    b's tied rows is the measure's to decide, not the reader's)."""
    assert a.queries() == b.queries()
    for q in a.queries():
        x, y = a.ranked_list(q), b.ranked_list(q)
        if ties is not None:
            y = y.ties_ordered(Measure(ties=ties))
        assert list(x.docs) == list(y.docs)
        assert np.array_equal(x.grades, y.grades, equal_nan=True)
        if scores:
            assert (x.scores is None) == (y.scores is None)
            assert x.scores is None or np.array_equal(x.scores, y.scores)


@_SETTINGS
@given(dataset=datasets())
def test_csv_round_trip(tmp_path, dataset):
    path = tmp_path / "lists.csv"
    writers.write_csv(dataset, path)
    same_lists(dataset, load(path))


@_SETTINGS
@given(dataset=datasets(ids=_TREC_ID, single_unnamed=False))
def test_trec_run_and_qrels_round_trip(tmp_path, dataset):
    assume(dataset.run["grade"].notna().any())  # an empty qrels file is refused, rightly
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    writers.write_trec_run(dataset, run_path)
    writers.write_qrels(dataset, qrels_path)
    back = load(run_path, qrels_path)
    judged = dataset.run[~dataset.run["grade"].isna()]
    # Queries without any judgment are not in the qrels; every list keeps the order trec_eval
    # gives it (the writer keeps scores only when they give that order: float32, ties by docno
    # descending). The reader ranks by exact scores, so rows tied as float32 may come back in
    # another order within the list: each list read back is compared as the "trec" rule ranks it
    # (the order trec_eval, and our trec rule, measure), with the same grades row for row.
    assert back.queries()[: len(dataset.queries())] == dataset.queries()
    same_lists(dataset, back, scores=False, ties="trec")
    assert len(back.qrels) == len(judged)


def test_trec_run_keeps_scores_that_already_give_the_order(tmp_path):
    rl = RankedList(docs=["b", "a", "c"], grades=[1, 0, 2], scores=[0.9, 0.9, 0.1], query="q")
    writers.write_trec_run(rl, tmp_path / "run")
    assert (tmp_path / "run").read_text().splitlines() == [
        "q Q0 b 1 0.9 ndcg-gui",
        "q Q0 a 2 0.9 ndcg-gui",
        "q Q0 c 3 0.1 ndcg-gui",
    ]
    edited = rl.moved(2, 1, 0)  # c dragged to the top: its old score would undo the drag
    writers.write_trec_run(edited, tmp_path / "run")
    assert list(load(tmp_path / "run", need_grades=False).ranked_list("q").docs) == ["c", "b", "a"]


def test_trec_run_refuses_ids_it_cannot_write(tmp_path):
    rl = RankedList(docs=["a b"], grades=[1], query="q")
    with pytest.raises(InputError, match='document id "a b" cannot be written'):
        writers.write_trec_run(rl, tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_report_tables_guard_formula_cells_and_saved_lists_do_not(tmp_path):
    """The metrics table is for a spreadsheet: a text cell it would run gets a leading `'`. A saved
    list is data whose ids must match qrels: written as they are (core.writing.csv_writer)."""
    docs = ["=HYPERLINK(x)", "+1x", "-3", "@a", "-x", "ok", "'=q", "\tx"]
    rl = RankedList(docs=docs, grades=[1, 2, -1, 0, 0, 1, 1, 0])
    report, saved = tmp_path / "metrics.csv", tmp_path / "list.csv"
    writers.write_metrics_csv(rl, report)
    with open(report, newline="") as f:
        cells = [row[1] for row in csv.reader(f)][1:]
    assert cells == ["'=HYPERLINK(x)", "'+1x", "-3", "'@a", "'-x", "ok", "'=q", "'\tx"]
    writers.write_csv(rl, saved)
    with open(saved, newline="") as f:
        cells = [row[1] for row in csv.reader(f)][1:]
    assert cells == docs
    assert list(load(saved).ranked_list("").docs) == docs
    assert saved.read_text().splitlines()[3] == "3,-3,-1"  # a negative grade stays a number


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "keep.csv"
    path.write_text("precious\n")

    def explode(*args, **kwargs):  # the bytes went out, but the disk is full when they are synced
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", explode)
    with pytest.raises(InputError, match=r"keep\.csv: cannot write: No space left on device"):
        writers.write_csv(RankedList.from_grades([1, 2]), path)
    assert path.read_text() == "precious\n"
    assert os.listdir(tmp_path) == ["keep.csv"]


def test_writing_into_a_missing_folder_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"out\.csv: cannot write here"):
        writers.write_csv(RankedList.from_grades([1]), tmp_path / "nope" / "out.csv")


def test_replacing_a_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "out.csv"
    path.write_text("old")
    path.chmod(0o640)
    writers.write_csv(RankedList.from_grades([1]), path)
    assert (path.stat().st_mode & 0o777) == 0o640 and "rank,doc,grade" in path.read_text()


def test_metrics_csv_is_the_per_rank_table_with_doc_ids(tmp_path):
    rl = RankedList(docs=["a", "b", "c", "d", "e"], grades=[3, 2, 3, np.nan, 1], has_pool=True, query="q7",
                    unretrieved={"z": 3.0})
    config = Measure(gain="exponential")
    writers.write_metrics_csv(rl, tmp_path / "m.csv", config.with_(k=4))
    table = pd.read_csv(tmp_path / "m.csv")
    expected = rl.metrics(config).iloc[:4]
    assert list(table.columns) == [*expected.columns, "query", "definition"]
    assert set(table["query"]) == {"q7"}
    named = preset_name(config, ignoring_ties=True) or "custom"
    assert set(table["definition"]) == {f"{named}: {config.describe()}"}
    assert table["doc"].tolist() == ["a", "b", "c", "d"]
    assert table["judged"].tolist() == [True, True, True, False]
    assert np.isnan(table["grade"].iloc[3])  # unjudged: an empty cell
    for column in ("gain", "discount", "cg", "dcg", "idcg", "ndcg"):
        assert np.allclose(table[column], expected[column], rtol=0, atol=1e-12)


def test_summary_csv_lists_judged_queries_without_results(tmp_path):
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 c 1 1 t\n")
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 z 2\n3 0 x 1\n")
    dataset = load(run, qrels)
    writers.write_summary_csv(dataset, tmp_path / "s.csv", Measure(k=10))
    table = pd.read_csv(tmp_path / "s.csv", dtype={"query": str})
    assert list(table.columns) == ["query", "n_docs", "n_judged", "dcg", "idcg", "ndcg", "k", "definition"]
    assert table["query"].tolist() == ["1", "3"]  # query 2 has no judgment at all: left out
    assert table["k"].tolist() == [10, 10]
    assert table["definition"].iloc[0].endswith(": " + Measure().describe())  # the default
    one = table.iloc[0]
    assert (one.n_docs, one.n_judged, one.dcg) == (2, 1, 1.0)
    assert one.idcg == pytest.approx(2 + 1 / np.log2(3))
    assert table.iloc[1].tolist()[1:6] == [0, 0, 0.0, 1.0, 0.0]


def test_summary_csv_states_k_and_a_custom_definition_with_its_tie_rule(tmp_path):
    dataset = TypedDataset.of(RankedList.from_grades([2, 0, 1], query="q"))
    config = Measure(gain="exponential", discount="log2")
    writers.write_summary_csv(dataset, tmp_path / "s.csv", config.with_(k=None, ties="average"))
    table = pd.read_csv(tmp_path / "s.csv", dtype={"k": str}, keep_default_na=False)
    assert table["k"].tolist() == [""]  # every rank
    named = preset_name(config, ignoring_ties=True) or "custom"
    assert table["definition"].iloc[0] == f"{named}: {config.describe()}; tied scores: average"


def test_a_reordered_query_gets_new_scores_and_the_others_keep_theirs(tmp_path):
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.writing.writers import write_trec_run

    src = tmp_path / "in.run"
    src.write_text("q1 Q0 a 1 3.5 r\nq1 Q0 b 2 2.25 r\nq2 Q0 c 1 9 r\nq2 Q0 d 2 8 r\n")
    ds = load(src, need_grades=False)
    edited = ds.with_lists({"q1": ds.ranked_list("q1").reordered([1, 0])})
    out = tmp_path / "out.run"
    write_trec_run(edited, out)
    lines = [line.split() for line in out.read_text().splitlines()]
    assert [(f[0], f[2], float(f[4])) for f in lines] == [
        ("q1", "b", 2.0), ("q1", "a", 1.0), ("q2", "c", 9.0), ("q2", "d", 8.0)]
    again = load(out, need_grades=False)
    assert again.ranked_list("q1").docs.tolist() == ["b", "a"]
