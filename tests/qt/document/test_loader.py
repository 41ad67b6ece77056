"""BackgroundLoader: loads off the GUI thread, reports progress, and a cancel or a failure never
delivers data. A slow reader stub stands in for a big file (a real one takes seconds)."""

import functools
import threading
import time

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core.errors import InputError, LoadCancelled
from ndcg_gui.core.lists.rescoring import score
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.reading import load
from ndcg_gui.qt.document.loader import PROCESS_THRESHOLD, BackgroundLoader, LoadResult
from ndcg_gui.qt.document.runner import Runner
from ndcg_gui.qt.widgets.load_progress import LoadProgress

TREC = preset("trec_eval")


class SlowReader:
    """Reads `steps` chunks of `delay` seconds each, checking cancel between chunks like the readers."""

    def __init__(self, steps=20, delay=0.01, honour_cancel=True, error=None):
        self.steps, self.delay = steps, delay
        self.honour_cancel, self.error = honour_cancel, error
        self.calls = []
        self.thread_names = []
        self.gate = threading.Event()  # set by a test to let a waiting reader go on
        self.gate.set()

    def __call__(self, path, qrels=None, cancel=None, progress=None):
        self.calls.append((path, qrels))
        self.thread_names.append(threading.current_thread() is threading.main_thread())
        for i in range(self.steps):
            self.gate.wait(5)
            if self.honour_cancel and cancel():
                raise LoadCancelled()
            time.sleep(self.delay)
            progress((i + 1) / self.steps)
            if self.error is not None and i == self.steps // 2:
                raise self.error
        return {"path": str(path), "qrels": qrels}


def loader_of(**options) -> BackgroundLoader:
    return BackgroundLoader(Runner(), **options)


def loaded_results(loader: BackgroundLoader) -> list:
    """The data of every load that ended with data, as they end."""
    data = []
    loader.task.finished.connect(lambda result: result.loaded and data.append(result.data))
    return data


@pytest.fixture
def make_loader(qtbot):
    loaders = []

    def make(reader):
        loader = loader_of(load=reader)
        loaders.append(loader)
        return loader

    yield make
    for loader in loaders:
        assert loader.wait(5000)


def test_loads_in_a_worker_thread_with_progress(qtbot, make_loader):
    reader = SlowReader()
    loader = make_loader(reader)
    seen = []
    loader.task.progressed.connect(seen.append)
    with qtbot.waitSignal(loader.task.finished, timeout=5000) as blocker:
        loader.start("run.txt", "qrels.txt")
    assert blocker.args == [LoadResult({"path": "run.txt", "qrels": "qrels.txt"}, None)]
    assert reader.thread_names == [False]  # not the GUI thread
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 10
    assert not loader.is_loading()


def test_the_gui_thread_keeps_running_while_loading(qtbot, make_loader):
    reader = SlowReader(steps=30, delay=0.01)
    loader = make_loader(reader)
    fractions = []
    loader.task.progressed.connect(fractions.append)
    loader.start("big.run")
    # Progress arrives through the GUI thread's event loop before the load has ended.
    qtbot.waitUntil(lambda: len(fractions) > 0 and fractions[-1] < 1.0, timeout=5000)
    assert loader.is_loading()
    qtbot.waitSignal(loader.task.finished, timeout=5000).wait()


def test_then_runs_in_the_worker_on_the_loaded_data(qtbot, make_loader):
    loader = make_loader(SlowReader(steps=2))
    where = []

    def then(data):
        where.append(threading.current_thread() is threading.main_thread())
        return ("scored", data["path"])

    with qtbot.waitSignal(loader.task.finished, timeout=5000) as blocker:
        loader.start("run.txt", then=then)
    assert blocker.args == [LoadResult({"path": "run.txt", "qrels": None}, ("scored", "run.txt"))]
    assert where == [False]


def test_cancel_answers_at_once_and_never_delivers(qtbot, make_loader):
    reader = SlowReader(steps=200, delay=0.01)
    loader = make_loader(reader)
    loaded = loaded_results(loader)
    loader.start("big.run")
    qtbot.waitSignal(loader.task.progressed, timeout=5000).wait()
    with qtbot.waitSignal(loader.task.finished, timeout=100) as blocker:
        loader.cancel()
    assert blocker.args == [LoadResult(cancelled=True)]
    assert not loader.is_loading()
    assert loader.wait(5000)  # the worker saw the flag and stopped early
    qtbot.wait(50)
    assert loaded == []


def test_a_late_result_after_cancel_is_dropped(qtbot, make_loader):
    reader = SlowReader(steps=5, delay=0.01, honour_cancel=False)
    reader.gate.clear()
    loader = make_loader(reader)
    loaded, cancelled = loaded_results(loader), []
    loader.task.finished.connect(lambda result: result.cancelled and cancelled.append(True))
    loader.start("big.run")
    loader.cancel()
    reader.gate.set()  # the reader ignores cancel and finishes anyway
    assert loader.wait(5000)
    qtbot.wait(50)
    assert loaded == [] and cancelled == [True]


def test_bad_input_fails_with_the_readers_message(qtbot, make_loader):
    error = InputError('grade "high" is not a number', path="ranking.csv", line=4)
    loader = make_loader(SlowReader(steps=4, error=error))
    with qtbot.waitSignal(loader.task.finished, timeout=5000) as blocker:
        loader.start("ranking.csv")
    assert blocker.args == [LoadResult(problem='ranking.csv:4: grade "high" is not a number')]


def test_an_unexpected_error_is_one_line_not_a_traceback(qtbot, make_loader, caplog):
    loader = make_loader(SlowReader(steps=4, error=RuntimeError("boom")))
    with qtbot.waitSignal(loader.task.finished, timeout=5000) as blocker:
        loader.start("/data/run.txt")
    assert blocker.args == [LoadResult(problem="run.txt: could not be loaded (boom)")]
    assert "Traceback" in caplog.text or any(r.exc_info for r in caplog.records)


def test_a_new_load_replaces_the_one_under_way(qtbot, make_loader):
    reader = SlowReader(steps=100, delay=0.01)
    loader = make_loader(reader)
    loaded = loaded_results(loader)
    loader.start("first.run")
    qtbot.waitSignal(loader.task.progressed, timeout=5000).wait()
    reader.steps = 3
    with qtbot.waitSignal(loader.task.finished, timeout=5000, check_params_cb=lambda r: r.loaded):
        loader.start("second.run")
    qtbot.wait(50)
    assert loaded == [{"path": "second.run", "qrels": None}]


def test_progress_widget_shows_while_loading_and_cancel_button_cancels(qtbot, make_loader):
    loader = make_loader(SlowReader(steps=300, delay=0.01))
    widget = LoadProgress(loader)
    qtbot.addWidget(widget)
    loader.start("/data/big.run")
    assert not widget.isHidden()
    assert widget.label.text() == "Loading big.run…"
    qtbot.waitUntil(lambda: widget.bar.value() > 0, timeout=5000)
    with qtbot.waitSignal(loader.task.finished, timeout=1000, check_params_cb=lambda r: r.cancelled):
        widget.cancel_button.click()
    assert widget.isHidden()


# ---- the loader process (big files): real readers, real files --------------------------------
def write_run(path, queries, docs):
    """A TREC run and qrels of queries x docs lines, quickly."""
    q = np.repeat(np.arange(queries), docs)
    d = np.tile(np.arange(docs), queries)
    lines = pd.DataFrame({"q": q, "z": "Q0", "d": [f"D{i}" for i in d], "r": d + 1,
                          "s": (docs - d).astype(float), "t": "t"})
    lines.to_csv(path, sep=" ", header=False, index=False)
    judged = pd.DataFrame({"q": q[d % 7 == 0], "i": 0, "d": [f"D{i}" for i in d[d % 7 == 0]],
                           "g": (d[d % 7 == 0] // 7) % 3})
    judged.to_csv(path.with_suffix(".qrels"), sep=" ", header=False, index=False)
    return path, path.with_suffix(".qrels")


def test_the_loader_process_gives_the_same_dataset_and_scores(qtbot, tmp_path):
    run, qrels = write_run(tmp_path / "run.txt", 30, 50)
    loader = loader_of(process=True)
    then = functools.partial(score, measure=TREC.with_(k=10))
    with qtbot.waitSignal(loader.task.finished, timeout=30000) as blocker:
        loader.start(run, qrels, then=then)
    dataset, result = blocker.args[0].data, blocker.args[0].extra
    here = load(run, qrels)
    pd.testing.assert_frame_equal(dataset.run, here.run)
    pd.testing.assert_frame_equal(dataset.qrels, here.qrels)
    pd.testing.assert_frame_equal(result, here.evaluate(TREC.with_(k=10, empty="zero")))
    assert dataset.ranked_list("3") == here.ranked_list("3")
    assert loader.wait(5000)


def test_the_loader_process_reports_bad_input(qtbot, tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 a 1 2.0 t\n1 Q0 b 2 high t\n")
    loader = loader_of(process=True)
    with qtbot.waitSignal(loader.task.finished, timeout=30000) as blocker:
        loader.start(bad)
    assert blocker.args[0].problem.startswith("bad.run:2:")
    assert loader.wait(5000)


def test_cancel_ends_the_loader_process(qtbot, tmp_path):
    run, qrels = write_run(tmp_path / "big.txt", 300, 1000)
    loader = loader_of(process=True)
    loaded = loaded_results(loader)
    loader.start(run, qrels)
    qtbot.waitSignal(loader.task.progressed, timeout=30000).wait()
    job = loader._job
    with qtbot.waitSignal(loader.task.finished, timeout=100, check_params_cb=lambda r: r.cancelled):
        loader.cancel()
    assert loader.wait(5000)
    assert not job._process.running()  # the process is gone
    qtbot.wait(50)
    assert loaded == []


def test_big_files_go_to_a_process_small_ones_stay_in_the_thread(tmp_path):
    small, _ = write_run(tmp_path / "small.txt", 2, 5)
    loader = loader_of()
    assert not loader.uses_process(small, None)
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        f.truncate(PROCESS_THRESHOLD)
    assert loader.uses_process(big, None)
    assert not loader_of(load=SlowReader()).uses_process(big, None)


def test_a_frozen_bundle_starts_itself_as_the_worker(monkeypatch):
    import sys

    from ndcg_gui.core.reading import load_worker

    assert load_worker.command() == [sys.executable, "-m", "ndcg_gui.core.reading.load_worker"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert load_worker.command() == [sys.executable, load_worker.WORKER_FLAG]
