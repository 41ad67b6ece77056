"""The files `--cache` and the window keep beside the data (issue 33, findings 3, 6 and 10): no
stale figure however an input is changed behind the key's back, nothing written through what lies
at a kept file's predictable name, no wait on a FIFO there, no "bomb" read before its key is
checked, and a kept file of the wrong shape scored again."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql import cache as cache_module
from ndcg_gui.core.sql import cache_files
from ndcg_gui.core.sql.cache import cache_key, cache_path, parquet_rows, per_query_table
from ndcg_gui.core.sql.duckdb_engine import score_files

pytest.importorskip("duckdb")

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
TREC = Measure(k=10, ties="trec")
# A job that waits on a FIFO never ends: it is given this long, generously, to end.
JOB_ENDS_WITHIN = 120.0


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


def _fresh(run, qrels):
    """What the files give now, scored without any cache."""
    return score_files(run, qrels, TREC)


def _same_size_edit(path: str) -> None:
    """The first line's score (the query's highest) made its lowest in as many characters, the
    times set back as `touch -r` sets them."""
    info = os.stat(path)
    lines = Path(path).read_text().splitlines(keepends=True)
    fields = lines[0].split(" ")
    fields[4] = "0" * (len(fields[4]) - 2) + ".1"
    lines[0] = " ".join(fields)
    before = os.path.getsize(path)
    Path(path).write_text("".join(lines))
    assert os.path.getsize(path) == before
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _differ(a, b):
    assert not a.table["ndcg"].equals(b.table["ndcg"])  # (the change moves a figure)


# ---- finding 3: a stale figure -------------------------------------------------------------------
@pytest.mark.parametrize("large", [False, True])
def test_a_same_size_edit_with_its_times_set_back_misses(files, engine_runs, monkeypatch, large):
    """`touch -r`: the same size and modification time. Large: a file past the part hashed whole,
    where the change time (which no call sets back) misses it."""
    if large:
        monkeypatch.setattr(cache_files, "WHOLE", 1024)
        monkeypatch.setattr(cache_files, "PIECE", 16)
    run, qrels = files
    first = per_query_table(run, qrels, TREC)
    _same_size_edit(run)
    got = per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 2
    _same(got, _fresh(run, qrels))
    _differ(got, first)


def test_qrels_moved_over_with_the_same_size_and_times_miss(files, engine_runs, tmp_path):
    run, qrels = files
    first = per_query_table(run, qrels, TREC)
    lines = Path(qrels).read_text().splitlines(keepends=True)
    other = tmp_path / "other.qrels"
    swapped = [line.replace(" 1\n", " 0\n") if i % 2 else line.replace(" 0\n", " 1\n")
               for i, line in enumerate(lines)]
    other.write_text("".join(swapped))
    assert other.stat().st_size == os.path.getsize(qrels)
    info = os.stat(qrels)
    os.utime(other, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(other, qrels)  # mv other.qrels sample.qrels
    got = per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 2
    _same(got, _fresh(run, qrels))
    _differ(got, first)


def test_a_run_made_a_hard_link_to_another_file_misses(files, engine_runs, tmp_path):
    run, qrels = files
    first = per_query_table(run, qrels, TREC)
    other = tmp_path / "other.run"
    shutil.copy(run, other)
    _same_size_edit(str(other))
    info = os.stat(run)
    os.utime(other, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.unlink(run)
    os.link(other, run)  # ln -f other.run sample.run
    got = per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 2
    _same(got, _fresh(run, qrels))
    _differ(got, first)


def test_a_link_to_the_run_retargeted_misses(files, engine_runs, tmp_path):
    run, qrels = files
    a, b = tmp_path / "a.run", tmp_path / "b.run"
    shutil.copy(run, a)
    shutil.copy(run, b)
    _same_size_edit(str(b))
    info = os.stat(a)
    os.utime(b, ns=(info.st_atime_ns, info.st_mtime_ns))
    link = tmp_path / "link.run"
    link.symlink_to(a)
    first = per_query_table(str(link), qrels, TREC)
    link.unlink()
    link.symlink_to(b)  # ln -sfn b.run link.run
    got = per_query_table(str(link), qrels, TREC)
    assert len(engine_runs) == 2
    _same(got, _fresh(str(link), qrels))
    _differ(got, first)


def test_text_qrels_copy_follows_a_same_size_edit_with_its_times_set_back(tmp_path):
    """The window's Parquet copy of text qrels (`parquet_rows`) is made again for them."""
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q 0 a 1\nq 0 b 2\n")
    first = parquet_rows(str(qrels), "qrels")
    info = qrels.stat()
    qrels.write_text("q 0 a 2\nq 0 b 1\n")
    os.utime(qrels, ns=(info.st_atime_ns, info.st_mtime_ns))
    again = parquet_rows(str(qrels), "qrels")
    assert pd.read_parquet(first if Path(first).exists() else again)["grade"].tolist() in ([1, 2], [2, 1])
    assert pd.read_parquet(again)["grade"].tolist() == [2.0, 1.0]


# ---- finding 6: what lies at a kept file's name --------------------------------------------------
def test_a_link_planted_at_the_cache_name_is_not_written_through(files, engine_runs, tmp_path):
    run, qrels = files
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    path = cache_path(run, qrels, TREC)
    path.symlink_to(victim)
    _same(per_query_table(run, qrels, TREC), _fresh(run, qrels))
    assert victim.read_text() == "precious\n"
    assert path.is_file() and not path.is_symlink()  # (the link replaced by the cache itself)


def test_a_link_to_a_cache_is_not_read(files, engine_runs, tmp_path):
    """A link at the cache name to a file that would pass every other check (this run's cache, by
    its key; made elsewhere) is not followed: the run is scored again."""
    run, qrels = files
    per_query_table(run, qrels, TREC)
    path = cache_path(run, qrels, TREC)
    elsewhere = tmp_path / "elsewhere.parquet"
    shutil.move(path, elsewhere)
    path.symlink_to(elsewhere)
    per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 2


def test_another_users_or_a_shared_cache_is_not_read(files, engine_runs):
    run, qrels = files
    per_query_table(run, qrels, TREC)
    path = cache_path(run, qrels, TREC)
    os.chmod(path, 0o666)  # (anyone may write it: it may not be what this program wrote)
    per_query_table(run, qrels, TREC)
    assert len(engine_runs) == 2


def _ends(job) -> bool:
    """Whether `job` ends within JOB_ENDS_WITHIN (run in a thread of its own)."""
    done = threading.Event()
    failed = []

    def work():
        try:
            job()
        except BaseException as exc:  # (said below)
            failed.append(exc)
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    ended = done.wait(JOB_ENDS_WITHIN)
    assert not failed, failed
    return ended


def _unblock(fifo: Path) -> None:
    """A reader waiting on `fifo` let go (a writer opened and closed): so a failing test ends."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_fifo_at_the_cache_name_is_passed_over(files, engine_runs):
    run, qrels = files
    path = cache_path(run, qrels, TREC)
    os.mkfifo(path)
    got = []
    ended = _ends(lambda: got.append(per_query_table(run, qrels, TREC)))
    if not ended:
        _unblock(path)
    assert ended, "the job waited on the FIFO at the cache name"
    _same(got[0], _fresh(run, qrels))


_BOMB_CHILD = """
import json, resource, sys
from pathlib import Path
from ndcg_gui.core.sql.cache import read_cache
path, key, most = sys.argv[1], sys.argv[2], int(sys.argv[3])
read_cache(Path(path), key, most)  # (its imports paid before the peak is read)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found = read_cache(Path(path), key, most)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"found": found is not None, "grew_kib": after - before}))
"""


def _bomb(path: Path, key: str) -> None:
    """A small Parquet file of the per-query table's columns whose rows take ~400 MB once read."""
    big = "x" * 4000
    rows = 10_000
    table = pa.table({
        "query": pa.array([big] * rows, pa.large_string()),
        **{c: pa.array([0] * rows, pa.int64()) for c in
           ("n_retrieved", "n_judged", "n_unjudged", "n_pool", "n_relevant")},
        **{c: pa.array([0.0] * rows, pa.float64()) for c in ("dcg", "idcg", "ndcg")},
        "undefined": pa.array([False] * rows),
        "first_row": pa.array([0] * rows, pa.int64()),
        "first_judged": pa.array([0] * rows, pa.int64()),
    })
    meta = {b"ndcg_gui.per_query_cache": json.dumps({"key": key, "unjudged": []}).encode()}
    table = table.replace_schema_metadata(meta)
    with pq.ParquetWriter(path, table.schema, compression="zstd", use_dictionary=False) as writer:
        for _ in range(10):
            writer.write_table(table)
    assert path.stat().st_size < 5 << 20


@pytest.mark.parametrize("right_key", [False, True])
def test_a_parquet_bomb_at_the_cache_name_is_not_read(files, tmp_path, right_key):
    """Its key is read from the footer first; with this run's key (forged), what the footer says
    it holds is more than these inputs can make: neither is decompressed."""
    run, qrels = files
    path = cache_path(run, qrels, TREC)
    key = cache_key(run, qrels, TREC)
    _bomb(path, key if right_key else "0" * 64)
    most = cache_module._most_bytes(run, qrels)
    child = subprocess.run([sys.executable, "-c", _BOMB_CHILD, str(path), key, str(most)],
                           capture_output=True, text=True, check=True)
    said = json.loads(child.stdout)
    assert not said["found"]
    assert said["grew_kib"] < 100 * 1024, said  # (the bomb holds 400 MB)


# ---- finding 10: a cache of the wrong shape -----------------------------------------------------
@pytest.mark.parametrize("damage", ["ndcg as text", "query as a number", "a column fewer",
                                    "unjudged not a list"])
def test_a_cache_with_wrong_columns_or_types_is_scored_again(files, engine_runs, damage):
    run, qrels = files
    want = per_query_table(run, qrels, TREC)
    path = cache_path(run, qrels, TREC)
    table = pq.read_table(path)
    meta = table.schema.metadata
    if damage == "ndcg as text":
        table = table.set_column(table.schema.get_field_index("ndcg"), "ndcg",
                                 pa.array([str(x) for x in table["ndcg"].to_pylist()]))
    elif damage == "query as a number":
        table = table.set_column(0, "query", pa.array(range(len(table)), pa.int64()))
    elif damage == "a column fewer":
        table = table.drop_columns(["dcg"])
    else:
        kept = json.loads(meta[b"ndcg_gui.per_query_cache"])
        kept["unjudged"] = 7
        meta = {**meta, b"ndcg_gui.per_query_cache": json.dumps(kept).encode()}
    pq.write_table(table.replace_schema_metadata(meta), path)
    _same(per_query_table(run, qrels, TREC), want)
    assert len(engine_runs) == 2


def test_the_command_scores_again_over_a_cache_of_the_wrong_type(files, capsys):
    """Through `ndcg-inspect --cache`: the figures as without a cache, status 0 (not an internal
    error)."""
    from ndcg_gui.cli.main import main

    run, qrels = files
    args = [run, "--qrels", qrels, "--engine", "duckdb", "--cache"]
    assert main(args) == 0
    want = capsys.readouterr()
    [path] = Path(run).parent.glob(".sample.run.ndcg-*.parquet")
    table = pq.read_table(path)
    at = table.schema.get_field_index("ndcg")
    table = table.set_column(at, "ndcg", pa.array(["x"] * len(table)))
    pq.write_table(table, path)
    assert main(args) == 0
    assert capsys.readouterr() == want


# ---- the window's copy of text qrels (`parquet_rows`) -------------------------------------------
def _rows_name(qrels: Path) -> Path:
    """Where `parquet_rows` keeps the copy of `qrels` as they are now."""
    made = Path(parquet_rows(str(qrels), "qrels"))
    os.unlink(made)
    return made


def test_a_link_at_the_rows_copy_name_is_neither_read_nor_written_through(tmp_path):
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q 0 a 1\nq 0 b 2\n")
    name = _rows_name(qrels)
    planted = tmp_path / "planted.parquet"
    pq.write_table(pa.table({"query": ["q"], "doc": ["a"], "grade": [9.0]}), planted)
    name.symlink_to(planted)
    got = parquet_rows(str(qrels), "qrels")
    assert pd.read_parquet(got)["grade"].tolist() == [1.0, 2.0]
    assert pd.read_parquet(planted)["grade"].tolist() == [9.0]
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    for stale in tmp_path.glob(".q.qrels.ndcg-rows-*"):
        stale.unlink()
    name.symlink_to(victim)
    Path(str(name) + ".part").symlink_to(victim)  # (the name an earlier version wrote through)
    parquet_rows(str(qrels), "qrels")
    assert victim.read_text() == "precious\n"
    assert name.is_file() and not name.is_symlink()


def test_a_fifo_at_the_rows_copy_name_is_passed_over(tmp_path):
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q 0 a 1\nq 0 b 2\n")
    name = _rows_name(qrels)
    os.mkfifo(name)
    got = []
    ended = _ends(lambda: got.append(parquet_rows(str(qrels), "qrels")))
    if not ended:
        _unblock(name)
    assert ended, "the copy waited on the FIFO at its name"
    assert pd.read_parquet(got[0])["grade"].tolist() == [1.0, 2.0]


def test_a_footer_that_says_less_than_its_pages_hold_is_stopped_while_read(files, tmp_path, monkeypatch):
    """What is read is counted too: a footer whose sizes lie (made to here: each row group said
    empty) stops the read once past the bound."""
    run, qrels = files
    path = cache_path(run, qrels, TREC)
    key = cache_key(run, qrels, TREC)
    _bomb(path, key)
    real = cache_module.parquet_footer

    class Lying:
        def __init__(self, footer):
            self._footer = footer

        def __getattr__(self, name):
            return getattr(self._footer, name)

        def row_group(self, i):
            class Empty:
                total_byte_size = 0
            return Empty()

    monkeypatch.setattr(cache_module, "parquet_footer", lambda f: Lying(real(f)))
    read = []
    original = pq.ParquetFile.read_row_group
    monkeypatch.setattr(pq.ParquetFile, "read_row_group",
                        lambda self, i, *a, **k: read.append(i) or original(self, i, *a, **k))
    assert cache_module.read_cache(path, key, 1 << 20) is None
    assert read == [0]  # (the first row group, ~40 MB, is past 1 MiB: nothing more is read)
