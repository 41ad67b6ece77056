"""QueryTableModel and its proxy: shows `evaluate` as it is, sorts on numbers, filters by id and subset."""

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPersistentModelIndex, Qt
from query_samples import sample_frames

from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.qt.models.query_model import (
    COL_DOCS,
    COL_EDITED,
    COL_JUDGED,
    COL_NDCG,
    COL_QUERY,
    EDITED_MARK,
    QUERY_ROLE,
    QueryFilterProxy,
    QueryTableModel,
)

TREC = preset("trec_eval")


@pytest.fixture
def result():
    run, qrels = sample_frames()
    return evaluate(run, qrels, TREC.with_(k=10))


@pytest.fixture
def model(result):
    m = QueryTableModel()
    m.set_result(result, 10)
    return m


@pytest.fixture
def proxy(model):
    p = QueryFilterProxy()
    p.setSourceModel(model)
    return p


def column(model, col, role=Qt.ItemDataRole.DisplayRole):
    return [model.index(r, col).data(role) for r in range(model.rowCount())]


def test_model_passes_qtmodeltester(qtmodeltester, model, proxy):
    qtmodeltester.check(model)
    qtmodeltester.check(proxy)


def test_cells_show_what_evaluate_computed(model, result):
    assert model.rowCount() == len(result)
    assert column(model, COL_QUERY) == list(result.index)
    assert column(model, COL_DOCS) == [str(n) for n in result["n_retrieved"]]
    assert column(model, COL_NDCG) == [f"{v:.4f}" for v in result["ndcg"]]
    assert model.headerData(COL_NDCG, Qt.Orientation.Horizontal) == "NDCG@10"


def test_judged_is_ir_measures_judged_at_k(model, result):
    """The Judged@k column: the share of the first k documents judged, as ir_measures gives it
    (its tie order is not trec_eval's: the sample's scores are distinct at the cut)."""
    import ir_measures

    run, qrels = sample_frames()
    judgments = [ir_measures.Qrel(q, d, int(g)) for q, d, g in qrels.itertuples(index=False)]
    scored = run[["query", "doc", "score"]].itertuples(index=False)
    ranked = [ir_measures.ScoredDoc(q, d, s) for q, d, s in scored]
    measured = ir_measures.judged.iter_calc([ir_measures.Judged @ 10], judgments, ranked)
    want = {m.query_id: m.value for m in measured}
    assert set(want) == set(result.index)
    assert column(model, COL_JUDGED) == [f"{want[q]:.4f}" for q in result.index]
    row = model.row_of(result.index[0])
    tip = model.index(row, COL_JUDGED).data(Qt.ItemDataRole.ToolTipRole)
    first = result.iloc[0]
    depth = min(10, first["n_retrieved"])
    assert tip == f"{first['n_judged']} of the first {depth} documents retrieved are judged"
    condensed = QueryTableModel()
    condensed.set_result(result, 10, condensed=True)
    assert set(column(condensed, COL_JUDGED)) == {"–"}
    header = condensed.headerData(COL_JUDGED, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "condensed" in header


def test_tooltips_explain_undefined_and_empty_queries(model, result):
    undefined = result.index[result["undefined"]][0]
    empty = result.index[result["n_retrieved"] == 0][0]
    tip = model.index(model.row_of(undefined), COL_NDCG).data(Qt.ItemDataRole.ToolTipRole)
    assert "IDCG@10 = 0" in tip
    tip = model.index(model.row_of(empty), COL_NDCG).data(Qt.ItemDataRole.ToolTipRole)
    assert "returned no document" in tip
    ordinary = result.index[~result["undefined"] & (result["n_retrieved"] > 0)][0]
    tip = model.index(model.row_of(ordinary), COL_NDCG).data(Qt.ItemDataRole.ToolTipRole)
    assert f"{result.loc[ordinary, 'dcg']:.4f} / {result.loc[ordinary, 'idcg']:.4f}" in tip


def test_worst_first_is_one_sort_on_ndcg(proxy, result):
    proxy.sort(COL_NDCG, Qt.SortOrder.AscendingOrder)
    shown = [proxy.index(r, COL_NDCG).data(QUERY_ROLE) for r in range(proxy.rowCount())]
    values = result.loc[shown, "ndcg"].to_numpy()
    assert np.all(np.diff(values) >= 0)
    assert values[0] == result["ndcg"].min()


def test_counts_sort_as_numbers_not_text(proxy, result):
    proxy.sort(COL_DOCS, Qt.SortOrder.DescendingOrder)
    shown = [int(proxy.index(r, COL_DOCS).data()) for r in range(proxy.rowCount())]
    assert shown == sorted(result["n_retrieved"], reverse=True)
    proxy.sort(COL_JUDGED, Qt.SortOrder.AscendingOrder)
    shown = [float(proxy.index(r, COL_JUDGED).data()) for r in range(proxy.rowCount())]
    depth = np.minimum(result["n_retrieved"], 10)
    shares = np.where(depth > 0, result["n_judged"] / depth.clip(1), 0)
    assert shown == pytest.approx(sorted(shares), abs=5e-5)


def test_query_ids_sort_naturally(qtbot):
    frame = pd.DataFrame(
        {"query": ["q10", "q2", "q1"], "doc": ["a", "b", "c"], "grade": [1.0, 0.0, 2.0]}
    )
    model = QueryTableModel()
    model.set_result(evaluate(frame, measure=Measure(k=5)), 5)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(COL_QUERY, Qt.SortOrder.AscendingOrder)
    assert [proxy.index(r, COL_QUERY).data() for r in range(3)] == ["q1", "q2", "q10"]


def test_filter_by_id_text_and_by_subset(proxy):
    proxy.set_text(" 41")
    shown = {proxy.index(r, COL_QUERY).data() for r in range(proxy.rowCount())}
    assert shown == {f"41{i}" for i in range(10)}
    proxy.set_subset(["405", "412", "415"])
    assert {proxy.index(r, COL_QUERY).data() for r in range(proxy.rowCount())} == {"412", "415"}
    proxy.set_text("")
    assert proxy.rowCount() == 3
    proxy.set_subset(None)
    assert proxy.rowCount() == proxy.sourceModel().rowCount()


def test_rescore_keeps_rows_and_selection_and_renames_the_header(qtbot, model, result):
    keep = QPersistentModelIndex(model.index(3, COL_QUERY))
    changed = []
    model.dataChanged.connect(lambda a, b: changed.append((a.row(), b.row())))
    with qtbot.assertNotEmitted(model.modelReset), qtbot.waitSignal(model.headerDataChanged):
        model.set_result(evaluate(*sample_frames(), TREC.with_(k=5)), 5)
    assert keep.isValid() and keep.row() == 3
    assert changed == [(0, model.rowCount() - 1)]
    assert model.headerData(COL_NDCG, Qt.Orientation.Horizontal) == "NDCG@5"
    assert column(model, COL_NDCG) != [f"{v:.4f}" for v in result["ndcg"]]


def test_other_queries_reset_the_model(qtbot, model, result):
    with qtbot.waitSignal(model.modelReset):
        model.set_result(result.iloc[:5], 10)
    assert model.rowCount() == 5
    assert model.row_of(result.index[7]) == -1


def test_edited_queries_are_marked_and_sort_first(qtbot, model, proxy):
    with qtbot.waitSignal(model.dataChanged):
        model.set_edited({"405", "420"})
    marks = dict(zip(column(model, COL_QUERY), column(model, COL_EDITED), strict=True))
    assert {q for q, m in marks.items() if m == EDITED_MARK} == {"405", "420"}
    assert all(m in ("", EDITED_MARK) for m in marks.values())
    assert model.index(model.row_of("405"), COL_NDCG).data(Qt.ItemDataRole.FontRole).bold()
    proxy.sort(COL_EDITED, Qt.SortOrder.DescendingOrder)
    assert {proxy.index(r, COL_QUERY).data() for r in range(2)} == {"405", "420"}
    with qtbot.assertNotEmitted(model.dataChanged):
        model.set_edited(["420", "405"])


def test_an_edit_repaints_only_its_querys_row(qtbot, model, result):
    """One query rescored, or marked edited: one row signalled, so a sorting proxy over thousands
    of queries moves that row only."""
    changed = []
    model.dataChanged.connect(lambda a, b: changed.append((a.row(), b.row())))
    rescored = result.copy()
    rescored.loc["407", "ndcg"] = 0.123
    model.set_result(rescored, 10)
    row = model.row_of("407")
    assert changed == [(row, row)]
    changed.clear()
    model.set_edited({"407"})
    assert changed == [(row, row)]


def test_a_sorted_proxy_follows_rescores_and_edited_marks(model, proxy, result):
    """The proxy compares cached sort keys: they must be fresh after every change of the model."""
    def order():
        return [proxy.index(r, COL_QUERY).data() for r in range(proxy.rowCount())]

    proxy.sort(COL_NDCG, Qt.SortOrder.AscendingOrder)
    assert order()[0] == result["ndcg"].idxmin()
    best = result["ndcg"].idxmax()
    rescored = result.copy()
    rescored.loc[best, "ndcg"] = -1.0  # now the worst
    model.set_result(rescored, 10)
    assert order()[0] == best
    proxy.sort(COL_EDITED, Qt.SortOrder.DescendingOrder)
    model.set_edited({"418"})
    assert order()[0] == "418"
    proxy.sort(COL_QUERY, Qt.SortOrder.AscendingOrder)
    assert order() == sorted(result.index, key=int)


def test_a_sorted_proxy_stays_sorted_when_several_rows_change(model, proxy, result):
    rng = np.random.default_rng(3)
    proxy.sort(COL_NDCG, Qt.SortOrder.AscendingOrder)
    for _ in range(20):
        rescored = result.copy()
        some = rng.choice(len(result), size=10, replace=False)
        rescored.iloc[some, rescored.columns.get_loc("ndcg")] = rng.random(10)
        model.set_result(rescored, 10)
        shown = [rescored.loc[proxy.index(r, COL_QUERY).data(), "ndcg"] for r in range(proxy.rowCount())]
        assert shown == sorted(shown)


def natural_rank(queries):
    """Each id's place in natural order, computed independently of `natural_order` (ids of digits,
    as in the sample: by value)."""
    return pd.Series(queries).astype(int).rank(method="first").to_numpy()


@pytest.mark.parametrize("col", [COL_EDITED, COL_QUERY, COL_DOCS, COL_JUDGED, COL_NDCG])
@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
def test_sorted_by_the_model_as_pandas_sorts_ties_in_natural_order(model, proxy, result, col, order):
    """The model sorts (numpy); the proxy keeps its order. Against pandas' sort of the frame with
    the natural query order as the tie-break."""
    model.set_edited({"405", "420", "411"})
    proxy.sort(col, order)
    assert proxy.sortColumn() == col and proxy.sortOrder() == order
    frame = pd.DataFrame({
        COL_EDITED: [int(q in {"405", "420", "411"}) for q in result.index],
        COL_QUERY: natural_rank(result.index),
        COL_DOCS: result["n_retrieved"].to_numpy(),
        COL_JUDGED: np.where(result["n_retrieved"] > 0,
                             result["n_judged"] / np.minimum(result["n_retrieved"], 10).clip(1), 0.0),
        COL_NDCG: result["ndcg"].to_numpy(),
        "natural": natural_rank(result.index),
    }, index=result.index)
    ascending = order == Qt.SortOrder.AscendingOrder
    want = list(frame.sort_values([col, "natural"], ascending=[ascending, True], kind="stable").index)
    assert [proxy.index(r, COL_QUERY).data() for r in range(proxy.rowCount())] == want
    assert column(model, COL_QUERY) == want  # the model itself holds the rows in that order
    assert [model.row_of(q) for q in want] == list(range(len(want)))


def test_a_query_moving_to_its_place_stays_selected(qtbot, model, proxy, result):
    """A rescore that moves a row re-sorts once (a layout change, no reset) and carries the
    persistent indexes (a view's selection and current row) along."""
    proxy.sort(COL_NDCG, Qt.SortOrder.AscendingOrder)
    best = result["ndcg"].idxmax()
    keep = QPersistentModelIndex(proxy.mapFromSource(model.index(model.row_of(best), COL_NDCG)))
    rescored = result.copy()
    rescored.loc[best, "ndcg"] = -1.0
    with qtbot.assertNotEmitted(model.modelReset), qtbot.waitSignal(model.layoutChanged):
        model.set_result(rescored, 10)
    assert keep.isValid() and keep.row() == 0 and keep.data(QUERY_ROLE) == best
    with qtbot.assertNotEmitted(model.layoutChanged):  # same order: no re-sort
        model.set_result(rescored, 10)
    with qtbot.assertNotEmitted(model.layoutChanged):  # sorted on NDCG: a mark moves nothing
        model.set_edited({best})


def test_filtered_rows_keep_the_models_order(model, proxy, result, monkeypatch):
    proxy.sort(COL_NDCG, Qt.SortOrder.DescendingOrder)
    unfiltered = column(model, COL_QUERY)
    # Each keystroke in the filter box cuts the order down: no sort of every id again (~60 ms a
    # keystroke at 500,000 queries sorted by NDCG).
    sorts = []
    argsort = np.argsort
    monkeypatch.setattr(np, "argsort", lambda keys, **kw: (sorts.append(1), argsort(keys, **kw))[1])
    for typed in ("4", "41", "4", ""):
        proxy.set_text(typed)
        shown = [proxy.index(r, COL_QUERY).data() for r in range(proxy.rowCount())]
        assert shown == [q for q in unfiltered if typed in q]
    assert sorts == []
    model.set_result(result.assign(ndcg=result["ndcg"][::-1].to_numpy()), 10)  # other figures: sorted anew
    assert sorts and column(model, COL_QUERY) != unfiltered


def test_longest_queries_are_the_ids_a_view_measures(qtbot):
    frame = pd.DataFrame({"query": ["q10", "query-long", "q2", "q-1000"], "doc": list("abcd"),
                          "grade": [1.0, 0.0, 2.0, 1.0]})
    model = QueryTableModel()
    model.set_result(evaluate(frame, measure=Measure(k=5)), 5)
    model.set_edited(["q-1000"])
    assert model.longest_queries(2) == [("query-long", False), ("q-1000", True)]
    assert {t for t, _bold in model.longest_queries(10)} == {"q10", "query-long", "q2", "q-1000"}


@pytest.mark.parametrize("dict_rows", [10_000, 0])
def test_rows_are_found_the_same_with_or_without_the_dict(qtbot, model, result, monkeypatch, dict_rows):
    """Past DICT_ROWS queries a row is found by a scan of the ids (making a dict of 500,000 took
    150 ms of the frame that shows them): the same rows, sorted or not, and an edited mark repaints
    its row either way."""
    from ndcg_gui.qt.models import query_model

    monkeypatch.setattr(query_model, "DICT_ROWS", dict_rows)
    fresh = QueryTableModel()
    fresh.set_result(result, 10)
    fresh.sort(COL_NDCG, Qt.SortOrder.AscendingOrder)
    for query in result.index:
        assert fresh.index(fresh.row_of(query), COL_QUERY).data() == query
    assert fresh.row_of("no such query") == -1
    with qtbot.waitSignal(fresh.dataChanged, check_params_cb=lambda a, b, *_: a.row() == b.row()
                          == fresh.row_of("405")):
        fresh.set_edited({"405"})


@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
def test_equal_figures_keep_the_natural_order_of_their_ids(proxy, model, order):
    """Sorted by a figure, queries with the same figure come in the ids' natural order (2, 9, 10,
    q2, q10), whatever order the result holds them in and whichever way the column is sorted."""
    ids = ["q10", "10", "b", "2", "q2", "9", "a"]
    ndcg = [0.5, 0.5, 0.25, 0.5, 0.5, 0.5, 0.25]
    frame = pd.DataFrame({"n_retrieved": 3, "n_judged": 2, "n_unjudged": 1, "n_relevant": 1,
                          "n_rel_ret": 1, "dcg": ndcg, "idcg": 1.0, "ndcg": ndcg, "undefined": False},
                         index=pd.Index(ids, name="query"))
    model.set_result(frame, 10)
    proxy.sort(COL_NDCG, order)
    shown = column(model, COL_QUERY)
    half, quarter = ["2", "9", "10", "q2", "q10"], ["a", "b"]
    assert shown == (quarter + half if order == Qt.SortOrder.AscendingOrder else half + quarter)
