"""`core.sql.cache.per_query_table`: the engine's per-query table kept beside the run, used again
while the inputs (paths, sizes, times) and the definition are those it was made for; a changed
input or definition misses, a corrupt cache is ignored, a folder that takes no file gets none."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql import cache as cache_module
from ndcg_gui.core.sql.cache import cache_path, per_query_table
from ndcg_gui.core.sql.duckdb_engine import score_files

pytest.importorskip("duckdb")

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
TREC = Measure(k=10, ties="trec")


@pytest.fixture
def files(tmp_path):
    shutil.copy(EXAMPLES / "sample.run", tmp_path / "sample.run")
    shutil.copy(EXAMPLES / "sample.qrels", tmp_path / "sample.qrels")
    return str(tmp_path / "sample.run"), str(tmp_path / "sample.qrels")


@pytest.fixture
def engine_runs(monkeypatch):
    """How many times the engine scored."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[:2])
        return score_files(*args, **kwargs)

    monkeypatch.setattr(cache_module, "score_files", counted)
    return calls


def _same(got, want):
    pd.testing.assert_frame_equal(got.table, want.table)
    assert got.unjudged == want.unjudged


def _cached(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".ndcg-" in p.name)


def test_the_table_is_kept_beside_the_run_and_used_again(files, engine_runs):
    run, qrels = files
    first = per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 1 and _cached(Path(run).parent) == [cache_path(run, qrels, TREC).name]
    assert cache_path(run, qrels, TREC).name.startswith(".sample.run.ndcg-")
    again = per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 1  # from the cache
    _same(again, first)
    _same(again, score_files(run, qrels, TREC))
    assert len(first.table) == 25 and first.table["ndcg"].notna().all()


def test_a_changed_input_misses(files, engine_runs):
    run, qrels = files
    want = per_query_table(run, qrels, TREC)
    lines = Path(run).read_text().splitlines(keepends=True)
    Path(run).write_text("".join(lines[1:]))  # one line fewer: another size and time
    changed = per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 2
    assert changed.table["n_retrieved"].sum() == want.table["n_retrieved"].sum() - 1
    _same(per_query_table(run, qrels, TREC), changed)
    assert len(engine_runs) == 2
    # The same bytes written again: a new time misses too.
    stat = os.stat(qrels)
    os.utime(qrels, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 3
    assert len(_cached(Path(run).parent)) == 1  # written over, not beside


def test_another_definition_or_qrels_misses_and_keeps_its_own_cache(files, engine_runs, tmp_path):
    run, qrels = files
    ten = per_query_table(run, qrels, TREC)
    five = per_query_table(run, qrels, Measure(k=5, ties="trec"))
    exponential = per_query_table(run, qrels, Measure(gain="exponential", k=10, ties="trec"))
    assert len(engine_runs) == 3
    assert not five.table["ndcg"].equals(ten.table["ndcg"])
    assert not exponential.table["ndcg"].equals(ten.table["ndcg"])
    other = tmp_path / "other.qrels"
    other.write_text("".join(line for line in Path(qrels).read_text().splitlines(keepends=True)
                             if not line.startswith("401 ")))
    per_query_table(run, str(other), TREC)
    assert len(engine_runs) == 4 and len(_cached(Path(run).parent)) == 4
    _same(per_query_table(run, qrels, TREC), ten)
    assert len(engine_runs) == 4


def test_a_run_keeps_the_caches_last_used(files, engine_runs, monkeypatch):
    """Each definition tried leaves a cache; past KEEP the least recently used (written or read)
    go, and no other file beside the run (another run's cache, a qrels copy) is touched."""
    monkeypatch.setattr(cache_module, "KEEP", 3)
    run, qrels = files
    folder = Path(run).parent
    (folder / ".other.run.ndcg-0123456789abcdef.parquet").write_bytes(b"another run's")
    (folder / ".sample.qrels.ndcg-rows-0123456789ab-0123456789ab.parquet").write_bytes(b"a copy")
    at = {}
    for k in (1, 2, 3):
        per_query_table(run, qrels, Measure(k=k, ties="trec"))
        at[k] = cache_path(run, qrels, Measure(k=k, ties="trec"))
        os.utime(at[k], ns=(k * 10**9, k * 10**9))  # (times a second apart: the order is sure)
    per_query_table(run, qrels, Measure(k=1, ties="trec"))  # read: last used now
    assert len(engine_runs) == 3 and at[1].stat().st_mtime_ns > 3 * 10**9
    per_query_table(run, qrels, Measure(k=4, ties="trec"))
    assert not at[2].exists() and at[1].exists() and at[3].exists()
    assert len(_cached(folder)) == 5  # three of this run's, the other run's, the copy


@pytest.mark.parametrize("damage", [b"", b"PAR1 not really", None])
def test_a_corrupt_cache_is_ignored_and_written_anew(files, engine_runs, damage):
    run, qrels = files
    want = per_query_table(run, qrels, TREC)
    path = cache_path(run, qrels, TREC)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage is None else damage)  # (None: cut in half)
    _same(per_query_table(run, qrels, TREC), want)
    assert len(engine_runs) == 2
    _same(per_query_table(run, qrels, TREC), want)
    assert len(engine_runs) == 2  # the cache was written anew


def test_a_folder_that_takes_no_file_gets_no_cache_and_no_error(files, engine_runs, monkeypatch):
    import tempfile

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")  # what mkstemp meets in a read-only folder

    run, qrels = files
    want = score_files(run, qrels, TREC)
    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    _same(per_query_table(run, qrels, TREC), want)
    _same(per_query_table(run, qrels, TREC), want)
    assert len(engine_runs) == 2 and _cached(Path(run).parent) == []
    assert sorted(p.name for p in Path(run).parent.iterdir()) == ["sample.qrels", "sample.run"]


def test_without_cache_nothing_is_written(files, engine_runs):
    run, qrels = files
    per_query_table(run, qrels, TREC, cache=False)
    per_query_table(run, qrels, TREC, cache=False)
    assert len(engine_runs) == 2 and _cached(Path(run).parent) == []


def test_a_glob_misses_when_a_part_is_added(tmp_path, engine_runs):
    lines = (EXAMPLES / "sample.run").read_text().splitlines(keepends=True)
    (tmp_path / "part-0.run").write_text("".join(lines[:300]))
    qrels = str(EXAMPLES / "sample.qrels")
    pattern = str(tmp_path / "part-*.run")
    first = per_query_table(pattern, qrels, TREC)
    per_query_table(pattern, qrels, TREC)
    assert len(engine_runs) == 1 and cache_path(pattern, qrels, TREC).parent == tmp_path
    (tmp_path / "part-1.run").write_text("".join(lines[300:]))
    both = per_query_table(pattern, qrels, TREC)
    assert len(engine_runs) == 2 and both.table["n_retrieved"].sum() > first.table["n_retrieved"].sum()
