"""The query table of many queries: installed and filtered from arrays worked out over every id at
once (the natural order with the scores, the filter in Arrow's kernels), never a Python call per
row; what it shows and announces is the same as before (rows, order, filter, selection, keys)."""

import threading

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from screen_mirror import ScreenMirror

from ndcg_gui.core.lists import query_order
from ndcg_gui.core.lists.query_order import natural_key
from ndcg_gui.core.ndcg.evaluate import RESULT_COLUMNS
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.qt.models.query_model import COL_NDCG, COL_QUERY, QueryTableModel
from ndcg_gui.qt.widgets.queries.query_panel import QueryPanel


def frame(ids, seed: int = 0) -> pd.DataFrame:
    """A per-query frame of `evaluate`'s columns for these ids (in this order)."""
    rng = np.random.default_rng(seed)
    n = len(ids)
    docs = rng.integers(0, 4, n)
    ndcg = np.where(docs > 0, rng.random(n).round(3), 0.0)
    columns = {"n_retrieved": docs, "n_judged": docs, "n_unjudged": 0 * docs, "n_pool": docs,
               "n_relevant": docs, "dcg": ndcg, "idcg": np.ones(n), "ndcg": ndcg,
               "undefined": np.zeros(n, bool)}
    return pd.DataFrame({c: columns[c] for c in RESULT_COLUMNS},
                        index=pd.Index(ids, dtype=object, name="query"))


def natural(ids) -> list[str]:
    return sorted(ids, key=natural_key)


@pytest.fixture
def panel(qtbot):
    p = QueryPanel()
    qtbot.addWidget(p)
    p.resize(420, 760)
    p.set_result(frame(["1", "2", "3"]), 10)
    p.show()
    qtbot.waitExposed(p)
    return p


@pytest.fixture
def data_calls(monkeypatch):
    """How many times the query table's model was asked for a cell (a view asks only the cells
    it paints)."""
    calls = [0]
    data = QueryTableModel.data

    def counted(self, index, role=Qt.ItemDataRole.DisplayRole):
        calls[0] += 1
        return data(self, index, role)

    monkeypatch.setattr(QueryTableModel, "data", counted)
    return calls


def test_many_queries_install_and_filter_without_asking_every_row(qtbot, panel, data_calls):
    """A filter typed, then a file of 20,000 queries shown, then another filter typed: each asks
    the model for the cells on screen only (Qt's filter asked every row in Python: ~0.5 s at
    500,000), and the table lists the right queries in natural order."""
    n = 20_000
    ids = [str(i) for i in np.random.default_rng(1).permutation(n)]
    panel.filter_edit.setText("12")
    data_calls[0] = 0
    panel.set_result(frame(ids), 10)
    qtbot.wait(10)
    assert data_calls[0] < n // 4
    assert panel.visible_queries() == natural([q for q in ids if "12" in q])
    data_calls[0] = 0
    panel.filter_edit.setText("123")
    qtbot.wait(10)
    assert data_calls[0] < n // 4
    assert panel.visible_queries() == natural([q for q in ids if "123" in q])
    panel.filter_edit.clear()
    assert panel.visible_queries() == natural(ids)


@pytest.mark.parametrize("ids, typed, kept", [
    (["Q41", "q410", "A5", "b41"], "Q4", ["Q41", "q410"]),  # ASCII: Arrow's kernels
    (["STRASSE1", "Straße2", "b", "Ǆ3"], "strasse", ["STRASSE1", "Straße2"]),  # casefolded in Python
    (["STRASSE1", "Straße2", "b", "Ǆ3"], "ǆ", ["Ǆ3"]),
])
def test_the_filter_casefolds_ids_and_text(qtbot, panel, ids, typed, kept):
    panel.set_result(frame(ids), 10)
    panel.filter_edit.setText(typed)
    assert panel.visible_queries() == natural(kept)


def test_filtered_and_sorted_rows_keep_the_selection_and_announce_every_change(qtbot, panel):
    """Sorting either way under a filter (and a histogram-like subset) lists the kept queries in
    order; a query left out has no row but is still the table's; a rescore of the same queries
    announces every cell that changed, those of queries left out having none."""
    ids = [f"q{i}" for i in range(40)]
    panel.set_result(frame(ids, seed=2), 10)
    mirror = ScreenMirror(panel.proxy, "query table")
    panel.filter_edit.setText("q1")
    kept = [q for q in ids if "q1" in q]
    panel.set_current_query("q12")
    for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
        panel.table.sortByColumn(COL_QUERY, order)
        shown = natural(kept)
        assert panel.visible_queries() == (shown[::-1] if order == Qt.SortOrder.DescendingOrder else shown)
        assert panel.current_query() == "q12"
    model = panel.model
    assert model.row_of("q2") == -1 and model.has_query("q2") and not model.has_query("q99")
    panel.proxy.set_subset(["q1", "q12", "q2", "q15"])
    assert panel.visible_queries() == ["q1", "q12", "q15"]
    panel.table.sortByColumn(COL_NDCG, Qt.SortOrder.AscendingOrder)
    rescored = frame(ids, seed=3)
    panel.set_result(rescored, 10)
    values = [rescored.loc[q, "ndcg"] for q in panel.visible_queries()]
    assert sorted(values) == values and sorted(panel.visible_queries()) == ["q1", "q12", "q15"]
    assert mirror.stale_cells() == []
    panel.set_current_query("q2")  # left out: the filters go, so it can be shown
    assert panel.filter_edit.text() == "" and panel.proxy.subset is None
    assert panel.current_query() == "q2" and len(panel.visible_queries()) == len(ids)
    assert mirror.stale_cells() == []


def test_arrow_keys_step_through_the_filtered_rows(qtbot, panel):
    ids = [str(i) for i in range(30)]
    panel.set_result(frame(ids), 10)
    panel.filter_edit.setText("2")
    panel.set_current_query("2")
    picked = []
    panel.querySelected.connect(picked.append)
    panel.table.setFocus()
    for _ in range(3):
        qtbot.keyClick(panel.table, Qt.Key.Key_Down)
    assert picked == ["12", "20", "21"]
    assert panel.query_beside("21", 1) == "22" and panel.query_beside("5", 1) == "2"


def kept_from(monkeypatch, queries: int) -> None:
    """What is worked out for a big result in its worker, for results of `queries` or more."""
    from ndcg_gui.core.analysis import workspace_report

    monkeypatch.setattr(workspace_report, "KEEP_FROM", queries)
    monkeypatch.setattr(query_order, "KEEP_FROM", queries)


def shown_from_the_worker(qtbot, monkeypatch, result, k):
    """A panel showing `result`, with nothing over every query worked out on this thread: the
    natural order and the histogram then come from the worker's."""
    from ndcg_gui.core.ndcg import mean

    def again(*_args):
        raise AssertionError("worked out again on the GUI thread")

    monkeypatch.setattr(query_order, "order_keys", again)
    monkeypatch.setattr(mean, "histogram", again)
    monkeypatch.setattr("ndcg_gui.core.analysis.workspace_report.histogram", again)
    panel = QueryPanel()
    qtbot.addWidget(panel)
    panel.set_result(result, k)
    return panel


def in_worker(work, *args):
    out = []
    worker = threading.Thread(target=lambda: out.append(work(*args)))
    worker.start()
    worker.join()
    return out[0]


def test_a_big_result_a_loader_scored_is_shown_from_what_its_worker_worked_out(qtbot, monkeypatch):
    """Scored in the loader's worker (`score_for_window`), a big table's natural order, mean and
    histogram are worked out there: the panel only takes them."""
    from ndcg_gui.core.analysis.workspace_report import score_for_window
    from ndcg_gui.core.ndcg.mean import histogram

    kept_from(monkeypatch, 10)
    ids = ["q10", "q9", "q100", "a2", "q1", "a10", "q09", "b", "q90", "q19", "a1", "q0"]
    result = frame(ids)
    expected = histogram(result["ndcg"].to_numpy())

    class Scored:
        def evaluate(self, *_args, **_kwargs):
            return result

    scored = in_worker(score_for_window, Scored(), Measure(k=10))
    panel = shown_from_the_worker(qtbot, monkeypatch, scored, 10)
    model = panel.model
    assert [model.query_at(r) for r in range(model.rowCount())] == natural(ids)
    assert panel.histogram.counts.tolist() == expected[1].tolist()
    assert panel.summary.mean == pytest.approx(result["ndcg"].mean())
    model.sort(COL_QUERY, Qt.SortOrder.DescendingOrder)
    assert [model.query_at(r) for r in range(model.rowCount())] == natural(ids)[::-1]
    assert [model.row_of(q) for q in natural(ids)] == list(range(len(ids)))[::-1]


def test_a_big_run_duckdb_scores_again_is_shown_from_what_its_worker_worked_out(qtbot, monkeypatch,
                                                                               tmp_path):
    """Another k on a run DuckDB reads: scored again in the background (`_score_engine`), its
    natural order, mean and histogram worked out there too, not in the frame that shows them."""
    pytest.importorskip("duckdb")
    from engine_samples import write_sample

    from ndcg_gui.core.ndcg.mean import histogram
    from ndcg_gui.core.sql.engine_dataset import open_engine
    from ndcg_gui.core.state.workspace import Workspace
    from ndcg_gui.qt.document.query_scores import _score_engine

    kept_from(monkeypatch, 10)
    run, qrels = write_sample(tmp_path, queries=30)
    state = Workspace.of(open_engine(str(run), str(qrels), Measure(k=10)))
    state = state.with_measure(Measure(k=5))
    result = in_worker(_score_engine, state, lambda *_: True)
    expected = histogram(result["ndcg"].to_numpy())
    panel = shown_from_the_worker(qtbot, monkeypatch, result, 5)
    model = panel.model
    assert [model.query_at(r) for r in range(model.rowCount())] == natural(list(result.index))
    assert panel.histogram.counts.tolist() == expected[1].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_the_few_texts_a_column_is_fitted_to_include_its_longest_cell(seed):
    """`widest_texts` names, among the edited and the other queries, texts of cells the column
    shows, the longest of each group among them (negative figures, -0.0, NaN included)."""
    rng = np.random.default_rng(seed)
    ids = [f"q{i}" for i in range(60)]
    result = frame(ids, seed)
    ndcg = rng.choice([0.5, -0.25, -0.0, np.nan, 1.0, -12.5, 0.0], len(ids))
    result["ndcg"] = ndcg if seed % 2 else np.abs(ndcg)
    result["n_retrieved"] = rng.integers(-5 if seed % 3 else 0, 1000, len(ids))
    model = QueryTableModel()
    model.set_result(result, 10)
    edited = set(rng.choice(ids, 5 * (seed % 3)).tolist())
    model.set_edited(edited)
    for col in (2, 3, 4):
        shown = {(model.index(r, col).data(), model.query_at(r) in edited) for r in range(model.rowCount())}
        named = model.widest_texts(col)
        assert set(named) <= shown
        for bold in (False, True):
            cells = [len(text) for text, b in shown if b == bold]
            assert max((len(t) for t, b in named if b == bold), default=0) == max(cells, default=0)


def test_a_rescore_announces_the_rows_whose_figures_changed_and_no_other(qtbot):
    """Each column compared as it stands (NaN equal to NaN): a change in any figure column is
    announced, the same figures again announce nothing."""
    ids = [f"q{i}" for i in range(12)]
    result = frame(ids)
    result["ndcg"] = result["ndcg"].where(result.index != "q3", np.nan)
    model = QueryTableModel()
    model.sort(COL_QUERY)
    model.set_result(result, 10)
    mirror = ScreenMirror(model, "query table")
    announced = []
    model.dataChanged.connect(lambda a, b: announced.append((a.row(), b.row())))
    model.set_result(result.copy(), 10)
    assert announced == []
    for column, query in (("n_retrieved", "q2"), ("n_judged", "q7"), ("dcg", "q4"), ("idcg", "q9"),
                          ("ndcg", "q3")):
        changed = result.copy()
        changed.loc[query, column] = 0.5 if column == "ndcg" else changed.loc[query, column] + 1
        announced.clear()
        model.set_result(changed, 10)
        row = model.row_of(query)
        assert [(a, b) for a, b in announced if a <= row <= b], column
        assert mirror.stale_cells() == []
        model.set_result(result, 10)


class CountedId(str):
    """A query id that counts how often it is made a plain text (`str(q)`): what a Python test
    per id does."""

    made = 0

    def __str__(self) -> str:
        CountedId.made += 1
        return str.__str__(self)


def test_marking_edited_queries_asks_no_id_one_by_one(qtbot):
    """Edited queries marked (bold, ✎), their figure columns fitted and sorted by the mark, in a
    table of many queries: the edited are found over every id at once, not one id at a time
    (~60 ms at 500,000 for each column fitted after an edit)."""
    n = 5_000
    ids = [CountedId(f"q{i}") for i in range(n)]
    model = QueryTableModel()
    model.set_result(frame(ids), 10)
    announced = []
    model.dataChanged.connect(lambda a, b: announced.append((a.row(), b.row())))
    CountedId.made = 0
    assert model.set_edited(["q7", "q4000"])
    model.widest_texts(4)
    model.sort(0, Qt.SortOrder.DescendingOrder)
    assert CountedId.made < n // 10
    assert announced == [(7, 4000)]  # (their rows then, in the frame's order)
    assert {model.query_at(0), model.query_at(1)} == {"q7", "q4000"}
    assert model.index(0, 0).data() == "✎" and model.index(2, 0).data() == ""
