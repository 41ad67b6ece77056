"""A CSV's own `segment` and `weight` columns, read when the window opens it (as `ndcg-inspect`
reads them): the segment box lists the column's segments, each segment's mean and the mean
weighted by the column are held against pandas' groupby of the per-query figures the table shows;
a bad cell is one line naming the file and its line, and the run opens all the same; a segments
file read later replaces the column's map, and says so."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

SEGMENTS = ("desktop", "mobile", "tablet")


def write_csv(path, bad: dict[int, tuple[str, str]] | None = None):
    """A run of 24 queries (5-8 judged documents each) with a segment and a weight per query;
    `bad`: {line: (column, cell)} cells written instead. Returns the file and each query's
    segment and weight as written."""
    rng = np.random.default_rng(35)
    lines = ["query,doc,score,grade,segment,weight"]
    segment, weight = {}, {}
    for i in range(24):
        q = f"q{i}"
        segment[q] = SEGMENTS[i % 3] if i % 5 else "mobile"
        weight[q] = float(rng.integers(1, 9))
        for d in range(int(rng.integers(5, 9))):
            cells = {"segment": segment[q], "weight": f"{weight[q]:g}"}
            number = len(lines) + 1
            if bad and number in bad:
                column, cell = bad[number]
                cells[column] = cell
            lines.append(f"{q},d{d},{rng.random():.4f},{int(rng.integers(0, 4))},"
                         f"{cells['segment']},{cells['weight']}")
    path.write_text("\n".join(lines) + "\n")
    return path, segment, weight


def open_file(window, path) -> None:
    window.resize(1280, 800)
    window.files.open(path, ask=False)  # (a small file: read at once)
    assert window.files.problem is None


def per_query(window, segment, weight) -> pd.DataFrame:
    """The per-query NDCG the window's table shows, with each query's segment and weight."""
    scores = window.scores.result
    frame = pd.DataFrame({"ndcg": scores["ndcg"].to_numpy(dtype=float)}, index=scores.index.astype(str))
    frame["segment"] = frame.index.map(segment)
    frame["weight"] = frame.index.map(weight)
    return frame


def test_a_csv_with_segment_and_weight_columns_groups_and_weighs_the_mean(qtbot, window, tmp_path):
    path, segment, weight = write_csv(tmp_path / "run.csv")
    open_file(window, path)
    state = window.document.state
    assert state.segments.values == segment and state.weights.values == weight
    assert state.segments.origin == 'column "segment" of run.csv'
    assert "3 segments and query weights from its own columns" in window.statusBar().currentMessage()
    panel = window.query_panel
    combo = panel.segment_combo
    assert combo.isVisibleTo(panel)
    frame = per_query(window, segment, weight)
    sizes = frame.groupby("segment").size()
    assert [combo.itemText(i) for i in range(combo.count())] == \
        ["All segments", *(f"{s} ({sizes[s]})" for s in SEGMENTS)]
    plain = frame["ndcg"].mean()
    weighted = np.average(frame["ndcg"], weights=frame["weight"])
    assert panel.summary.mean == pytest.approx(plain, rel=1e-12)
    assert panel.weighted_mean == pytest.approx(weighted, rel=1e-12)
    assert abs(plain - weighted) > 1e-3  # (the weights do change the mean of this run)
    assert panel.mean_label.text().endswith(f'; weighted by column "weight" of run.csv: {weighted:.4f}')
    means = frame.groupby("segment")["ndcg"].mean()
    weighted_means = frame.groupby("segment").apply(lambda g: np.average(g["ndcg"], weights=g["weight"]))
    for name in SEGMENTS:
        panel.pick_segment(name)
        assert sorted(panel.visible_queries()) == sorted(frame.index[frame["segment"] == name])
        assert panel.summary.mean == pytest.approx(means[name], rel=1e-12)
        assert panel.weighted_mean == pytest.approx(weighted_means[name], rel=1e-12)
        assert panel.mean_label.text().startswith(f"Segment {name}: mean NDCG@10 = {means[name]:.4f}")
    # the per-query figures are not weighted
    assert frame["ndcg"].tolist() == per_query(window, segment, weight)["ndcg"].tolist()


def test_a_segments_file_read_later_replaces_the_columns_map(qtbot, window, tmp_path):
    path, segment, _ = write_csv(tmp_path / "run.csv")
    open_file(window, path)
    chosen = {q: "head" if int(q[1:]) < 12 else "tail" for q in segment}
    other = tmp_path / "segments.tsv"
    other.write_text("".join(f"{q}\t{s}\n" for q, s in chosen.items()))
    window.segments.open(other)
    qtbot.waitUntil(lambda: window.segments.reading is None, timeout=20_000)  # (the worker's read)
    assert window.document.state.segments.values == chosen
    assert window.statusBar().currentMessage() == \
        "2 segments read from segments.tsv, in place of column \"segment\" of run.csv's"
    combo = window.query_panel.segment_combo
    assert [combo.itemText(i) for i in range(1, combo.count())] == ["head (12)", "tail (12)"]
    window.document.undo_stack.undo()
    assert window.document.state.segments.values == segment


@pytest.mark.parametrize(("column", "cell", "said"), [
    ("weight", "-2", 'column "weight": query "q3": weight "-2" is negative; expected a number of at least 0'),
    ("weight", "many", 'column "weight": query "q3": weight "many" is not a number; expected a number of '
                       "at least 0"),
    ("segment", "phone", 'column "segment": query "q3" has two segments on its rows: "desktop" and '
                         '"phone"; give every row of a query its one segment'),
])
def test_a_bad_cell_is_one_line_naming_the_line_and_the_run_opens(qtbot, window, tmp_path, dialog_log,
                                                                  column, cell, said):
    plain, _, _ = write_csv(tmp_path / "plain.csv")
    rows = plain.read_text().splitlines()
    first_q3 = next(i for i, line in enumerate(rows, start=1) if line.startswith("q3,"))
    at = first_q3 + 1  # (q3's second row: for a segment, a second value)
    if column == "weight":
        at = first_q3  # (every row of q3: one value, refused)
        bad = {n: (column, cell) for n, line in enumerate(rows, start=1) if line.startswith("q3,")}
    else:
        bad = {at: (column, cell)}
    path, segment, weight = write_csv(tmp_path / "run.csv", bad)
    open_file(window, path)
    assert window.document.query_count() == 24 and not dialog_log
    message = window.statusBar().currentMessage()
    assert message.startswith("Opened run.csv: 24 queries")
    assert f"; run.csv:{at}: {said}" in message
    state = window.document.state
    if column == "weight":
        assert state.weights is None and state.segments.values == segment
        assert window.query_panel.weighted_mean is None
        assert "weighted" not in window.query_panel.mean_label.text()
    else:
        assert state.segments is None and state.weights.values == weight
        assert window.query_panel.segment_combo.isHidden()


def test_a_run_without_the_columns_keeps_the_segments_read_before(qtbot, window, tmp_path, files):
    path, segment, _ = write_csv(tmp_path / "run.csv")
    open_file(window, path)
    window.files.open(files[0], files[1], ask=False)
    assert window.document.state.segments.values == segment  # (carried, as a segments file's are)
    assert window.document.state.weights is None  # (weights are a file's own)
    assert "weighted" not in window.query_panel.mean_label.text()


def test_a_big_run_s_columns_are_read_in_the_loader_process(qtbot, window, tmp_path, monkeypatch):
    """A file past the loader's threshold is read, and its columns grouped by query, in the loader
    process (`scored_with_own_columns`), the bad cell's line named there from the file's text."""
    from ndcg_gui.qt.document import loader as loader_module

    monkeypatch.setattr(loader_module, "PROCESS_THRESHOLD", 0)
    plain, _, _ = write_csv(tmp_path / "plain.csv")
    first_q5 = next(i for i, line in enumerate(plain.read_text().splitlines(), start=1)
                    if line.startswith("q5,"))
    path, segment, _ = write_csv(tmp_path / "run.csv", {first_q5 + 2: ("segment", "kiosk")})
    window.resize(1280, 800)
    window.files.open(path, ask=False)
    assert window.loader.is_loading()  # (in the process, not at once)
    qtbot.waitUntil(lambda: not window.loader.is_loading() and window.document.query_count() == 24,
                    timeout=60_000)
    state = window.document.state
    assert state.segments is None and state.weights is not None
    assert (f'run.csv:{first_q5 + 2}: column "segment": query "q5" has two segments on its rows: '
            f'"{segment["q5"]}" and "kiosk"') in window.statusBar().currentMessage()


def test_a_judged_query_without_a_weight_leaves_no_weighted_mean_and_says_why(qtbot, window, tmp_path):
    plain, _, _ = write_csv(tmp_path / "plain.csv")
    q7 = {n: ("weight", "") for n, line in enumerate(plain.read_text().splitlines(), start=1)
          if line.startswith("q7,")}
    path, _, weight = write_csv(tmp_path / "run.csv", q7)
    open_file(window, path)
    assert "q7" not in window.document.state.weights.values  # (empty cells: no weight, as the CLI reads)
    panel = window.query_panel
    assert panel.weighted_mean is None
    assert panel.mean_label.text().endswith(
        '; no weighted mean: column "weight" of run.csv: a judged query has no weight: "q7"; give every '
        "judged query a weight (0 to leave it out)")
    panel.pick_segment("mobile")  # (q7's segment: still without one)
    assert panel.weighted_mean is None and "no weighted mean" in panel.mean_label.text()
    panel.pick_segment(SEGMENTS[0])  # (a segment of weighted queries alone: its weighted mean)
    frame = per_query(window, {}, weight).loc[sorted(panel.visible_queries())]
    assert panel.weighted_mean == pytest.approx(np.average(frame["ndcg"], weights=frame["weight"]), rel=1e-12)


def test_the_columns_maps_are_recovered_after_a_crash(qtbot, window, tmp_path):
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.state.recovery import read_recovery, write_recovery

    path, segment, weight = write_csv(tmp_path / "run.csv")
    open_file(window, path)
    written = tmp_path / "session.json"
    write_recovery(written, window.document.state)
    restored = read_recovery(written).restore(lambda p, q: load(p, q))
    assert restored.segments.values == segment and restored.weights.values == weight
    assert restored.weights.origin == 'column "weight" of run.csv'
    bad = written.read_text().replace(f'"q0": {weight["q0"]}', '"q0": -1.0')
    assert bad != written.read_text()
    written.write_text(bad)
    with pytest.raises(ValueError, match="its weights are not numbers of at least 0 by query"):
        read_recovery(written)


def test_a_semicolon_csv_s_decimal_comma_weights_are_read_as_its_grades_are(qtbot, window, tmp_path):
    path = tmp_path / "run.csv"  # (cells split by ';': a comma is the decimal mark, as for the scores)
    path.write_text("query;doc;score;grade;weight\n"
                    "a;d1;0,9;2;1,5\na;d2;0,4;0;1,5\nb;d1;0,8;0;0,25\nb;d2;0,3;1;0,25\n")
    open_file(window, path)
    assert window.document.state.weights.values == {"a": 1.5, "b": 0.25}
    assert "query weights from its own columns" in window.statusBar().currentMessage()


def test_two_columns_that_could_be_the_weight_weigh_nothing_and_say_so(qtbot, window, tmp_path, dialog_log):
    path = tmp_path / "two.csv"
    path.write_text("query,doc,score,grade,weight,Weight\nq1,a,3,1,2,1\nq1,b,2,0,2,1\nq2,c,1,1,1,5\n")
    open_file(window, path)
    assert window.document.query_count() == 2 and not dialog_log
    assert window.document.state.weights is None and window.query_panel.weighted_mean is None
    assert ('two.csv: has 2 columns that could be its weight: "weight", "Weight"; expected one'
            in window.statusBar().currentMessage())
