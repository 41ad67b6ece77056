"""File ▸ Open segments… and the query panel's segment box: the segments read in a worker become the
document's (one undo step, recovered after a crash), the box lists each segment with its queries,
and picking one lists them, its mean and its histogram: held against `core.analysis.segments` and
pandas on the per-query figures the table shows."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.core.analysis.segments import segment_means
from ndcg_gui.core.ndcg.mean import histogram
from ndcg_gui.core.ndcg.measure import Measure

DEVICES = ("mobile", "desktop", "tablet")


@pytest.fixture
def segments_file(tmp_path, files):
    queries = sorted({line.split()[0] for line in files[1].read_text().splitlines()})
    chosen = {q: DEVICES[i % 3] for i, q in enumerate(queries) if i % 7 != 6}
    path = tmp_path / "segments.tsv"
    path.write_text("".join(f"{q}\t{s}\n" for q, s in chosen.items()))
    return path, chosen


def read_segments(qtbot, window, path) -> None:
    window.segments.open(path)
    qtbot.waitUntil(lambda: window.segments.reading is None, timeout=20_000)  # (the worker's read)


def test_open_segments_then_pick_one(qtbot, opened, segments_file, dialog_log):
    path, chosen = segments_file
    panel = opened.query_panel
    assert panel.segment_combo.isHidden()
    read_segments(qtbot, opened, path)
    assert opened.document.state.segments.values == chosen and not dialog_log
    assert opened.document.undo_stack.undoText() == "Open segments segments.tsv"
    combo = panel.segment_combo
    assert combo.isVisibleTo(panel)
    result = panel.model._index  # (the frame the table shows: its queries)
    listed = [str(q) for q in result]
    counts = {d: sum(chosen.get(q) == d for q in listed) for d in DEVICES}
    assert [combo.itemText(i) for i in range(combo.count())] == \
        ["All segments", *(f"{d} ({counts[d]})" for d in sorted(DEVICES))]
    scores = opened.scores.result
    means = segment_means(scores, chosen, Measure())
    for device in DEVICES:
        panel.pick_segment(device)
        members = [q for q in listed if chosen.get(q) == device]
        assert sorted(panel.visible_queries()) == sorted(members)
        want = means.table.loc[device]
        assert panel.summary.mean == pytest.approx(want["mean"], rel=1e-12)
        assert panel.summary.counted == want["counted"] and panel.summary.total == want["total"]
        assert panel.mean_label.text() == (f"Segment {device}: mean NDCG@10 = {want['mean']:.4f} over "
                                           f"{int(want['counted'])} of {int(want['total'])} queries")
        assert panel.summary.mean == pytest.approx(scores.loc[members, "ndcg"].mean(), rel=1e-12)
        _, counts_drawn = histogram(scores.loc[members, "ndcg"].to_numpy())
        assert panel.histogram.counts.tolist() == counts_drawn.tolist()
        # a histogram bar picks within the segment
        index = int(np.argmax(panel.histogram.counts))
        panel.pick_bin(index)
        assert set(panel.visible_queries()) <= set(members)
        assert len(panel.visible_queries()) == panel.histogram.counts[index]
        panel.pick_bin(-1)
    panel.pick_segment(None)
    assert len(panel.visible_queries()) == len(listed)
    assert panel.mean_label.text().startswith("Mean NDCG@10 = ")
    opened.document.undo_stack.undo()
    assert opened.document.state.segments is None and panel.segment_combo.isHidden()


def test_a_query_outside_the_segment_opened_drops_the_segment(qtbot, opened, segments_file):
    path, chosen = segments_file
    read_segments(qtbot, opened, path)
    panel = opened.query_panel
    panel.pick_segment("mobile")
    outside = next(q for q in map(str, panel.model._index) if chosen.get(q) != "mobile")
    opened.document.set_current_query(outside)
    assert panel.segment is None and outside in panel.visible_queries()
    assert panel.current_query() == outside


def test_a_bad_segments_file_is_said_in_one_line(qtbot, opened, tmp_path, dialog_log):
    bad = tmp_path / "bad.tsv"
    bad.write_text("401\tmobile\n401\tdesktop\n")
    read_segments(qtbot, opened, bad)
    assert opened.document.state.segments is None
    assert opened.segments.problem == 'bad.tsv:2: query "401" has two segments: "mobile" (line 1) and ' \
        '"desktop"; give each query one'
    assert dialog_log == [("Could not read the segments", opened.segments.problem)]


def test_segments_are_kept_for_recovery(qtbot, opened, segments_file):
    from ndcg_gui.core.state.recovery import snapshot_json

    path, chosen = segments_file
    assert not opened.document.state.worth_recovering()
    read_segments(qtbot, opened, path)
    state = opened.document.state
    assert state.worth_recovering()
    assert snapshot_json(state)["segments"]["values"] == chosen


def test_the_exported_reports_have_the_segments_table(qtbot, opened, segments_file, files, tmp_path):
    path, chosen = segments_file
    read_segments(qtbot, opened, path)
    out = tmp_path / "r.html"
    assert opened.exports.export_report(out)
    html = out.read_text(encoding="utf-8")
    means = segment_means(opened.document.evaluate(), chosen)
    assert "<h2>By segment</h2>" in html
    for device in DEVICES:
        assert f"<td>{device}</td><td class=\"num\" data-v=" in html
        assert f">{means.table.at[device, 'mean']:.4f}<" in html
    opened.compare.add_run(files[2])
    opened.compare.flush()
    assert opened.exports.export_report(out)
    html = out.read_text(encoding="utf-8")
    assert "<h2>By segment</h2>" in html and "second against sample: " in html
