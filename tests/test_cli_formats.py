"""`ndcg-inspect` on a gzip TREC run and qrels, Parquet, Feather and JSON Lines: each gives the
figures of its plain-text twin (pytrec_eval checks the twin in tests/core)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest

RUN = "301 Q0 d1 1 2.5 sys\n301 Q0 d2 2 2.5 sys\n301 Q0 d3 3 1 sys\n302 Q0 a 1 7 sys\n302 Q0 b 2 6 sys\n"
QRELS = "301 0 d1 2\n301 0 d3 1\n301 0 d9 3\n302 0 a 0\n302 0 b 1\n"


def inspect(*args) -> dict:
    result = subprocess.run([sys.executable, "-m", "ndcg_gui.cli", *map(str, args), "--format", "json"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def plain(tmp_path):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    return inspect(tmp_path / "run.txt", "--qrels", tmp_path / "qrels.txt")


def test_a_gzip_trec_run_and_qrels(tmp_path, plain):
    (tmp_path / "input.sys.gz").write_bytes(gzip.compress(RUN.encode()))
    (tmp_path / "qrels.gz").write_bytes(gzip.compress(QRELS.encode()))
    assert inspect(tmp_path / "input.sys.gz", "--qrels", tmp_path / "qrels.gz") == plain


def _table() -> pa.Table:
    rows = [line.split() for line in RUN.splitlines()]
    return pa.table({"qid": [r[0] for r in rows], "docno": [r[2] for r in rows],
                     "score": [float(r[4]) for r in rows]})


def test_parquet(tmp_path, plain):
    pq.write_table(_table(), tmp_path / "run.parquet")
    (tmp_path / "qrels.txt").write_text(QRELS)
    assert inspect(tmp_path / "run.parquet", "--qrels", tmp_path / "qrels.txt") == plain


def test_feather(tmp_path, plain):
    feather.write_feather(_table(), tmp_path / "run.feather")
    (tmp_path / "qrels.txt").write_text(QRELS)
    assert inspect(tmp_path / "run.feather", "--qrels", tmp_path / "qrels.txt") == plain


def test_json_lines(tmp_path, plain):
    lines = [json.dumps(row) for row in _table().to_pylist()]
    (tmp_path / "run.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "qrels.txt").write_text(QRELS)
    assert inspect(tmp_path / "run.jsonl", "--qrels", tmp_path / "qrels.txt") == plain


def test_a_parquet_list_with_its_own_grades(tmp_path):
    pq.write_table(pa.table({"doc": ["a", "b", "c"], "grade": [3, 2, 3]}), tmp_path / "list.parquet")
    (tmp_path / "list.csv").write_text("doc,grade\na,3\nb,2\nc,3\n")
    assert inspect(tmp_path / "list.parquet") == inspect(tmp_path / "list.csv")
