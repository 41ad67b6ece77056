"""The measure's SQL run by DuckDB on files read where they lie: TREC run and qrels text, CSV
and Parquet (files or globs), larger than memory (DuckDB spills to disk under `memory_limit`).

`score_files` returns `evaluate`'s per-query table plus where each query first appears (so the
command line lists them in file order, as the in-memory path does), and the queries of the run
without any judgment. Bad input raises `InputError`: one line naming the file (and the line
DuckDB's CSV reader names). DuckDB is an optional extra: without it, one line says how to get it.
"""

from __future__ import annotations

import contextlib
import csv
import glob
import gzip
import itertools
import math
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ndcg_gui.core.errors import InputError, path_problem, shown
from ndcg_gui.core.formats import trec_text
from ndcg_gui.core.formats.csv_text import ALIASES, detect_delimiter
from ndcg_gui.core.formats.number_text import is_finite_number, number_problem
from ndcg_gui.core.formats.rows import empty_id_problem
from ndcg_gui.core.formats.source import decode, head_bytes
from ndcg_gui.core.reading.dispatch import sniff
from ndcg_gui.core.sql.cache_files import move_new
from ndcg_gui.core.sql.inputs import INSTALL_DUCKDB as INSTALL
from ndcg_gui.core.sql.inputs import PARQUET as _PARQUET
from ndcg_gui.core.sql.inputs import files_of, is_folder
from ndcg_gui.core.sql.ndcg_sql import check_expressible, ndcg_steps
from ndcg_gui.core.sql.progress import Cancelled, Report, Steps, watching
from ndcg_gui.core.sql.text_rows import Irregular, write_trec

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.ndcg.measure import Measure

_TREC = {  # the columns of each TREC text file, read as text (ids) and numbers
    "trec_run": ("query", "q0", "doc", "rank", "score", "tag"),
    "qrels": ("query", "iter", "doc", "grade"),
}


@dataclass(frozen=True)
class EngineResult:
    table: pd.DataFrame  # query + evaluate's RESULT_COLUMNS + first_row, first_judged; sorted by query
    unjudged: list[str]  # queries of the run without any judgment, in order of first appearance
    # Where each of `unjudged` first appears (`row_order`), so a window can place them among the
    # others; None from a cache written before it was kept.
    unjudged_rows: list[int] | None = None


def connect(memory_limit: str | None = None, threads: int | None = None, database: str = ":memory:"):
    """A DuckDB connection with its limits, or `InputError` saying how to install DuckDB."""
    try:
        import duckdb  # lazy: optional extra
    except ImportError:
        raise InputError(f"--engine duckdb needs DuckDB: {INSTALL}") from None
    con = duckdb.connect(database)
    try:
        if memory_limit is not None:
            con.execute(f"SET memory_limit = {_text(memory_limit)}")
        if threads is not None:
            con.execute(f"SET threads = {int(threads)}")
    except duckdb.Error as exc:
        con.close()
        raise InputError(f"--memory-limit/--threads: {_first_line(exc)}") from None
    return con


def score_files(run: str, qrels: str, measure: Measure, memory_limit: str | None = None,
                threads: int | None = None, progress: Report | None = None) -> EngineResult:
    """Every judged query of `run` scored against `qrels` by DuckDB, as `evaluate(run, qrels,
    measure.per_query())` scores them. `progress(step, percent)` is told how far the job has come
    (`core.sql.progress`); when it returns False the job stops with `Cancelled`."""
    check_expressible(measure.per_query(), row_order=True)
    return _job(run, ("run", "qrels"), memory_limit, threads, progress,
                lambda con, split, steps, spill: _scored(con, run, qrels, measure, split, steps, spill))


def copy_rows(pattern: str, trec_kind: str, target: Path, memory_limit: str | None = None,
              threads: int | None = None, progress: Report | None = None,
              metadata: dict[str, str] | None = None) -> Path:
    """The rows of a text input (TREC text or CSV: a run, `trec_kind` "trec_run", or qrels) as
    Parquet file `target` (its footer holding `metadata`): query, doc and the number, in file
    order, checked as `score_files` checks them (bad input: `InputError` naming the text file and
    line). So a window reads one query's rows with Parquet's statistics instead of a scan of the
    text. Written in the job's own folder, then renamed to `target` as a new file
    (`cache_files.move_new`: nothing at the name is written through); where `target` takes no
    file, to a new file of the temporary folder. Returns where the copy is."""
    number = "score" if trec_kind == "trec_run" else "grade"
    kv = ", KV_METADATA {" + ", ".join(f"{_text(k)}: {_text(v)}" for k, v in (metadata or {}).items()) + "}" \
        if metadata else ""

    def work(con, split: bool, steps: Steps, spill: Path) -> Path:
        steps(f"reading {Path(pattern).name}")
        first = _table(con, "rows", pattern, trec_kind, number, spill, steps, split)
        if con.sql("SELECT 1 FROM rows WHERE odd LIMIT 1").fetchall():
            raise Irregular
        steps(f"checking {Path(first).name}")
        _check(con, "rows", pattern, first, number)
        made = spill / "copy.parquet"  # (the job's folder: no one else's name)
        con.execute(f"COPY (SELECT query, doc, {number} FROM rows) TO {_text(str(made))} "
                    f"(FORMAT parquet{kv})")
        if move_new(made, target):
            return target
        fd, other = tempfile.mkstemp(prefix=".ndcg-rows-", suffix=".parquet")
        os.close(fd)
        if not move_new(made, Path(other)):
            raise InputError("cannot write a copy of its rows here nor in the temporary folder", pattern)
        return Path(other)

    return _job(pattern, ("rows",), memory_limit, threads, progress, work)


def _job(first_input: str, names: tuple[str, ...], memory_limit: str | None, threads: int | None,
         progress: Report | None, work):
    """`work(con, split, steps, spill)` on a connection to a database in a temporary folder (its
    spill files and text read as Parquet there; removed after), once more with text split line by
    line (`split`) when DuckDB's CSV parser cannot read it; DuckDB's errors as `InputError`."""
    spill = tempfile.mkdtemp(prefix="ndcg-inspect-duckdb-")
    try:
        # Text rows are read once into a Parquet file beside the spill files; the parts of the
        # query are tables in a database file there (on disk: larger than memory).
        con = connect(memory_limit, threads, str(Path(spill) / "rows.duckdb"))
    except BaseException:
        shutil.rmtree(spill, ignore_errors=True)
        raise
    import duckdb  # lazy: optional extra

    try:
        con.execute(f"SET temp_directory = {_text(spill)}")
        with watching(con, progress) as steps:
            # TREC text is read by DuckDB's CSV parser when its fields are split by one space or one
            # tab (most files); otherwise (runs of blanks, indented lines, extra fields) line by line.
            for split in (False, True):
                try:
                    return work(con, split, steps, Path(spill))
                except Irregular:  # (an empty field: read line by line)
                    pass
                except duckdb.Error as exc:
                    if steps.stopped:
                        raise Cancelled from None
                    if split or "CSV Error" not in str(exc):
                        raise _input_error(exc, first_input) from None
                for name in names:
                    for table in (name, f"{name}_lines", f"{name}_read", f"{name}_read_lines"):
                        for kind in ("TABLE", "VIEW"):  # (a view of Parquet, or a table of split text)
                            with contextlib.suppress(duckdb.Error):
                                con.execute(f"DROP {kind} IF EXISTS {table}")
        raise AssertionError("unreachable")
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)


def _scored(con, run: str, qrels: str, measure: Measure, split: bool, steps: Steps,
            spill: Path) -> EngineResult:
    steps(f"reading {Path(run).name}")
    run_from = _table(con, "run", run, "trec_run", "score", spill, steps, split)
    steps(f"reading {Path(qrels).name}")
    qrels_from = _table(con, "qrels", qrels, "qrels", "grade", spill, steps, split)
    for name in ("run", "qrels"):
        # An empty field (two blanks in a row, a blank at the start) shifts the others in DuckDB's
        # CSV parser: such a file is read line by line.
        if con.sql(f"SELECT 1 FROM {name} WHERE odd LIMIT 1").fetchall():
            raise Irregular
    for name, pattern, path, number in (("run", run, run_from, "score"),
                                        ("qrels", qrels, qrels_from, "grade")):
        steps(f"checking {Path(path).name}")
        _check(con, name, pattern, path, number)
    refuse_infinite_gains(lambda sql: con.sql(sql).fetchall(), qrels, qrels_from, measure)
    steps("scoring")
    # Part by part, each a table (on disk, in the job's database) before the next: as one query
    # every part's joins and windows held memory at once (a big run ran out of the limit).
    parts, final = ndcg_steps(measure.per_query(), row_order=True)
    for i, (name, select) in enumerate(parts):
        steps.part(i, len(parts) + 1)
        con.execute(f"CREATE OR REPLACE TABLE {name} AS {select}")
    steps.part(len(parts), len(parts) + 1)
    table = con.sql(final).df()
    steps("finding the queries without judgments")
    unjudged = con.sql(
        "SELECT r.query, MIN(r.row_order) AS first_row FROM run r LEFT JOIN (SELECT DISTINCT query "
        "FROM qrels) q ON q.query = r.query WHERE q.query IS NULL GROUP BY r.query ORDER BY first_row"
    ).df()
    return EngineResult(table, unjudged["query"].tolist(), [int(r) for r in unjudged["first_row"]])


def _table(con, name: str, pattern: str, trec_kind: str, number: str, spill: Path, steps: Steps,
           split: bool = False) -> str:
    """Make view `name` (query, doc, <number>, row_order, odd) of the files of `pattern` (`odd`:
    the line has an empty field; text is read into a Parquet file in `spill`, told to `steps`);
    returns the first file (for messages). Of qrels, a row without a grade (an empty CSV cell; a
    null or NaN in Parquet) is left out: it is unjudged, as the in-memory reader reads it
    (`dispatch.read_pool`), not a judgment to refuse. A row whose ids or line are also wrong is
    kept, so the checks refuse it as that reader does."""
    if number != "grade":
        return _read_table(con, name, pattern, trec_kind, number, spill, steps, split)
    first = _read_table(con, f"{name}_read", pattern, trec_kind, number, spill, steps, split)
    # (NaN in CSV or TREC text is the text "nan": refused by the checks, as that reader refuses it)
    empty = "grade IS NULL OR isnan(grade)" if first.lower().endswith(_PARQUET) else "grade IS NULL"
    con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM {name}_read "
                f"WHERE odd OR query IS NULL OR doc IS NULL OR NOT ({empty})")
    return first


def _read_table(con, name: str, pattern: str, trec_kind: str, number: str, spill: Path, steps: Steps,
                split: bool = False) -> str:
    """Make table or view `name` of every row of the files of `pattern`, as `_table` says."""
    folder = is_folder(pattern)  # a (hive-partitioned) folder of Parquet: `query=401/part-0.parquet`
    files = files_of(pattern)
    if folder and not files:
        raise InputError("is a folder without Parquet files (*.parquet) in it", pattern)
    if not files:
        raise InputError("no file matches this pattern", pattern)
    first = files[0]
    try:
        os.stat(first)
    except OSError as exc:  # (no such file, a name too long, a link that loops)
        raise InputError(path_problem(exc), first) from None
    if not Path(first).is_file():
        raise InputError("is not a file", first)
    listed, named = duck_files(files)
    if first.lower().endswith(_PARQUET):
        # Read where it lies (no copy): Parquet is quick to scan again, and says each row's file
        # and place in it, which give the file order.
        source = (f"read_parquet({listed}, hive_partitioning={'true' if folder else 'false'}, "
                  "filename=true, file_row_number=true)")
        columns = _roles(con, source, first, number)
        ids = _read_alike(con, source, files, named, columns, number)
        con.execute(
            f"CREATE VIEW {name} AS SELECT {ids['query']} AS query, "
            f"{ids['doc']} AS doc, CAST({columns[number]} AS DOUBLE) AS {number}, "
            f"CAST(list_position({named}, filename) AS BIGINT) * {1 << 40} + file_row_number AS row_order, "
            f"FALSE AS odd FROM {source}"
        )
        return first
    else:
        kind = _kind(first)
        listed += _gzip_option(files)  # (for read_csv)
        if kind == trec_kind and split:
            _split_table(con, name, listed, kind, number)
            return first
        if kind == trec_kind and write_trec(files, kind, spill / f"{name}.parquet", steps):
            # (most files: fields split by one blank each) parsed by pyarrow, quicker than DuckDB
            _rows_view(con, name, spill / f"{name}.parquet", number, "FALSE")
            return first
        if kind == trec_kind:
            names = _TREC[kind]
            types = ", ".join(f"'{c}': '{'DOUBLE' if c == number else 'VARCHAR'}'" for c in names)
            sep = trec_text.separator(decode(Path(first), head_bytes(first)))
            source = (f"read_csv({listed}, delim={_text(sep)}, header=false, columns={{{types}}}, "
                      "comment='#', quote='', escape='', auto_detect=false)")
            columns = {"query": "query", "doc": "doc", number: number,
                       "odd": "(" + " OR ".join(f"{c} IS NULL" for c in names) + ")"}
        elif kind == "csv":
            source = f"read_csv({listed}, header=true)"
            columns = _roles(con, source, first, number)
            # Ids as the text they are (0401 is not 401), as the in-memory CSV reader reads them.
            as_text = ", ".join(f"{_text(_unquoted(columns[r]))}: 'VARCHAR'" for r in ("query", "doc"))
            source = f"read_csv({listed}, header=true, types={{{as_text}}})"
            # Spaces and tabs around an id dropped, as the in-memory CSV reader drops them
            # (`csv_text._ids`): "d1 " is the id d1 on both engines. (That reader keeps a quoted
            # id exactly; read_csv does not say which cells were quoted, so here a quoted id with
            # spaces at its edges is trimmed too.)
            # An id of spaces only is then empty: missing, as an empty cell is (NULL, refused).
            for role in ("query", "doc"):
                columns[role] = f"NULLIF(trim(CAST({columns[role]} AS VARCHAR), chr(32) || chr(9)), '')"
        else:
            want = "a TREC run" if trec_kind == "trec_run" else "TREC qrels"
            raise InputError(f"is {kind.replace('_', ' ')}, not {want}, CSV or Parquet", first)
    # Text is parsed once into a Parquet file, then scanned where it lies as Parquet input is: the
    # checks and the query scan the rows several times (writing the file cost less than loading
    # a table). Rows are written in the order read (DuckDB keeps insertion order), so each
    # row's place in the file is its line's. (`ROW_NUMBER() OVER ()` in the read made it one
    # thread's work: about twice as slow on qrels.)
    rows = spill / f"{name}.parquet"
    con.execute(
        f"COPY (SELECT CAST({columns['query']} AS VARCHAR) AS query, "
        f"CAST({columns['doc']} AS VARCHAR) AS doc, CAST({columns[number]} AS DOUBLE) AS {number}, "
        f"{columns.get('odd', 'FALSE')} AS odd FROM {source}) TO {_text(str(rows))} "
        "(FORMAT parquet, COMPRESSION snappy)"
    )
    _rows_view(con, name, rows, number, "odd")
    return first


def _rows_view(con, name: str, rows: Path, number: str, odd: str) -> None:
    """View `name` of text rows written to Parquet file `rows` in file order: each row's place
    in the file is its row number."""
    con.execute(f"CREATE VIEW {name} AS SELECT query, doc, {number}, file_row_number + 1 AS row_order, "
                f"{odd} AS odd FROM read_parquet({duck_files([str(rows)])[0]}, file_row_number=true)")


def _split_table(con, name: str, listed: str, kind: str, number: str) -> None:
    """Table `name` of TREC text split line by line at runs of blanks (comments and blank lines
    skipped, fields past the last ignored, as trec_eval does); a line that is short of a field or
    has a number that is not finite raises `InputError` naming its file and line."""
    names = _TREC[kind]
    at = names.index(number) + 1
    blanks = "' ' || chr(9) || chr(13)"  # space, tab, carriage return
    con.execute(
        f"CREATE VIEW {name}_lines AS SELECT file, row_order, "
        f"regexp_split_to_array(trim(line, {blanks}), '[ \\t]+') AS f "
        "FROM (SELECT filename AS file, line, ROW_NUMBER() OVER () AS row_order "
        f"      FROM read_csv({listed}, delim=chr(31), header=false, columns={{'line': 'VARCHAR'}}, "
        "                     quote='', escape='', auto_detect=false, filename=true)) lines "
        f"WHERE line IS NOT NULL AND trim(line, {blanks}) <> '' "
        f"AND NOT starts_with(ltrim(line, {blanks}), '#')"
    )
    value = f"TRY_CAST(f[{at}] AS DOUBLE)"
    bad = con.sql(f"SELECT file, row_order, f FROM {name}_lines WHERE len(f) < {len(names)} "
                  f"OR {value} IS NULL OR NOT isfinite({value}) ORDER BY row_order LIMIT 1").fetchall()
    if bad:
        file, row_order, fields = bad[0]
        # Its line in its own file: the lines of the files before it counted off.
        before = con.sql(f"SELECT COUNT(*) FROM read_csv({listed}, delim=chr(31), header=false, "
                         "columns={'line': 'VARCHAR'}, quote='', escape='', auto_detect=false, "
                         f"filename=true) WHERE filename < {_text(file)}").fetchall()[0][0]
        raise InputError(trec_text.describe_line(list(fields), kind), file, int(row_order) - int(before))
    con.execute(f"CREATE TABLE {name} AS SELECT f[1] AS query, f[3] AS doc, {value} AS {number}, "
                f"row_order, FALSE AS odd FROM {name}_lines")


def reads(pattern: str, trec_kind: str) -> bool:
    """Whether `score_files` reads this input (as a run: "trec_run", or "qrels"): that TREC text,
    or CSV or Parquet with the columns it needs (by their first file); False when it cannot be
    looked at (the in-memory path then says why)."""
    import duckdb  # lazy: optional extra

    files = files_of(pattern)
    try:
        if not files or not Path(files[0]).is_file():
            return False
    except OSError:
        return False
    first, number = files[0], "score" if trec_kind == "trec_run" else "grade"
    con = duckdb.connect()
    try:
        source = _table_source(pattern, first)
        if source is None:
            return _kind(first) == trec_kind
        _roles(con, source, first, number)
        return True
    except (InputError, duckdb.Error):
        return False
    finally:
        con.close()


def column_names(pattern: str) -> list[str]:
    """The columns of a CSV or Parquet input, by its first file, as `score_files` reads them; []
    for TREC text, or an input that cannot be looked at (the scoring says why)."""
    import duckdb  # lazy: optional extra

    files = files_of(pattern)
    con = duckdb.connect()
    try:
        source = _table_source(pattern, files[0]) if files and Path(files[0]).is_file() else None
        if source is None:
            return []
        return [row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    except (OSError, InputError, duckdb.Error):
        return []
    finally:
        con.close()


def _table_source(pattern: str, first: str) -> str | None:
    """DuckDB's reader of the input's first file when it is a table (Parquet, CSV); None for text
    of another kind (TREC)."""
    if first.lower().endswith(_PARQUET):
        hive = "true" if is_folder(pattern) else "false"
        return f"read_parquet({duck_files([first])[0]}, hive_partitioning={hive})"
    if _kind(first) != "csv":
        return None
    return f"read_csv({duck_files([first])[0]}{_gzip_option([first])}, header=true)"


def _gzip_option(files: list[str]) -> str:
    """read_csv's option for files that are all gzip by their first bytes: DuckDB knows gzip by a
    .gz name only, the in-memory reader by the bytes."""
    try:
        for file in files:
            with open(file, "rb") as f:
                if f.read(2) != b"\x1f\x8b":
                    return ""
    except OSError:
        return ""  # (DuckDB's read says why)
    return ", compression='gzip'"


def _kind(path: str) -> str:
    try:
        return sniff(decode(Path(path), head_bytes(path)))
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror or exc}", path) from None


def _roles(con, source: str, path: str, number: str) -> dict[str, str]:
    """The columns that hold query, doc and `number`, by the names the CSV reader knows."""
    names = [row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    found = {}
    for role in ("query", "doc", number):
        for name in names:
            if name.strip().lower() in ALIASES[role]:
                found[role] = '"' + name.replace('"', '""') + '"'
                break
        else:
            raise InputError(f"has no {role} column (one of {', '.join(ALIASES[role])}); "
                             f"its columns: {', '.join(names)}", path)
    return found


def _read_alike(con, source: str, files: list[str], named: str, columns: dict[str, str], number: str
                ) -> dict[str, str]:
    """The id expressions of a Parquet input, read as the in-memory reader reads the same file
    (`core.formats.columnar`): a float id of a whole number is that integer's text (401.0 is
    "401"), any other float id is refused; a number column of another type (true/false, dates)
    is refused, in the in-memory reader's words."""
    import pyarrow as pa  # lazy: pyarrow comes with DuckDB's inputs only here
    import pyarrow.parquet as pq

    # lazy: columnar imports pyarrow, which the engine's text path does not need
    from ndcg_gui.core.formats.columnar import float_id_problem, number_type_problem

    described = con.sql(f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM {source})")
    kinds = dict(described.fetchall())
    try:
        schema = pq.read_schema(files[0])
    except (OSError, pa.ArrowException):
        schema = None  # (DuckDB's own reading says what is wrong with the file)
    raw = _unquoted(columns[number])
    if schema is not None and raw in schema.names:
        problem = number_type_problem(number, schema.field(raw).type)
        if problem is not None:
            raise InputError(f"row 1: {problem}", files[0])
    out = {}
    for role in ("query", "doc"):
        column = columns[role]
        kind = kinds.get(_unquoted(column), "")
        if kind not in ("FLOAT", "DOUBLE"):
            out[role] = f"CAST({column} AS VARCHAR)"
            continue
        bad = con.sql(
            f"SELECT list_position({named}, filename), file_row_number, CAST({column} AS DOUBLE) "
            f"FROM {source} WHERE {column} IS NOT NULL AND NOT (isfinite({column}) AND "
            f"trunc({column}) = {column} AND abs({column}) < CAST(9007199254740992 AS DOUBLE)) "
            "ORDER BY 1, 2 LIMIT 1").fetchall()
        if bad:
            file, row, value = bad[0]
            raise InputError(f"row {row + 1}: {float_id_problem(role, value)}", files[file - 1])
        out[role] = f"CAST(CAST({column} AS BIGINT) AS VARCHAR)"
    return out


def _check(con, name: str, pattern: str, path: str, number: str) -> None:
    """What the in-memory readers refuse too: a number that is not finite, a missing id, a
    (query, doc) pair twice."""
    # The ids asked one column at a time: Parquet's null counts then answer without reading them
    # (a small part of the CPU of the filters joined by OR). The numbers are read
    # (an aggregate): a filter on them is pruned by min/max statistics, which leave NaN out (a NaN
    # score was let through). (Inside the hash grouping below this cost more than its own scan.)
    found = con.sql(f"SELECT (SELECT 1 FROM {name} WHERE query IS NULL LIMIT 1), (SELECT 1 FROM {name} "
                    f"WHERE doc IS NULL LIMIT 1), (SELECT bool_or({number} IS NULL "
                    f"OR NOT isfinite({number})) FROM {name})").fetchall()[0]
    if found[:2] != (None, None) or found[2]:
        # The first bad row, named as the in-memory readers name it.
        query, doc, value, row_order = con.sql(
            f"SELECT query, doc, {number}, row_order FROM {name} WHERE query IS NULL OR doc IS NULL "
            f"OR {number} IS NULL OR NOT isfinite({number}) "
            # (a missing id before a number, as the in-memory readers check the ids first)
            "ORDER BY (query IS NULL OR doc IS NULL) DESC, row_order LIMIT 1").fetchall()[0]
        parquet = path.lower().endswith(_PARQUET)
        problem = value_problem(query, doc, value, number, parquet)
        kind = "" if parquet else _kind(path)
        if kind == "csv":  # (its line, the cell as written)
            refuse_csv_row(files_of(pattern), query, doc, value, number)
        if kind in _TREC and None not in (query, doc, value):
            # (inf, nan: DuckDB reads them as numbers) its line, in the reader's words
            at = text_lines(files_of(pattern), query, doc, 1, lambda fields: not all(
                is_finite_number(fields[i].decode("utf-8", "replace")) for i in _NUMBER_FIELDS[kind]
                if i < len(fields)))
            if at:
                file, line = at[0]
                fields = [f.decode("utf-8", "replace") for f in _fields(file, line)]
                raise InputError(trec_text.describe_line(fields, kind), file, line)
        if path.lower().endswith(_PARQUET):  # (row_order: the file's place in the list, then its row)
            file, row = divmod(int(row_order), 1 << 40)
            path, problem = files_of(pattern)[file - 1], f"row {row + 1}: {problem}"
        raise InputError(problem, path)
    # A doc twice in a query: first the distinct 64-bit hashes of the rows' pairs counted (a
    # DISTINCT keeps no count per hash: less CPU than grouping with
    # HAVING COUNT(*) > 1, and far less than grouping the ids themselves); only when fewer than the
    # rows (a duplicate, or rarely two pairs with one hash), the ids of the rows whose hash repeats.
    rows, distinct = con.sql(f"SELECT (SELECT COUNT(*) FROM {name}), (SELECT COUNT(*) FROM "
                             f"(SELECT DISTINCT hash(query, doc) FROM {name}) hashes)").fetchall()[0]
    if rows == distinct:
        return
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name}_twice AS SELECT h FROM (SELECT hash(query, doc) AS h "
                f"FROM {name}) hashed GROUP BY h HAVING COUNT(*) > 1")
    # The pair of the first row that repeats one (the one the in-memory readers name).
    twice = con.sql(f"SELECT query, doc, first_row, row_order FROM (SELECT query, doc, row_order, "
                    f"MIN(row_order) OVER (PARTITION BY query, doc) AS first_row, ROW_NUMBER() OVER "
                    f"(PARTITION BY query, doc ORDER BY row_order) AS n FROM {name} "
                    f"WHERE hash(query, doc) IN (SELECT h FROM {name}_twice)) repeats "
                    "WHERE n = 2 ORDER BY row_order LIMIT 1").fetchall()
    con.execute(f"DROP TABLE {name}_twice")
    if twice:
        raise _repeated(pattern, path, number, *twice[0])


def refuse_infinite_gains(rows: Callable[[str], list], pattern: str, path: str, measure: Measure,
                          place: Callable[[int], int | None] | None = None) -> None:
    """An `InputError` for the first qrels row (table `qrels`, in file order) whose grade has an
    infinite gain under `measure`, in the in-memory path's words (`gains`), named by its line in
    local text (a scan of the text, TREC or CSV: an error's cost only), by its row in Parquet
    (`place`: a row_order's 1-based row, None where the engine cannot tell it; default DuckDB's
    numbering), else by its file alone. `rows(sql)`: the engine's rows of a query."""
    # lazy: only a run with grades asks
    from ndcg_gui.core.sql.gains import infinite_gain_problem, infinite_gain_sql

    infinite = infinite_gain_sql(measure)
    if infinite is None:
        return
    found = rows(f"SELECT query, doc, grade, row_order FROM qrels WHERE {infinite} "
                 "ORDER BY row_order LIMIT 1")
    if not found:
        return
    query, doc, grade, row_order = found[0]
    problem = infinite_gain_problem(grade, query, doc)
    files = files_of(pattern)
    if path.lower().endswith(_PARQUET):
        if place is None:  # (DuckDB's row_order: the file's place in the list, then its row)
            file, row = divmod(int(row_order), 1 << 40)
            raise InputError(f"row {row + 1}: {problem}", files[file - 1])
        row = place(int(row_order))
        raise InputError(f"row {row}: {problem}", path) if row is not None else InputError(problem, pattern)
    local = [f for f in files if "://" not in f]
    kind = _kind(path) if local else ""
    at = text_lines(local, str(query), str(doc), 1) if kind in _TREC else \
        [place[:2] for place in csv_lines(local, str(query), str(doc), 1)] if kind == "csv" else []
    if at:
        raise InputError(problem, *at[0])
    raise InputError(problem, path)  # (not found as written, or not local: its file, without a line)


def value_problem(query: str | None, doc: str | None, value: float | None, number: str, parquet: bool) -> str:
    """What is wrong with a row's ids or number, in the in-memory readers' words (of Parquet: a
    NaN is an empty cell, as pandas reads it; of text, the row's ids say which)."""
    if query is None or doc is None:
        return empty_id_problem("query" if query is None else "doc")
    if value is None or (parquet and math.isnan(value)):
        return f"{number} is empty; expected a number"
    if parquet:
        return f"{number} {shown(value)} is not a finite number"
    return f"query {shown(query)}, doc {shown(doc)}: {number} {value} is not a finite number"


def _repeated(pattern: str, path: str, number: str, query: str, doc: str, first_row: int,
              row_order: int) -> InputError:
    """The in-memory readers' message for a pair listed twice, naming both places: rows of
    Parquet, lines of TREC text (found by a scan of the text: an error's cost only)."""
    files = files_of(pattern)
    if path.lower().endswith(_PARQUET):  # (row_order: the file's place in the list, then its row)
        (at_file, at_row), (file, row) = divmod(first_row, 1 << 40), divmod(row_order, 1 << 40)
        first = f"row {at_row + 1}"
        if at_file != file:
            first = f"{Path(files[at_file - 1]).name} {first}"
        return InputError(f"row {row + 1}: {repeat_said(query, doc, number, first)}", files[file - 1])
    return text_repeat(files, path, number, query, doc)


def text_repeat(files: list[str], path: str, number: str, query: str, doc: str) -> InputError:
    """A pair listed twice in text: named by its lines (found by a scan of the text, TREC or CSV),
    or by its ids only when they are not found as written."""
    kind = _kind(path)
    places = text_lines(files, query, doc, 2) if kind in _TREC else \
        csv_lines(files, query, doc, 2) if kind == "csv" else []
    if not places:
        return InputError(repeat_said(query, doc, number, None), path)
    (at_file, at_line, *_), (file, line, *_) = places
    first = f"line {at_line}" if at_file == file else f"{Path(at_file).name}:{at_line}"
    return InputError(repeat_said(query, doc, number, first), file, line)


def repeat_said(query: str, doc: str, number: str, first: str | None) -> str:
    """The in-memory readers' words for a pair listed twice (`first`: where it was first)."""
    where = f" (first at {first})" if first else ""
    return (f"document {shown(doc)} is listed twice for query {shown(query)}{where}; each document may "
            f"appear once per query in a {'run' if number == 'score' else 'qrels'}")


_NUMBER_FIELDS = {"trec_run": (3, 4), "qrels": (3,)}  # (0-based: rank and score; grade)


def text_lines(files: list[str], query: str, doc: str, count: int,
               keep: Callable[[list[bytes]], bool] = lambda fields: True) -> list[tuple[str, int]]:
    """(file, line) of the first `count` lines of TREC text that list `doc` for `query` (and
    that `keep` keeps, given their fields): an error's cost only, a scan of the text."""
    want_query, want_doc = query.encode(), doc.encode()
    found = []
    for file in files:
        with _lines(file) as lines:
            for number, line in enumerate(lines, start=1):
                if want_doc in line:  # (a quick look before the split)
                    fields = line.split()
                    if len(fields) > 2 and fields[0] == want_query and fields[2] == want_doc and keep(fields):
                        found.append((file, number))
                        if len(found) == count:
                            return found
    return found if len(found) == count else []


def csv_lines(files: list[str], query: str, doc: str, count: int,
              number: str | None = None) -> list[tuple[str, int, str]]:
    """(file, line where its record starts, its `number` cell) of the first `count` records of CSV
    files (with a header naming the query and doc columns, as `_roles` finds them) that list `doc`
    for `query` (with `number`: whose cell of that column is not a finite number)."""
    found = []
    for file, start, row, at in _csv_records(files, number or "query"):
        # (ids compared as the engines read them: spaces and tabs at their edges dropped)
        if row[at[0]].strip(" \t") == query and row[at[1]].strip(" \t") == doc and (
                number is None or not is_finite_number(row[at[2]])):
            found.append((file, start, row[at[2]] if number else ""))
            if len(found) == count:
                return found
    return found if len(found) == count else []


def refuse_csv_row(files: list[str], query: str | None, doc: str | None, value: float | None,
                   number: str) -> None:
    """An `InputError` naming the line of a CSV row an engine refused (its ids, or its `value`
    that is not a finite number) in the in-memory reader's words, its cell as written ("inf",
    "NaN", empty); nothing when it is not found as written (the caller then names the file)."""
    if query is None or doc is None:  # (an id missing: the first such record)
        missing = csv_empty_id(files)
        if missing:
            raise InputError(empty_id_problem(missing[2]), missing[0], missing[1])
        return
    at = csv_lines(files, query, doc, 1, number)
    if at:
        file, line, cell = at[0]
        infinite = value is not None and math.isinf(value)
        raise InputError(number_problem(number, cell.strip(), infinite), file, line)


def csv_empty_id(files: list[str]) -> tuple[str, int, str] | None:
    """(file, line where its record starts, "query" or "doc") of the first record of CSV files
    whose query or doc cell is empty or spaces only (the in-memory reader's empty id); None when
    no record is."""
    for file, start, row, at in _csv_records(files, "query"):
        for role, column in (("query", at[0]), ("doc", at[1])):
            if not row[column].strip(" \t"):
                return file, start, role
    return None


def _csv_records(files: list[str], number: str) -> Iterator[tuple[str, int, list[str], list[int]]]:
    """(file, line where the record starts, its cells, the query, doc and `number` columns) of every
    record of CSV files with a header naming those columns (as `_roles` finds them) that has them."""
    for file in files:
        with _lines(file) as lines:
            text = (line.decode("utf-8", "replace") for line in lines)
            head = decode(Path(file), head_bytes(file))
            rows = csv.reader(text, delimiter=detect_delimiter(head) or ",")
            header = [name.strip().lower() for name in next(rows, [])]
            at = [next((i for i, name in enumerate(header) if name in ALIASES[role]), None)
                  for role in ("query", "doc", number)]
            if None in at:
                continue
            start = rows.line_num + 1
            for row in rows:
                if len(row) > max(at):
                    yield file, start, row, at
                start = rows.line_num + 1


def _fields(file: str, line: int) -> list[bytes]:
    with _lines(file) as lines:
        return next(itertools.islice(lines, line - 1, None)).split()


@contextlib.contextmanager
def _lines(file: str) -> Iterator[Iterator[bytes]]:
    """The lines of a text file as bytes: gzip opened (by its name, as DuckDB reads it, or its first
    bytes, as pyarrow's path does), a UTF-8 byte order mark taken off the first."""
    with open(file, "rb") as head:
        gz = file.lower().endswith(".gz") or head.read(2) == b"\x1f\x8b"
    opened = gzip.open(file, "rb") if gz else open(file, "rb")  # noqa: SIM115
    with opened:
        first = opened.readline()
        yield itertools.chain([first.removeprefix(b"\xef\xbb\xbf")], opened) if first else iter(())


_LINE = re.compile(r"CSV Error on Line: (\d+)")
_ORIGINAL = re.compile(r"Original Line: ?([^\n]*)(?:\n([^\n]*))?")
_FILE = re.compile(r"^\s*file = (.*)$", re.MULTILINE)


def _input_error(exc: Exception, run: str) -> InputError:
    """DuckDB's error as one line naming the file (and the line of a CSV error)."""
    text = str(exc)
    file = _FILE.search(text)
    path = file.group(1).strip() if file else None
    line = _LINE.search(text)
    original = _ORIGINAL.search(text)
    if path is not None and line and original:
        kind = _kind(path)
        fields = (original.group(1) or original.group(2) or "").split()
        message = trec_text.describe_line(fields, kind) if kind in _TREC else _first_line(exc)
        return InputError(message, path, int(line.group(1)))
    return InputError(_first_line(exc), path or run)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def duck_files(files: list[str]) -> tuple[str, str]:
    """`files` as two SQL lists: the one to read (each name escaped, so DuckDB, which takes every
    name in a list for a glob, reads that file: `part-[0].parquet` is not `part-0.parquet`), and
    the names DuckDB then gives as `filename` (a row's place in the list)."""
    # (`[[]`, `[*]`, `[?]`: the escape DuckDB's glob and Python's `glob.escape` share; a leading
    # `~` is DuckDB's home folder unless it is a folder's name: `./~x`)
    names = [f"./{f}" if f.startswith("~") else f for f in files]
    return ("[" + ", ".join(_text(glob.escape(f)) for f in names) + "]",
            "[" + ", ".join(_text(f) for f in names) + "]")


def _unquoted(name: str) -> str:
    """A column name as `_roles` quoted it, back as the name."""
    return name[1:-1].replace('""', '"')


def _text(value: str) -> str:
    """A SQL string literal."""
    return "'" + str(value).replace("'", "''") + "'"
