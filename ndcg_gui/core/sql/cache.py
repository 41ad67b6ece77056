"""The per-query table of a run too big to load, kept beside the data so that opening it again
takes a read of one small Parquet file instead of the engine's scan (issue 24: the window over
a dataset larger than memory, "opened again").

The cache of run `R` scored against qrels `Q` under a measure is `.R.ndcg-<H>.parquet` in the
run's folder (beside a run folder, in a glob's folder), H a hash of R's name, Q's path and the
measure's SQL text: one file per (run, qrels, measure). Its Parquet footer holds the key it
was made for: a hash of every input file's state (`cache_files.file_state`: resolved path, inode,
size, times with the ctime, and a hash of the bytes) and the SQL text (so a change to the SQL of a
measure misses too). It is used only when it is a regular file of the user's own
(`kept.open_kept`: never through a link, never a FIFO), its key (read from the footer
first) matches, its columns are the per-query table's, and what its footer says it holds is at
most what these inputs can make; anything else is scored again (and written anew). A folder that
cannot be written to gets no cache and no error. Written as a new file renamed over the name
(`cache_files.write_new`): a reader never sees half a file, and nothing at the name is written
through. A run keeps the KEEP caches last used (a hit touches its file): each measure tried,
and each one whose SQL a new version writes otherwise, would leave a file beside the data for
ever (a table of every query: large for a big run).

Text qrels (or a text run) beside a Parquet run too big to load are kept as a Parquet copy of their
rows (`parquet_rows`): `.Q.ndcg-rows-<P>-<S>.parquet` beside them, P a hash of their path and S of
their state (`file_state`; the same hash in the copy's footer), so a changed file is read again
(and its older copy removed); in the temporary folder when theirs takes no file; the same rules
for reading and writing it. The window reads one query's judgments from it by Parquet's statistics.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import io
import json
import os
import re
import stat
import tempfile
from pathlib import Path

from ndcg_gui.core.kept import open_kept
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql.cache_files import file_state, file_states, parquet_footer, write_new
from ndcg_gui.core.sql.duckdb_engine import EngineResult, copy_rows, score_files
from ndcg_gui.core.sql.inputs import estimate, files_of, is_folder, is_parquet
from ndcg_gui.core.sql.ndcg_sql import ndcg_sql
from ndcg_gui.core.sql.progress import Report

_META = b"ndcg_gui.per_query_cache"
_ROWS_META = "ndcg_gui.rows_copy"
KEEP = 8  # per-query caches kept beside one run (the last used)
_UNSAFE = re.compile(r"[^\w.\-=]+")  # what a glob's pattern may hold that a file name should not
# What the per-query table holds: a cache with other columns or types is no cache.
_INTS = ("n_retrieved", "n_judged", "n_unjudged", "n_pool", "n_relevant", "first_row", "first_judged")
_FLOATS = ("dcg", "idcg", "ndcg")
_COLUMNS = ("query", *_INTS[:5], *_FLOATS, "undefined", *_INTS[5:])
# A per-query table's bytes (as its footer says, uncompressed) per byte of the inputs, at most:
# a row per query, each query a line at least of one input.
_BYTES_PER_INPUT_BYTE = 64
_BYTES_AT_LEAST = 1 << 20


def per_query_table(run: str, qrels: str, measure: Measure, cache: bool = True,
                    memory_limit: str | None = None, threads: int | None = None,
                    progress: Report | None = None) -> EngineResult:
    """`duckdb_engine.score_files(run, qrels, measure)`, from the cache beside the run when
    its key matches, else scored by the engine and the cache written (when `cache`)."""
    if not cache:
        return score_files(run, qrels, measure, memory_limit, threads, progress)
    path = cache_path(run, qrels, measure)
    key = None if path is None else cache_key(run, qrels, measure)
    if path is not None and key is not None:
        found = read_cache(path, key, _most_bytes(run, qrels))
        # (a table kept before the engine refused infinite gains holds one: scored again, refused)
        if found is not None and not _infinite(found.table):
            with contextlib.suppress(OSError):
                os.utime(path, follow_symlinks=False)  # (last used: kept longest)
            return found
    result = score_files(run, qrels, measure, memory_limit, threads, progress)
    if path is not None and key is not None and key == cache_key(run, qrels, measure):
        write_cache(path, key, result)  # (not when an input changed while it was read)
    return result


def _infinite(table) -> bool:
    """Whether a kept table holds a query whose DCG or IDCG is infinite."""
    import numpy as np  # lazy: start-up

    return bool(np.isinf(table[["dcg", "idcg"]].to_numpy(dtype=float)).any())


def cache_path(run: str, qrels: str, measure: Measure) -> Path | None:
    """Where the cache of these inputs and measure lies; None for an input without a folder
    of its own to hold it (a pipe)."""
    if str(run).startswith(("/dev/", "/proc/")):
        return None
    place = Path(os.path.abspath(run))  # (beside what was named: a link's folder, not its target's)
    name = _UNSAFE.sub("_", place.name) or "run"
    # (the run's own name too: `run[1].txt` and `run_1_.txt` share a cleaned name)
    which = hashlib.sha256(json.dumps([place.name, str(Path(qrels).resolve()), _sql(measure)]).encode())
    return place.parent / f".{name}.ndcg-{which.hexdigest()[:16]}.parquet"


def cache_key(run: str, qrels: str, measure: Measure) -> str | None:
    """What the cache must have been made from: a hash of the input files' states
    (`cache_files.file_state`) and the measure's SQL; None when an input cannot be looked at
    or is not a regular file (a pipe: read once, never kept)."""
    listed = [files_of(pattern) for pattern in (run, qrels)]
    files = file_states([file for files in listed for file in files]) if all(listed) else None
    if files is None:
        return None
    key = json.dumps({"run": str(run), "folder": is_folder(run), "qrels": str(qrels), "files": files,
                      "sql": _sql(measure)}, ensure_ascii=False)
    return hashlib.sha256(key.encode()).hexdigest()


def _most_bytes(run: str, qrels: str) -> int:
    """The most a per-query table of these inputs can hold, uncompressed."""
    estimated = estimate([run, qrels])
    return _BYTES_AT_LEAST + _BYTES_PER_INPUT_BYTE * (estimated.size if estimated is not None else 0)


def read_cache(path: Path, key: str, most_bytes: int = _BYTES_AT_LEAST) -> EngineResult | None:
    """The result kept in `path` when it was made for `key`; None when it was not, or cannot be
    trusted or read (missing, not a regular file of this user's, cut short, not Parquet, other
    columns, more than `most_bytes` as its footer says)."""
    import pyarrow as pa  # lazy: start-up (`--engine auto` imports this before it picks)
    import pyarrow.parquet as pq  # lazy: start-up

    f = open_kept(path)
    if f is None:
        return None
    with f:
        try:
            footer = parquet_footer(f)
            meta = json.loads((footer.metadata or {})[_META]) if footer is not None else None
            if not isinstance(meta, dict) or meta.get("key") != key:
                return None
            declared = sum(footer.row_group(i).total_byte_size for i in range(footer.num_row_groups))
            if declared > most_bytes or not _table_schema(footer.schema.to_arrow_schema()):
                return None
            f.seek(0)
            # Row group by row group, what was read counted: a footer that says less than its
            # pages hold is stopped past `most_bytes` too.
            parts, read = [], 0
            kept = pq.ParquetFile(f)
            for i in range(kept.num_row_groups):
                parts.append(kept.read_row_group(i))
                read += parts[-1].nbytes
                if read > most_bytes:
                    return None
            table = pa.concat_tables(parts) if parts else kept.schema_arrow.empty_table()
            if not _table_schema(table.schema):
                return None
            frame = table.replace_schema_metadata(
                {k: v for k, v in table.schema.metadata.items() if k != _META}).to_pandas()
            unjudged, rows = meta["unjudged"], meta.get("unjudged_rows")
            if not isinstance(unjudged, list) or not (rows is None or (
                    isinstance(rows, list) and len(rows) == len(unjudged))):
                return None
            return EngineResult(frame, [str(q) for q in unjudged],
                                None if rows is None else [int(r) for r in rows])
        except Exception:  # (a corrupt cache is no cache: the engine scores again)
            return None


def _table_schema(schema) -> bool:
    """Whether `schema` is the per-query table's: its columns, in order, of their types."""
    import pyarrow as pa  # lazy: start-up

    if tuple(schema.names) != _COLUMNS:
        return False
    kinds = {name: schema.field(name).type for name in _COLUMNS}
    return (pa.types.is_string(kinds["query"]) or pa.types.is_large_string(kinds["query"])) and all(
        pa.types.is_int64(kinds[c]) for c in _INTS) and all(
        pa.types.is_float64(kinds[c]) for c in _FLOATS) and pa.types.is_boolean(kinds["undefined"])


def write_cache(path: Path, key: str, result: EngineResult) -> bool:
    """Keep `result` in `path` for `key` as a new file; False when the folder takes no file (or
    the table is not the per-query table)."""
    import pyarrow as pa  # lazy: start-up
    import pyarrow.parquet as pq  # lazy: start-up

    table = pa.Table.from_pandas(result.table, preserve_index=False)
    if not _table_schema(table.schema):
        return False
    meta = json.dumps({"key": key, "unjudged": result.unjudged, "unjudged_rows": result.unjudged_rows},
                      ensure_ascii=False).encode()
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), _META: meta})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    if not write_new(path, buffer.getvalue()):  # a read-only folder, a full disk: no cache, no error
        return False
    _keep_last_used(path)
    return True


def _keep_last_used(path: Path) -> None:
    """Remove the caches of `path`'s run past the KEEP last used (written or read): regular files
    only (what else lies at such a name is not this program's)."""
    run = path.name[:path.name.rindex(".ndcg-")]
    same_run = re.compile(re.escape(run) + r"\.ndcg-[0-9a-f]{16}\.parquet")
    caches = []
    for other in path.parent.iterdir():
        if same_run.fullmatch(other.name):
            with contextlib.suppress(OSError):
                info = other.lstat()
                if stat.S_ISREG(info.st_mode):
                    caches.append((info.st_mtime_ns, other))
    for _, stale in sorted(caches, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            stale.unlink()


def parquet_rows(pattern: str, trec_kind: str, memory_limit: str | None = None, threads: int | None = None,
                 progress: Report | None = None) -> str:
    """`pattern` itself when it is Parquet, else the path of a Parquet copy of its rows
    (`duckdb_engine.copy_rows`), made when there is none for the file as it is now."""
    if is_parquet(pattern):
        return pattern
    try:
        os.stat(pattern)
    except OSError:
        return pattern  # (the engine says why it cannot be read)
    place = Path(os.path.abspath(pattern))
    state = file_state(pattern)
    # Named by the file (its path) and by its state: a copy of the same file as it was is removed
    # once a new one is made, and two files of one name (in the temporary folder) keep theirs.
    file = _digest(str(place.resolve()))
    prefix = f".{_UNSAFE.sub('_', place.name)}.ndcg-rows-{file}-"
    key = None if state is None else _digest(trec_kind, *map(str, state))
    if key is None:  # (a pipe: read once, its copy never used again)
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=".parquet")
        os.close(fd)
        return str(copy_rows(pattern, trec_kind, Path(name), memory_limit, threads, progress))
    name = f"{prefix}{key}.parquet"
    for folder in (place.parent, Path(tempfile.gettempdir())):
        copy = folder / name
        if _rows_copy(copy, key):
            return str(copy)
        if os.access(folder, os.W_OK):
            break
    made = copy_rows(pattern, trec_kind, copy, memory_limit, threads, progress, {_ROWS_META: key})
    if made == copy:
        for stale in copy.parent.glob(glob.escape(prefix) + "*.parquet"):
            with contextlib.suppress(OSError):
                if stale != copy and stat.S_ISREG(stale.lstat().st_mode):
                    stale.unlink()
    return str(made)


def _rows_copy(copy: Path, key: str) -> bool:
    """Whether `copy` is the rows' copy made for `key`, and may be trusted (`open_kept`)."""
    f = open_kept(copy)
    if f is None:
        return False
    with f:
        footer = parquet_footer(f)
    meta = (footer.metadata or {}) if footer is not None else {}
    return meta.get(_ROWS_META.encode()) == key.encode()


def _digest(*parts: str) -> str:
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:12]


def _sql(measure: Measure) -> str:
    return ndcg_sql(measure.per_query(), row_order=True)
