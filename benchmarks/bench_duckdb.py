"""Past one machine: NDCG@10 as SQL (benchmarks/sql/ndcg.sql) run by DuckDB on Parquet, checked
equal to our `evaluate`, and the worst queries pulled out for the window.

    .venv/bin/pip install -e '.[bench]'                       # duckdb (a benchmark-only extra)
    .venv/bin/python benchmarks/bench_duckdb.py               # 5,000,000 and 50,000,000 run rows
    .venv/bin/python benchmarks/bench_duckdb.py --quick       # 500,000 rows: check the script runs

For each size: a seeded run (queries x 1,000 documents, scores with two decimals: many ties) and
qrels (100 judgments per query) are written to Parquet in benchmarks/.data/ (once, kept). DuckDB
runs the SQL under a memory limit smaller than the data (it spills to disk), and the script prints
its time and the process's peak memory. Then 200 queries are read back and scored by
`ndcg_gui.core.ndcg.evaluate` (trec_eval preset): every NDCG must equal the SQL's to 1e-9. Last, the 20
worst queries' rows are written to a small Parquet file that `ndcg_gui.core.load` (the window's
reader) opens, and its figures must equal the SQL's too.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
DATA = HERE / ".data"
SQL = (HERE / "sql" / "ndcg.sql").read_text()
DOCS_PER_QUERY = 1000
JUDGED = 100


def make_parquet(queries: int, seed: int = 7) -> tuple[Path, Path]:
    """run-N.parquet (query, doc, score) and qrels-N.parquet (query, doc, grade), N = rows."""
    rows = queries * DOCS_PER_QUERY
    run_path, qrels_path = DATA / f"duck-run-{rows}.parquet", DATA / f"duck-qrels-{rows}.parquet"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    DATA.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    run_schema = pa.schema([("query", pa.string()), ("doc", pa.string()), ("score", pa.float64())])
    qrels_schema = pa.schema([("query", pa.string()), ("doc", pa.string()), ("grade", pa.int32())])
    batch = 2000  # queries per row group: memory stays small whatever the size
    with pq.ParquetWriter(run_path, run_schema) as run_out, \
            pq.ParquetWriter(qrels_path, qrels_schema) as q_out:
        for first in range(0, queries, batch):
            n = min(batch, queries - first)
            qids = np.arange(first, first + n) + 1000
            query = pc.cast(pa.array(np.repeat(qids, DOCS_PER_QUERY)), pa.string())
            ids = np.concatenate([rng.choice(20_000_000, DOCS_PER_QUERY, replace=False)
                                  for _ in range(n)])
            doc = pc.binary_join_element_wise("D", pc.cast(pa.array(ids), pa.string()), "")
            score = np.round(rng.gamma(2.0, 3.0, size=n * DOCS_PER_QUERY), 2)
            run_out.write_table(pa.table({"query": query, "doc": doc, "score": score}, schema=run_schema))
            # Two thirds of the judged documents were retrieved; the rest were not.
            picked = rng.integers(0, DOCS_PER_QUERY, size=(n, JUDGED))
            picked.sort(axis=1)
            rows_at = (np.arange(n)[:, None] * DOCS_PER_QUERY + picked).ravel()
            judged_ids = ids[rows_at].reshape(n, JUDGED)
            missed = JUDGED - 2 * JUDGED // 3
            judged_ids[:, -missed:] = rng.integers(20_000_000, 40_000_000, size=(n, missed))
            q_query = pc.cast(pa.array(np.repeat(qids, JUDGED)), pa.string())
            flat = judged_ids.ravel()
            unique_rows = _first_of_each(np.repeat(qids, JUDGED), flat)
            q_doc = pc.binary_join_element_wise("D", pc.cast(pa.array(flat), pa.string()), "")
            grade = rng.integers(0, 4, size=n * JUDGED).astype(np.int32)
            table = pa.table({"query": q_query, "doc": q_doc, "grade": grade}, schema=qrels_schema)
            q_out.write_table(table.take(pa.array(unique_rows)))
    return run_path, qrels_path


def _first_of_each(query: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """Rows keeping one judgment per (query, doc)."""
    order = np.lexsort((doc, query))
    first = np.ones(len(order), bool)
    first[1:] = (query[order][1:] != query[order][:-1]) | (doc[order][1:] != doc[order][:-1])
    return np.sort(order[first])


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_sql(run_path: Path, qrels_path: Path, memory_limit: str):
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute(f"SET temp_directory = '{DATA / 'duckdb-spill'}'")
    con.execute("SET threads = 2")
    con.execute(f"CREATE VIEW run AS SELECT * FROM read_parquet('{run_path}')")
    con.execute(f"CREATE VIEW qrels AS SELECT * FROM read_parquet('{qrels_path}')")
    start = time.perf_counter()
    result = con.sql(SQL).to_arrow_table()
    seconds = time.perf_counter() - start
    return con, result, seconds


def check_against_evaluate(con, result: pa.Table, queries: list[str]) -> float:
    """The largest difference between the SQL's NDCG and `evaluate`'s on these queries."""
    from ndcg_gui.core import Measure, evaluate
    from ndcg_gui.core.ndcg.presets import PRESETS

    listed = ", ".join(f"'{q}'" for q in queries)
    run = con.execute(f"SELECT query, doc, score FROM run WHERE query IN ({listed})").df()
    qrels = con.execute(f"SELECT query, doc, grade FROM qrels WHERE query IN ({listed})").df()
    preset = PRESETS["trec_eval"]
    ours = evaluate(run, qrels.astype({"grade": float}), (preset or Measure()).with_(k=10, ties=preset.ties))
    sql = result.to_pandas().set_index("query").loc[queries, "ndcg"]
    return float(np.max(np.abs(ours.loc[queries, "ndcg"].to_numpy() - sql.to_numpy())))


def worst_into_the_window(con, result: pa.Table, n: int = 20) -> tuple[float, float]:
    """Write the n worst queries' rows to Parquet, open them with the window's reader, and return
    (seconds, largest difference to the SQL's NDCG)."""
    from ndcg_gui.core.ndcg.presets import PRESETS
    from ndcg_gui.core.reading import load

    start = time.perf_counter()
    worst = result.slice(0, n).column("query").to_pylist()
    listed = ", ".join(f"'{q}'" for q in worst)
    run_file, qrels_file = DATA / "worst-run.parquet", DATA / "worst-qrels.csv"
    con.execute(f"COPY (SELECT query, doc, score FROM run WHERE query IN ({listed})) "
                f"TO '{run_file}' (FORMAT parquet)")
    con.execute(f"COPY (SELECT query, doc, grade FROM qrels WHERE query IN ({listed})) "
                f"TO '{qrels_file}' (HEADER, DELIMITER ',')")
    dataset = load(run_file, qrels_file)
    preset = PRESETS["trec_eval"]
    shown = dataset.evaluate(preset.with_(k=10))
    seconds = time.perf_counter() - start
    sql = result.slice(0, n).to_pandas().set_index("query")["ndcg"]
    return seconds, float(np.max(np.abs(shown.loc[worst, "ndcg"].to_numpy() - sql.loc[worst].to_numpy())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="500,000 rows only")
    parser.add_argument("--memory-limit", default="1GB", help="DuckDB's memory limit (default 1GB)")
    options = parser.parse_args()
    sizes = [500] if options.quick else [5_000, 50_000]
    for queries in sizes:
        t = time.perf_counter()
        run_path, qrels_path = make_parquet(queries)
        made = time.perf_counter() - t
        run_rows = pq.ParquetFile(run_path).metadata.num_rows
        qrels_rows = pq.ParquetFile(qrels_path).metadata.num_rows
        size = (run_path.stat().st_size + qrels_path.stat().st_size) / 2**20
        print(f"\n{run_rows:,} run rows, {qrels_rows:,} qrels rows: {size:.0f} MB of Parquet "
              f"(ready in {made:.0f} s)")
        before = peak_mb()
        con, result, seconds = run_sql(run_path, qrels_path, options.memory_limit)
        print(f"  DuckDB, ndcg.sql, memory limit {options.memory_limit}: {seconds:.1f} s for "
              f"{result.num_rows:,} queries ({run_rows / seconds / 1e6:.1f} M rows/s); "
              f"process peak {peak_mb():.0f} MB (before the query {before:.0f} MB)")
        sample = sorted(result.column("query").to_pylist())[:: max(1, result.num_rows // 200)][:200]
        diff = check_against_evaluate(con, result, sample)
        print(f"  {len(sample)} queries scored by ndcg_gui.core.ndcg.evaluate: largest difference {diff:.1e} "
              f"({'equal' if diff < 1e-9 else 'DIFFERENT'})")
        seconds, diff = worst_into_the_window(con, result)
        print(f"  the 20 worst queries to Parquet and opened by ndcg_gui's reader: {seconds:.2f} s, "
              f"largest difference {diff:.1e} ({'equal' if diff < 1e-9 else 'DIFFERENT'})")
        con.close()


if __name__ == "__main__":
    main()
