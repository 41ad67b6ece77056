"""Writes are atomic (a failure half-way leaves the old file), follow symbolic links, keep file
modes; backups never overwrite a backup; the judgments go only where a person can be asked."""

from __future__ import annotations

import os
import stat

import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing import atomic, writers
from ndcg_gui.core.writing.saving import (
    JudgmentTarget,
    backup_copy,
    judgment_targets,
    order_columns,
    rescored_queries,
)


@pytest.fixture
def loaded(tmp_path):
    path = tmp_path / "keep.csv"
    path.write_text("doc;grade;title\na;1;Alpha\nb;2;Beta\n")
    return path, load(path)


class _Full:
    """A file object that takes `limit` bytes, then fails like a full disk."""

    def __init__(self, f, limit):
        self.f, self.limit = f, limit

    def write(self, data):
        if len(data) > self.limit:
            self.f.write(data[: self.limit])
            raise OSError(28, "No space left on device")
        self.limit -= len(data)
        return self.f.write(data)

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def test_a_save_that_fails_half_way_leaves_the_original_intact(tmp_path, loaded, monkeypatch):
    path, dataset = loaded
    before = path.read_bytes()
    edited = dataset.with_lists({"": dataset.ranked_list("").reordered([1, 0])})
    real_fdopen = os.fdopen
    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode: _Full(real_fdopen(fd, mode), 7))
    with pytest.raises(InputError, match=r"keep\.csv: cannot write: No space left on device"):
        writers.write_csv(edited, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["keep.csv"]  # no temporary left behind


def test_an_interrupted_save_leaves_the_original_intact(tmp_path, loaded, monkeypatch):
    path, dataset = loaded
    before = path.read_bytes()

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        writers.write_csv(dataset, path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["keep.csv"]


def test_writing_through_a_symbolic_link_replaces_its_target_and_keeps_the_link(tmp_path, loaded):
    path, dataset = loaded
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "real.csv"
    path.rename(target)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    edited = dataset.with_lists({"": dataset.ranked_list("").with_grade(0, 3)})
    writers.write_csv(edited, link)
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text() == "doc;grade;title\na;3;Alpha\nb;2;Beta\n"
    assert sorted(os.listdir(tmp_path / "data")) == ["real.csv"]


def test_a_replaced_file_keeps_its_mode(tmp_path, loaded):
    path, dataset = loaded
    path.chmod(0o640)
    writers.write_csv(dataset, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_a_new_file_gets_the_umasks_usual_mode_not_0600(tmp_path, mask):
    old = os.umask(mask)
    try:
        assert writers.umask() == mask
        writers.write_csv(RankedList.from_grades([1, 2]), tmp_path / "new.csv")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o666 & ~mask


def test_backup_copy_never_overwrites_a_backup(tmp_path):
    path = tmp_path / "judged.qrels"
    path.write_text("1 0 a 1\n")
    path.chmod(0o640)
    first = backup_copy(path)
    path.write_text("1 0 a 2\n")
    second = backup_copy(path)
    assert (first.name, second.name) == ("judged.qrels.bak", "judged.qrels.1.bak")
    assert first.read_text() == "1 0 a 1\n" and second.read_text() == "1 0 a 2\n"
    assert stat.S_IMODE(second.stat().st_mode) == 0o640
    assert backup_copy(path).name == "judged.qrels.2.bak"


def test_backup_of_a_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"nope\.qrels: cannot make a backup copy"):
        backup_copy(tmp_path / "nope.qrels")
    assert os.listdir(tmp_path) == []


# ---- where the judgments go -----------------------------------------------------------------------
@pytest.fixture
def run_with_qrels(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text("1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n")
    qrels.write_text("1 0 a 1\n1 0 b 2\n1 0 c 3\n")
    return load(run, qrels)


def test_saving_over_the_run_with_edited_grades_offers_the_loaded_qrels_first(run_with_qrels, tmp_path):
    targets = judgment_targets(run_with_qrels, tmp_path / "r.run", judgments_edited=True)
    assert targets == [
        JudgmentTarget("loaded", tmp_path / "r.qrels", backup=True),
        JudgmentTarget("beside", tmp_path / "r-judgments.qrels"),  # r.qrels is taken
    ]


def test_saving_over_the_run_without_edited_grades_writes_no_judgments(run_with_qrels, tmp_path):
    assert judgment_targets(run_with_qrels, tmp_path / "r.run", judgments_edited=False) == []


def test_saving_elsewhere_puts_them_beside_and_offers_the_loaded_ones_second(run_with_qrels, tmp_path):
    (tmp_path / "new.qrels").write_text("taken\n")
    assert judgment_targets(run_with_qrels, tmp_path / "new.run", judgments_edited=False) == [
        JudgmentTarget("beside", tmp_path / "new-judgments.qrels")]
    edited = judgment_targets(run_with_qrels, tmp_path / "new.run", judgments_edited=True)
    assert [t.kind for t in edited] == ["beside", "loaded"]


def test_judgments_in_a_csv_are_never_overwritten_in_trec_format(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "j.csv"
    run.write_text("1 Q0 a 1 2 t\n")
    qrels.write_text("query,doc,grade,assessor\n1,a,2,ann\n")
    targets = judgment_targets(load(run, qrels), run, judgments_edited=True)
    assert targets == [JudgmentTarget("beside", tmp_path / "r.qrels")]


def test_no_pool_no_judgments_file(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("doc,grade\na,1\n")
    assert judgment_targets(load(path), path, judgments_edited=True) == []


# ---- scores a save replaces -----------------------------------------------------------------------
def test_a_reordered_list_with_scores_is_named_as_rescored_and_written_n_to_1(tmp_path):
    run = tmp_path / "r.run"
    run.write_text("1 Q0 a 1 2.5 t\n1 Q0 b 2 1.5 t\n2 Q0 x 1 9 t\n2 Q0 y 2 8 t\n3 Q0 p 1 1 t\n")
    data = load(run, need_grades=False)
    assert rescored_queries(data, as_run=True) == []
    one, two, three = (data.ranked_list(q) for q in ("1", "2", "3"))
    edited = data.with_lists({"1": one.reordered([1, 0]), "2": two.reordered([0, 1]),
                              "3": three.with_doc(0, "q")})
    assert rescored_queries(edited, as_run=True) == ["1"]  # 2 kept its order, 3 only renamed a document
    assert rescored_queries(edited, as_run=False) == []  # as CSV: a rank column, the scores kept
    writers.write_trec_run(edited, run)
    assert run.read_text().splitlines()[:2] == ["1 Q0 b 1 2 t", "1 Q0 a 2 1 t"]  # what the question says


def test_lists_without_scores_lose_nothing_when_reordered(tmp_path):
    typed = RankedList.from_grades([3, 0, 1])
    data = TypedDataset.of(typed)
    for as_run in (True, False):
        assert rescored_queries(data.with_lists({typed.query: typed.reordered([2, 1, 0])}), as_run) == []


def test_a_csv_ordered_by_its_scores_asks_for_what_the_csv_writer_rescores(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("query,doc,score,grade\n1,a,2.5,1\n1,b,1.5,0\n2,x,9,1\n2,y,8,0\n")
    data = load(path)
    one = data.ranked_list("1")
    edited = data.with_lists({"1": one.reordered([1, 0])})
    assert rescored_queries(edited, as_run=False) == ["1"]
    writers.write_csv(edited, path)
    assert path.read_text().splitlines()[1:3] == ["1,b,2,0", "1,a,1,1"]  # what the question says


def test_a_csv_ranked_by_its_rank_column_saved_as_a_run_names_every_list_its_scores_disorder(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("query,doc,rank,score,grade\n1,a,1,1.5,1\n1,b,2,2.5,0\n2,x,1,9,1\n2,y,2,8,0\n")
    data = load(path)
    assert rescored_queries(data, as_run=False) == []  # a CSV keeps rank and scores
    assert rescored_queries(data, as_run=True) == ["1"]  # unedited, yet its scores disagree with its ranks
    writers.write_trec_run(data, tmp_path / "r.run")
    assert (tmp_path / "r.run").read_text().splitlines()[:2] == ["1 Q0 a 1 2 ndcg-gui", "1 Q0 b 2 1 ndcg-gui"]


def test_save_as_never_proposes_a_file_that_is_there(tmp_path):
    """Issue 19.11: Save of lists.parquet proposed lists.csv beside it while lists.csv existed."""
    from ndcg_gui.core.writing.saving import save_as_name

    parquet = tmp_path / "lists.parquet"
    assert save_as_name(parquet, ".csv") == tmp_path / "lists.csv"
    (tmp_path / "lists.csv").write_text("doc,grade\n")
    assert save_as_name(parquet, ".csv") == tmp_path / "lists-edited.csv"
    (tmp_path / "lists-edited.csv").write_text("doc,grade\n")
    assert save_as_name(parquet, ".csv") == tmp_path / "lists-edited-2.csv"
    assert save_as_name(tmp_path / "lists.csv", ".csv") == tmp_path / "lists.csv"  # its own file


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("by", ["scores", "rank"])
def test_order_columns_make_the_reader_rank_a_list_as_it_stands(tmp_path, seed, by):
    """Any order of a list with tied scores (and some without any) written with the columns
    `order_columns` gives is read back in that order by the CSV reader; by rank the scores are the
    list's own."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    scores = None if seed % 5 == 0 else rng.integers(0, 4, n).astype(float)  # ties, often
    docs = [f"d{i}" for i in rng.permutation(n)]  # the order a person gave
    cols = order_columns(n, scores, by)
    assert (cols.rank is None) == (by == "scores")
    assert (cols.score is None) == (by == "rank" and scores is None)
    header = ["doc", "grade"] + (["score"] if cols.score is not None else []) + (
        ["rank"] if cols.rank is not None else [])
    lines = [",".join(header)]
    for i, doc in enumerate(docs):
        row = [doc, "1"] + ([repr(float(cols.score[i]))] if cols.score is not None else []) + (
            [str(int(cols.rank[i]))] if cols.rank is not None else [])
        lines.append(",".join(row))
    path = tmp_path / "order.csv"
    path.write_text("\n".join(lines) + "\n")
    back = load(path).ranked_list("")
    assert back.docs.tolist() == docs
    if by == "rank" and scores is not None:
        assert back.scores.tolist() == scores.tolist()
