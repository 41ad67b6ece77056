"""The fuzz suite's generators for the engine's kept files and input names (issue 33):

- every special file (FIFO, symbolic link to a victim, to a device, dangling or looping, a
  directory, a hard link to a victim, a sparse giant, one whose tail claims a giant Parquet footer,
  junk) at every name this program keeps a file at (the per-query cache, the copy of text qrels'
  rows): the job ends, its figures are what the files give, and nothing at the name is written
  through (the victim, the device, the folder stay as they were);
- file names holding glob characters (`[`, `]`, `*`, `?`, `!`, `~`, `^`), beside files the name
  matches as a glob: the file of that name is read, once, by every reader (a file, a hive folder,
  the window's `EngineDataset`), and the cache beside it is its own.

Budget: `fuzz_files.budget` (NDCG_FUZZ_LONG multiplies it).
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from fuzz_files import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql import cache as cache_module
from ndcg_gui.core.sql.cache import cache_path, parquet_rows, per_query_table
from ndcg_gui.core.sql.duckdb_engine import score_files
from ndcg_gui.core.sql.engine_dataset import open_engine
from ndcg_gui.core.sql.inputs import files_of, is_pattern

pytest.importorskip("duckdb")

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
TREC = Measure(k=10, ties="trec")
JOB_ENDS_WITHIN = 120.0  # a job waiting on a FIFO never ends: this long, generously, to end
KINDS = ["fifo", "link to a victim", "link to /dev/zero", "dangling link", "looping link", "directory",
         "hard link to a victim", "sparse giant", "giant footer claimed", "junk"]


def _plant(kind: str, at: Path, victim: Path) -> None:
    if kind == "fifo":
        os.mkfifo(at)
    elif kind == "link to a victim":
        at.symlink_to(victim)
    elif kind == "link to /dev/zero":
        at.symlink_to("/dev/zero")
    elif kind == "dangling link":
        at.symlink_to(at.parent / "nowhere")
    elif kind == "looping link":
        at.symlink_to(at)
    elif kind == "directory":
        at.mkdir()
        (at / "inside").write_text("kept\n")
    elif kind == "hard link to a victim":
        os.link(victim, at)
    elif kind == "sparse giant":
        with open(at, "wb") as f:
            f.truncate(1 << 40)
    elif kind == "giant footer claimed":
        with open(at, "wb") as f:
            f.write(b"PAR1")
            f.truncate(1 << 40)
            f.seek((1 << 40) - 8)
            f.write((0xFFFFFFF0).to_bytes(4, "little") + b"PAR1")
    else:
        at.write_bytes(b"PAR1" + os.urandom(200) + b"PAR1")


def _as_planted(kind: str, at: Path, victim: Path) -> None:
    """What must still hold after the job: the victim's bytes; a folder a folder."""
    assert victim.read_text() == "precious\n"
    if kind == "directory":
        assert (at / "inside").read_text() == "kept\n"
    elif at.exists() and not at.is_dir():
        assert at.is_file() and not at.is_symlink()  # (replaced by this program's own file, or left)


def _ends(job):
    """`job()`'s result, run in a thread that must end within JOB_ENDS_WITHIN (a FIFO read waits
    for ever: its name is opened for writing then, so that the thread ends)."""
    done, out = threading.Event(), []

    def work():
        try:
            out.append(job())
        except BaseException as exc:  # (raised below)
            out.append(exc)
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    return done, out


def _wait(done, out, fifo: Path):
    if not done.wait(JOB_ENDS_WITHIN):
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"the job waited on what lies at {fifo.name}")
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_file_at_the_cache_name(tmp_path, kind):
    shutil.copy(EXAMPLES / "sample.run", tmp_path / "sample.run")
    shutil.copy(EXAMPLES / "sample.qrels", tmp_path / "sample.qrels")
    run, qrels = str(tmp_path / "sample.run"), str(tmp_path / "sample.qrels")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    at = cache_path(run, qrels, TREC)
    _plant(kind, at, victim)
    want = score_files(run, qrels, TREC)
    for _ in range(2):  # (written, if it can be, then read)
        got = _wait(*_ends(lambda: per_query_table(run, qrels, TREC)), at)
        pd.testing.assert_frame_equal(got.table, want.table)
        _as_planted(kind, at, victim)


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_file_at_the_rows_copy_name(tmp_path, kind):
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q 0 a 1\nq 0 b 2\n")
    at = Path(parquet_rows(str(qrels), "qrels"))
    at.unlink()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    _plant(kind, at, victim)
    for _ in range(2):
        got = _wait(*_ends(lambda: parquet_rows(str(qrels), "qrels")), at)
        assert pd.read_parquet(got)["grade"].tolist() == [1.0, 2.0]
        _as_planted(kind, at, victim)


# ---- names holding glob characters --------------------------------------------------------------
NAME = st.text(alphabet="ab1[]*?!-~^", min_size=1, max_size=10).filter(lambda n: n not in (".", ".."))


def _decoys(name: str) -> list[str]:
    """Names the name matches as a glob (other than itself): what a reader that globs reads."""
    candidates = {name.replace(c, "") for c in "[]*?"} | {
        name.replace("*", "").replace("?", "a").replace("[", "").replace("]", ""),
        name.translate(str.maketrans({"*": "zz", "?": "q"}))}
    return sorted(c for c in candidates if c and c != name and not c.startswith(".")
                  and fnmatch.fnmatchcase(c, name))


def _run_rows(first: int, last: int) -> pd.DataFrame:
    names = ["query", "q0", "doc", "rank", "score", "tag"]
    rows = pd.read_csv(EXAMPLES / "sample.run", sep=" ", names=names, dtype={"query": str, "doc": str})
    return rows.iloc[first:last][["query", "doc", "score"]].reset_index(drop=True)


def _write(rows: pd.DataFrame, path: Path) -> None:
    if path.suffix == ".parquet":
        pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), path)
    else:
        path.write_text("".join(f"{q} Q0 {d} {i + 1} {s} t\n" for i, (q, d, s) in
                                enumerate(rows.itertuples(index=False))))


@settings(max_examples=budget(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stem=NAME, suffix=st.sampled_from([".run", ".parquet"]))
def test_a_name_with_glob_characters_is_that_file_for_every_reader(stem, suffix):
    name = stem + suffix
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        qrels = str(shutil.copy(EXAMPLES / "sample.qrels", folder / "sample.qrels"))  # (its copy beside it)
        mine = _run_rows(0, 250)
        _write(mine, folder / name)
        for i, decoy in enumerate(_decoys(name)):  # (rows of their own: a folder of them reads as one run)
            _write(_run_rows(250 + 50 * i, 300 + 50 * i), folder / decoy)
        _write(mine, folder / f"plain{suffix}")
        path = str(folder / name)
        assert files_of(path) == [path] and not is_pattern(path)
        want = score_files(str(folder / f"plain{suffix}"), qrels, TREC)
        pd.testing.assert_frame_equal(score_files(path, qrels, TREC).table, want.table)
        calls = []
        real = cache_module.score_files
        cache_module.score_files = lambda *a, **k: calls.append(a) or real(*a, **k)
        try:
            for _ in range(2):
                pd.testing.assert_frame_equal(per_query_table(path, qrels, TREC).table, want.table)
        finally:
            cache_module.score_files = real
        assert len(calls) == 1  # (the second from its own cache)
        if suffix == ".parquet":
            # The window's reader of one query's rows, and a hive folder of such names.
            engine = open_engine(path, qrels, TREC)
            query = mine["query"].iloc[0]
            assert list(engine.ranked_list(query).docs) == list(
                mine[mine["query"] == query].sort_values("score", ascending=False, kind="stable")["doc"])
            hive = folder / "hive"
            (hive / f"part={stem}").mkdir(parents=True)
            for decoy in _decoys(name):
                shutil.copy(folder / decoy, hive / f"part={stem}" / decoy)
            shutil.copy(folder / name, hive / f"part={stem}" / name)
            files = files_of(str(hive))
            assert len(files) == 1 + len(_decoys(name))
            rows = score_files(str(hive), qrels, TREC).table["n_retrieved"].sum()
            assert rows == sum(len(pd.read_parquet(f)) for f in files)  # (each read once)
