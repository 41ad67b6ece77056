"""`ndcg-inspect --engine duckdb` beside the in-memory path, as whole processes: time and peak memory
on a generated TREC run of 2,000,000 and 20,000,000 lines (1,000 documents a query, two-decimal
scores: many ties; 300 judgments a query, two thirds retrieved), and the two summaries compared.

    .venv/bin/pip install -e '.[duckdb]'
    .venv/bin/python benchmarks/bench_engine.py              # 2,000,000 and 20,000,000 lines
    .venv/bin/python benchmarks/bench_engine.py --quick      # 200,000 lines: check the script runs
    .venv/bin/pip install -e '.[duckdb,spark]'
    .venv/bin/python benchmarks/bench_engine.py --spark --lines 50000000   # Parquet: DuckDB and Spark
    .venv/bin/python benchmarks/bench_engine.py --steps --lines 50000000   # where DuckDB's time goes

Files are written (seeded) to benchmarks/.data/ once and kept (the 20M-line run is ~0.9 GB).
Each command runs in its own process (`python -m ndcg_gui.cli RUN --qrels QRELS --summary-csv
OUT`), timed from start to exit; its peak resident memory from `os.wait4`. With --spark, the run as
Parquet only, scored by `--engine duckdb` and `--engine spark --spark-master local[2]` (Spark's JVM
is a child of the command: the peak is then the largest sum of the resident memory of the process
and its children, read from /proc every 0.2 s). With --steps, DuckDB's job in this process, each
step's wall and CPU seconds (CPU time reads the same on a busy machine; wall time does not).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from ndcg_gui.core.ndcg.measure import Measure

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / ".data"
DOCS, JUDGED = 1000, 300


def make_files(queries: int, seed: int = 11) -> tuple[Path, Path]:
    lines = queries * DOCS
    run_path, qrels_path = DATA / f"engine-{lines}.run", DATA / f"engine-{lines}.qrels"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    DATA.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    options = pa_csv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    batch = 500
    with pa_csv.CSVWriter(str(run_path) + ".tmp", _RUN, write_options=options) as run, \
            pa_csv.CSVWriter(str(qrels_path) + ".tmp", _QRELS, write_options=options) as qrels:
        for first in range(0, queries, batch):
            n = min(batch, queries - first)
            qid = np.repeat(np.arange(first, first + n) + 1, DOCS).astype(str)
            # Distinct within a query (a block of 50,000 ids for each), in random order.
            ids = np.arange(DOCS) * 50_000 + rng.integers(0, 50_000, size=(n, DOCS))
            ids = np.take_along_axis(ids, np.argsort(rng.random((n, DOCS)), axis=1), axis=1)
            score = -np.sort(-np.round(rng.gamma(2.0, 3.0, size=(n, DOCS)), 2), axis=1)
            docs = np.char.add("doc-", ids.astype(str)).ravel()
            run.write_table(pa.table({
                "qid": qid, "q0": np.full(n * DOCS, "Q0"), "doc": docs,
                "rank": np.tile(np.arange(1, DOCS + 1), n), "score": score.ravel(),
                "tag": np.full(n * DOCS, "bench")}, schema=_RUN))
            # Two thirds of the judgments are retrieved documents, the rest never retrieved.
            seen = 2 * JUDGED // 3
            picked = np.sort(np.argsort(rng.random((n, DOCS)), axis=1)[:, :seen], axis=1)
            unseen = np.char.add("unretrieved-", np.tile(np.arange(JUDGED - seen), (n, 1)).astype(str))
            judged = np.concatenate([docs.reshape(n, DOCS)[np.arange(n)[:, None], picked], unseen],
                                    axis=1).ravel()
            qrels.write_table(pa.table({
                "qid": np.repeat(np.arange(first, first + n) + 1, JUDGED).astype(str),
                "iter": np.zeros(n * JUDGED, np.int64), "doc": judged,
                "grade": rng.integers(0, 4, size=n * JUDGED)}, schema=_QRELS))
    os.replace(str(run_path) + ".tmp", run_path)
    os.replace(str(qrels_path) + ".tmp", qrels_path)
    return run_path, qrels_path


_RUN = pa.schema([("qid", pa.string()), ("q0", pa.string()), ("doc", pa.string()), ("rank", pa.int64()),
                  ("score", pa.float64()), ("tag", pa.string())])
_QRELS = pa.schema([("qid", pa.string()), ("iter", pa.int64()), ("doc", pa.string()), ("grade", pa.int64())])


def measure(args: list[str]) -> tuple[float, float]:
    """(seconds, peak MB) of one process running `args`."""
    start = time.perf_counter()
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    err = process.stderr.read().decode()
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(args)} failed: {err}")
    return seconds, usage.ru_maxrss / 1024


def largest_difference(a: Path, b: Path) -> tuple[bool, float]:
    """(same queries in the same order with the same counts, largest difference of a figure)."""
    import pandas as pd

    x, y = (pd.read_csv(p, dtype={"query": str}) for p in (a, b))
    same = x[["query", "n_docs", "n_judged"]].equals(y[["query", "n_docs", "n_judged"]])
    diff = max(float(np.max(np.abs(x[c] - y[c]))) for c in ("dcg", "idcg", "ndcg")) if len(x) else math.nan
    return same, diff


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="200,000 lines only")
    parser.add_argument("--memory-limit", default="1GB", help="DuckDB's memory limit (default 1GB)")
    parser.add_argument("--spark", action="store_true",
                        help="the Parquet run by --engine duckdb and --engine spark (local[2]) only")
    parser.add_argument("--lines", type=int, action="append", help="run lines (a multiple of 1,000)")
    parser.add_argument("--steps", action="store_true",
                        help="each step of DuckDB's job: wall and CPU seconds (the run as text and Parquet)")
    options = parser.parse_args()
    import duckdb

    print(f"duckdb {duckdb.__version__}, {os.cpu_count()} cores")
    sizes = [200] if options.quick else [2_000, 20_000]
    sizes = [n // DOCS for n in options.lines] if options.lines else sizes
    if options.steps:
        for queries in sizes:
            run, qrels = make_files(queries)
            for path in (run, as_parquet(run)):
                print(f"\n{queries * DOCS:,} lines, the run as {path.suffix[1:]}:")
                steps(path, qrels, options.memory_limit)
        return
    if options.spark:
        import pyspark

        print(f"pyspark {pyspark.__version__}")
        for queries in sizes:
            run, qrels = make_files(queries)
            path = as_parquet(run)
            print(f"\n{queries * DOCS:,} lines, the run as Parquet ({path.stat().st_size / 2**20:.0f} MiB), "
                  f"qrels as TREC text ({qrels.stat().st_size / 2**20:.0f} MiB):")
            engines(path, qrels, f"{queries}-parquet", options.memory_limit)
        return
    for queries in sizes:
        t = time.perf_counter()
        run, qrels = make_files(queries)
        print(f"\n{queries * DOCS:,} lines ({run.stat().st_size / 2**20:.0f} MiB run, "
              f"{qrels.stat().st_size / 2**20:.0f} MiB qrels; ready in {time.perf_counter() - t:.0f} s)")
        for what, path in (("TREC text", run), ("Parquet", as_parquet(run))):
            print(f"  the run as {what} ({path.stat().st_size / 2**20:.0f} MiB):")
            compare(path, qrels, f"{queries}-{path.suffix[1:]}", options.memory_limit)


def steps(run: Path, qrels: Path, memory_limit: str) -> None:
    """`duckdb_engine.score_files` in this process, each step it reports timed."""
    import resource

    from ndcg_gui.core.sql import duckdb_engine

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    marks: list[tuple[str, float, float]] = []

    def told(step: str, _percent: float) -> bool:
        if not marks or marks[-1][0] != step:
            marks.append((step, time.perf_counter(), cpu()))
        return True

    start, start_cpu = time.perf_counter(), cpu()
    duckdb_engine.score_files(str(run), str(qrels), Measure(k=10), memory_limit=memory_limit, threads=2,
                              progress=told)
    marks.append(("", time.perf_counter(), cpu()))
    for (step, wall, used), (_, next_wall, next_used) in itertools.pairwise(marks):
        print(f"    {step:45s} {next_wall - wall:6.2f} s  CPU {next_used - used:6.2f} s")
    print(f"    {'the whole job':45s} {marks[-1][1] - start:6.2f} s  CPU {marks[-1][2] - start_cpu:6.2f} s")


def as_parquet(run: Path) -> Path:
    """The run's query, doc and score as Parquet (made once, kept)."""
    path = run.with_suffix(".parquet")
    if not path.exists():
        import duckdb

        duckdb.sql(f"COPY (SELECT column0 AS query, column2 AS doc, column4 AS score FROM read_csv('{run}', "
                   "delim=' ', header=false, columns={'column0': 'VARCHAR', 'column1': 'VARCHAR', "
                   "'column2': 'VARCHAR', 'column3': 'VARCHAR', 'column4': 'DOUBLE', 'column5': 'VARCHAR'})) "
                   f"TO '{path}' (FORMAT parquet)")
    return path


def measure_tree(args: list[str]) -> tuple[float, float]:
    """(seconds, peak MB of the process and its children together) of one process running `args`."""
    import threading

    start = time.perf_counter()
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], _tree_rss(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    err = process.stderr.read().decode()
    process.wait()
    seconds = time.perf_counter() - start
    sampler.join()
    if process.returncode:
        raise SystemExit(f"{' '.join(args)} failed: {err}")
    return seconds, peak[0] / 2**20


def _tree_rss(root: int) -> int:
    """Bytes resident in process `root` and its descendants (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


def engines(run: Path, qrels: Path, name: str, memory_limit: str) -> None:
    """--engine duckdb beside --engine spark (local[2]) on the same files."""
    base = [sys.executable, "-m", "ndcg_gui.cli", str(run), "--qrels", str(qrels)]
    out = {way: DATA / f"engine-{name}-{way}.csv" for way in ("duckdb", "spark")}
    duck = measure_tree([*base, "--summary-csv", str(out["duckdb"]), "--engine", "duckdb",
                         "--memory-limit", memory_limit, "--threads", "2"])
    spark = measure_tree([*base, "--summary-csv", str(out["spark"]), "--engine", "spark",
                          "--spark-master", "local[2]"])
    rows = int(name.split("-")[0]) * DOCS
    same, diff = largest_difference(out["duckdb"], out["spark"])
    for label, (seconds, peak) in (("--engine duckdb", duck), ("--engine spark", spark)):
        print(f"    {label:16s}  {seconds:7.2f} s, {rows / seconds / 1e6:5.2f} M rows/s, peak {peak:6.0f} MB "
              "(process and children)")
    print(f"    spark / duckdb: {spark[0] / duck[0]:.2f}x the time; summaries: "
          f"{'same queries, order and counts' if same else 'DIFFERENT queries or counts'}, "
          f"largest difference {diff:.1e}")


def compare(run: Path, qrels: Path, name: str, memory_limit: str) -> None:
    base = [sys.executable, "-m", "ndcg_gui.cli", str(run), "--qrels", str(qrels)]
    out = {way: DATA / f"engine-{name}-{way}.csv" for way in ("memory", "duckdb")}
    memory = measure([*base, "--summary-csv", str(out["memory"])])
    engine = measure([*base, "--summary-csv", str(out["duckdb"]), "--engine", "duckdb",
                      "--memory-limit", memory_limit, "--threads", "2"])
    same, diff = largest_difference(out["memory"], out["duckdb"])
    print(f"    in memory:        {memory[0]:6.2f} s, peak {memory[1]:6.0f} MB")
    print(f"    --engine duckdb:  {engine[0]:6.2f} s, peak {engine[1]:6.0f} MB "
          f"(--memory-limit {memory_limit}, --threads 2); {engine[0] / memory[0]:.2f}x the time")
    print(f"    summaries: {'same queries, order and counts' if same else 'DIFFERENT queries or counts'}, "
          f"largest difference {diff:.1e}")


if __name__ == "__main__":
    main()
