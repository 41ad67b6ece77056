"""A run too big to load, as a `Dataset` the window reads like any other: every query's NDCG from
DuckDB's per-query table (`duckdb_engine.score_files`, kept beside the run by `cache`), and one
query's list read from the Parquet files when it is shown (issue 24: the window over a dataset
larger than memory).

No row of the files is held: `ranked_list(q)` asks DuckDB for that query's rows of the run and of
the qrels (`WHERE query = ?`: Parquet's row-group statistics skip the rest), writes them into two
small Parquet files and reads those with the in-memory reader (`core.reading.load`), so a list is
joined and ranked by the one code that ranks every loaded file; each row keeps its record in the
big file (`RankedList.origin`). Lists read are kept (`MEMO` of them). Edited lists lie over the
file (`with_lists`), as a `FrameDataset`'s do; saving writes only those (`for_saving` in the
window). Scoring under another measure runs the engine again (`evaluate`, slow: the window does
it in the background); `run` / `qrels`, which would hold every row, raise `NotInMemory`.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import Dataset, FrameDataset, Kind, frame_of, judgment_rows
from ndcg_gui.core.lists.id_sets import id_keys
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql.cache import parquet_rows, per_query_table
from ndcg_gui.core.sql.duckdb_engine import EngineResult, connect
from ndcg_gui.core.sql.inputs import files_of, is_folder
from ndcg_gui.core.sql.ndcg_sql import NotExpressible, check_expressible
from ndcg_gui.core.sql.progress import Report
from ndcg_gui.core.state.workspace import Workspace

if TYPE_CHECKING:
    import pandas as pd

_NOT_HELD = "is scored by DuckDB where it lies (too big to load): this needs every row in memory"
MEMO = 64  # lists read from the files and kept (the window asks for the one shown many times)


class NotInMemory(InputError):
    """What needs every row of a dataset the engine reads where it lies (a whole-file report, the
    rows as frames): refused in one line naming the file."""


@dataclass(frozen=True, eq=False, kw_only=True)
class EngineDataset(Dataset):
    """The run `run_input` judged by `qrels_input` (Parquet: files, a glob or a hive folder), scored
    by DuckDB under `measure` (`result`); `lists`: edited lists over the file's."""

    run_input: str
    qrels_input: str
    measure: Measure
    result: EngineResult = field(repr=False)
    lists: Mapping[str, RankedList] = field(default_factory=dict)
    memory_limit: str | None = None
    threads: int | None = None
    kind: Kind = "parquet"
    _memo: _Memo = field(default_factory=lambda: _Memo(), repr=False)

    @classmethod
    def of(cls, run: str, qrels: str, measure: Measure, result: EngineResult,
           memory_limit: str | None = None, threads: int | None = None,
           named: str | None = None) -> EngineDataset:
        """`named`: the qrels file the person opened, when `qrels` is a copy of its rows."""
        return cls(run_input=str(run), qrels_input=str(qrels), measure=measure, result=result,
                   memory_limit=memory_limit, threads=threads, path=Path(run),
                   qrels_path=Path(named if named is not None else qrels))

    # ---- what the per-query table answers ------------------------------------------------------
    @property
    def _order(self) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, None], dict[str, None]]:
        """(the run's queries by first appearance, the judged ones without results by first
        judgment, the queries with results, every query): worked out once for the file, its
        copies with edited lists included (long for a big file: done in the worker that opened
        the files)."""
        return self._memo.once("order", self._work_out_order)

    def _work_out_order(self) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, None], dict[str, None]]:
        table = self.result.table
        with_rows = table["first_row"].notna().to_numpy()
        firsts = table["first_row"].to_numpy()[with_rows].astype(np.int64)
        queries = table["query"].astype(str).to_numpy(dtype=object)
        unjudged = np.array(self.result.unjudged, dtype=object)
        rows = self.result.unjudged_rows
        # (a cache written before the rows were kept: the unjudged queries after the others)
        after = (firsts.max() + 1 if len(firsts) else 0) + np.arange(len(unjudged), dtype=np.int64)
        firsts = np.concatenate([firsts, after if rows is None else np.asarray(rows, dtype=np.int64)])
        # numpy's sort lets go of the GIL (a sort of (row, query) tuples held it for a visible
        # frame of the window, whose GUI thread waits for it); each query's first row is its own.
        run = np.concatenate([queries[with_rows], unjudged])[np.argsort(firsts, kind="stable")].tolist()
        without = table["first_judged"].to_numpy()[~with_rows]
        without = queries[~with_rows][np.argsort(without, kind="stable")].tolist()
        # Kept while the file is open, out of the garbage collector's walks: tuples of texts (it
        # stops tracking them at its first look) and dicts of texts (never tracked), made in parts
        # (the window's GUI thread gets the GIL between them).
        answered = id_keys(run)
        return tuple(run), tuple(without), answered, id_keys(without, dict(answered))

    @cached_property
    def _queries(self) -> tuple[str, ...]:
        run, without, _, known = self._order
        return (*run, *without, *(q for q in self.lists if q not in known))

    def queries(self) -> list[str]:
        return list(self._queries)

    def has_query(self, query: str) -> bool:
        return query in self._order[3] or query in self.lists

    def unjudged_queries(self) -> list[str]:
        return [q for q in self.result.unjudged if not (q in self.lists and self.lists[q].judgments())]

    def queries_without_results(self) -> list[str]:
        answered = self.answered_queries()
        return [q for q in self.queries() if q not in answered]

    def answered_queries(self) -> set[str]:
        answered = set(self._order[2])
        for q, rl in self.lists.items():
            (answered.add if len(rl) else answered.discard)(q)
        return answered

    def row_count(self) -> int:
        table = self.result.table
        return int(table["n_retrieved"].sum() + table["n_pool"].sum())

    def __len__(self) -> int:
        return len(self.queries())

    @property
    def has_pool(self) -> bool:
        return True

    @property
    def has_scores(self) -> bool:
        return True

    @property
    def in_memory(self) -> bool:
        return False

    @property
    def run(self) -> pd.DataFrame:
        raise NotInMemory(_NOT_HELD, self.path)

    @property
    def qrels(self) -> pd.DataFrame | None:
        raise NotInMemory(_NOT_HELD, self.qrels_path)

    # ---- one list, read when asked -------------------------------------------------------------
    def keep(self, query: str) -> None:
        query = str(query)
        if self.has_query(query) and query not in self.lists:
            # (kept once read, never read here: the window's GUI thread calls this at an edit)
            self._memo.keep(query)

    def at_hand(self, query: str) -> bool:
        query = str(query)
        return query in self.lists or self._memo.has(query) or not self.has_query(query)

    def ranked_list(self, query: str) -> RankedList:
        query = str(query)
        if query in self.lists:
            return self.lists[query]
        known = self._memo.get(query)
        if known is not None:
            return known
        if not self.has_query(query):
            raise KeyError(f"no query {query!r}")
        rl = read_list(self.run_input, self.qrels_input, query, self.memory_limit)
        self._memo.put(query, rl)
        return rl

    # ---- changing ------------------------------------------------------------------------------
    def with_lists(self, lists: Mapping[str, RankedList]) -> EngineDataset:
        """A copy with the given (edited) lists over the file's; `edited` counts those that differ."""
        changed = {q for q, rl in lists.items() if not self.has_query(q) or rl != self.ranked_list(q)}
        return dataclasses.replace(self, lists={**self.lists, **lists}, edited=self.edited | changed,
                                   _memo=self._memo)

    def edited_only(self) -> FrameDataset | None:
        """The edited lists alone, as a dataset of their own (what Save writes: the big file is
        not rewritten); None when no list was edited."""
        import pandas as pd  # lazy: start-up

        lists = [(q, rl) for q, rl in self.lists.items() if q in self.edited]
        if not lists:
            return None
        runs, pools = [], []
        for q, rl in lists:
            scores = rl.scores if rl.scores is not None else np.full(len(rl), np.nan)
            runs.append(frame_of([q] * len(rl), rl.docs, rl.grades, scores, extras=rl.extras))
            docs, grades = judgment_rows(rl)
            pools.append(frame_of([q] * len(docs), docs, grades))
        run = pd.concat(runs, ignore_index=True)
        extras = tuple(c for c in run.columns if c not in ("query", "doc", "grade", "score"))
        run[list(extras)] = run[list(extras)].fillna("")
        return Dataset.of(run, pd.concat(pools, ignore_index=True), kind="csv", extra_columns=extras)

    def with_qrels(self, qrels):
        raise NotInMemory("its judgments are its qrels file's (read by DuckDB): open the run with others",
                          self.path)

    # ---- scoring -------------------------------------------------------------------------------
    def evaluate(self, measure: Measure | None = None, progress: Report | None = None) -> pd.DataFrame:
        """`evaluate`'s table of every query (every judged query listed): the per-query table of the
        measure it was opened under, or scored again by the engine (slow: minutes on billions
        of rows; the window asks in the background, `progress` returning False stops it with
        `Cancelled`), the edited lists scored as they stand."""
        from ndcg_gui.core.lists.rescoring import with_list_rescored  # lazy: start-up (pandas)
        from ndcg_gui.core.ndcg.evaluate import RESULT_COLUMNS  # lazy: start-up (pandas)

        measure = measure or Measure()
        if measure.k is None or measure.empty != "zero":
            raise NotInMemory("is scored by DuckDB at a cut-off k, missing queries as 0", self.path)
        table = self.scored(measure, progress).table
        import pandas as pd  # lazy: start-up

        queries = np.asarray(table["query"].astype(str).to_numpy(), dtype=object)
        result = pd.DataFrame({c: table[c].to_numpy() for c in RESULT_COLUMNS},
                              index=pd.Index(queries, dtype=object, name="query"))
        result = result.iloc[_text_order(queries)]
        for rl in self.lists.values():
            result = with_list_rescored(result, rl, measure)
        return result

    def scored(self, measure: Measure, progress: Report | None = None) -> EngineResult:
        """The engine's per-query table under `measure` (the cache beside the run, else DuckDB)."""
        measure = measure.per_query()  # (the engine's table lists every judged query)
        if measure == self.measure.per_query():
            return self.result
        return self._memo.scored(measure, lambda: per_query_table(
            self.run_input, self.qrels_input, measure, memory_limit=self.memory_limit,
            threads=self.threads, progress=progress))

    def refuses(self, measure: Measure) -> str | None:
        return refusal(measure)


class _Memo:
    """What an `EngineDataset` read or scored and keeps (lists by query, the last few; tables by
    measure), shared by its copies (`with_lists`) and safe across threads (the window's and a
    background scoring's)."""

    def __init__(self) -> None:
        self._lists: OrderedDict[str, RankedList] = OrderedDict()
        # The file's lists of edited queries, never let go: every notice compares an edited list
        # with its original (is the document clean, which queries differ), and one read on the GUI
        # thread would be a visible frame each time once arrow keys had pushed it out.
        self._pinned: dict[str, RankedList] = {}
        self._kept: set[str] = set()  # (pinned once read)
        self._tables: dict[Measure, EngineResult] = {}
        self._made: dict[str, object] = {}
        self._lock = threading.Lock()

    def get(self, query: str) -> RankedList | None:
        with self._lock:
            rl = self._lists.get(query)
            if rl is not None:
                self._lists.move_to_end(query)
            return rl if rl is not None else self._pinned.get(query)

    def has(self, query: str) -> bool:
        with self._lock:
            return query in self._lists or query in self._pinned

    def keep(self, query: str) -> None:
        """Keep `query`'s list whatever is read after: now if it was read, else once it is."""
        with self._lock:
            self._kept.add(query)
            rl = self._lists.get(query)
            if rl is not None:
                self._pinned[query] = rl

    def put(self, query: str, rl: RankedList) -> None:
        with self._lock:
            if query in self._kept:
                self._pinned[query] = rl
            self._lists[query] = rl
            while len(self._lists) > MEMO:
                self._lists.popitem(last=False)

    def once(self, name: str, make):
        """`make()`, made by the first caller and kept."""
        with self._lock:
            if name not in self._made:
                self._made[name] = make()
            return self._made[name]

    def scored(self, measure: Measure, make) -> EngineResult:
        with self._lock:
            known = self._tables.get(measure)
        if known is None:
            known = make()
            with self._lock:
                self._tables = {measure: known}  # (one other measure kept: the last)
        return known


def _text_order(texts: np.ndarray) -> np.ndarray:
    """`np.argsort(texts, kind="stable")` of Python strings, in Arrow's kernel (UTF-8 bytes sort
    as code points do): numpy compared 500,000 strings in one call holding the GIL, a stall of
    the window whose worker scored them."""
    import pyarrow as pa  # lazy: start-up
    import pyarrow.compute as pc  # lazy: start-up

    return pc.sort_indices(pa.array(texts, pa.string())).to_numpy()


def refusal(measure: Measure) -> str | None:
    """Why the engine cannot score `measure` (one line), or None."""
    try:
        check_expressible(measure.per_query(), row_order=True)
    except NotExpressible as exc:
        return str(exc)
    return None


# ---- reading one query ---------------------------------------------------------------------------
def read_list(run: str, qrels: str, query: str, memory_limit: str | None = None) -> RankedList:
    """`query`'s list as the in-memory path makes it from these files: its rows of the run and of
    the qrels read by DuckDB, then joined and ranked by `core.reading.load`."""
    import duckdb  # lazy: optional extra (connect says how to install it)
    import pyarrow.parquet as pq  # lazy: start-up

    from ndcg_gui.core.reading.dispatch import load  # lazy: start-up

    con = connect(memory_limit)
    try:
        run_rows, records = _query_rows(con, run, "score", query)
        qrels_rows, _ = _query_rows(con, qrels, "grade", query)
    except duckdb.Error as exc:  # (a file moved or rewritten since it was opened: one line)
        said = str(exc).strip().splitlines()[0]
        raise InputError(f"query {query} could not be read: {said}", run) from None
    finally:
        con.close()
    with tempfile.TemporaryDirectory(prefix="ndcg-gui-query-") as folder:
        run_file, qrels_file = os.path.join(folder, "run.parquet"), os.path.join(folder, "qrels.parquet")
        pq.write_table(run_rows, run_file)
        pq.write_table(qrels_rows, qrels_file)
        try:
            one = load(run_file, qrels_file)
        except InputError as exc:  # (said of the big file, not of the copy of its rows)
            raise InputError(exc.message, run) from None
    rl = one.ranked_list(query) if query in set(one.queries()) else RankedList.from_grades([], query=query)
    if rl.origin is not None and len(rl.origin):
        # The copy's records are the big file's rows in file order: each row's record in it.
        rl = dataclasses.replace(rl, origin=records[rl.origin])
    return rl


def _query_rows(con, pattern: str, number: str, query: str):
    """(the rows of `query` in the input's files, in file order, every column as written; each
    row's record in the whole input: the rows of the files before it, then its row in its file)."""
    from ndcg_gui.core.sql.duckdb_engine import _roles, duck_files  # lazy: optional extra (DuckDB)

    files = files_of(pattern)
    if not files:
        raise InputError("no file matches this pattern", pattern)
    listed, named = duck_files(files)
    hive = "true" if is_folder(pattern) else "false"
    source = f"read_parquet({listed}, hive_partitioning={hive}, filename=true, file_row_number=true)"
    plain = f"read_parquet({listed}, hive_partitioning={hive})"
    column = _roles(con, plain, files[0], number)["query"]
    typed = con.sql(f"DESCRIBE SELECT {column} AS q FROM {plain}").fetchall()[0][1]
    # Compared as written (text against text): the Parquet statistics then skip row groups.
    where = f"{column} = ?" if typed == "VARCHAR" else f"CAST({column} AS VARCHAR) = ?"
    table = con.sql(
        f"SELECT * EXCLUDE (filename, file_row_number), list_position({named}, filename) AS \"__file\", "
        f"file_row_number AS \"__row\" FROM {source} WHERE {where} ORDER BY \"__file\", \"__row\"",
        params=[query]).to_arrow_table()
    offsets = _file_offsets(tuple(files))
    which = table.column("__file").to_numpy().astype(np.int64) - 1
    records = offsets[which] + table.column("__row").to_numpy().astype(np.int64)
    return table.drop_columns(["__file", "__row"]), records


_OFFSETS: dict[tuple[str, ...], np.ndarray] = {}


def _file_offsets(files: tuple[str, ...]) -> np.ndarray:
    """Rows of the files before each file (its metadata read once)."""
    import pyarrow.parquet as pq  # lazy: start-up

    if files not in _OFFSETS:
        sizes = [pq.ParquetFile(f).metadata.num_rows for f in files]
        _OFFSETS[files] = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return _OFFSETS[files]


def open_engine(run: str, qrels: str, measure: Measure, progress: Report | None = None,
                memory_limit: str | None = None, threads: int | None = None) -> EngineDataset:
    """`run` judged by `qrels` as an `EngineDataset` scored under `measure`: the per-query table
    from the cache beside the run, else DuckDB's (`progress`: `core.sql.progress`; returning False
    stops it with `Cancelled`). A measure the SQL cannot express is refused in one line."""
    reason = refusal(measure)
    if reason is not None:
        raise InputError(f"too big to load, and {reason}; choose another definition first", run)
    # Text qrels are read from a Parquet copy of their rows (kept beside them): a query's
    # judgments are then found by Parquet's statistics, not a scan of the text.
    rows = parquet_rows(str(qrels), "qrels", memory_limit, threads, progress)
    result = per_query_table(str(run), rows, measure, memory_limit=memory_limit, threads=threads,
                             progress=progress)
    dataset = EngineDataset.of(run, rows, measure, result, memory_limit, threads, named=str(qrels))
    # What showing it asks first, worked out here (a window's worker thread, not its GUI thread):
    # the order of the queries, the state's sets of them (kept per dataset), the first list.
    queries = Workspace.of(dataset).queries()
    if dataset.queries():
        dataset.ranked_list(queries[0])
    return dataset
