"""`ndcg-inspect --engine spark` (Spark in local mode; slow): the sample run and qrels as TREC text,
CSV, Parquet, a glob of parts and a hive-partitioned folder print what --engine duckdb and the
in-memory path print (the text format to the byte, every digit of the others to 1e-12), with the
same notes on stderr and nothing of Spark's; bad input is the same one line; without pyspark, Java
or Spark Connect's packages one line says what to install."""

from __future__ import annotations

import math
import sys

import pandas as pd
import pytest

from ndcg_gui.core.sql.inputs import how_named
from tests.test_cli_engine import QRELS, RUN, _cells, _frames, output

pytest.importorskip("pyspark")  # (make test installs the spark extra: never skipped there)

# One JVM for these on one worker; the Spark tests of core/sql are a group of their own, so that the
# two halves of Spark's tests run side by side, each worker with one JVM.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark-cli")]
MASTER = ("--spark-master", "local[2]")


@pytest.fixture(scope="module", autouse=True)
def spark():
    from ndcg_gui.core.sql.spark_engine import session

    return session("local[2]")  # one JVM for the module: each command below reuses it


def three_ways(capsys, run, qrels, *options) -> str:
    """Spark's output is DuckDB's and the in-memory one's (from the sample TREC files)."""
    want = output(capsys, RUN, "--qrels", QRELS, *options)
    duck = output(capsys, run, "--qrels", qrels, *options, "--engine", "duckdb")
    got = output(capsys, run, "--qrels", qrels, *options, "--engine", "spark", *MASTER)
    assert want[0] == 0, want
    said = [how_named(str(p)) for p in (run, qrels)]  # (a pattern: said by both engines)
    want = (want[0], want[1], "".join(f"ndcg-inspect: note: {s}\n" for s in said if s) + want[2])
    for other in (duck, got):
        assert (other[0], other[2]) == (want[0], want[2])  # (stderr: the same notes, no Spark logs)
        cells, want_cells = _cells(other[1]), _cells(want[1])
        assert len(cells) == len(want_cells) > 10
        for g, w in zip(cells, want_cells, strict=True):
            assert g == w or (isinstance(w, float) and math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-12)), \
                (g, w)
    if "--format" not in options:
        assert got[1] == want[1]
    return got[1]


def test_the_sample_as_trec_text_prints_as_duckdb_and_in_memory(capsys):
    printed = three_ways(capsys, RUN, QRELS)
    assert printed.splitlines()[1].split()[:3] == ["401", "30", "10"]


@pytest.mark.parametrize("options", [("--format", "json", "--preset", "sklearn", "-k", "3"),
                                     ("--format", "csv", "--preset", "jarvelin2002", "--query", "403")])
def test_tie_rules_that_need_the_file_order_and_other_formats(capsys, options):
    three_ways(capsys, RUN, QRELS, *options)


def test_the_summary_csv_is_the_in_memory_one(capsys, tmp_path):
    want, got = tmp_path / "want.csv", tmp_path / "got.csv"
    memory = output(capsys, RUN, "--qrels", QRELS, "-k", "7", "--summary-csv", want)
    spark = output(capsys, RUN, "--qrels", QRELS, "-k", "7", "--summary-csv", got, "--engine", "spark",
                   *MASTER)
    assert spark == memory and memory[0] == 0 and "426" in memory[2]
    a, b = pd.read_csv(want, dtype={"query": str}), pd.read_csv(got, dtype={"query": str})
    assert a[["query", "n_docs", "n_judged"]].equals(b[["query", "n_docs", "n_judged"]]) and len(a) == 25
    for column in ("dcg", "idcg", "ndcg"):
        assert all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12) for x, y in zip(a[column], b[column],
                                                                                     strict=True))


def test_csv_parquet_globs_and_hive_folders(capsys, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    run, qrels = _frames()
    run[["query", "doc", "score"]].rename(columns={"query": "qid", "doc": "docno"}).to_csv(
        tmp_path / "run.csv", index=False)
    qrels[["query", "doc", "grade"]].to_csv(tmp_path / "qrels.csv", index=False)
    three_ways(capsys, tmp_path / "run.csv", tmp_path / "qrels.csv", "-k", "20")
    qrels[["query", "doc", "grade"]].to_parquet(tmp_path / "qrels.parquet")
    half = len(run) // 2  # two parts, named in file order; the file order decides ties here
    run.iloc[:half][["query", "doc", "score"]].to_parquet(tmp_path / "part-0.parquet")
    run.iloc[half:][["query", "doc", "score"]].to_parquet(tmp_path / "part-1.parquet")
    three_ways(capsys, tmp_path / "part-*.parquet", tmp_path / "qrels.parquet", "--preset", "jarvelin2002")
    # A hive-partitioned folder: the query is in the folder names (query=401/...).
    pq.write_to_dataset(pa.Table.from_pandas(run[["query", "doc", "score"]], preserve_index=False),
                        tmp_path / "by-query", partition_cols=["query"])
    three_ways(capsys, tmp_path / "by-query", tmp_path / "qrels.parquet", "--format", "tsv")


def test_runs_of_blanks_tabs_comments_and_extra_fields(capsys, tmp_path):
    lines = RUN.read_text().splitlines()
    odd = [("  " if i % 3 == 0 else "") + line.replace(" ", "\t " if i % 2 else "  ")
           + (" x" if i % 5 == 0 else "") for i, line in enumerate(lines)]
    (tmp_path / "odd.run").write_text("# a comment\n\n" + "\n".join(odd) + "\n")
    three_ways(capsys, tmp_path / "odd.run", QRELS, "--format", "tsv")


def test_bad_input_is_the_same_one_line(capsys, tmp_path):
    (tmp_path / "a.run").write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n")
    (tmp_path / "b.run").write_text("# c\n2 Q0 a 1 3 t\n2  Q0 b 2 t\n")
    (tmp_path / "dup.run").write_text("1 Q0 a 1 3 t\n1 Q0 a 2 2 t\n")
    (tmp_path / "qrels").write_text("1 0 a 1\n")
    # (a pattern is named in one note first, issue 33: "*.run is a pattern ...: 3 files")
    for run, says, notes in [(tmp_path / "*.run", "b.run:3: 5 fields, but a TREC run line has 6", 1),
                             (tmp_path / "dup.run",
                              'dup.run:2: document "a" is listed twice for query "1" (first at line 1)', 0)]:
        seen = set()
        for engine in ("duckdb", "spark"):
            code, out, err = output(capsys, run, "--qrels", tmp_path / "qrels", "--engine", engine, *(
                MASTER if engine == "spark" else ()))
            assert (code, out) == (2, "")
            lines = err.splitlines()
            noted = [line for line in lines if line.startswith("ndcg-inspect: note: ")]
            errors = [line for line in lines if line not in noted]
            assert len(noted) == notes and err.endswith("\n"), err
            assert len(errors) == 1 and errors[0].startswith(f"ndcg-inspect: {says}"), err
            seen.add(err)
        assert len(seen) == 1, seen  # the same words, notes and error, on every engine
    # An empty id or score in Parquet: the words of the in-memory readers, on each engine.
    import pyarrow as pa
    import pyarrow.parquet as pq

    # A pair twice in Parquet: the first row that repeats one, as the in-memory readers say.
    pd.DataFrame({"query": ["1", "1", "2", "1"], "doc": ["a", "b", "a", "a"], "score": [4.0, 3, 2, 1]}
                 ).to_parquet(tmp_path / "twice.parquet")
    says = ('twice.parquet: row 4: document "a" is listed twice for query "1" (first at row 1); each '
            "document may appear once per query in a run\n")
    for engine in ((), ("--engine", "duckdb"), ("--engine", "spark", *MASTER)):
        assert output(capsys, tmp_path / "twice.parquet", "--qrels", tmp_path / "qrels", *engine) == (
            2, "", f"ndcg-inspect: {says}")
    for column, value, says in [("doc", None, "row 2: doc is empty; expected an id"),
                                ("score", None, "row 2: score is empty; expected a number"),
                                ("score", math.nan, "row 2: score is empty; expected a number"),
                                ("score", math.inf, 'row 2: score "inf" is not a finite number')]:
        rows = {"query": ["1", "1"], "doc": ["a", "b"], "score": [3.0, 2.0]}
        rows[column][1] = value
        pq.write_table(pa.table(rows), tmp_path / "empty.parquet")
        for engine in ((), ("--engine", "duckdb"), ("--engine", "spark", *MASTER)):
            code, out, err = output(capsys, tmp_path / "empty.parquet", "--qrels", tmp_path / "qrels",
                                    *engine)
            assert (code, out, err) == (2, "", f"ndcg-inspect: empty.parquet: {says}\n"), engine


def test_what_spark_needs_is_said_in_one_line(capsys, monkeypatch):
    for args, says in [
        (("--memory-limit", "1GB"), "--memory-limit is DuckDB's; Spark takes --spark-master local[N]"),
        (("--spark-master", "sc://localhost:15002"), "--spark-master sc://localhost:15002: Spark Connect "
                                                     "needs pip install 'pyspark[connect]'"),
    ]:
        if "sc://" in args[1]:  # (as on a machine without Spark Connect's packages)
            monkeypatch.setitem(sys.modules, "grpc", None)
        code, out, err = output(capsys, RUN, "--qrels", QRELS, "--engine", "spark", *args)
        assert (code, out) == (2, "")
        assert err.startswith(f"ndcg-inspect: {says}") and err.count("\n") == 1, err
    code, _, err = output(capsys, RUN, "--qrels", QRELS, "--spark-master", "local[1]", "--engine", "duckdb")
    assert (code, err) == (2, "ndcg-inspect: --spark-master goes with --engine spark\n")
    # Without Java (on PATH or JAVA_HOME) a new Spark does not start: said, and how to get it.
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    code, _, err = output(capsys, RUN, "--qrels", QRELS, "--engine", "spark", "--spark-master", "local[1]")
    assert code == 2 and err.startswith("ndcg-inspect: --engine spark needs a Java runtime, 17 or later "
                                        "(Debian: apt-get install openjdk-17-jre-headless)"), err


def test_without_pyspark_one_line_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark", None)  # `import pyspark` fails
    code, out, err = output(capsys, RUN, "--qrels", QRELS, "--engine", "spark")
    assert (code, out) == (2, "")
    assert err == ("ndcg-inspect: --engine spark needs pyspark and a Java runtime, 17 or later (Debian: "
                   "apt-get install openjdk-17-jre-headless): pip install 'ndcg-gui[spark]'\n")


def test_files_split_into_blocks_keep_their_order_and_line_numbers(capsys, spark, tmp_path):
    # Spark splits a big text file into blocks read apart (128 MB; 2,000 bytes here): the order of
    # the lines (the "file" tie rule, the queries' order) and a bad line's number span the blocks.
    lines = RUN.read_text().splitlines()
    (tmp_path / "bad.run").write_text("\n".join([*lines[:-3], "401 Q0 x 1 nan t", *lines[-3:]]) + "\n")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "2000")
    try:
        assert spark.read.text(str(RUN)).rdd.getNumPartitions() > 5
        three_ways(capsys, RUN, QRELS, "--preset", "jarvelin2002", "--format", "tsv")
        code, _, err = output(capsys, tmp_path / "bad.run", "--qrels", QRELS, "--engine", "spark", *MASTER)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert (code, err) == (2, f'ndcg-inspect: bad.run:{len(lines) - 2}: score "nan" (field 5) is not a '
                              'finite number; expected qid Q0 docno rank score tag\n')


def test_a_semicolon_csv_and_a_file_spark_cannot_read(capsys, tmp_path):
    run = _frames()[0]
    run[["query", "doc", "score"]].to_csv(tmp_path / "run.csv", index=False, sep=";")
    three_ways(capsys, tmp_path / "run.csv", QRELS, "-k", "5")
    (tmp_path / "qrels.parquet").write_bytes(b"not parquet at all\n" * 10)
    code, out, err = output(capsys, RUN, "--qrels", tmp_path / "qrels.parquet", "--engine", "spark", *MASTER)
    assert (code, out) == (2, "")
    assert err.startswith("ndcg-inspect: qrels.parquet: Spark: ") and err.count("\n") == 1, err


def test_a_whole_command_prints_nothing_of_spark_and_leaves_no_file(tmp_path):
    # In a process of its own: the JVM writes to the process's stderr itself (capsys sees only
    # Python's), and ndcg-inspect leaves by os._exit (no atexit clean-up).
    import os
    import subprocess
    import time

    temp = tmp_path / "tmp"
    temp.mkdir()
    done = subprocess.run([sys.executable, "-m", "ndcg_gui.cli", str(RUN), "--qrels", str(QRELS), "--engine",
                           "spark", "--spark-master", "local[1]", "--query", "401"], capture_output=True,
                          text=True, env={**os.environ, "TMPDIR": str(temp)}, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].split()[:3] == ["401", "30", "10"]
    assert done.stderr == ("ndcg-inspect: note: 1 query judged but without results, scored 0: \"424\"\n"
                           "ndcg-inspect: note: 1 query with results but no judgment, left out: \"426\"\n")
    for _ in range(100):  # (the JVM ends on its own once its stdin is closed)
        if not list(temp.iterdir()):
            break
        time.sleep(0.2)
    assert list(temp.iterdir()) == []


@pytest.mark.parametrize("options", [("-q",), ("--format", "json", "--missing", "skip", "-k", "5"),
                                     ("--baseline", "b", "--samples", "300", "--seed", "4")])
def test_runs_compared_by_spark_print_as_in_memory_and_duckdb(capsys, tmp_path, options):
    # The per-query NDCG from Spark, the statistics from scipy on those rows (issue 24): the same
    # figures as the in-memory comparison and DuckDB's, the same notes on stderr.
    from tests.test_cli_engine import _other_runs, _without_tie_orders, same_output

    a, b, again = _other_runs(tmp_path)
    want = output(capsys, RUN, a, b, again, "--qrels", QRELS, *options)
    assert "b (2)" in want[1], want
    for engine in (("--engine", "duckdb"), ("--engine", "spark", *MASTER)):
        got = output(capsys, RUN, a, b, again, "--qrels", QRELS, *options, *engine)
        same_output(got, _without_tie_orders(want), options)


# Last of the module (tests run in the file's order; the loadgroup scheduler keeps it): a master
# Spark cannot use stops the module's JVM first, and the next command would start and warm a new one.
def test_a_master_spark_cannot_use_is_said_in_one_line(capsys):
    code, out, err = output(capsys, RUN, "--qrels", QRELS, "--engine", "spark", "--spark-master", "bogus")
    assert (code, out) == (2, "")
    assert err == ("ndcg-inspect: --spark-master bogus: Spark did not start: Master must either be yarn or "
                   "start with spark, mesos, k8s, or local\n")
