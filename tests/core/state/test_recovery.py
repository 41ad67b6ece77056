"""Recovery files (core.recovery): what a crash would lose is written as JSON and read back into
the same lists, on top of the files read again."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.reading import load
from ndcg_gui.core.state.recovery import read_recovery, write_recovery
from ndcg_gui.core.state.workspace import FileRef, Workspace


def test_edited_lists_come_back_on_the_files_read_again(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 1.0 t\nq2 Q0 d 2 0.5 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq1 0 z 1\nq2 0 c 1\n")
    ws = Workspace.of(load(run, qrels), file=FileRef.of(run, qrels))
    ws = ws.with_list("q1", edits.reverse(ws.list_for("q1")).after)
    ws = ws.with_list("q2", edits.set_grade(ws.list_for("q2"), 0, float("nan")).after)
    ws = ws.with_list("q2", edits.rename(ws.list_for("q2"), 0, "new-id").after)
    path = tmp_path / "recovery" / "recovery-1.json"
    write_recovery(path, ws)

    snapshot = read_recovery(path)
    assert snapshot.path == run.resolve() and sorted(snapshot.lists) == ["q1", "q2"]
    back = snapshot.restore(load)
    for q in ("q1", "q2"):
        assert back.list_for(q) == ws.list_for(q)
    assert sorted(back.unsaved_queries()) == ["q1", "q2"]  # restored edits are unsaved work


def test_a_typed_document_comes_back_whole(tmp_path):
    ws = Workspace.typed({"": RankedList.from_grades([3, 2, 0.5, -1])})
    ws = ws.with_list("", edits.reverse(ws.list_for("")).after)  # then edited
    path = tmp_path / "r.json"
    write_recovery(path, ws)
    back = read_recovery(path).restore(load)
    np.testing.assert_array_equal(back.list_for("").grades, [-1, 0.5, 2, 3])
    assert back.unsaved_queries() == [""]  # typed and never saved: unsaved work


def test_a_typed_list_is_its_own_list_as_loaded_and_unsaved_until_saved():
    ws = Workspace.typed({"": RankedList.from_grades([2, 0, 3])})
    assert ws.original("").grades.tolist() == [2, 0, 3] and not ws.edited_queries()
    assert ws.unsaved_queries() == [""]
    ws.mark_saved()
    assert ws.unsaved_queries() == []
    assert Workspace.typed({"": RankedList.from_grades([])}).unsaved_queries() == []  # nothing typed


def test_a_damaged_recovery_file_is_refused_with_its_name(tmp_path):
    bad = tmp_path / "recovery-9.json"
    bad.write_text('{"format": "ndcg-inspector-recovery/1", "lists": {"q": {"docs": [1]')
    with pytest.raises(ValueError, match=r"recovery-9\.json"):
        read_recovery(bad)


def test_a_list_with_every_row_deleted_stays_empty():
    from ndcg_gui.core.lists.ranked_list import RankedList
    from ndcg_gui.core.lists.typed_dataset import TypedDataset

    ws = Workspace.of(TypedDataset.of(RankedList.from_grades([3, 1], query="q")))
    emptied = ws.with_list("q", edits.remove(ws.list_for("q"), [0, 1]).after)
    assert len(emptied.list_for("q")) == 0 and emptied.unsaved_queries() == ["q"]


DAMAGED = {
    "not an object": "[1, 2]",
    "lists not an object": '{"format": "ndcg-inspector-recovery/1", "lists": [1]}',
    "a list not an object": '{"format": "ndcg-inspector-recovery/1", "lists": {"q": 3}}',
    "docs not a list": '{"format": "ndcg-inspector-recovery/1", "lists": {"q": {"docs": 1, "grades": 2}}}',
    "grades of another length": '{"format": "ndcg-inspector-recovery/1", "lists": {"q": {"docs": ["a"], '
                                '"grades": [1, 2]}}}',
    "a grade that is text": '{"format": "ndcg-inspector-recovery/1", "lists": {"q": {"docs": ["a"], '
                            '"grades": ["x"]}}}',
    "nested past any limit": "[" * 100_000 + "]" * 100_000,
    "not UTF-8": b"\xff\xfe{",
    "a pid that is text": '{"format": "ndcg-inspector-recovery/1", "lists": {}, "pid": "x"}',
    "segments that are not text": '{"format": "ndcg-inspector-recovery/1", "lists": {}, '
                                  '"segments": {"values": {"q1": 3}}}',
}


@pytest.mark.parametrize("text", DAMAGED.values(), ids=DAMAGED.keys())
def test_every_damaged_recovery_file_is_a_value_error_naming_it(tmp_path, text):
    bad = tmp_path / "recovery-abc.json"
    bad.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ValueError, match=r"^recovery-abc\.json: damaged recovery file"):
        read_recovery(bad)


def test_a_folder_named_like_a_recovery_file_is_a_value_error(tmp_path):
    (tmp_path / "recovery-x.json").mkdir()
    with pytest.raises(ValueError, match=r"recovery-x\.json"):
        read_recovery(tmp_path / "recovery-x.json")


def test_a_huge_pid_is_read(tmp_path):
    ws = Workspace.typed({"": RankedList.from_grades([1, 0])})
    path = tmp_path / "recovery-a.json"
    write_recovery(path, ws)
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "pid": 10**30}))
    assert read_recovery(path).lists[""].grades.tolist() == [1, 0]


# A recovery file as the code before the one `Measure` wrote it (its mean policy a `MeanPolicy`,
# written as {"empty", "undefined"}): still read, its policy now the measure's.
_BEFORE_THE_MEASURE = (
    '{"shown": "q1", "compared": [], "baseline": null, "focus": null, "policy": {"empty": "skip", '
    '"undefined": "skip"}, "format": "ndcg-inspector-recovery/1", "written": "2026-12-01T10:00:00", '
    '"pid": 1, "path": "RUN", "qrels_path": "QRELS", "name": "r.run", "queries": ["q1"], "lists": {"q1": '
    '{"query": "q1", "docs": ["b", "a"], "grades": [2.0, 0.0], "scores": [1.0, 2.0], "unretrieved": {}, '
    '"has_pool": true, "origin": [1, 0]}}}'
)


def test_a_recovery_file_written_before_the_measure_opens_with_its_mean_policy(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 1.0 t\n")
    qrels.write_text("q1 0 a 0\nq1 0 b 2\nq2 0 c 1\nq3 0 x 1\n")
    path = tmp_path / "recovery-1.json"
    path.write_text(_BEFORE_THE_MEASURE.replace("RUN", str(run)).replace("QRELS", str(qrels)))
    back = read_recovery(path).restore(load)
    assert (back.measure.empty, back.measure.undefined) == ("skip", "skip")
    assert back.list_for("q1").docs.tolist() == ["b", "a"] and back.unsaved_queries() == ["q1"]
    # Written again, it is the same file: the policy under the keys it always had.
    write_recovery(tmp_path / "again.json", back, shown="q1")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["policy"] == {"empty": "skip", "undefined": "skip"}
    assert again["lists"] == json.loads(path.read_text())["lists"]


@pytest.mark.parametrize("policy", ['{"empty": "drop"}', '{"k": 3}', '["skip"]'])
def test_a_recovery_file_whose_mean_policy_is_not_one_is_damaged(tmp_path, policy):
    path = tmp_path / "recovery-1.json"
    path.write_text(_BEFORE_THE_MEASURE.replace('{"empty": "skip", "undefined": "skip"}', policy))
    with pytest.raises(ValueError, match=r"recovery-1\.json: damaged recovery file"):
        read_recovery(path)
def test_segments_come_back_as_they_were_read(tmp_path):
    """Segments read (a file, or a pipe read once) are part of the document: kept in the recovery
    file as read, and the only thing worth recovering in an unedited document."""
    from ndcg_gui.core.formats.query_map import read_query_map

    run, qrels, seg = tmp_path / "r.run", tmp_path / "r.qrels", tmp_path / "s.tsv"
    run.write_text("q1 Q0 a 1 2.0 t\nq2 Q0 c 1 1.0 t\n")
    qrels.write_text("q1 0 a 1\nq2 0 c 1\n")
    seg.write_text("q1\tmobile\nq2\tdesktop\n")
    ws = Workspace.of(load(run, qrels), file=FileRef.of(run, qrels))
    assert not ws.worth_recovering()
    ws = ws.with_segments(read_query_map(seg, "segment"))
    assert ws.worth_recovering()
    path = tmp_path / "recovery-1.json"
    write_recovery(path, ws)
    seg.write_text("q1\tchanged\n")  # (what was read comes back, not the file as it is now)
    back = read_recovery(path).restore(load)
    assert back.segments.values == {"q1": "mobile", "q2": "desktop"}
    assert back.segments.origin == "s.tsv" and back.segments.path == seg.resolve()
    assert ws.with_segments(None).segments is None
    assert Workspace.of(load(run, qrels)).carrying(ws).segments is ws.segments
