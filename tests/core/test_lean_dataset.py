"""What a loaded dataset holds once, and holds small (issue 14, a load's peak memory): origins as
int32 through edits and saves, one set of query groups when the lists are the judgments (a qrels
file read alone), and ids hashed a slice at a time alike whatever the slice."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ndcg_gui.core.arrays import ids, join
from ndcg_gui.core.config import PRESETS
from ndcg_gui.core.lists.dataset import ORIGIN, Dataset, origin_array
from ndcg_gui.core.memory import give_back
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing.writers import write_qrels, write_trec_run

RUN = "301 Q0 a 1 3.5 sys\n301 Q0 b 2 2.25 sys\n302 Q0 c 1 9 sys\n302 Q0 d 2 8 sys\n"
QRELS = "301 0 a 1\n301 0 b 2\n301 0 z 3\n302 0 c 0\n303 0 x 1\n"
# Queries interleaved: the loader groups them, and the groups must still be the judgments'.
SHUFFLED_QRELS = "302 0 c 0\n301 0 a 1\n303 0 x 1\n301 0 b 2\n302 0 e 2\n301 0 z 3\n"


def test_origin_array_is_int32_unless_a_record_is_past_2_31():
    records = np.arange(5, dtype=np.int32)
    assert origin_array(records) is records  # the reader's numbers, not copied
    assert origin_array([3, -1, 0]).dtype == np.int32
    assert origin_array(np.array([], np.int64)).dtype == np.int32
    wide = origin_array(np.array([-1, 2**31], np.int64))
    assert wide.dtype == np.int64 and wide.tolist() == [-1, 2**31]


def test_loaded_origins_are_int32_and_stay_so_through_edits_and_saves(tmp_path):
    run, qrels = tmp_path / "in.run", tmp_path / "in.qrels"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    dataset = load(run, qrels)
    assert dataset.run[ORIGIN].dtype == np.int32 and dataset.qrels[ORIGIN].dtype == np.int32
    assert dataset.ranked_list("301").origin.tolist() == [0, 1]
    edited = dataset.with_lists({"301": dataset.ranked_list("301").inserted(1, ["new"], [2.0])})
    assert edited.run[ORIGIN].dtype == np.int32 and edited.qrels[ORIGIN].dtype == np.int32
    assert edited.ranked_list("301").origin.tolist() == [0, -1, 1]
    assert edited.run[ORIGIN].tolist() == [0, -1, 1, 2, 3]
    write_trec_run(dataset, tmp_path / "same.run")
    write_qrels(dataset, tmp_path / "same.qrels")
    assert (tmp_path / "same.run").read_bytes() == run.read_bytes()
    assert (tmp_path / "same.qrels").read_bytes() == qrels.read_bytes()
    write_trec_run(edited, tmp_path / "out.run")
    write_qrels(edited, tmp_path / "out.qrels")
    assert (tmp_path / "out.run").read_text().endswith("302 Q0 c 1 9 sys\n302 Q0 d 2 8 sys\n")  # as they were
    assert load(tmp_path / "out.run", qrels).ranked_list("301").docs.tolist() == ["a", "new", "b"]
    assert (tmp_path / "out.qrels").read_text() == QRELS.replace("301 0 z 3\n", "301 0 z 3\n301 0 new 2\n")


def _fresh_copy(dataset: Dataset) -> Dataset:
    """The same rows in frames of their own (new Arrow buffers): grouped separately."""
    def copy(frame: pd.DataFrame) -> pd.DataFrame:
        numbers = {c for c in frame.columns if frame[c].dtype.kind in "fi"}
        return pd.DataFrame({c: frame[c].to_numpy().copy() if c in numbers else frame[c].tolist()
                             for c in frame.columns})

    return Dataset(copy(dataset.run), copy(dataset.qrels), kind="qrels", file_format=dataset.file_format,
                   qrels_format=dataset.qrels_format)


@pytest.mark.parametrize("text", [QRELS, SHUFFLED_QRELS], ids=["grouped", "interleaved"])
def test_a_qrels_file_read_alone_groups_its_rows_once_and_scores_as_two_frames_do(tmp_path, text):
    path = tmp_path / "in.qrels"
    path.write_text(text)
    dataset = load(path)
    assert dataset._pool_groups is dataset._groups  # one array of query codes for both frames
    apart = _fresh_copy(dataset)
    assert apart._pool_groups is not apart._groups
    assert dataset.queries() == apart.queries()
    for q in dataset.queries():
        assert dataset.ranked_list(q) == apart.ranked_list(q)
    for k in (None, 1, 2):
        for name, preset in PRESETS.items():
            for ties in ("trec", "file", "average"):
                got, want = (d.evaluate(k, preset.config, ties=ties) for d in (dataset, apart))
                pd.testing.assert_frame_equal(got, want, obj=f"{name} {ties}")
        pd.testing.assert_frame_equal(dataset.summary(k), apart.summary(k))
    # An edit makes the lists and the judgments different rows: grouped apart, scored alike.
    edited = dataset.with_lists({"301": dataset.ranked_list("301").with_grade(0, 3)})
    assert edited._pool_groups is not edited._groups
    pd.testing.assert_frame_equal(edited.summary(3), _fresh_copy(edited).summary(3))
    write_qrels(dataset, tmp_path / "out")
    assert (tmp_path / "out").read_bytes() == path.read_bytes()


def test_ids_hash_alike_in_slices_of_any_size(monkeypatch):
    rng = np.random.default_rng(7)
    n = 3 * ids._SLICE + 123
    texts = [f"doc-{i}-" + "x" * int(rng.integers(0, 30)) for i in range(n)]
    array = pa.array(texts)
    whole = ids.hash_strings(array, 4)
    codes = rng.integers(0, 50, n).astype(np.int32)
    keys = join.pair_keys(codes, whole)
    for size in (1 << 10, 1 << 18):  # a slice that small, and bigger than the array
        monkeypatch.setattr(ids, "_SLICE", size)
        monkeypatch.setattr(join, "_SLICE", size)
        assert np.array_equal(ids.hash_strings(array, 4), whole)
        assert np.array_equal(join.pair_keys(codes, whole), keys)


def test_giving_back_freed_memory_leaves_every_array_as_it_was(tmp_path):
    path = tmp_path / "in.qrels"
    path.write_text(SHUFFLED_QRELS)
    dataset = load(path)
    before = dataset.summary(None)
    give_back()
    pd.testing.assert_frame_equal(dataset.summary(None), before)
