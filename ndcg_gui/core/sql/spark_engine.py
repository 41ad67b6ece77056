"""The measure's SQL run by Spark SQL on files read where they lie: TREC run and qrels text, CSV
and Parquet (files, globs, hive-partitioned folders), on one machine (`local[*]`), a cluster
(`spark://…`, `yarn`, …) or a Spark Connect server (`sc://…`).

`score_files_with_spark` returns the DuckDB engine's `EngineResult`: `evaluate`'s per-query table, where each
query first appears, and the run's queries without any judgment. The file order (for the "file" and
"average" tie rules and the queries' order) comes from Spark's per-file metadata: a Parquet row's
file and `row_index`; a text line's file, block and place in its block. Bad input raises
`InputError`: one line naming the file (and the line, for TREC text). pyspark and Java are optional:
without them, one line says how to get them. Spark's own output never reaches the terminal.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import importlib.util
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import trec_text
from ndcg_gui.core.formats.csv_text import ALIASES, detect_delimiter
from ndcg_gui.core.formats.source import decode, head_bytes
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading.dispatch import sniff
from ndcg_gui.core.sql.duckdb_engine import (
    EngineResult,
    refuse_csv_row,
    refuse_infinite_gains,
    repeat_said,
    text_repeat,
    value_problem,
)
from ndcg_gui.core.sql.ndcg_sql import check_expressible, ndcg_sql

INSTALL = "pip install 'ndcg-gui[spark]'"
JAVA = "a Java runtime, 17 or later (Debian: apt-get install openjdk-17-jre-headless)"
CONNECT = "pip install 'pyspark[connect]'"
_TREC = {"trec_run": 6, "qrels": 4}  # fields a line has
_NUMBER_FIELD = {"trec_run": 4, "qrels": 3}  # (0-based) the score / the grade
_PARQUET = (".parquet", ".pq")
_BLOCK = 1 << 33  # rows of one file block stay below this (monotonically_increasing_id's per-partition part)


def session(master: str = "local[*]"):
    """The SparkSession of this process for `master` (made once; another master stops it first).
    A local or cluster JVM is started with its output going to a log file."""
    try:
        import pyspark  # noqa: F401  (lazy: optional extra)
    except ImportError:
        raise InputError(f"--engine spark needs pyspark and {JAVA}: {INSTALL}") from None
    from pyspark.sql import SparkSession  # lazy: optional extra

    if master.startswith("sc://"):
        return _connect(master)
    active = SparkSession.getActiveSession()
    if active is not None and active.sparkContext.master == master:
        return active
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise InputError(f"--engine spark needs {JAVA}; none found (java is not on PATH, JAVA_HOME unset)")
    if active is not None:
        active.stop()
    return _start(master)


def _start(master: str):
    from pyspark import SparkConf, SparkContext  # lazy: optional extra
    from pyspark.java_gateway import launch_gateway  # lazy: optional extra
    from pyspark.sql import SparkSession  # lazy: optional extra

    # Python workers (none for the SQL; RDD code in tests) run this interpreter, which has pyspark.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf = SparkConf().setMaster(master).setAppName("ndcg-inspect").setAll([
        ("spark.ui.enabled", "false"),
        ("spark.ui.showConsoleProgress", "false"),  # (the [Stage 0:> ...] bar on stderr)
        # A hive folder's `query=0401` stays the text "0401", not the number 401.
        ("spark.sql.sources.partitionColumnTypeInference.enabled", "false"),
        ("spark.sql.shuffle.partitions", str(_partitions(master))),
    ])
    # The JVM's stdout and stderr (start-up warnings, logs before the level is set) go to a file,
    # read for the reason when Spark does not start, and unlinked once it has (the JVM keeps
    # writing into it, unseen; `ndcg-inspect` leaves by os._exit, and the JVM, its stdin closed,
    # ends and removes its own folders for spills).
    handle, log = tempfile.mkstemp(prefix="ndcg-inspect-spark-", suffix=".log")
    try:
        with os.fdopen(handle, "ab") as sink:
            gateway = launch_gateway(conf, popen_kwargs={"stdout": sink, "stderr": sink})
        context = SparkContext(conf=conf, gateway=gateway)
    except Exception as exc:
        why = _last_line(Path(log)) or _first_line(exc)
        raise InputError(f"--spark-master {master}: Spark did not start: {why}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(log)
    context.setLogLevel("ERROR")
    atexit.register(_stop, context)  # (a script's exit: Spark stopped cleanly)
    return SparkSession(context)


def _stop(context) -> None:
    with contextlib.suppress(Exception):
        context.stop()


def _connect(url: str):
    """A Spark Connect session, or one line saying what it needs."""
    from pyspark.sql import SparkSession  # lazy: optional extra

    missing = [m for m in ("grpc", "grpc_status", "google.rpc") if not _importable(m)]
    if missing:
        raise InputError(f"--spark-master {url}: Spark Connect needs {CONNECT} ({missing[0]} is missing)")
    try:
        return SparkSession.builder.remote(url).getOrCreate()
    except Exception as exc:
        raise InputError(f"--spark-master {url}: {_first_line(exc)}") from None


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _partitions(master: str) -> int:
    """Shuffle partitions: a few per core on one machine (Spark's 200 are for clusters)."""
    if not master.startswith("local"):
        return 200
    inside = master[len("local"):].strip("[]").split(",")[0]
    cores = (os.cpu_count() or 1) if inside == "*" else (int(inside) if inside.isdigit() else 1)
    return max(2, 2 * cores)


def score_files_with_spark(run: str, qrels: str, measure: Measure,
                           master: str = "local[*]") -> EngineResult:
    """Every judged query of `run` scored against `qrels` by Spark SQL, as `evaluate(run, qrels,
    measure.per_query())` scores them."""
    return score_runs_with_spark([run], qrels, measure, master)[0]


def score_runs_with_spark(runs: list[str], qrels: str, measure: Measure,
                          master: str = "local[*]") -> list[EngineResult]:
    """Each of `runs` scored against `qrels` as `score_files_with_spark` scores it, the qrels read
    and checked once (runs compared). Each input's rows are kept (cached) while it is used: every
    query after its check reads them there, not the files again (a pass over a file is a job per
    query, and a TREC line's split, each time a query names the view)."""
    check_expressible(measure.per_query(), row_order=True)
    spark = session(master)
    kept: list = []  # (the cached rows not yet let go)
    qrels_rows = None
    try:
        results = []
        for run in runs:  # (a run's view before the qrels': its bad line is said first, as before)
            run_rows = _kept_view(spark, "run", run, "trec_run", "score")
            kept.append(run_rows)
            if qrels_rows is None:
                qrels_rows = _kept_view(spark, "qrels", qrels, "qrels", "grade")
                kept.append(qrels_rows)
                _refuse_infinite_gains(spark, qrels, measure, run)
            results.append(_scored(spark, measure, run))
            kept.remove(run_rows)
            _unkept(run_rows)
        return results
    finally:
        for rows in kept:
            _unkept(rows)


def _kept_view(spark, name: str, pattern: str, kind: str, number: str):
    """`_view`'s rows, read from the files once, as the view `name`: a Spark error said of `pattern`."""
    from py4j.protocol import Py4JError  # lazy: optional extra
    from pyspark.errors import PySparkException  # lazy: optional extra

    try:
        return _view(spark, name, pattern, kind, number)
    except (PySparkException, Py4JError) as exc:  # (a file Spark cannot read: said of that file)
        raise InputError(f"Spark: {_first_line(exc)}", pattern) from None


def _unkept(rows) -> None:
    """The cached rows let go (a stopped session has none left to free: nothing said of it, so
    the error that ended the scoring is the one the user sees)."""
    from py4j.protocol import Py4JError  # lazy: optional extra
    from pyspark.errors import PySparkException  # lazy: optional extra

    with contextlib.suppress(PySparkException, Py4JError):
        rows.unpersist()


def _refuse_infinite_gains(spark, qrels: str, measure: Measure, run: str) -> None:
    from py4j.protocol import Py4JError  # lazy: optional extra
    from pyspark.errors import PySparkException  # lazy: optional extra

    first = _local(_files(qrels)[0][0])
    try:
        # (a line of local text, a row of one Parquet file; of a URL or several Parquet files, the
        # input alone: Spark's row numbers there are not the file's)
        refuse_infinite_gains(lambda sql: [tuple(r) for r in spark.sql(sql).collect()], qrels, first, measure,
                              place=lambda row_order: _row_of(qrels, first, row_order))
    except (PySparkException, Py4JError) as exc:
        raise InputError(f"Spark: {_first_line(exc)}", run) from None


def _scored(spark, measure: Measure, run: str) -> EngineResult:
    """The views `run` and `qrels` scored: the per-query table and the run's unjudged queries."""
    from py4j.protocol import Py4JError  # lazy: optional extra
    from pyspark.errors import PySparkException  # lazy: optional extra

    try:
        table = to_frame(spark.sql(ndcg_sql(measure.per_query(), row_order=True)))
        unjudged = [row[0] for row in spark.sql(
            "SELECT r.query FROM run r LEFT JOIN (SELECT DISTINCT query FROM qrels) q "
            "ON q.query = r.query WHERE q.query IS NULL GROUP BY r.query ORDER BY MIN(r.row_order)"
        ).collect()]
    except (PySparkException, Py4JError) as exc:
        raise InputError(f"Spark: {_first_line(exc)}", run) from None
    return EngineResult(table, unjudged)


def to_frame(result):
    """A Spark result (one row a query: small) as a pandas table. (Collected as rows: PySpark 3.5's
    toPandas warns under pandas 3, and NULL of a count becomes NaN here all the same.)"""
    import pandas as pd  # lazy: start-up (the command line without pandas until rows come back)

    return pd.DataFrame(result.collect(), columns=result.columns)


def _view(spark, name: str, pattern: str, kind: str, number: str):
    """Temporary view `name` (query, doc, <number>, row_order) of the files of `pattern`, its rows
    cached (filled by the check, which reads every row; returned, to be unpersisted)."""
    from pyspark.sql import functions as F  # lazy: optional extra

    files, folder = _files(pattern)
    first = files[0]
    text_kind = _kind(first, kind)
    if text_kind == "parquet":
        frame = spark.read.parquet(*([pattern] if folder else files))
        columns = _roles(frame.columns, first, number)
        frame = frame.select("*", F.col("_metadata.file_path").alias("_ndcg_file"),
                             F.col("_metadata.row_index").alias("_ndcg_row"))
        # (one file: its rows' places are the order; several: their files' places first)
        one = len(files) == 1 and not folder and not glob.has_magic(files[0])  # (a URL's glob: many)
        order = frame["_ndcg_row"] if one else \
            _file_numbers(frame) * (1 << 40) + frame["_ndcg_row"]
        rows = _typed(frame, columns, number, order, _parquet_ids(frame, columns, number, first, order))
    elif text_kind == "csv":
        sep = detect_delimiter(decode(Path(first), head_bytes(first))) if "://" not in first else ","
        frame = (spark.read.option("header", "true").option("inferSchema", "false")
                 .option("sep", sep or ",").csv(files))
        columns = _roles(frame.columns, first, number)
        frame = _with_line_order(spark, frame)[0]
        from pyspark.sql import functions as F  # lazy: optional extra

        # Spaces and tabs around an id dropped, as the in-memory CSV reader and DuckDB drop them:
        # "d1 " is the id d1 on every engine.
        quoted = {role: "`" + columns[role].replace("`", "``") + "`" for role in ("query", "doc")}
        # (an id of spaces only is then empty: missing, as an empty cell is, and refused)
        ids = {role: F.expr(f"NULLIF(trim(BOTH ' \t' FROM CAST({name} AS STRING)), '')")
               for role, name in quoted.items()}
        rows = _typed(frame, columns, number, frame["row_order"], ids)
    elif text_kind == kind:  # (its numbers and ids checked line by line as it is read)
        rows = _trec_rows(spark, files, kind, number)
    else:
        want = "a TREC run" if kind == "trec_run" else "TREC qrels"
        raise InputError(f"is {text_kind.replace('_', ' ')}, not {want}, CSV or Parquet", first)
    if number == "grade" and text_kind != kind:
        # A row without a grade is unjudged, left out as the in-memory reader and DuckDB leave it
        # (a NaN in CSV is the text "nan": refused); kept when an id is missing too, to be refused.
        empty = rows.grade.isNull() | (F.isnan(rows.grade) if text_kind == "parquet" else F.lit(False))
        rows = rows.where(~empty | rows.query.isNull() | rows.doc.isNull())
    rows = rows.cache()
    rows.createOrReplaceTempView(name)
    try:
        _check(spark, name, pattern, first, number)
    except BaseException:
        _unkept(rows)
        raise
    return rows


def _parquet_ids(frame, columns: dict[str, str], number: str, first: str, order) -> dict:
    """The id columns of a Parquet input read as the in-memory reader reads them
    (`core.formats.columnar`, as DuckDB's `_read_alike`): a float id of a whole number is that
    integer's text, another float id is refused; a number column of another type is refused."""
    from pyspark.sql import functions as F  # lazy: optional extra
    from pyspark.sql.types import DoubleType, FloatType  # lazy: optional extra

    # lazy: columnar imports pyarrow, which Spark's own reading does not need
    from ndcg_gui.core.formats.columnar import float_id_problem, number_type_problem

    if "://" not in first:
        import pyarrow.parquet as pq  # lazy: local files' schema, in the in-memory reader's words

        schema = pq.read_schema(first)
        if columns[number] in schema.names:
            problem = number_type_problem(number, schema.field(columns[number]).type)
            if problem is not None:
                raise InputError(f"row 1: {problem}", first)
    out = {}
    for role in ("query", "doc"):
        column = frame["`" + columns[role].replace("`", "``") + "`"]
        if not isinstance(frame.schema[columns[role]].dataType, (FloatType, DoubleType)):
            continue
        value = column.cast("double")
        whole = (~F.isnan(value)) & (F.abs(value) < F.lit(2.0**53)) & (F.floor(value) == value)
        bad = frame.where(column.isNotNull() & ~whole).select(order.alias("o"), value.alias("v")) \
            .orderBy("o").limit(1).collect()
        if bad:
            row = int(bad[0]["o"]) % (1 << 40)
            raise InputError(f"row {row + 1}: {float_id_problem(role, float(bad[0]['v']))}", first)
        out[role] = value.cast("bigint").cast("string")
    return out


def _typed(frame, columns: dict[str, str], number: str, order, ids: dict | None = None):
    """query and doc as text (`ids`: their expressions, where not a plain cast), the number as a
    double, and the order, from the columns found."""
    def column(role: str):
        if ids and role in ids:
            return ids[role]
        return frame["`" + columns[role].replace("`", "``") + "`"].cast("string")

    return frame.select(column("query").alias("query"),
                        column("doc").alias("doc"),
                        column(number).cast("double").alias(number), order.cast("bigint").alias("row_order"))


def _files(pattern: str) -> tuple[list[str], bool]:
    """The files of `pattern` in order (a glob sorted; a folder's Parquet files), and whether it is a
    folder. A URL (hdfs://, s3a://, …) goes to Spark as it is."""
    if "://" in pattern:
        return [pattern], pattern.endswith("/")
    if Path(pattern).is_dir():  # a (hive-partitioned) folder of Parquet files: `query=401/part-0.parquet`
        files = sorted(str(p) for p in Path(pattern).rglob("*") if p.suffix.lower() in _PARQUET)
        if not files:
            raise InputError("is a folder without Parquet files (*.parquet) in it", pattern)
        return files, True
    files = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
    if not files:
        raise InputError("no file matches this pattern", pattern)
    if not Path(files[0]).is_file():
        raise InputError("no such file" if not Path(files[0]).exists() else "is not a file", files[0])
    return files, False


def _kind(path: str, expected: str) -> str:
    """"parquet", "csv", or `sniff`'s kind of a local file; a URL's by its name (TREC text: `expected`)."""
    lower = path.lower().rstrip("/")
    if lower.endswith(_PARQUET) or (("://" in path) and path.endswith("/")):
        return "parquet"
    if "://" in path:  # (not read here)
        return "csv" if lower.endswith(".csv") else expected
    try:
        return sniff(decode(Path(path), head_bytes(path)))
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path) from None


def _local(uri: str) -> str:
    """A file URI as Spark writes it (`file:/tmp/a%20b.run`) as the path it names."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme in ("file", "") else uri


def _file_numbers(frame):
    """A column: each row's file's place among the input's files (sorted by path, as a glob)."""
    from pyspark.sql import functions as F  # lazy: optional extra

    paths = sorted((r[0] for r in frame.select("_ndcg_file").distinct().collect()), key=_local)
    places = F.create_map(*[x for i, p in enumerate(paths) for x in (F.lit(p), F.lit(i))])
    return places[frame["_ndcg_file"]].cast("bigint")


def _with_line_order(spark, frame, bad=None):
    """(`frame` (read from text files) with `row_order`, growing down each file and from file to
    file, and `line`, a row's number in its own file, counted in the rows Spark gives: every line
    for text, every line past the header for CSV; the `line` and `_mid` of the first row where
    `bad` holds, or None). A row's place comes from its file block (Spark splits big files) and its
    place in that block, found in one pass over the rows."""
    from pyspark.sql import functions as F  # lazy: optional extra

    frame = frame.select("*", F.col("_metadata.file_path").alias("_file"),
                         F.col("_metadata.file_block_start").alias("_block"),
                         F.monotonically_increasing_id().alias("_mid"))
    bad_mid = F.min(F.when(bad, frame["_mid"])) if bad is not None else F.lit(None).cast("bigint")
    blocks = frame.groupBy("_file", "_block").agg(F.min("_mid").alias("_first"), F.count("*").alias("_n"),
                                                  bad_mid.alias("_bad")).collect()
    blocks.sort(key=lambda b: (_local(b["_file"]), b["_block"]))
    table, before, last, first_bad = [], 0, None, None
    for number, b in enumerate(blocks):
        before = 0 if b["_file"] != last else before
        table.append((b["_file"], b["_block"], number, b["_first"], before))
        if first_bad is None and b["_bad"] is not None:
            first_bad = (before + b["_bad"] - b["_first"] + 1, b["_bad"])
        before, last = before + b["_n"], b["_file"]
    known = spark.createDataFrame(
        table, "_file string, _block bigint, _no bigint, _first bigint, _before bigint")
    joined = frame.join(F.broadcast(known), ["_file", "_block"])
    at = joined["_mid"] - joined["_first"]
    ordered = joined.withColumn("row_order", joined["_no"] * _BLOCK + at).withColumn(
        "line", joined["_before"] + at + 1)
    return ordered, first_bad


def _trec_rows(spark, files: list[str], kind: str, number: str):
    """TREC text split at runs of blanks, comments and blank lines skipped, fields past the last
    ignored (as trec_eval); a short line or a number that is not finite raises `InputError` naming
    its file and line."""
    from pyspark.sql import functions as F  # lazy: optional extra

    stripped = F.regexp_replace("value", r"^[ \t\r]+|[ \t\r]+$", "")
    fields = F.split(stripped, r"[ \t\r]+")
    value = fields[_NUMBER_FIELD[kind]].cast("double")
    kept = (stripped != "") & ~stripped.startswith("#")
    bad = kept & ((F.size(fields) < _TREC[kind]) | value.isNull() | F.isnan(value)
                  | (F.abs(value) == float("inf")))
    lines, first_bad = _with_line_order(spark, spark.read.text(files), bad)
    if first_bad is not None:
        line, mid = first_bad
        row = lines.where(lines["_mid"] == mid).select(fields.alias("f"), "_file").collect()[0]
        raise InputError(trec_text.describe_line(list(row["f"]), kind), _local(row["_file"]), int(line))
    lines = lines.where(kept).select(fields.alias("f"), "row_order")
    return lines.select(F.col("f")[0].alias("query"), F.col("f")[2].alias("doc"),
                        F.col("f")[_NUMBER_FIELD[kind]].cast("double").alias(number), "row_order")


def _roles(names: list[str], path: str, number: str) -> dict[str, str]:
    """The columns that hold query, doc and `number`, by the names the CSV reader knows."""
    found = {}
    for role in ("query", "doc", number):
        for name in names:
            if name.strip().lower() in ALIASES[role]:
                found[role] = name
                break
        else:
            raise InputError(f"has no {role} column (one of {', '.join(ALIASES[role])}); "
                             f"its columns: {', '.join(names)}", path)
    return found


def _check(spark, name: str, pattern: str, path: str, number: str) -> None:
    """What the in-memory readers refuse too, in one pass: a missing id, a number that is not
    finite (said first), a (query, doc) pair twice."""
    invalid = f"({number} IS NULL OR isnan({number}) OR abs({number}) = CAST('Infinity' AS DOUBLE))"
    found = spark.sql(f"""
        SELECT query, doc, bad, value, n FROM (
            SELECT query, doc, COUNT(*) AS n, MAX(CASE WHEN {invalid} THEN 1 ELSE 0 END) AS bad,
                   MAX(CASE WHEN {invalid} THEN {number} END) AS value
            FROM {name} GROUP BY query, doc) pairs
        WHERE n > 1 OR bad = 1 OR query IS NULL OR doc IS NULL
        ORDER BY CASE WHEN n > 1 AND bad = 0 AND query IS NOT NULL AND doc IS NOT NULL THEN 1 ELSE 0 END
        LIMIT 1""").collect()
    if not found:
        return
    query, doc, bad, value, _ = found[0]
    if query is None or doc is None or bad:
        # The first bad row, in the in-memory readers' (and DuckDB's) words.
        query, doc, value, row_order = spark.sql(f"""
            SELECT query, doc, {number}, row_order FROM {name}
            WHERE query IS NULL OR doc IS NULL OR {invalid}
            ORDER BY CASE WHEN query IS NULL OR doc IS NULL THEN 0 ELSE 1 END, row_order
            LIMIT 1""").collect()[0]
        problem = value_problem(query, doc, value, number, path.lower().endswith(_PARQUET))
        files = _files(pattern)[0]
        if not any("://" in f for f in files) and _kind(path, "") == "csv":
            refuse_csv_row(files, query, doc, value, number)  # (its line, as DuckDB finds it)
        row = _row_of(pattern, path, row_order)
        raise InputError(problem if row is None else f"row {row}: {problem}", path)
    raise _repeated(spark, name, pattern, path, number)


def _row_of(pattern: str, path: str, row_order: int) -> int | None:
    """The 1-based row of Parquet `path` that `row_order` is, when the input is that one file
    (`_view` then numbers rows by their place in it); None otherwise."""
    files, folder = _files(pattern)
    one = len(files) == 1 and not folder and not glob.has_magic(files[0])
    return row_order + 1 if one and path.lower().endswith(_PARQUET) else None


def _repeated(spark, name: str, pattern: str, path: str, number: str) -> InputError:
    """The pair of the first row that repeats one (as the in-memory readers and DuckDB name it),
    in their words: by rows in one Parquet file, by lines in local TREC text."""
    query, doc, first_row, row_order = spark.sql(f"""
        SELECT query, doc, first_row, row_order FROM (
            SELECT query, doc, row_order, MIN(row_order) OVER (PARTITION BY query, doc) AS first_row,
                   ROW_NUMBER() OVER (PARTITION BY query, doc ORDER BY row_order) AS n
            FROM {name}) repeats
        WHERE n = 2 ORDER BY row_order LIMIT 1""").collect()[0]
    files, _ = _files(pattern)
    if path.lower().endswith(_PARQUET):
        row = _row_of(pattern, path, row_order)
        if row is not None:
            first = f"row {first_row + 1}"  # (one file: row_order is its row)
            return InputError(f"row {row}: {repeat_said(query, doc, number, first)}", path)
        return InputError(repeat_said(query, doc, number, None), path)
    if any("://" in file for file in files):
        return InputError(repeat_said(query, doc, number, None), path)
    return text_repeat(files, path, number, query, doc)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__


def _last_line(log: Path) -> str:
    """The JVM's reason in its log: the message of the last exception, else the last line that
    is not a stack frame."""
    with contextlib.suppress(OSError):
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines()]
        lines = [line for line in lines if line and not line.startswith(("at ", "..."))]
        for line in reversed(lines):
            match = re.search(r"(?:Exception|Error): (.+)", line)
            if match:
                return match.group(1)
        return lines[-1] if lines else ""
    return ""
