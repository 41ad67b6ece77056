"""Loading big files: speed and memory of the reading layer, each goal printed as a ratio.

    .venv/bin/python benchmarks/bench_load.py              # 2,000,000-line run, and the 7,000,000-line run
    .venv/bin/python benchmarks/bench_load.py --quick      # 200,000 and 700,000 lines: check the script runs
    .venv/bin/python benchmarks/bench_load.py --skip-big   # without the 7,000,000-line run

1. `load` of a TREC run with its qrels, the run alone, the qrels alone, the lists as CSV, the run
   gzip-compressed, as Parquet and as JSON Lines, each in a fresh process: seconds, and peak memory
   as a multiple of the file size ("x file" = (max RSS - max RSS of a process that only imported
   the reader) / size of the files on disk). Goal: at most 3x for the text files.
2. The whole `ndcg-inspect RUN --qrels QRELS -k 10 --summary-csv OUT` process next to a Python
   script that reads both files the way pytrec_eval's users do (parse_run, parse_qrel) and
   evaluates ndcg_cut.10; import time counts on both sides. Best of 3 each, interleaved.
   Goal: at most 0.5x.
3. A 7,000,000-line run (the size of an MS MARCO dev run: 7,000 queries x 1,000 passages, integer
   ids, 7,000 qrels lines) opened the way the window opens big files: `core.reading.load_worker`
   in its own process reads it and scores every query, and the dataset comes back packed and is
   unpacked. Goal: at most 10 s (the window's frames are measured in bench_gui / bench_queries).

Files are generated (seeded) in benchmarks/.data/ once and kept.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

PYTHON = sys.executable
DATA = Path(__file__).resolve().parent / ".data"

_LOAD = """
import json, sys, time
t0 = time.perf_counter()
from ndcg_gui.core.memory import tune_process
tune_process()  # as the program's processes do (the library alone leaves the allocator be)
from ndcg_gui.core.reading import load
t1 = time.perf_counter()
dataset = load(*sys.argv[1:], need_grades=False)  # a run alone: read, every document unjudged
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "rows": len(dataset.run)}))
"""

_PYTREC = """
import sys, time
t0 = time.perf_counter()
import pytrec_eval
with open(sys.argv[1]) as f:
    run = pytrec_eval.parse_run(f)
with open(sys.argv[2]) as f:
    qrels = pytrec_eval.parse_qrel(f)
t1 = time.perf_counter()
pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
print(t1 - t0, time.perf_counter() - t1)
"""

# The window's big-file path: the worker process reads and scores, this process unpacks.
_WORKER = """
import functools, pickle, resource, subprocess, sys, time
t0 = time.perf_counter()
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading.load_worker import command, read_message
from ndcg_gui.core.reading.packed import unpack
from ndcg_gui.core.lists.rescoring import score
process = subprocess.Popen(command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
then = functools.partial(score, measure=Measure(k=10, ties="trec"))
process.stdin.write(pickle.dumps({"path": sys.argv[1], "qrels": sys.argv[2], "then": then}))
process.stdin.close()
while (message := read_message(process.stdout)) is not None:
    if message[0] == "done":
        t1 = time.perf_counter()
        dataset, scored = unpack(message[1]), message[2]
        t2 = time.perf_counter()
        break
    if message[0] in ("error", "bug"):
        raise SystemExit(str(message[1]))
process.wait()
worker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(t1 - t0, t2 - t1, t2 - t0, len(dataset.run), len(scored), worker_peak)
"""


def make_files(folder: Path, queries: int, docs: int, judged: int = 300, seed: int = 3) -> dict[str, Path]:
    """A TREC run (scores with two decimals: many ties), its qrels, and the run as CSV, gzip,
    Parquet and JSON Lines (made once, kept)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = {name: folder / f"load-{queries}-{name}" for name in
             ("run.txt", "qrels.txt", "run.csv", "run.gz", "run.parquet", "run.jsonl")}
    if all(p.exists() for p in paths.values()):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    with open(paths["run.txt"], "w") as run, open(paths["qrels.txt"], "w") as qrels, \
            open(paths["run.csv"], "w") as csv:
        csv.write("query,doc,grade,score\n")
        for q in range(queries):
            qid = str(401 + q)
            ids = rng.choice(5_000_000, size=docs, replace=False)
            score = np.sort(np.round(rng.gamma(2.0, 3.0, size=docs), 2))[::-1]
            names = [f"clueweb-en{i // 100000:04d}-{i % 100000:05d}" for i in ids]
            run.writelines(
                f"{qid} Q0 {n} {r} {s} bench\n" for r, (n, s) in enumerate(zip(names, score, strict=True), 1)
            )
            picked = rng.choice(docs, size=judged * 2 // 3, replace=False)  # two thirds retrieved
            grades = rng.integers(0, 4, size=judged)
            extra = [f"unretrieved-{q}-{j}" for j in range(judged - len(picked))]
            judged_names = [names[i] for i in picked] + extra
            qrels.writelines(f"{qid} 0 {n} {g}\n" for n, g in zip(judged_names, grades, strict=True))
            lookup = dict(zip(judged_names, grades.tolist(), strict=True))
            csv.writelines(
                f"{qid},{n},{lookup.get(n, '')},{s}\n" for n, s in zip(names, score, strict=True)
            )
    text = paths["run.txt"].read_bytes()
    paths["run.gz"].write_bytes(gzip.compress(text, compresslevel=6))
    fields = [line.split() for line in text.decode().splitlines()]
    table = pa.table({"qid": [f[0] for f in fields], "docno": [f[2] for f in fields],
                      "score": [float(f[4]) for f in fields]})
    pq.write_table(table, paths["run.parquet"])
    with open(paths["run.jsonl"], "w") as out:
        for f in fields:
            out.write(json.dumps({"qid": f[0], "docno": f[2], "score": float(f[4])}) + "\n")
    return paths


def make_msmarco(folder: Path, queries: int, seed: int = 5) -> tuple[Path, Path]:
    """An MS MARCO dev-sized run: `queries` x 1,000 passages with integer ids and BM25-like
    scores, and qrels with about one relevant passage per query (made once, kept)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    run_path, qrels_path = folder / f"msmarco-{queries}.run", folder / f"msmarco-{queries}.qrels"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    qids = rng.choice(1_100_000, size=queries, replace=False) + 2
    n = queries * 1000
    query = np.repeat(qids, 1000)
    doc = np.concatenate([rng.choice(8_841_823, size=1000, replace=False) for _ in range(queries)])
    score = np.sort(np.round(rng.gamma(3.0, 4.0, size=(queries, 1000)), 3), axis=1)[:, ::-1].ravel()
    rank = np.tile(np.arange(1, 1001), queries)
    table = pa.table({"q": query.astype(str), "q0": pa.array(["Q0"] * n), "d": doc.astype(str),
                      "r": rank, "s": score, "t": pa.array(["bm25"] * n)})
    options = pa_csv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pa_csv.write_csv(table, run_path, options)
    judged = rng.integers(0, 1000, size=queries) + np.arange(queries) * 1000  # one retrieved passage each
    with open(qrels_path, "w") as out:
        out.writelines(f"{query[i]} 0 {doc[i]} 1\n" for i in judged.tolist())
    return run_path, qrels_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    parser.add_argument("--skip-big", action="store_true", help="leave out the 7,000,000-line run")
    options = parser.parse_args()
    queries = 200 if options.quick else 2000
    t = time.perf_counter()
    files = make_files(DATA, queries, 1000)
    print(f"files: {_lines(files['run.txt']):,} run lines ({_mb(files['run.txt']):.0f} MB), "
          f"{_lines(files['qrels.txt']):,} qrels lines ({_mb(files['qrels.txt']):.0f} MB); "
          f"ready in {time.perf_counter() - t:.0f} s")

    # The base: a process that imported what a load imports (the reader and pandas, which the
    # reader now imports only when it joins, ~40 MB of code and tables): x file counts the data.
    # Run twice: the first run also fills the bytecode cache.
    for _ in range(2):
        _, base, _ = measure_isolated([PYTHON, "-c", "import ndcg_gui.core.reading.dispatch, pandas"])
    for name in ("run", "qrels"):  # every module a load imports compiled once, not in a timed run
        measure_isolated([PYTHON, "-c", _LOAD, str(files[f"{name}.txt"])])
    print(f"\n1. load (fresh process each); x file = (peak - {base:.0f} MB of a process that only imported"
          " the reader and pandas) / file size; goal <= 3x")
    print(f"{'what':<22}{'MB':>6}{'seconds':>9}{'peak MB':>9}{'x file':>8}")
    cases = [
        ("run + qrels", [files["run.txt"], files["qrels.txt"]]),
        ("run", [files["run.txt"]]),
        ("qrels", [files["qrels.txt"]]),
        ("CSV", [files["run.csv"]]),
        ("run, gzip", [files["run.gz"]]),
        ("run, Parquet", [files["run.parquet"]]),
        ("run, JSON Lines", [files["run.jsonl"]]),
    ]
    for name, paths in cases:
        size = sum(p.stat().st_size for p in paths)
        _, peak, out = measure_isolated([PYTHON, "-c", _LOAD, *map(str, paths)])
        result = json.loads(out)
        ratio = (peak - base) * 2**20 / size
        print(f"{name:<22}{size / 2**20:>6.0f}{result['load']:>9.2f}{peak:>9.0f}{ratio:>8.2f}")
    print("  (gzip, Parquet: x the compressed size; their text is several times larger)")

    print("\n2. whole process: ndcg-inspect RUN --qrels QRELS -k 10 --summary-csv OUT vs pytrec_eval's")
    print("   parse_run + parse_qrel + evaluate(ndcg_cut.10), imports included; best of 3, interleaved")
    out_csv = DATA / "summary.csv"
    ours = [PYTHON, "-m", "ndcg_gui.cli", str(files["run.txt"]), "--qrels", str(files["qrels.txt"]),
            "-k", "10", "--summary-csv", str(out_csv)]
    theirs = [PYTHON, "-c", _PYTREC, str(files["run.txt"]), str(files["qrels.txt"])]
    walls: dict[str, list[float]] = {"ours": [], "pytrec_eval": []}
    peaks: dict[str, float] = {"ours": 0.0, "pytrec_eval": 0.0}
    notes = ""
    for _ in range(3):
        for name, args in (("ours", ours), ("pytrec_eval", theirs)):
            wall, peak, out = measure_isolated(args)
            walls[name].append(wall)
            peaks[name] = max(peaks[name], peak)
            if name == "pytrec_eval":
                parse, evaluate = map(float, out.split())
                notes = f"parse {parse:.2f} s, evaluate {evaluate:.2f} s"
    print(f"  ours          {min(walls['ours']):6.2f} s (runs {_list(walls['ours'])}), "
          f"peak {peaks['ours']:.0f} MB")
    print(f"  pytrec_eval   {min(walls['pytrec_eval']):6.2f} s (runs {_list(walls['pytrec_eval'])}), "
          f"peak {peaks['pytrec_eval']:.0f} MB; last: {notes}")
    print(f"  ratio ours / pytrec_eval: {min(walls['ours']) / min(walls['pytrec_eval']):.2f} (goal <= 0.5)")

    if not options.skip_big:
        big_queries = 700 if options.quick else 7000
        t = time.perf_counter()
        run, qrels = make_msmarco(DATA, big_queries)
        print(f"\n3. the window's big-file path on {_lines(run):,} run lines ({_mb(run):.0f} MB), "
              f"{_lines(qrels):,} qrels lines; files ready in {time.perf_counter() - t:.0f} s")
        results = []
        for _ in range(2):
            _, _, out = measure_isolated([PYTHON, "-c", _WORKER, str(run), str(qrels)])
            results.append([float(x) for x in out.split()])
        best = min(results, key=lambda r: r[2])
        read, unpacked, total, rows, scored, worker_peak = best
        print(f"  load_worker read + scored {int(scored):,} queries, sent: {read:.2f} s; unpacked here: "
              f"{unpacked:.2f} s; total {total:.2f} s (runs {_list([r[2] for r in results])})")
        print(f"  {int(rows):,} rows; the worker's peak {worker_peak:.0f} MB "
              f"({(worker_peak - base) * 2**20 / run.stat().st_size:.2f}x the run)")
        print(f"  ratio to the 10 s goal: {total / 10:.2f} (goal <= 1)")


def _list(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def _mb(path: Path) -> float:
    return path.stat().st_size / 2**20


def _lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 24), b""))


# As an installed copy runs: compiled modules cached (pip compiles them when it installs; with
# PYTHONDONTWRITEBYTECODE=1, as on this machine, ndcg_gui's modules would be compiled at every
# launch, ~0.05 s, while the libraries' caches came with them). Cached beside the data, not in the tree.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_ENV["PYTHONPYCACHEPREFIX"] = str(DATA / "pycache")


def measure_isolated(args: list[str]) -> tuple[float, float, str]:
    """Run `args` under a small wrapper process that reports its own child's peak memory."""
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - t\n"
        "sys.stderr.write(p.stderr)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(wall, peak)\n"
        "print(p.stdout, end='')\n"
        "sys.exit(p.returncode)\n"
    )
    result = subprocess.run([PYTHON, "-c", wrapper, *args], capture_output=True, text=True, env=_ENV)
    if result.returncode:
        raise SystemExit(f"{' '.join(map(str, args))} failed:\n{result.stderr}")
    first, _, rest = result.stdout.partition("\n")
    wall, peak = map(float, first.split())
    return wall, peak, rest


if __name__ == "__main__":
    main()
