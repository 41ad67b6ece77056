"""Without DuckDB installed, the window says how to get it where it would have used it: a folder or
glob of Parquet files (only DuckDB reads them) is refused naming the install, and a Parquet run too
big to hold is loaded in memory, the progress line saying what would read it where it lies."""

import importlib.util

import pandas as pd
import pytest

from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.qt.document.loader import BackgroundLoader
from ndcg_gui.qt.document.runner import Runner

INSTALL = "pip install 'ndcg-gui[duckdb]'"


@pytest.fixture
def without_duckdb(monkeypatch):
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **kw: None if name == "duckdb" else find_spec(name, *a, **kw))


@pytest.fixture
def parquet(tmp_path):
    run = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "score": [2.0, 1.0, 1.0]})
    (tmp_path / "runs").mkdir()
    run.to_parquet(tmp_path / "runs" / "part-0.parquet")
    run.to_parquet(tmp_path / "run.parquet")
    qrels = pd.DataFrame({"query": ["q1", "q2"], "doc": ["a", "c"], "grade": [1, 2]})
    qrels.to_parquet(tmp_path / "qrels.parquet")
    return tmp_path


def load_told(qtbot, path, qrels, **options):
    """What the loader announced of one load: the started text and its result."""
    loader = BackgroundLoader(Runner(), **options)
    started, results = [], []
    loader.task.started.connect(started.append)
    loader.task.finished.connect(results.append)
    loader.start(path, qrels, measure=preset("trec_eval").at(10))
    qtbot.waitUntil(lambda: bool(results), timeout=30_000)  # (a loader process reads the file)
    return started, results[0]


@pytest.mark.parametrize("pattern", ["runs", "runs/*.parquet"])
def test_a_folder_or_glob_of_parquet_says_to_install_duckdb(qtbot, parquet, without_duckdb, pattern):
    _started, result = load_told(qtbot, str(parquet / pattern), str(parquet / "qrels.parquet"))
    assert not result.loaded
    assert INSTALL in result.problem and "\n" not in result.problem


def test_a_parquet_run_too_big_to_hold_loads_in_memory_saying_what_would_not(
        qtbot, parquet, without_duckdb, monkeypatch):
    monkeypatch.setenv("NDCG_GUI_ENGINE_ABOVE", "0")  # (every Parquet run counts as too big)
    # (read in a loader process, as a file too big to hold is)
    started, result = load_told(qtbot, parquet / "run.parquet", parquet / "qrels.parquet", process=True)
    assert result.loaded and sorted(result.data.queries()) == ["q1", "q2"]
    assert INSTALL in started[0]
