"""The window over a Parquet run too big to hold (issue 24): opened through the window's own path
(`FileFlow.open`, as File ▸ Open run with qrels and a drop do), scored by DuckDB in the loader's
worker thread, offscreen at 1366x768.

    .venv/bin/python benchmarks/bench_big_window.py --rows 50000000
    .venv/bin/python benchmarks/bench_big_window.py --rows 500000000 --memory-limit 2GB \\
        --shot /work/wt/shots/bigwin-500m.png

Files: DATA/big-run-ROWS.parquet and DATA/big-qrels-ROWS.parquet (DATA: --data, /work/bigdata).
Two phases, each a fresh process (its own peak memory):
1. first open: the cache of the per-query table for the window's definition moved aside (and put
   back after, ours removed), so DuckDB scores the files: seconds to the query table filled;
   the longest gap between two ticks of a 10 ms QTimer (a frame of the window; goal under 100 ms)
   while the engine works, and in the one pass that installs its result; seconds to show one
   query's list (read with `WHERE query = ?`); the process's peak resident memory (ru_maxrss:
   Python, Qt and DuckDB together);
2. reopen: the same, the per-query table read from the cache the first open wrote (goal < 5 s).
`--phase open` runs one phase in this process (what the parent runs twice). A query's list is
picked as a click picks it: read in the background, timed until shown, with the longest frame
meanwhile. To find a long frame: `--profile FILE` (cProfile of the reopen's install pass, its top
lines on stderr) and `--stalls PREFIX` (every thread's stack whenever the GUI thread misses its
tick by 90 ms: faulthandler's watchdog needs no GIL, so it shows who holds it).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(run: Path, qrels: Path, k: int, shot: str | None, fresh: bool, profile: str | None = None,
            stalls: str | None = None) -> dict:
    """Open the files in a window, offscreen, and time what a person waits for. `profile`: a
    cProfile of the pass that installs the result, to this file (and its top lines on stderr);
    `stalls`: every thread's stack, written to this file whenever the GUI thread misses its tick
    for over 90 ms (faulthandler's watchdog needs no GIL: it sees who holds it)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QSettings, QTimer

    from ndcg_gui.qt.app import make_application

    app = make_application()  # (as the window's start-up makes it)
    if os.environ.get("BENCH_SWITCH_MS"):  # (Python's GIL switch interval, to compare)
        sys.setswitchinterval(float(os.environ["BENCH_SWITCH_MS"]) / 1000)
    from ndcg_gui.qt.widgets import dialogs

    said: list[str] = []  # (a dialog would wait for a click: the problem is printed instead)
    dialogs.show_error = lambda _parent, title, message, details=None: said.append(f"{title}: {message}")
    from ndcg_gui.qt.window.file_flow import FileFlow
    from ndcg_gui.qt.window.main_window import MainWindow

    finished: list[float] = []  # when the loaded result reaches the GUI thread (before it is shown)
    install = FileFlow._loaded

    def loaded(self, *args) -> None:
        finished.append(time.perf_counter())
        if profile is None:
            install(self, *args)
            finished.append(time.perf_counter())  # (the notice handled: the rest is painting)
            return
        import cProfile
        import io
        import pstats

        with cProfile.Profile() as prof:
            install(self, *args)
            app.processEvents()  # (what the install queued for the next pass: layouts, paints)
        prof.dump_stats(profile)
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(40)
        print(text.getvalue(), file=sys.stderr)

    FileFlow._loaded = loaded

    settings = QSettings(str(Path(tempfile.mkdtemp()) / "bench.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings)
    window.resize(1366, 768)
    window.show()
    window.document.set_measure(k=k, undoable=False)
    app.processEvents()
    from ndcg_gui.core.sql.cache import cache_path

    # The cache of the window's definition (its preset, this k): moved aside for a first open.
    cached = cache_path(str(run), str(qrels), window.document.state.measure)
    aside = None
    if fresh and cached is not None and cached.exists():
        aside = cached.with_name(cached.name + ".aside")
        shutil.move(cached, aside)

    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    import faulthandler

    if stalls:
        stall_file = open(stalls, "w")  # noqa: SIM115 (open while the window runs)

        def watch() -> None:
            faulthandler.cancel_dump_traceback_later()
            faulthandler.dump_traceback_later(0.09, repeat=False, file=stall_file)

        timer.timeout.connect(watch)
        timer.destroyed.connect(faulthandler.cancel_dump_traceback_later)

    def wait_until(done) -> None:
        loop = QEventLoop()
        check = QTimer()
        check.setInterval(20)
        check.timeout.connect(lambda: done() and loop.quit())
        check.start()
        loop.exec()
        check.stop()

    timer.start()
    start = time.perf_counter()
    window.files.open(run, qrels, ask=False)
    wait_until(lambda: not window.loader.is_loading())
    if said or not finished:
        raise SystemExit("; ".join(said) or window.files.problem or "the load was cancelled")
    landed = finished[0]
    working = [b - a for a, b in itertools.pairwise(ticks) if b <= landed]
    wait_until(lambda: not window.scores.pending and window.query_panel.model.rowCount() > 0)
    table = time.perf_counter()
    installing = [b - a for a, b in itertools.pairwise(ticks) if b > landed]
    timer.stop()
    faulthandler.cancel_dump_traceback_later()
    if window.files.problem:
        raise SystemExit(window.files.problem)
    doc = window.document
    queries = doc.queries()
    picked = queries[len(queries) // 2]
    # A query picked, as a click in the query table does: its list read in the background.
    ticks.clear()
    timer.start()
    before = time.perf_counter()
    doc.set_current_query(picked)
    wait_until(lambda: doc.reading is None and doc.current_query == picked)
    app.processEvents()
    shown = time.perf_counter() - before
    timer.stop()
    reading = [b - a for a, b in itertools.pairwise(ticks)]
    faulthandler.cancel_dump_traceback_later()
    if shot:
        Path(shot).parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(shot)
    summary = window.query_panel.summary
    window.document.wait_reads()  # (a list read ahead: its thread ends before Python does)
    return {
        "engine": not doc.dataset.in_memory,
        "queries": len(queries),
        "rows": doc.dataset.row_count(),
        "mean": None if summary is None else summary.mean,
        "to_table_s": table - start,
        "engine_s": landed - start,
        "max_gap_working_ms": 1000 * max(working, default=0.0),
        "gaps_working": len(working),
        "max_gap_installing_ms": 1000 * max(installing, default=0.0),
        "install_call_ms": 1000 * (finished[1] - finished[0]) if len(finished) > 1 else None,
        "list_query": picked,
        "list_rows": len(doc.current_list()),
        "list_s": shown,
        "max_gap_list_ms": 1000 * max(reading, default=0.0),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cache": str(cached), "aside": None if aside is None else str(aside),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=50_000_000)
    parser.add_argument("--data", type=Path, default=Path("/work/bigdata"))
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--memory-limit", default="2GB", help="DuckDB's limit in the window")
    parser.add_argument("--shot", help="a screenshot of the window on the reopened files (PNG)")
    parser.add_argument("--phase", choices=["open", "fresh"], help=argparse.SUPPRESS)
    parser.add_argument("--reopen-only", action="store_true", help="skip the first open (cache kept)")
    parser.add_argument("--profile", help="a cProfile of the reopen's install pass to this file")
    parser.add_argument("--stalls", help="every thread's stack when a frame passes 90 ms, to this file "
                        "(PHASE.txt appended: one per phase)")
    args = parser.parse_args()
    run = args.data / f"big-run-{args.rows}.parquet"
    qrels = args.data / f"big-qrels-{args.rows}.parquet"
    if args.phase is not None:
        print(json.dumps(measure(run, qrels, args.k, args.shot, args.phase == "fresh", args.profile,
                                 args.stalls)))
        return

    env = dict(os.environ, NDCG_GUI_ENGINE_MEMORY=args.memory_limit, PYTHONPATH=str(ROOT))
    command = [sys.executable, __file__, "--rows", str(args.rows), "--data", str(args.data),
               "-k", str(args.k)]
    print(f"$ {' '.join(sys.argv)}  (DuckDB memory limit {args.memory_limit})", flush=True)
    shot = ["--shot", args.shot] if args.shot else []
    profile = ["--profile", args.profile] if args.profile else []

    def stalls(phase: str) -> list[str]:
        return ["--stalls", f"{args.stalls}.{phase}.txt"] if args.stalls else []

    phases = [("reopen, from the cache", [*command, "--phase", "open", *shot, *profile, *stalls("reopen")])]
    if not args.reopen_only:
        phases.insert(0, ("first open, scored by DuckDB", [*command, "--phase", "fresh", *stalls("open")]))
    try:
        for name, argv in phases:
            done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(f"{name}: failed\n{done.stderr[-2000:]}")
            if args.profile and "--profile" in argv:
                print(done.stderr, file=sys.stderr)
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"{name}: {figures['queries']:,} queries, {figures['rows']:,} rows "
                  f"(engine: {figures['engine']}); query table in {figures['to_table_s']:.1f} s "
                  f"(engine {figures['engine_s']:.1f} s); longest frame while it worked "
                  f"{figures['max_gap_working_ms']:.0f} ms over {figures['gaps_working']:,} ticks, "
                  f"when installed {figures['max_gap_installing_ms']:.0f} ms (the notice "
                  f"{figures['install_call_ms'] or 0:.0f} ms); query "
                  f"{figures['list_query']}'s list ({figures['list_rows']:,} rows) in "
                  f"{figures['list_s'] * 1000:.0f} ms (longest frame {figures['max_gap_list_ms']:.0f} ms); "
                  f"process peak {figures['peak_mb']:.0f} MB; "
                  f"mean NDCG@{args.k} {figures['mean']:.6f}", flush=True)
    finally:
        # Someone's cache moved aside by a first open (even one that failed or was killed): put
        # back, ours removed.
        for moved in run.parent.glob(f".{run.name}.ndcg-*.parquet.aside"):
            own = moved.with_name(moved.name[: -len(".aside")])
            own.unlink(missing_ok=True)
            shutil.move(moved, own)

if __name__ == "__main__":
    main()
