"""The files an engine reads for one input (a file, a glob, a hive-partitioned folder of Parquet), and
whether the in-memory path could hold them: `--engine auto` scores inputs in DuckDB when loading
them would take more than a share of this machine's memory (or when only the engine reads them: a
glob, a folder).

The in-memory path's peak per byte read (`PEAK_PER_BYTE`), measured as whole processes with
`benchmarks/bench_engine.py` on one run as TREC text and as Parquet (figures: benchmarks/README.md,
issue 24): Parquet is compressed, so each of its bytes becomes several times more memory than a
byte of text does.
"""

from __future__ import annotations

import glob
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from ndcg_gui.core.errors import file_name

PARQUET = (".parquet", ".pq")
PEAK_PER_BYTE = {"text": 2.3, "parquet": 10.0}  # in-memory peak / bytes read (module docstring)
SHARE = 0.5  # of the machine's memory the in-memory path may take before the engine takes over
# The window keeps what it loads for the whole session (and the undo history): it hands a run to
# DuckDB from a smaller share. NDCG_GUI_ENGINE_ABOVE (bytes of that estimated peak; 0: always)
# sets the threshold instead (tests, benchmarks).
WINDOW_SHARE = 0.15
ENGINE_ABOVE = "NDCG_GUI_ENGINE_ABOVE"


def files_of(pattern: str) -> list[str]:
    """The files of an input: a folder's Parquet files (any depth: hive partitions), a glob's
    matches (`is_pattern`), or the path itself; sorted (the order rows are numbered in)."""
    if is_folder(pattern):
        return sorted(str(p) for p in Path(pattern).rglob("*") if p.suffix.lower() in PARQUET)
    return sorted(glob.glob(pattern)) if is_pattern(pattern) else [pattern]


def is_pattern(pattern: str) -> bool:
    """Whether `pattern` is read as a glob: it holds `*`, `?` or `[` and no file (nor link) has
    that name. A name that exists is that file: `run[1].txt` is never `run1.txt`."""
    return glob.has_magic(pattern) and not os.path.lexists(pattern)


def how_named(pattern: str) -> str | None:
    """What a name holding glob characters was taken for (one line) when it could be either: a
    pattern, or a file whose name as a pattern matches other files; None for any other name."""
    if not glob.has_magic(pattern) or is_folder(pattern):
        return None
    if not is_pattern(pattern):
        others = len([f for f in glob.glob(pattern) if f != pattern])
        return None if not others else (f"{file_name(pattern)} is the file of that name, not a pattern "
                                        f"(which would match {_files(others, 'other ')})")
    count = len(files_of(pattern))
    if not count:
        return None  # (the reader says no file matches)
    return f"{file_name(pattern)} is a pattern (no file has that name): {_files(count)}"


def _files(count: int, which: str = "") -> str:
    return f"{count} {which}file{'' if count == 1 else 's'}"


def engine_only(pattern: str) -> bool:
    """Whether only an engine reads this input: a folder of Parquet files, or a glob that matches."""
    return (is_folder(pattern) or is_pattern(pattern)) and bool(files_of(pattern))


def is_folder(path: str) -> bool:
    """Whether `path` is a folder; False for one that cannot be looked at (a name too long, a
    link that loops): the reader then says why."""
    try:
        return Path(path).is_dir()
    except OSError:
        return False


@dataclass(frozen=True)
class Estimate:
    size: int  # bytes of every file read
    peak: int  # what loading them in memory would take, about (PEAK_PER_BYTE)


def estimate(patterns: list[str]) -> Estimate | None:
    """The inputs' bytes and the in-memory path's peak for them; None when a file cannot be
    looked at (the path that reads it then says why)."""
    size = peak = 0
    for pattern in patterns:
        for file in files_of(pattern):
            try:
                n = os.stat(file).st_size
            except OSError:
                return None
            size += n
            peak += int(n * PEAK_PER_BYTE["parquet" if file.lower().endswith(PARQUET) else "text"])
    return Estimate(size, peak)


def machine_memory() -> int | None:
    """This machine's memory in bytes (a container's limit when lower); None when unknown."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # (Windows has no sysconf)
        return None
    try:  # cgroup v2, then v1: a container may hold less than the machine
        for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
            text = Path(limit).read_text().strip() if Path(limit).exists() else "max"
            if text.isdigit():
                total = min(total, int(text))
    except OSError:
        pass
    return total if total > 0 else None


def too_big_for_memory(estimated: Estimate, memory: int | None = None) -> bool:
    """Whether loading would take more than SHARE of the machine's memory."""
    memory = machine_memory() if memory is None else memory
    return memory is not None and estimated.peak > SHARE * memory


def is_parquet(pattern: str) -> bool:
    """Whether the input's files (a file, a glob, a folder) are Parquet, by their names."""
    files = files_of(pattern)
    return bool(files) and all(f.lower().endswith(PARQUET) for f in files)


# What the window says where it would read a run with DuckDB and DuckDB is not installed.
INSTALL_DUCKDB = "pip install 'ndcg-gui[duckdb]'"


def duckdb_installed() -> bool:
    return importlib.util.find_spec("duckdb") is not None  # (looked for, not imported: the GUI thread asks)


def window_engine(run: str, qrels: str | None, memory: int | None = None) -> bool:
    """Whether the window opens `run` with `qrels` through DuckDB (`core.sql.engine_dataset`):
    `window_wants_engine`, and DuckDB installed."""
    return duckdb_installed() and window_wants_engine(run, qrels, memory)


def window_wants_engine(run: str, qrels: str | None, memory: int | None = None) -> bool:
    """Whether the window would open `run` with `qrels` through DuckDB, were it installed: the run
    Parquet, the qrels Parquet or one text file (TREC qrels, CSV: read into a Parquet copy of their
    rows), and loading them would take more than WINDOW_SHARE of this machine's memory (or only the
    engine reads them: a glob, a folder)."""
    if qrels is None or not is_parquet(str(run)):
        return False
    if not is_parquet(str(qrels)) and (engine_only(str(qrels)) or is_folder(str(qrels))):
        return False  # (a glob or folder of text: the in-memory reader says what it reads)
    if engine_only(str(run)) or engine_only(str(qrels)):
        return True
    estimated = estimate([str(run), str(qrels)])
    if estimated is None:
        return False  # (the in-memory reader says why)
    forced = os.environ.get(ENGINE_ABOVE, "").strip()
    if forced.isdigit():
        return estimated.peak > int(forced)
    memory = machine_memory() if memory is None else memory
    return memory is not None and estimated.peak > WINDOW_SHARE * memory


def window_memory_limit(memory: int | None = None) -> str:
    """DuckDB's memory limit in the window: NDCG_GUI_ENGINE_MEMORY when set (e.g. 2GB), else a
    quarter of this machine's memory up to 1.5 GB: with the window's own data and Qt the process
    stays under 2 GB (500M rows: benchmarks/README.md, `bench_big_window.py`), the engine scoring part
    by part (`ndcg_steps`) where one query ran out of memory under 2 GB."""
    forced = os.environ.get("NDCG_GUI_ENGINE_MEMORY", "").strip()
    if forced:
        return forced
    memory = machine_memory() if memory is None else memory
    share = 1536 << 20 if memory is None else min(1536 << 20, max(256 << 20, memory // 4))
    return f"{share >> 20}MB"
