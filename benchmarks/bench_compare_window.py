"""The run comparison in the window (issue 13): adding a run, and a row move while two runs are
compared next to the same move with no run compared (the peer, in the same process).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_compare_window.py          # 2,000 x 1,000
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_compare_window.py --quick  # 200 x 100
    ... --at-once: the moves start as soon as the run is added, while its background work runs

Data: a seeded TREC run of 2,000 queries x 1,000 documents (scores with two decimals, so ties), a
second run of the same topics (the first rescored with noise) and qrels with 300 judgments per
query, written to a temporary folder and opened as a person would (File ▸ Open run with qrels, then
File ▸ Add run to compare). Times:

- add: `RunCompare.add_run` (reading the second run against the qrels, scoring both runs, the
  statistics with 10,000 draws, the panel's columns, scatter and side-by-side lists), one sample;
- move: `Document.move_rows` of the open query and the event processing that repaints it, median
  of interleaved samples, with the second run compared and with no run compared (the peer);
  then moves that change the query's NDCG (a relevant document to the top and back), compared;
- statistics: what an edit that changes the open query's NDCG leaves for a moment later
  (`RunComparison.flush`: one `Comparison.with_scores`), median.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from ndcg_gui.qt.app import make_application
from ndcg_gui.qt.window.main_window import MainWindow


def write_files(folder: Path, queries: int, docs: int, judged: int) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(0)
    q = np.repeat(np.arange(queries), docs)
    d = np.tile(np.arange(docs), queries)
    a = np.round(rng.random(queries * docs) * 30, 2)
    b = np.round(a + rng.normal(0, 3, len(a)), 2)
    paths = []
    for name, scores in (("first.run", a), ("second.run", b)):
        order = np.lexsort((-scores, q))
        lines = [f"{q[i]} Q0 D{q[i]}-{d[i]} {r} {scores[i]:.2f} {name[:-4]}"
                 for r, i in zip(np.tile(np.arange(1, docs + 1), queries), order, strict=True)]
        path = folder / name
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    rows = []
    for query in range(queries):
        for doc in rng.choice(docs + docs // 3, judged, replace=False):
            rows.append(f"{query} 0 D{query}-{doc} {int(rng.choice([0, 0, 0, 1, 2, 3]))}")
    qrels = folder / "qrels"
    qrels.write_text("\n".join(rows) + "\n")
    return paths[0], paths[1], qrels


def settle(app: QApplication) -> None:
    for _ in range(5):
        app.processEvents()


def quiet(window: MainWindow) -> float:
    """Process events until the window's background work after a change is done (the input
    checks of a big file, the comparison's verdicts under tie orders; run on a version without
    them, nothing to wait for); the seconds it took."""
    app, start = QApplication.instance(), time.perf_counter()
    for name in ("input_checks", "comparison_ties"):
        part = getattr(window, name, None)
        if part is not None:
            part.wait(120)
    settle(app)
    return time.perf_counter() - start


def time_moves(window: MainWindow, rounds: int) -> list[float]:
    app, doc = QApplication.instance(), window.document
    times = []
    for i in range(rounds):
        first, dest = (3, 0) if i % 2 == 0 else (0, 4)  # down and back
        start = time.perf_counter()
        doc.move_rows(first, 1, dest)
        app.processEvents()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    queries, docs, judged, rounds = (200, 100, 30, 10) if quick else (2_000, 1_000, 300, 40)
    app = make_application()
    folder = Path(tempfile.mkdtemp())
    first, second, qrels = write_files(folder, queries, docs, judged)
    window = MainWindow(settings=QSettings(str(folder / "s.ini"), QSettings.IniFormat))
    window.resize(1280, 800)
    window.show()
    window.files.open(first, qrels, ask=False)
    while window.loader.is_loading():
        app.processEvents()
    settle(app)
    print(f"{queries:,} queries x {docs:,} documents, {judged} judgments per query")

    start = time.perf_counter()
    window.compare.add_run(second)
    while window.compare.loader.is_loading():
        app.processEvents()
    settle(app)
    print(f"add the second run (read, score both, statistics, panel, scatter, lists): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")
    print(f"then the background work (input checks, verdicts under tie orders) for {quiet(window):.1f} s")

    comparing, alone, stats = [], [], []  # stats: ms
    time_moves(window, 4)  # warm-up
    for _ in range(3):  # interleaved: compared, then the peer with no run compared, then back
        comparing += time_moves(window, rounds)
        window.compare.flush()
        window.comparison.remove_run("second")
        settle(app)
        alone += time_moves(window, rounds)
        window.compare.add_run(second)
        while window.compare.loader.is_loading():
            app.processEvents()
        settle(app)
        if "--at-once" not in argv:  # (else the moves share the cores with that work)
            quiet(window)
    # A relevant document below the top moved to the top and back: the NDCG changes each time.
    grades = window.document.current_list().grades
    row = next(i for i in range(3, len(grades)) if grades[i] > 0)
    changing = []  # ms: moves that change the query's NDCG (its scatter point and columns move)
    query = window.document.current_query
    for i in range(rounds):
        before = window.comparison.ndcg.loc[query].copy()
        start = time.perf_counter()
        window.document.move_rows(*((row, 1, 0) if i % 2 == 0 else (0, 1, row + 1)))
        app.processEvents()
        changing.append((time.perf_counter() - start) * 1000)
        assert not window.comparison.ndcg.loc[query].equals(before), "the move changed no NDCG"
    for i in range(rounds):
        window.document.move_rows(*((row, 1, 0) if i % 2 == 0 else (0, 1, row + 1)))
        assert window.comparison._pending, "the move changed no NDCG"
        start = time.perf_counter()
        window.compare.flush()
        stats.append((time.perf_counter() - start) * 1000)
    a, b = statistics.median(comparing), statistics.median(alone)
    p90 = np.percentile(comparing, 90), np.percentile(alone, 90)
    print(f"row move with the second run compared: median {a:.1f} ms (p90 {p90[0]:.1f}); "
          f"with no run compared: {b:.1f} ms (p90 {p90[1]:.1f}); ratio {a / b:.2f}")
    print(f"a move that changes the query's NDCG, with the second run compared: median "
          f"{statistics.median(changing):.1f} ms (p90 {np.percentile(changing, 90):.1f})")
    print("the statistics an edit leaves for a moment later (flush): "
          f"median {statistics.median(stats):.0f} ms")
    window.hide()  # not closed: closing an edited window asks about the unsaved changes
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
