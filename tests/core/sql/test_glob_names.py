"""A name holding `[`, `*` or `?` (issue 33, finding 2): a name that exists is that file, and a
pattern a pattern only where no file has that name; every file DuckDB is handed is read once, as
itself (DuckDB takes each name of a list for a glob)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql.duckdb_engine import score_files
from ndcg_gui.core.sql.inputs import engine_only, files_of, how_named, is_pattern

pytest.importorskip("duckdb")

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
TREC = Measure(k=10, ties="trec")


def _run_rows() -> pd.DataFrame:
    names = ["query", "q0", "doc", "rank", "score", "tag"]
    return pd.read_csv(EXAMPLES / "sample.run", sep=" ", names=names, dtype={"query": str, "doc": str})


def test_a_name_that_exists_is_that_file_not_a_pattern(tmp_path):
    lines = (EXAMPLES / "sample.run").read_text().splitlines(keepends=True)
    literal, decoy = tmp_path / "run[1].txt", tmp_path / "run1.txt"
    literal.write_text("".join(lines[:300]))
    decoy.write_text("".join(lines[300:]))  # what `run[1].txt` matches as a glob
    assert files_of(str(literal)) == [str(literal)] and not is_pattern(str(literal))
    assert not engine_only(str(literal))
    qrels = str(EXAMPLES / "sample.qrels")
    got = score_files(str(literal), qrels, TREC)
    alone = tmp_path / "alone.run"
    shutil.copy(literal, alone)
    pd.testing.assert_frame_equal(got.table, score_files(str(alone), qrels, TREC).table)
    assert how_named(str(literal)) == ("run[1].txt is the file of that name, not a pattern (which would "
                                       "match 1 other file)")
    assert how_named(str(alone)) is None
    # Without a file of that name, it is a pattern.
    literal.unlink()
    assert is_pattern(str(literal)) and files_of(str(literal)) == [str(decoy)]
    assert how_named(str(literal)) == "run[1].txt is a pattern (no file has that name): 1 file"
    assert how_named(str(tmp_path / "none[1].txt")) is None  # (the reader says no file matches)
    assert how_named(str(decoy)) is None
    decoy.unlink()
    literal.write_text("".join(lines[:300]))
    assert how_named(str(literal)) is None  # (nothing else it could be)


@pytest.mark.parametrize("names", [("part-[0].parquet", "part-0.parquet"), ("p*.parquet", "px.parquet"),
                                   ("p?.parquet", "pa.parquet"), ("~x[1].parquet", "~x1.parquet")])
def test_every_file_of_a_hive_folder_is_read_once(tmp_path, names):
    """A folder's files whose names DuckDB would glob: each read once, as itself (the whole run
    scores as the same rows in one file)."""
    run = _run_rows()[["query", "doc", "score"]]
    half = len(run) // 2
    folder = tmp_path / "by-part"
    folder.mkdir()
    for name, rows in zip(names, (run.iloc[:half], run.iloc[half:]), strict=True):
        pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), folder / name)
    pq.write_table(pa.Table.from_pandas(run, preserve_index=False), tmp_path / "whole.parquet")
    qrels = str(EXAMPLES / "sample.qrels")
    got = score_files(str(folder), qrels, TREC)
    want = score_files(str(tmp_path / "whole.parquet"), qrels, TREC)
    columns = [c for c in want.table.columns if c != "first_row"]  # (rows numbered by file, then row)
    pd.testing.assert_frame_equal(got.table[columns], want.table[columns])
    assert got.unjudged == want.unjudged


def test_a_folder_named_like_a_pattern_holding_text_is_read_as_itself(tmp_path):
    """A folder with glob characters in its name, and the temporary folder's Parquet copy of
    text rows under it: both handed to DuckDB as themselves."""
    folder = tmp_path / "runs[a]*"
    folder.mkdir()
    (tmp_path / "runsa").mkdir()  # what `runs[a]*` matches as a glob
    shutil.copy(EXAMPLES / "sample.run", folder / "sample.run")
    shutil.copy(EXAMPLES / "sample.qrels", folder / "sample.qrels")
    got = score_files(str(folder / "sample.run"), str(folder / "sample.qrels"), TREC)
    want = score_files(str(EXAMPLES / "sample.run"), str(EXAMPLES / "sample.qrels"), TREC)
    pd.testing.assert_frame_equal(got.table, want.table)
