"""Saving big loaded files in their own format: untouched, and with one query edited.

    .venv/bin/python benchmarks/bench_save.py            # 2,000 queries x 1,000 docs = 2,000,000 lines
    .venv/bin/python benchmarks/bench_save.py --quick    # 200 x 100, to check the script runs

Seeded files in a temporary folder: a TREC run, its qrels (a quarter of the documents judged) and
the same lists as a CSV with a title column. Each is loaded once; then, best of 3 in one process:
`write_trec_run`, `write_qrels`, `write_csv` of the untouched dataset and of the dataset with one
query reversed. Peers in the same run: copying the file (`shutil.copyfile`, the floor of any save)
and pandas' `DataFrame.to_csv` of the loaded rows (what writing every row anew costs).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from ndcg_gui.core.reading import load
from ndcg_gui.core.writing import writers


def make(folder: Path, queries: int, docs: int) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(1)
    run, qrels, table = folder / "run.txt", folder / "qrels.txt", folder / "lists.csv"
    with run.open("w") as f, qrels.open("w") as g, table.open("w") as c:
        c.write("query,doc,grade,score,title\n")
        for q in range(queries):
            scores = np.sort(np.round(rng.random(docs) * 100, 2))[::-1]
            grades = rng.integers(0, 4, docs)
            f.write("".join(f"{q} Q0 D{q}-{i} {i + 1} {scores[i]} run\n" for i in range(docs)))
            g.write("".join(f"{q} 0 D{q}-{i} {grades[i]}\n" for i in range(0, docs, 4)))
            c.write("".join(f"{q},D{q}-{i},{grades[i]},{scores[i]},Title {i}\n" for i in range(docs)))
    return run, qrels, table


def best(fn, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    queries, docs = (200, 100) if args.quick else (2000, 1000)
    with tempfile.TemporaryDirectory(prefix="bench_save_") as tmp:
        folder = Path(tmp)
        run, qrels, table = make(folder, queries, docs)
        dataset, lists = load(run, qrels), load(table)
        middle = dataset.queries()[queries // 2]
        reverse = np.arange(docs)[::-1]
        edited = dataset.with_lists({middle: dataset.ranked_list(middle).reordered(reverse)})
        lists_edited = lists.with_lists({middle: lists.ranked_list(middle).reordered(reverse)})
        out = folder / "out"
        rows = [
            ("write_trec_run, untouched", lambda: writers.write_trec_run(dataset, out), run),
            ("write_trec_run, one query reversed", lambda: writers.write_trec_run(edited, out), run),
            ("write_qrels, one query edited", lambda: writers.write_qrels(edited, out), qrels),
            ("write_csv, untouched", lambda: writers.write_csv(lists, out), table),
            ("write_csv, one query reversed", lambda: writers.write_csv(lists_edited, out), table),
        ]
        sizes = f"run {run.stat().st_size >> 20} MB, CSV {table.stat().st_size >> 20} MB"
        print(f"{queries * docs:,} lines: {sizes}")
        print(f"{'what':40s} {'s':>6s} {'x copy':>7s} {'x to_csv':>9s}")
        for label, fn, source in rows:
            ours = best(fn)
            copy = best(lambda s=source: shutil.copyfile(s, out))
            frame = (dataset if source != table else lists).run
            pandas = best(lambda f=frame: f.to_csv(out, index=False), rounds=1)
            print(f"{label:40s} {ours:6.2f} {ours / copy:7.1f} {ours / pandas:9.2f}")


if __name__ == "__main__":
    main()
