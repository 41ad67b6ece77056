"""The report's per-segment tables: one run's mean in each segment (`analysis.segments`), and a
comparison's Δ, wins, ties and losses, test and verdict in each segment with where the run won and
where it lost (`analysis.runs.segment_compare`). HTML fragments for `run_report` and
`compare_report`'s pages; every name from outside escaped by `page`."""

from __future__ import annotations

from ndcg_gui.core.analysis.runs.segment_compare import SegmentComparison
from ndcg_gui.core.analysis.segments import SegmentMeans
from ndcg_gui.core.reports import page
from ndcg_gui.core.reports.page import Cell, esc, num

LISTED = 10  # queries named in a note before "…"


def _listed(queries: list[str]) -> str:
    return ", ".join(queries[:LISTED]) + (", …" if len(queries) > LISTED else "")


def _unassigned_note(queries: list[str]) -> str:
    if not queries:
        return ""
    many = "query is" if len(queries) == 1 else "queries are"
    return (f'<div class="note">{len(queries):,} {many} in no segment, counted in the mean of all '
            f"only: {esc(_listed(queries))}</div>")


def segment_means_section(means: SegmentMeans, at: str) -> str:
    """A table of each segment's mean, the queries it counts and its judged queries, then all."""
    weighted = " (weighted)" if means.weighted else ""
    rows = [[str(name), num(row["mean"]), num(int(row["counted"]), "d"), num(int(row["total"]), "d")]
            for name, row in means.table.iterrows()]
    overall = means.overall
    rows.append(["all", num(overall["mean"]), num(int(overall["counted"]), "d"),
                 num(int(overall["total"]), "d")])
    unknown = ""
    if means.unknown:
        unknown = (f'<div class="note">{len(means.unknown):,} of the segments\' queries are not among the '
                   f"judged queries of the run: {esc(_listed(means.unknown))}</div>")
    return (f"<h2>By segment</h2><p>Each segment's mean NDCG{esc(at)}{weighted} over its queries that "
            f"the mean counts ({esc(means.measure.describe_mean())}).</p>"
            + page.table(["segment", f"mean NDCG{at}", "queries counted", "judged queries"], rows,
                         sortable=True, numeric=(1, 2, 3))
            + _unassigned_note(means.unassigned) + unknown)


def _p(value: float, exact: bool) -> Cell:
    if value != value:
        return Cell("n/a", "", "num")
    return Cell(f"{value:.3g}", float(value), "num", "exact: every sign pattern" if exact else "")


def segment_comparison_section(segments: SegmentComparison, at: str, weighted_by: str = "") -> str:
    """Per compared run: where it won and lost in words, then a table of every segment;
    `weighted_by`: where the weights of a weighted comparison come from, said in its heading."""
    weighted = f" (weighted by {weighted_by})" if weighted_by else " (weighted)" if segments.weighted else ""
    parts = [f"<h2>By segment{esc(weighted)}</h2>"]
    for run in segments.runs:
        rows = []
        for name, row in segments.table.xs(run, level="run").iterrows():
            # (the verdict's word says it; the colour is a second cue)
            said = Cell(row["verdict"], cls={"better": "in", "worse": "out"}.get(row["verdict"], ""))
            counts = [num(int(row[c]), "d") for c in ("wins", "ties", "losses")]
            interval = (f"[{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]" if row["ci_low"] == row["ci_low"]
                        else "n/a")
            rows.append([str(name), num(int(row["queries"]), "d"), num(row["baseline_mean"]),
                         num(row["mean"]), num(row["delta"], "+.4f"), *counts,
                         _p(row["rand_p"], row["exact"]), _p(row["p_holm"], False), interval, said])
        headers = ["segment", "queries", f"{segments.baseline} NDCG{at}", f"{run} NDCG{at}", "Δ", "wins",
                   "ties", "losses", "p", "p (Holm)", f"{segments.confidence * 100:g} % CI of Δ", "verdict"]
        parts.append(f'<div class="verdict">{esc(segments.where(run))}</div>'
                     + page.table(headers, rows, sortable=True, numeric=tuple(range(1, 10))))
    parts.append(f'<div class="meta">{esc(segments.methods())}</div>')
    parts.append(_unassigned_note(segments.unassigned))
    return "".join(parts)
