"""`core.sql.engine_dataset.EngineDataset`: a Parquet run and its qrels read where they lie answer
as the same files loaded in memory (`core.reading.load`'s `FrameDataset`) do — the queries in the
same order, each query's list (read with `WHERE query = ?`), every query's scores (DuckDB's) —
checked by hypothesis over small random files with tied scores, unjudged documents, judged
documents not retrieved, queries without judgments and judged queries without results."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core import PRESETS, Measure
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.reading import load
from ndcg_gui.core.sql.engine_dataset import NotInMemory, open_engine, refusal
from ndcg_gui.core.state.workspace import Workspace

pytest.importorskip("duckdb")

DEFINITIONS = [preset(p).with_(k=k, ties=ties) for p in sorted(PRESETS) for k in (1, 3, 10)
               for ties in ("trec", "file", "average")
               if refusal(preset(p).with_(k=k, ties=ties)) is None]


@st.composite
def files(draw) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(run, qrels) rows: scores from a few values (ties), grades 0-3, some documents judged but
    not retrieved, some queries unjudged, one judged without results."""
    n_queries = draw(st.integers(1, 6))
    names = draw(st.permutations([f"q{i}" for i in range(n_queries)]))
    run, qrels = [], []
    for q in names:
        n = draw(st.integers(0, 8))
        for d in draw(st.permutations(range(n))):
            run.append((q, f"d{d}", draw(st.sampled_from([0.0, 0.5, 0.5, 1.0, 2.0]))))
        judged = draw(st.lists(st.tuples(st.integers(0, n + 2), st.integers(0, 3)), max_size=n + 3,
                               unique_by=lambda t: t[0]))
        qrels += [(q, f"d{d}", g) for d, g in judged]
    if not run:
        run.append(("q0", "d0", 1.0))
    if not qrels:
        qrels.append((run[0][0], run[0][1], 1))
    return (pd.DataFrame(run, columns=["query", "doc", "score"]),
            pd.DataFrame(qrels, columns=["query", "doc", "grade"]))


TREC = Measure(k=10)


def _both(folder: Path, run: pd.DataFrame, qrels: pd.DataFrame, definition: Measure = TREC,
          qrels_as: str = "parquet"):
    """The files loaded in memory and opened through DuckDB; the qrels as Parquet or TREC text."""
    run_path = folder / "run.parquet"
    run.to_parquet(run_path, index=False)
    if qrels_as == "trec":
        qrels_path = folder / "qrels.txt"
        qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    else:
        qrels_path = folder / "qrels.parquet"
        qrels.to_parquet(qrels_path, index=False)
    return load(run_path, qrels_path), open_engine(str(run_path), str(qrels_path), definition)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files(), st.sampled_from(DEFINITIONS), st.sampled_from(["parquet", "trec"]))
def test_an_engine_dataset_answers_as_the_loaded_files(rows, definition, qrels_as):
    with tempfile.TemporaryDirectory() as folder:
        memory, engine = _both(Path(folder), *rows, definition, qrels_as)
        assert engine.qrels_path == memory.qrels_path  # (the file named, not the copy read)
        assert engine.queries() == memory.queries()
        assert engine.unjudged_queries() == memory.unjudged_queries()
        assert engine.queries_without_results() == memory.queries_without_results()
        assert engine.answered_queries() == memory.answered_queries()
        for query in memory.queries():
            assert engine.ranked_list(query) == memory.ranked_list(query)
        with pytest.raises(KeyError):
            engine.ranked_list("no such query")
        want = memory.evaluate(definition)
        got = engine.evaluate(definition)
        if definition.ties == "average":
            # Which rows of a tie that straddles k count as within k (n_judged, n_unjudged): the
            # engine (as `core.ndcg.evaluate.evaluate`) takes them in file order, a loaded dataset in
            # trec_eval's order; the NDCG is the same (tied rows share their mean gain).
            got, want = (t.drop(columns=["n_judged", "n_unjudged"]) for t in (got, want))
        pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=0, atol=1e-12)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files(), st.data())
def test_edited_lists_lie_over_the_file_and_are_what_is_saved(rows, data):
    with tempfile.TemporaryDirectory() as folder:
        memory, engine = _both(Path(folder), *rows)
        query = data.draw(st.sampled_from(memory.queries()))
        lst = engine.ranked_list(query)
        edited = dataclasses.replace(lst, docs=lst.docs[::-1], grades=lst.grades[::-1],
                                     scores=None if lst.scores is None else lst.scores[::-1],
                                     origin=None if lst.origin is None else lst.origin[::-1])
        ws_memory = Workspace.of(memory).with_list(query, edited)
        ws_engine = Workspace.of(engine).with_list(query, edited)
        assert ws_engine.edited_queries() == ws_memory.edited_queries()
        d = Measure(k=10)
        pd.testing.assert_frame_equal(ws_engine.evaluate(), ws_memory.evaluate(), check_dtype=False,
                                      check_index_type=False, rtol=0, atol=1e-12)
        saved = ws_engine.for_saving().edited_only()
        if edited == lst:  # (a list of one document, or all alike, reversed is itself)
            assert saved is None
            return
        assert saved.queries() == [query]
        assert saved.ranked_list(query).docs.tolist() == edited.docs.tolist()
        want = ws_memory.evaluate()
        if query in want.index:  # (a query without judgments is not scored)
            got = saved.evaluate(Measure(k=d.k)).loc[query, "ndcg"]
            assert got == pytest.approx(want.loc[query, "ndcg"], abs=1e-12)


def test_no_question_reads_every_row(tmp_path):
    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "x"], "score": [1.0, 0.5, 1.0]})
    qrels = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "x"], "grade": [1, 2]})
    _, engine = _both(tmp_path, run, qrels)
    for ask in (lambda: engine.run, lambda: engine.qrels, lambda: engine.with_qrels(None)):
        with pytest.raises(NotInMemory, match=r"\.parquet: is scored by DuckDB|judgments are its qrels"):
            ask()
    assert not engine.in_memory and engine.row_count() == 3 + 2
    assert Workspace.of(engine).size() == 5


def test_a_run_with_a_missing_score_is_one_line_naming_the_file(tmp_path):
    run = pd.DataFrame({"query": ["a", "a"], "doc": ["x", "y"], "score": [1.0, np.nan]})
    qrels = pd.DataFrame({"query": ["a"], "doc": ["x"], "grade": [1]})
    with pytest.raises(InputError) as caught:
        _both(tmp_path, run, qrels)
    said = str(caught.value)
    assert "run.parquet" in said and "score" in said and "\n" not in said


def test_a_definition_sql_cannot_express_is_refused_in_one_line(tmp_path):
    run = pd.DataFrame({"query": ["a"], "doc": ["x"], "score": [1.0]})
    qrels = pd.DataFrame({"query": ["a"], "doc": ["x"], "grade": [1]})
    # (every preset is SQL: a discount table is a choice the SQL does not express)
    odd = Measure(k=3, discount=(1.0, 0.5, 0.25))
    assert refusal(odd) is not None and all(refusal(preset(p).with_(k=3)) is None for p in PRESETS)
    with pytest.raises(InputError, match="too big to load, and the SQL engines cannot"):
        _both(tmp_path, run, qrels, odd)
    _, engine = _both(tmp_path, run, qrels)
    assert engine.refuses(odd) == refusal(odd) and engine.refuses(Measure(k=10)) is None


def test_which_files_the_window_opens_through_duckdb(tmp_path, monkeypatch):
    from ndcg_gui.core.sql.inputs import (
        ENGINE_ABOVE,
        WINDOW_SHARE,
        estimate,
        window_engine,
        window_memory_limit,
    )

    run = pd.DataFrame({"query": ["a"] * 50, "doc": [f"d{i}" for i in range(50)], "score": np.arange(50.0)})
    qrels = pd.DataFrame({"query": ["a"], "doc": ["d1"], "grade": [1]})
    run_path, qrels_path = tmp_path / "run.parquet", tmp_path / "qrels.parquet"
    run.to_parquet(run_path)
    qrels.to_parquet(qrels_path)
    (tmp_path / "qrels.txt").write_text("a 0 d1 1\n")
    peak = estimate([str(run_path), str(qrels_path)]).peak
    monkeypatch.delenv(ENGINE_ABOVE, raising=False)
    assert window_engine(str(run_path), str(qrels_path), memory=int(peak / WINDOW_SHARE) - 1)
    assert not window_engine(str(run_path), str(qrels_path), memory=int(peak / WINDOW_SHARE) + 1)
    assert not window_engine(str(run_path), None, memory=1)  # (no judgments: the in-memory reader)
    assert window_engine(str(run_path), str(tmp_path / "qrels.txt"), memory=1)  # text qrels: a copy
    assert not window_engine(str(run_path), str(tmp_path / "*.txt"), memory=1)  # not a glob of text
    assert not window_engine(str(tmp_path / "qrels.txt"), str(qrels_path), memory=1)  # the run: Parquet
    assert window_engine(str(tmp_path / "*.parquet"), str(qrels_path), memory=1 << 50)  # a glob: always
    monkeypatch.setenv(ENGINE_ABOVE, "0")
    assert window_engine(str(run_path), str(qrels_path), memory=1 << 50)
    monkeypatch.setenv(ENGINE_ABOVE, str(peak))
    assert not window_engine(str(run_path), str(qrels_path), memory=1)
    assert window_memory_limit(64 << 30) == "1536MB" and window_memory_limit(4 << 30) == "1024MB"
    monkeypatch.setenv("NDCG_GUI_ENGINE_MEMORY", "2GB")
    assert window_memory_limit() == "2GB"


def test_text_qrels_are_read_once_into_a_copy_kept_beside_them(tmp_path, monkeypatch):
    """TREC qrels beside a Parquet run too big to load: their rows are copied once into a hidden
    Parquet file beside them (a query's judgments are then read by Parquet's statistics), used
    again while the file is unchanged, made anew when it changes; bad lines are named in the text
    file; a folder that takes no file keeps the copy in the temporary folder."""
    from ndcg_gui.core.sql import cache, duckdb_engine

    copies = []
    real = duckdb_engine.copy_rows
    monkeypatch.setattr(cache, "copy_rows", lambda *a, **k: copies.append(a[0]) or real(*a, **k))
    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "x"], "score": [1.0, 0.5, 1.0]})
    qrels = pd.DataFrame({"query": ["a", "b"], "doc": ["y", "x"], "grade": [1, 2]})
    _, engine = _both(tmp_path, run, qrels, qrels_as="trec")
    kept = list(tmp_path.glob(".qrels.txt.ndcg-rows-*.parquet"))
    assert len(kept) == 1 and engine.qrels_input == str(kept[0]) and copies == [str(tmp_path / "qrels.txt")]
    assert engine.evaluate(Measure(k=10)).loc["a", "ndcg"] == pytest.approx(1 / np.log2(3))
    again = open_engine(str(tmp_path / "run.parquet"), str(tmp_path / "qrels.txt"), TREC)
    assert again.qrels_input == str(kept[0]) and len(copies) == 1
    _, changed = _both(tmp_path, run, qrels.assign(doc=["x", "x"]), qrels_as="trec")
    assert len(copies) == 2 and changed.evaluate(Measure(k=10)).loc["a", "ndcg"] == 1.0
    assert list(tmp_path.glob(".qrels.txt.ndcg-rows-*")) == [Path(changed.qrels_input)]  # (old one gone)
    assert changed.ranked_list("a").grades.tolist()[0] == 1.0  # (x judged now; y no longer)

    (tmp_path / "qrels.txt").write_text("a 0 x 1\nb 0 x\n")
    with pytest.raises(InputError) as caught:
        open_engine(str(tmp_path / "run.parquet"), str(tmp_path / "qrels.txt"), TREC)
    assert str(caught.value).startswith("qrels.txt:2: ") and "\n" not in str(caught.value)

    shut = tmp_path / "shut"
    shut.mkdir()
    (shut / "qrels.txt").write_text("a 0 y 3\n")
    monkeypatch.setattr(cache.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(cache.os, "access", lambda path, mode: Path(path) != shut)
    engine = open_engine(str(tmp_path / "run.parquet"), str(shut / "qrels.txt"), TREC)
    assert Path(engine.qrels_input).parent == tmp_path / "tmp" and not list(shut.glob(".*"))
    assert engine.ranked_list("a").grades.tolist()[1] == 3.0


def test_a_list_read_from_a_file_gone_since_is_one_line_and_at_hand_says_what_is_read(tmp_path):
    """A list is read when asked (`at_hand` False until then: the window reads it in the
    background); a run file removed after it was opened is one line naming it, not DuckDB's error."""
    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "z"], "score": [2.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "z"], "grade": [1, 2]})
    _memory, engine = _both(tmp_path, run, qrels)
    first, other = engine.queries()
    assert engine.at_hand(first) and not engine.at_hand(other)  # (the first list: read at open)
    assert engine.at_hand("no such query")  # (answered at once: KeyError)
    (tmp_path / "run.parquet").unlink()
    with pytest.raises(InputError) as caught:
        engine.ranked_list(other)
    said = str(caught.value)
    assert said.startswith(f"run.parquet: query {other} could not be read: IO Error")
    assert "\n" not in said and not engine.at_hand(other)


def test_the_ids_an_open_dataset_keeps_are_not_walked_by_the_garbage_collector(tmp_path):
    """Lists and sets of 500,000 query ids made each of Python's full collections walk every id
    (160-220 ms in the window, a frame): the queries an engine dataset and its states keep are
    tuples and dicts of texts, which the collector does not track."""
    import gc

    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "x"], "score": [1.0, 0.5, 1.0]})
    qrels = pd.DataFrame({"query": ["a", "c"], "doc": ["x", "x"], "grade": [1, 2]})
    _, engine = _both(tmp_path, run, qrels)
    state = Workspace.of(engine)
    assert state.queries() == engine.queries() and state.has_query("c") and not state.has_query("z")
    gc.collect()
    kept = [*engine._order, engine._queries, state._queries, state._shown, state._known]
    assert [gc.is_tracked(x) for x in kept] == [False] * len(kept)


def test_copies_of_two_qrels_of_one_name_are_kept_apart_and_a_cancelled_copy_leaves_nothing(
        tmp_path, monkeypatch):
    """Copies in the temporary folder of `a/qrels.txt` and `b/qrels.txt` are not each other's older
    copy (the one made second removed the first); a copy stopped by Cancel leaves no part file."""
    from ndcg_gui.core.sql import cache, duckdb_engine
    from ndcg_gui.core.sql.progress import Cancelled

    shared = tmp_path / "tmp"
    shared.mkdir()
    monkeypatch.setattr(cache.tempfile, "gettempdir", lambda: str(shared))
    monkeypatch.setattr(cache.os, "access", lambda path, mode: Path(path) == shared)
    made = []
    for folder, grade in (("a", 1), ("b", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "qrels.txt").write_text(f"q 0 d {grade}\n")
        made.append(Path(cache.parquet_rows(str(tmp_path / folder / "qrels.txt"), "qrels")))
    assert made[0] != made[1] and all(p.parent == shared and p.is_file() for p in made)
    assert [pd.read_parquet(p)["grade"].tolist() for p in made] == [[1.0], [2.0]]

    def stopped(*_):  # (the copy written, then stopped before it is renamed into place)
        raise Cancelled

    monkeypatch.setattr(duckdb_engine.os, "replace", stopped)
    (tmp_path / "c.txt").write_text("q 0 d 1\n")
    with pytest.raises(Cancelled):
        cache.parquet_rows(str(tmp_path / "c.txt"), "qrels")
    assert sorted(p.name for p in shared.iterdir()) == sorted(p.name for p in made)


def test_an_edited_querys_list_as_loaded_is_kept_however_many_lists_are_read_after(tmp_path, monkeypatch):
    """Every notice compares an edited list with the file's (is the document clean?): once arrow
    keys had read more lists than are kept, that list was read again, on the GUI thread, each time."""
    from ndcg_gui.core.sql import engine_dataset

    monkeypatch.setattr(engine_dataset, "MEMO", 2)
    queries = [f"q{i}" for i in range(6)]
    run = pd.DataFrame({"query": queries, "doc": ["d"] * 6, "score": [1.0] * 6})
    qrels = pd.DataFrame({"query": queries, "doc": ["d"] * 6, "grade": [1] * 6})
    _, engine = _both(tmp_path, run, qrels)
    state = Workspace.of(engine)
    original = state.original("q1")
    state = state.with_list("q1", RankedList.from_grades([0.0], query="q1"))  # (an edit)
    for q in queries[2:]:
        state.original(q)  # (read ahead, past what is kept)
    reads = []
    real = engine_dataset.read_list
    monkeypatch.setattr(engine_dataset, "read_list", lambda *a, **k: reads.append(a[2]) or real(*a, **k))
    assert state.original("q1") == original and state.edited_queries() == ["q1"] and reads == []


def test_an_edit_reads_nothing_and_its_list_is_kept_once_a_worker_reads_it(tmp_path, monkeypatch):
    """`Workspace.with_list` runs on the window's GUI thread: it reads no list (a read of a big file
    froze the window); the edited query's list as loaded is kept once read (`read_edited`, run by
    the window's workers), and one that cannot be read is left for when its query is shown."""
    from ndcg_gui.core.sql import engine_dataset

    monkeypatch.setattr(engine_dataset, "MEMO", 2)
    queries = [f"q{i}" for i in range(6)]
    run = pd.DataFrame({"query": queries, "doc": ["d"] * 6, "score": [1.0] * 6})
    qrels = pd.DataFrame({"query": queries, "doc": ["d"] * 6, "grade": [1] * 6})
    _, engine = _both(tmp_path, run, qrels)
    reads, real = [], engine_dataset.read_list

    def read_list(run, qrels, query, memory_limit=None):
        reads.append(query)
        if query == "q5":
            raise InputError("could not be read", run)
        return real(run, qrels, query, memory_limit)

    monkeypatch.setattr(engine_dataset, "read_list", read_list)
    state = Workspace.of(engine).with_list("q3", RankedList.from_grades([0.0], query="q3"))
    assert reads == [] and not engine.at_hand("q3")
    state.read_edited()
    for q in queries[:5]:
        state.read_all(q)  # (queries picked, past what is kept)
    assert engine.at_hand("q3") and reads.count("q3") == 1
    state = state.with_list("q5", RankedList.from_grades([0.0], query="q5"))
    state.read_edited()  # (q5's list cannot be read: said when q5 is shown)
    assert not engine.at_hand("q5") and reads.count("q5") == 1
