"""The per-query table of a run too big to load, kept beside the data so that opening it again
takes a read of one small Parquet file instead of the engine's scan (issue 24: the window over
a dataset larger than memory, "opened again").

The cache of run `R` scored against qrels `Q` under a definition is `.R.ndcg-<H>.parquet` in the
run's folder (beside a run folder, in a glob's folder), H a hash of Q's path and the definition's
SQL text: one file per (run, qrels, definition). Inside, the schema's metadata holds the key it
was made for: every input file's path, size and modification time, the qrels' path and the SQL
text (so a change to the SQL of a definition misses too). A file whose key differs, or that cannot
be read, is not used (and is written anew); a folder that cannot be written to gets no cache and
no error. Written atomically (`core.writing.atomic`): a reader never sees half a file. A run keeps
the KEEP caches last used (a hit touches its file): each definition tried, and each one whose SQL
a new version writes otherwise, would leave a file beside the data for ever (~9 MB at 500,000
queries).

Text qrels (or a text run) beside a Parquet run too big to load are kept as a Parquet copy of their
rows (`parquet_rows`): `.Q.ndcg-rows-<P>-<S>.parquet` beside them, P a hash of their path and S of
their size and modification time, so a changed file is read again (and its older copy removed);
in the temporary folder when theirs takes no file. The window reads one query's judgments from it
by Parquet's statistics.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import tempfile
from pathlib import Path

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.sql.duckdb_engine import EngineResult, copy_rows, score_files
from ndcg_gui.core.sql.inputs import files_of, is_folder, is_parquet
from ndcg_gui.core.sql.ndcg_sql import ndcg_sql
from ndcg_gui.core.sql.progress import Report
from ndcg_gui.core.state.workspace import Definition
from ndcg_gui.core.writing.atomic import atomic_write_bytes

_META = b"ndcg_gui.per_query_cache"
KEEP = 8  # per-query caches kept beside one run (the last used)
_UNSAFE = re.compile(r"[^\w.\-=]+")  # what a glob's pattern may hold that a file name should not


def per_query_table(run: str, qrels: str, definition: Definition, cache: bool = True,
                    memory_limit: str | None = None, threads: int | None = None,
                    progress: Report | None = None) -> EngineResult:
    """`duckdb_engine.score_files(run, qrels, definition)`, from the cache beside the run when
    its key matches, else scored by the engine and the cache written (when `cache`)."""
    if not cache:
        return score_files(run, qrels, definition, memory_limit, threads, progress)
    path, key = cache_path(run, qrels, definition), cache_key(run, qrels, definition)
    if path is not None and key is not None:
        found = read_cache(path, key)
        if found is not None:
            with contextlib.suppress(OSError):
                os.utime(path)  # (last used: kept longest)
            return found
    result = score_files(run, qrels, definition, memory_limit, threads, progress)
    if path is not None and key is not None and key == cache_key(run, qrels, definition):
        write_cache(path, key, result)  # (not when an input changed while it was read)
    return result


def cache_path(run: str, qrels: str, definition: Definition) -> Path | None:
    """Where the cache of these inputs and definition lies; None for an input without a folder
    of its own to hold it (a pipe)."""
    if str(run).startswith(("/dev/", "/proc/")):
        return None
    place = Path(os.path.abspath(run))  # (beside what was named: a link's folder, not its target's)
    name = _UNSAFE.sub("_", place.name) or "run"
    which = hashlib.sha256(json.dumps([str(Path(qrels).resolve()), _sql(definition)]).encode())
    return place.parent / f".{name}.ndcg-{which.hexdigest()[:16]}.parquet"


def cache_key(run: str, qrels: str, definition: Definition) -> str | None:
    """What the cache must have been made from: the input files' paths, sizes and modification
    times, and the definition's SQL; None when an input cannot be looked at."""
    files = []
    for pattern in (run, qrels):
        listed = files_of(pattern)
        if not listed:
            return None
        for file in listed:
            try:
                info = os.stat(file)
            except OSError:
                return None
            files.append([str(Path(file).resolve()), info.st_size, info.st_mtime_ns])
    return json.dumps({"run": str(run), "folder": is_folder(run), "qrels": str(qrels), "files": files,
                       "sql": _sql(definition)}, ensure_ascii=False)


def read_cache(path: Path, key: str) -> EngineResult | None:
    """The result kept in `path` when it was made for `key`; None when it was not, or cannot be
    read (missing, cut short, not Parquet)."""
    import pyarrow.parquet as pq  # lazy: start-up (`--engine auto` imports this before it picks)

    try:
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {})[_META])
        if meta["key"] != key:
            return None
        frame = table.replace_schema_metadata(
            {k: v for k, v in table.schema.metadata.items() if k != _META}).to_pandas()
        rows = meta.get("unjudged_rows")
        return EngineResult(frame, [str(q) for q in meta["unjudged"]],
                            None if rows is None else [int(r) for r in rows])
    except Exception:  # (a corrupt cache is no cache: the engine scores again)
        return None


def write_cache(path: Path, key: str, result: EngineResult) -> bool:
    """Keep `result` in `path` for `key`, atomically; False when the folder takes no file."""
    import pyarrow as pa  # lazy: start-up
    import pyarrow.parquet as pq  # lazy: start-up

    table = pa.Table.from_pandas(result.table, preserve_index=False)
    meta = json.dumps({"key": key, "unjudged": result.unjudged, "unjudged_rows": result.unjudged_rows},
                      ensure_ascii=False).encode()
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), _META: meta})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    try:
        atomic_write_bytes(path, buffer.getvalue())
    except (InputError, OSError):  # a read-only folder, a full disk: no cache, no error
        return False
    _keep_last_used(path)
    return True


def _keep_last_used(path: Path) -> None:
    """Remove the caches of `path`'s run past the KEEP last used (written or read)."""
    run = path.name[:path.name.rindex(".ndcg-")]
    same_run = re.compile(re.escape(run) + r"\.ndcg-[0-9a-f]{16}\.parquet")
    caches = []
    for other in path.parent.iterdir():
        if same_run.fullmatch(other.name):
            with contextlib.suppress(OSError):
                caches.append((other.stat().st_mtime_ns, other))
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
        info = os.stat(pattern)
    except OSError:
        return pattern  # (the engine says why it cannot be read)
    place = Path(os.path.abspath(pattern))
    # Named by the file (its path) and by its state (size, time): a copy of the same file as it
    # was is removed once a new one is made, and two files of one name (in the temporary folder)
    # keep theirs.
    file = _digest(str(place.resolve()))
    prefix = f".{_UNSAFE.sub('_', place.name)}.ndcg-rows-{file}-"
    name = f"{prefix}{_digest(str(info.st_size), str(info.st_mtime_ns))}.parquet"
    for folder in (place.parent, Path(tempfile.gettempdir())):
        copy = folder / name
        if copy.is_file():
            return str(copy)
        if os.access(folder, os.W_OK):
            break
    copy_rows(pattern, trec_kind, copy, memory_limit, threads, progress)
    for stale in copy.parent.glob(prefix + "*.parquet"):
        if stale != copy:
            stale.unlink(missing_ok=True)
    return str(copy)


def _digest(*parts: str) -> str:
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:12]


def _sql(definition: Definition) -> str:
    return ndcg_sql(definition, "zero", row_order=True)
