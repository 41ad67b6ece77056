"""The Spark jobs and collects one `ndcg-inspect --engine spark` command runs, per input format and
for a comparison of three runs, with the JVM's and Python's CPU for each command (local[2], the
sample files; CSV and Parquet copies written to a temporary folder). Each job is a pass over its
input (or a part of one): what a command costs on a user's big files grows with their number.

    .venv/bin/python benchmarks/spark_jobs_probe.py [--tree DIR] [--rounds N]

`--tree DIR` imports ndcg_gui from DIR (e.g. `git archive <commit> | tar -x -C DIR`), to compare
a commit's engine with this one's, run after run (benchmarks/README.md, "Spark's passes over the
input"). The first round warms the JVM (its compiler); the figures are the later rounds' means.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
EXAMPLES = HERE / "resources" / "examples"
RUN, QRELS = EXAMPLES / "sample.run", EXAMPLES / "sample.qrels"
NAMES = ["query", "q0", "doc", "rank", "score", "tag"]


def jvm_cpu(pid: int) -> float:
    """User + system seconds of the JVM so far (/proc: the JVM is not this process's to wait for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def inputs(folder: Path) -> dict[str, list[str]]:
    """Each case's command-line arguments (before --engine)."""
    import numpy as np
    import pandas as pd

    run = pd.read_csv(RUN, sep=r"\s+", names=NAMES, dtype={"query": str, "doc": str})
    qrels = pd.read_csv(QRELS, sep=r"\s+", names=["query", "it", "doc", "grade"],
                        dtype={"query": str, "doc": str})
    run[["query", "doc", "score"]].to_csv(folder / "run.csv", index=False)
    qrels[["query", "doc", "grade"]].to_csv(folder / "qrels.csv", index=False)
    run[["query", "doc", "score"]].to_parquet(folder / "run.parquet")
    qrels[["query", "doc", "grade"]].to_parquet(folder / "qrels.parquet")
    rng = np.random.default_rng(1)
    others = []
    for name in ("a.run", "b.run"):
        shuffled = run.assign(score=rng.permutation(run["score"].to_numpy()))
        shuffled.to_csv(folder / name, sep=" ", header=False, index=False)
        others.append(str(folder / name))
    return {
        "trec": [str(RUN), "--qrels", str(QRELS)],
        "csv": [str(folder / "run.csv"), "--qrels", str(folder / "qrels.csv")],
        "parquet": [str(folder / "run.parquet"), "--qrels", str(folder / "qrels.parquet")],
        "compare 3 trec runs": [str(RUN), *others, "--qrels", str(QRELS), "-q"],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, default=HERE)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    sys.path.insert(0, str(options.tree))
    from pyspark.sql import DataFrame

    from ndcg_gui.cli.main import main as cli
    from ndcg_gui.core.sql.spark_engine import session

    collects = [0]
    plain = DataFrame.collect

    def counted(self):
        collects[0] += 1
        return plain(self)

    DataFrame.collect = counted
    spark = session("local[2]")
    context = spark.sparkContext
    pid = context._jvm.ProcessHandle.current().pid()
    tracker = context.statusTracker()
    with tempfile.TemporaryDirectory() as folder:
        cases = inputs(Path(folder))
        seen: dict[str, list[tuple[int, int, float, float, float]]] = {name: [] for name in cases}
        for _ in range(options.rounds):
            for name, args in cases.items():
                context.setJobGroup(f"probe-{name}-{time.monotonic_ns()}", name)
                group = context.getLocalProperty("spark.jobGroup.id")
                collects[0] = 0
                jvm, python, wall = jvm_cpu(pid), time.process_time(), time.perf_counter()
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    code = cli([*args, "--engine", "spark", "--spark-master", "local[2]"])
                assert code == 0, (name, code)
                seen[name].append((len(tracker.getJobIdsForGroup(group)), collects[0], jvm_cpu(pid) - jvm,
                                   time.process_time() - python, time.perf_counter() - wall))
    print(f"tree {options.tree}, rounds {options.rounds} (the first left out of the means)")
    for name, rows in seen.items():
        later = rows[1:] or rows
        mean = [sum(r[i] for r in later) / len(later) for i in (2, 3, 4)]
        print(f"{name:20s} jobs {rows[-1][0]:3d}  collects {rows[-1][1]:3d}  JVM CPU {mean[0]:5.2f} s  "
              f"Python CPU {mean[1]:5.2f} s  wall {mean[2]:5.2f} s  (first round: JVM {rows[0][2]:.2f} s)")


if __name__ == "__main__":
    main()
