"""`ndcg-inspect` beside trec_eval's own C program, as whole processes, on the same files.

    .venv/bin/python benchmarks/bench_trec_eval.py                  # 2,000,000 run lines
    .venv/bin/python benchmarks/bench_trec_eval.py --many 100000    # and 100,000 queries x 10 docs
    .venv/bin/python benchmarks/bench_trec_eval.py --trec-eval-src ~/src/trec_eval

trec_eval is built from its public source (https://github.com/usnistgov/trec_eval, `make`): a
checkout given with --trec-eval-src, else cloned into benchmarks/.data/trec_eval (needs git and
the network once). Both print every query's NDCG@10: `trec_eval -q -m ndcg_cut.10 QRELS RUN` and
`python -m ndcg_gui.cli RUN --qrels QRELS -k 10` (imports included), run in turn five times after
a warm-up; the figures are medians, the ratio is taken run by run (so a machine that slows down
midway slows both), and the per-query figures are compared (both print 4 decimals).

The files: bench_load's 2,000 queries x 1,000 documents (TREC disks-like ids, two-decimal scores:
many ties, 300 judgments a query); with --many N, N queries of 10 documents each (trec_eval's
time grows with the square of the number of queries there: it looks each query of the run up
among the qrels' queries in a list).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_load import DATA, PYTHON, make_files, measure_isolated  # noqa: E402

REPO = "https://github.com/usnistgov/trec_eval"


def trec_eval(source: Path | None) -> Path:
    """The trec_eval binary, built from `source` (or from a clone of its public repository)."""
    folder = source or DATA / "trec_eval"
    if not (folder / "Makefile").exists():
        if source is not None:
            raise SystemExit(f"{folder}: not a trec_eval checkout (no Makefile)")
        subprocess.run(["git", "clone", "--depth", "1", REPO, str(folder)], check=True)
    binary = folder / "trec_eval"
    if not binary.exists():
        subprocess.run(["make", "-C", str(folder)], check=True, stdout=subprocess.DEVNULL)
    commit = subprocess.run(["git", "-C", str(folder), "log", "-1", "--format=%h"], capture_output=True,
                            text=True).stdout.strip()
    version = subprocess.run([str(binary), "-v"], capture_output=True, text=True)
    print(f"trec_eval: {(version.stdout + version.stderr).strip()} (source {commit or folder})")
    return binary


def many_queries(queries: int, docs: int = 10, seed: int = 5) -> tuple[Path, Path]:
    """`queries` queries of `docs` documents, every one judged (grades 0-3), made once."""
    run, qrels = DATA / f"many-{queries}.run", DATA / f"many-{queries}.qrels"
    if run.exists() and qrels.exists():
        return run, qrels
    DATA.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random((queries, docs)) * 10, 2)
    grades = rng.integers(0, 4, (queries, docs))
    with open(run, "w") as r, open(qrels, "w") as q:
        for i in range(queries):
            r.writelines(f"q{i} Q0 d{j} {j + 1} {scores[i, j]} bench\n" for j in range(docs))
            q.writelines(f"q{i} 0 d{j} {grades[i, j]}\n" for j in range(docs))
    return run, qrels


def per_query(text: str, ours: bool) -> dict[str, str]:
    """query -> NDCG@10 as printed (4 decimals) by either program."""
    found = {}
    for line in text.splitlines():
        fields = line.split()
        if ours and len(fields) == 6 and fields[0] not in ("query", "all"):
            found[fields[0]] = fields[5]
        elif not ours and len(fields) == 3 and fields[0] == "ndcg_cut_10" and fields[1] != "all":
            found[fields[1]] = fields[2]
    return found


def compare(name: str, run: Path, qrels: Path, binary: Path, rounds: int) -> None:
    ours = [PYTHON, "-m", "ndcg_gui.cli", str(run), "--qrels", str(qrels), "-k", "10"]
    theirs = [str(binary), "-q", "-m", "ndcg_cut.10", str(qrels), str(run)]
    with open(run, "rb") as f:
        lines = sum(1 for _ in f)
    print(f"\n{name}: {lines:,} run lines ({run.stat().st_size / 2**20:.0f} MiB)")
    times: dict[str, list[float]] = {"ours": [], "trec_eval": []}
    peaks: dict[str, float] = {"ours": 0.0, "trec_eval": 0.0}
    outputs: dict[str, str] = {}
    for i in range(rounds + 1):  # (the first round warms the page cache: not counted)
        for side, args in (("ours", ours), ("trec_eval", theirs)):
            wall, peak, out = measure_isolated(args)
            outputs[side] = out
            if i:
                times[side].append(wall)
                peaks[side] = max(peaks[side], peak)
    a, b = per_query(outputs["ours"], True), per_query(outputs["trec_eval"], False)
    same = a == b
    differ = sum(a.get(q) != v for q, v in b.items())
    for side in times:
        print(f"  {side:<10} median {statistics.median(times[side]):7.2f} s  (runs "
              f"{', '.join(f'{t:.2f}' for t in times[side])}), peak {peaks[side]:.0f} MB")
    ratios = [x / y for x, y in zip(times["ours"], times["trec_eval"], strict=True)]
    print(f"  ratio ours / trec_eval, run by run: median {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}); goal <= 0.6")
    print(f"  per-query NDCG@10 ({len(b):,} queries): " + ("the same" if same else f"{differ} differ"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trec-eval-src", type=Path, help="a checkout of trec_eval's source")
    parser.add_argument("--many", type=int, default=0, help="also N queries of 10 documents")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    binary = trec_eval(options.trec_eval_src)
    print(f"{os.cpu_count()} cores")
    files = make_files(DATA, 2000, 1000)
    compare("bench_load's run", files["run.txt"], files["qrels.txt"], binary, options.rounds)
    if options.many:
        run, qrels = many_queries(options.many)
        compare(f"{options.many:,} queries x 10 documents", run, qrels, binary, options.rounds)


if __name__ == "__main__":
    main()
