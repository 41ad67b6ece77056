"""Loading big files: a 2,000,000-line TREC run with its qrels, and the same lists as CSV.

    .venv/bin/python benchmarks/bench_load.py              # 2,000 queries x 1,000 docs = 2,000,000 lines
    .venv/bin/python benchmarks/bench_load.py --quick      # 200 x 1,000, to check the script runs

Each measurement runs in a fresh process, so its peak memory (max RSS) is its own:
1. `load(run, qrels)`, `load(run)`, `load(qrels)`, `load(csv)`: seconds and peak memory, the
   memory also as a multiple of the file size; then scoring (`Dataset.summary` at k=10) and
   opening one query (`Dataset.ranked_list` + its per-rank table) of the loaded run.
2. The whole command-line process (`python -m ndcg_gui.cli RUN --qrels QRELS -k 10 --summary-csv OUT`)
   next to pytrec_eval parsing (parse_run, parse_qrel) and evaluating ndcg_cut.10 the same files in
   one process. Issue 5's goal: ours in at most half of pytrec_eval's time.

The files are generated (seeded) in a temporary folder and deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

PYTHON = sys.executable

_LOAD = """
import json, sys, time
t0 = time.perf_counter()
from ndcg_gui.core.reading import load
t1 = time.perf_counter()
dataset = load(*sys.argv[1:], need_grades=False)  # a run alone: read, every document unjudged
t2 = time.perf_counter()
result = {"import": t1 - t0, "load": t2 - t1, "rows": len(dataset.run), "queries": len(dataset.queries())}
if len(sys.argv) > 2:
    from ndcg_gui.core.config import PRESETS
    preset = PRESETS["trec_eval"]
    t = time.perf_counter()
    dataset.summary(10, preset.config, preset.ties)
    result["summary@10"] = time.perf_counter() - t
    query = dataset.queries()[len(dataset.queries()) // 2]
    times = []
    for _ in range(20):
        t = time.perf_counter()
        dataset.ranked_list(query).metrics(preset.config)
        times.append(time.perf_counter() - t)
    result["open one query (median)"] = sorted(times)[10]
print(json.dumps(result))
"""

_PYTREC = """
import sys, time, pytrec_eval
t0 = time.perf_counter()
with open(sys.argv[1]) as f:
    run = pytrec_eval.parse_run(f)
with open(sys.argv[2]) as f:
    qrels = pytrec_eval.parse_qrel(f)
t1 = time.perf_counter()
pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
print(t1 - t0, time.perf_counter() - t1)
"""


def make_files(folder: Path, queries: int, docs: int, judged: int = 300, seed: int = 3):
    """A TREC run (scores with ties, as real runs have), its qrels, and the run as a CSV."""
    rng = np.random.default_rng(seed)
    run_path, qrels_path, csv_path = folder / "run.txt", folder / "qrels.txt", folder / "run.csv"
    with open(run_path, "w") as run, open(qrels_path, "w") as qrels, open(csv_path, "w") as csv:
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
    return run_path, qrels_path, csv_path


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="200 queries instead of 2,000")
    options = parser.parse_args()
    queries = 200 if options.quick else 2000
    with tempfile.TemporaryDirectory(prefix="bench_load_") as tmp:
        folder = Path(tmp)
        t = time.perf_counter()
        run, qrels, csv = make_files(folder, queries, 1000)
        print(f"files: {_lines(run):,} run lines ({run.stat().st_size / 1e6:.0f} MB), "
              f"{_lines(qrels):,} qrels lines ({qrels.stat().st_size / 1e6:.0f} MB), "
              f"CSV {csv.stat().st_size / 1e6:.0f} MB; made in {time.perf_counter() - t:.0f} s")
        _, base, _ = measure_isolated([PYTHON, "-c", "import ndcg_gui.core.reading"])
        print("\n1. Loading (each in a fresh process; peak memory = max RSS of that process;")
        print(f"   'x file' = (peak - {base:.0f} MB of a process that only imported the reader) / file size)")
        print(f"{'what':<26}{'seconds':>9}{'peak MB':>9}{'x file':>8}  details")
        cases = [
            ("load(run, qrels)", [run, qrels], run.stat().st_size + qrels.stat().st_size),
            ("load(run)", [run], run.stat().st_size),
            ("load(qrels)", [qrels], qrels.stat().st_size),
            ("load(csv)", [csv], csv.stat().st_size),
        ]
        for name, paths, size in cases:
            _, peak, out = measure_isolated([PYTHON, "-c", _LOAD, *map(str, paths)])
            result = json.loads(out)
            details = ", ".join(
                f"{k} {v * 1000:.1f} ms" if k == "open one query (median)" else f"{k} {v:.2f} s"
                for k, v in result.items()
                if k not in ("load", "rows", "queries")
            )
            growth = (peak - base) * 1e6 / size
            print(f"{name:<26}{result['load']:>9.2f}{peak:>9.0f}{growth:>8.1f}  {details}")

        print("\n2. Whole process: load + score + write, next to pytrec_eval (parse + evaluate)")
        out_csv = folder / "summary.csv"
        ours = [PYTHON, "-m", "ndcg_gui.cli", str(run), "--qrels", str(qrels), "-k", "10"]
        ours += ["--summary-csv", str(out_csv)]
        theirs = [PYTHON, "-c", _PYTREC, str(run), str(qrels)]
        rows = []
        for name, args in (("ndcg-gui --summary-csv", ours), ("pytrec_eval", theirs)):
            walls, peaks, outs = [], [], []
            for _ in range(3):
                wall, peak, out = measure_isolated(args)
                walls.append(wall)
                peaks.append(peak)
                outs.append(out)
            best = walls.index(min(walls))
            rows.append((name, walls[best], max(peaks), outs[best].split()))
        for name, wall, peak, extra in rows:
            note = f"parse {float(extra[0]):.2f} s, evaluate {float(extra[1]):.2f} s" if extra else ""
            print(f"{name:<26}{wall:>9.2f}{peak:>9.0f}  (best of 3){'  ' + note if note else ''}")
        print(f"ratio ours / pytrec_eval: {rows[0][1] / rows[1][1]:.2f} (goal: at most 0.5)")


def _lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


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
    result = subprocess.run([PYTHON, "-c", wrapper, *args], capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"{' '.join(map(str, args))} failed:\n{result.stderr}")
    first, _, rest = result.stdout.partition("\n")
    wall, peak = map(float, first.split())
    return wall, peak, rest


if __name__ == "__main__":
    main()
