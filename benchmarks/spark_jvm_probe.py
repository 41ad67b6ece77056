"""The CPU of Spark's JVM for a few scorings of the sample files (`score_files_with_spark`, local[2]):
the test suite's Spark tests run such queries. Run it as is, and with the JVM options that
tests/conftest.py sets, one after the other:

    .venv/bin/python benchmarks/spark_jvm_probe.py
    PYSPARK_SUBMIT_ARGS="--driver-java-options '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' pyspark-shell" \\
        .venv/bin/python benchmarks/spark_jvm_probe.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ndcg_gui.core import PRESETS
from ndcg_gui.core.sql.spark_engine import score_files_with_spark, session

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
RUN, QRELS = EXAMPLES / "sample.run", EXAMPLES / "sample.qrels"


def jvm_cpu(pid: int) -> float:
    """User + system seconds of the JVM so far (/proc: the JVM is not this process's to wait for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    start = time.time()
    spark = session("local[2]")
    pid = spark.sparkContext._jvm.ProcessHandle.current().pid()
    started = time.time()
    for name in ("trec_eval", "sklearn"):
        for k in (3, 10):
            score_files_with_spark(str(RUN), str(QRELS), PRESETS[name].with_(k=k), master="local[2]")
    print(f"start {started - start:.1f} s wall, 4 scorings {time.time() - started:.1f} s wall, "
          f"JVM CPU {jvm_cpu(pid):.1f} s, Python CPU {time.process_time():.1f} s, "
          f"PYSPARK_SUBMIT_ARGS={os.environ.get('PYSPARK_SUBMIT_ARGS', '(unset)')!r}")


if __name__ == "__main__":
    main()
