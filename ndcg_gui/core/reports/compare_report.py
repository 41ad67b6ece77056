"""The report of a run comparison: the statistics table (`run_diff.summary_cells`, as the window
shows it) with a plain verdict per run, the scatter of per-query NDCG and the histogram of the
differences, every query's difference sortable, and the biggest losses with the two lists side
by side and the moves that made them, in words (`run_diff.side_by_side`, `biggest_moves`). With
the runs' ranked lists, or without any judgment (`overlap_report`), how differently each run ranks
each query (`core.analysis.runs.overlap`: RBO, Jaccard@k, Kendall's τ), the most different first,
with NDCG beside it where there are judgments and the judging holes named."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.runs import overlap as runs_overlap
from ndcg_gui.core.analysis.runs.compare import ALPHA, Comparison
from ndcg_gui.core.analysis.runs.run_diff import (
    biggest_moves,
    delta_histogram,
    p_texts,
    side_by_side,
    summary_cells,
)
from ndcg_gui.core.analysis.runs.segment_compare import SegmentComparison
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reports import page, svg
from ndcg_gui.core.reports.page import Cell, esc, num
from ndcg_gui.core.reports.run_report import Sources, at, grade_text, note_html, provenance
from ndcg_gui.core.reports.segment_report import segment_comparison_section

LOSSES = 5  # biggest losses shown per run, with their lists
MOST_DIFFERENT = 3  # queries ranked most differently shown per run, with their lists
Lists = Mapping[str, Mapping[str, Sequence[str]]]  # run -> query -> its doc ids, ranked as NDCG ranks them


def verdict(cmp: Comparison, run: str, alpha: float = ALPHA) -> tuple[str, str]:
    """(better | worse | same, one paragraph in plain words) for `run` against the baseline."""
    row = cmp.summary.loc[run]
    at = f"@{cmp.k}" if cmp.k is not None else ""
    base = cmp.baseline
    if cmp.n_queries == 0:
        return "same", f"{run} and {base} have no judged query in common: nothing to compare."
    several = len(cmp.summary) > 1
    rand_p, holm_p = p_texts(cmp, run)
    p = holm_p if several else rand_p
    p = f"p {p}" if p.startswith("<") else f"p = {p}"
    weighted = "weighted " if cmp.weights is not None else ""
    test = f"{weighted}paired randomization test" + \
        (f", Holm-corrected over {len(cmp.summary)} runs" if several else "")
    means = (f"{weighted}mean NDCG{at} {row['mean']:.4f} against {cmp.baseline_mean:.4f} "
             f"({row['delta']:+.4f}); "
             f"higher on {int(row['wins'])}, equal on {int(row['ties'])} and lower on {int(row['losses'])} "
             f"of {cmp.n_queries:,} queries")
    ci = (f"{cmp.confidence * 100:g} % interval of the difference "
          f"[{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]") if not math.isnan(row["ci_low"]) else ""
    kind = cmp.verdict(run, alpha)
    if kind != "no detectable difference":
        return kind, (f"{run} is {kind} than {base}: {means}. The difference is significant at "
                      f"{alpha:g} ({p}, {test}; {ci}).")
    return "same", (f"No significant difference between {run} and {base}: {means}. A difference this "
                    f"size could be chance ({p}, {test}; {ci}).")


ListOf = Callable[[str, str], RankedList | None]  # (run, query) -> the run's list, None if it has none


def lists_of(runs: Mapping[str, Dataset] | ListOf) -> ListOf:
    """Each run's list of a query, from loaded datasets (or a window's own lists, as given)."""
    if callable(runs):
        return runs

    def list_of(run: str, query: str) -> RankedList | None:
        dataset = runs[run]
        return dataset.ranked_list(query) if query in dataset.queries() else None

    return list_of


def lists_side_by_side(list_of: ListOf, cmp: Comparison, run: str, query: str, note: str = "") -> str:
    """The baseline's and the run's lists of one query, the first k ranks side by side (relevant
    documents green, unjudged grey), then the moves that changed NDCG most, in words."""
    base, other = list_of(cmp.baseline, query), list_of(run, query)
    judgments = {}
    for lst in (base, other):
        if lst is not None:
            judgments |= lst.judgments()
    a = base.docs if base is not None else np.zeros(0, object)
    b = other.docs if other is not None else np.zeros(0, object)
    k = cmp.k or max(len(a), len(b))
    rows = []

    def cell(docs, i):
        if i >= len(docs):
            return ["", ""]
        grade = judgments.get(str(docs[i]), math.nan)
        cls = "unjudged" if math.isnan(grade) else "in" if grade > 0 else ""
        return [Cell(str(docs[i]), cls=cls), Cell(grade_text(grade), cls=cls)]

    for i in range(min(k, max(len(a), len(b)))):
        rows.append([str(i + 1), *cell(a, i), *cell(b, i)])
    table = page.table(["rank", f"{cmp.baseline}: document", "grade", f"{run}: document", "grade"], rows,
                       numeric=(0,))
    diff = side_by_side(a, b, judgments, cmp.measure)
    moves = biggest_moves(diff, 5, (cmp.baseline, run))
    said = ("<ul class=fix>" + "".join(f"<li>{esc(m)}</li>" for m in moves) + "</ul>") if moves else ""
    scores = cmp.per_query.loc[query]
    return (f'<div class="query"><h3>Query {esc(query)}: {esc(cmp.baseline)} {scores[cmp.baseline]:.4f} → '
            f"{esc(run)} {scores[run]:.4f} ({scores[run] - scores[cmp.baseline]:+.4f})</h3>{note_html(note)}"
            f'<div class="lists">{table}<div><b>What moved</b> (largest effect on DCG first):{said}</div>'
            "</div></div>")


def compare_parts(runs: Mapping[str, Dataset] | ListOf, cmp: Comparison, sources: Sources | None = None,
                  alpha: float = ALPHA, losses: int = LOSSES,
                  segments: SegmentComparison | None = None,
                  notes: Mapping[str, str] | None = None, overlap: Lists | None = None,
                  p: float = runs_overlap.DEFAULT_P) -> list[str]:
    """The report's sections (HTML fragments) for a comparison (under its measure, `cmp.measure`).
    `runs`: the datasets compared, or a function giving each run's list of a query; `segments`:
    the comparison in each segment, shown after the statistics; `notes`: the note on each query
    (the first run's sidecar); `overlap`: every run's ranked lists, for how differently each run
    ranks each query beside its NDCG (RBO at persistence `p`)."""
    notes = {str(q): n for q, n in (notes or {}).items() if n.strip()}
    list_of = lists_of(runs)
    at_k = at(cmp.measure)
    others = list(cmp.summary.index)
    title = f"NDCG{at_k}: {', '.join(others)} against {cmp.baseline}" if others else \
        f"NDCG{at_k} of {cmp.baseline}"
    parts = [f"<h1>{esc(title)}</h1>", provenance(cmp.measure, sources or Sources())]
    for run in others:
        kind, text = verdict(cmp, run, alpha)
        parts.append(f'<div class="verdict {kind}">{esc(text)}</div>')
    columns, rows = summary_cells(cmp)
    parts.append("<h2>Statistics</h2><p>Hover a heading for how its figure was made.</p>"
                 + page.table(columns, rows, numeric=tuple(range(1, len(columns)))))
    parts.append('<div class="meta">' + "".join(f"<div>{esc(line)}</div>" for line in
                                                cmp.describe().splitlines()) + "</div>")
    if segments is not None:
        weighted_by = cmp.weights_from if segments.weighted else ""
        parts.append(segment_comparison_section(segments, at_k, weighted_by))
    deltas = cmp.deltas
    for run in others:
        charts = [svg.scatter(cmp.per_query[cmp.baseline], cmp.per_query[run], list(cmp.per_query.index),
                              f"{cmp.baseline} NDCG{at_k}", f"{run} NDCG{at_k}",
                              f"Per-query NDCG{at_k}: {run} against {cmp.baseline} "
                              f"(above the diagonal: {run} better)")]
        if len(deltas):
            edges, counts = delta_histogram(deltas[run].to_numpy())
            charts.append(svg.histogram_chart(edges, counts, f"Δ NDCG{at_k} ({run} − {cmp.baseline})",
                                        f"Histogram of the differences, {run} − {cmp.baseline}", marker=0.0))
        parts.append(f"<h2>{esc(run)} against {esc(cmp.baseline)}, query by query</h2>"
                     f'<div class="charts">{"".join(charts)}</div>')
    headers = ["query", *[f"{r} NDCG{at_k}" for r in cmp.runs], *[f"Δ {r}" for r in others]]
    table_rows = [[str(q), *[num(v) for v in cmp.per_query.loc[q]],
                   *[Cell("0", 0.0, "num") if v == 0 else num(v, "+.4f") for v in deltas.loc[q]]]
                  for q in cmp.per_query.index]  # (a tie is exactly 0: `Comparison.deltas`)
    if notes:  # (a column only when there are notes: one line each, whole in its tooltip)
        headers.append(("note", "The analyst's note on the query (kept beside the run)"))
        for row, q in zip(table_rows, cmp.per_query.index, strict=True):
            note = notes.get(str(q), "")
            row.append(Cell(" ".join(note.split()), tip=note) if note else "")
    parts.append("<h2>Every query</h2><p>Click a heading to sort (Δ: the run minus the baseline).</p>"
                 + page.table(headers, table_rows, sortable=True, numeric=tuple(range(1, len(headers))),
                              scroll=len(table_rows) > 25))
    for run in others:
        worst = deltas[run].sort_values(kind="stable")
        worst = worst[worst < 0].head(losses)
        if len(worst):
            parts.append(f"<h2>The biggest losses of {esc(run)}</h2>")
            parts += [lists_side_by_side(list_of, cmp, run, str(q), notes.get(str(q), ""))
                      for q in worst.index]
    if overlap is not None:
        parts += overlap_parts(overlap, cmp.baseline, cmp.measure, p, cmp)
    return parts


def overlap_tables(lists: Lists, baseline: str, measure: Measure, p: float = runs_overlap.DEFAULT_P,
                   cmp: Comparison | None = None) -> dict[str, pd.DataFrame]:
    """Per run (not the baseline), each query's rbo, jaccard, tau against the baseline, the most
    different first, as `ndcg-inspect A B --overlap` gives them; with `cmp`, each query's NDCG
    of both runs, its Δ and whether it is a judging hole beside them."""
    tables = {}
    for run in (r for r in lists if r != baseline):
        table = runs_overlap.most_different_first(
            runs_overlap.lists_overlap(lists[baseline], lists[run], measure.k, p))
        if cmp is not None and run in cmp.deltas.columns:
            table["ndcg_baseline"] = cmp.per_query[baseline].reindex(table.index)
            table["ndcg"] = cmp.per_query[run].reindex(table.index)
            table["delta"] = cmp.deltas[run].reindex(table.index)
            table["hole"] = runs_overlap.is_hole(table["rbo"], table["delta"])
        tables[run] = table
    return tables


def overlap_parts(lists: Lists, baseline: str, measure: Measure, p: float = runs_overlap.DEFAULT_P,
                  cmp: Comparison | None = None, shown: int = MOST_DIFFERENT) -> list[str]:
    """How differently each run ranks each query than the baseline: a table per run, the most
    different first (with NDCG and Δ beside, and the judging holes named, under `cmp`), and the
    `shown` most different queries' lists side by side."""
    k, at_k = measure.k, at(measure)
    how = runs_overlap.methods(k, p)
    parts = ["<h2>How differently the runs rank each query</h2>"
             + ("" if cmp is not None else "<p>No judgments: the runs are compared by their rankings "
                "alone; NDCG needs qrels.</p>")
             + '<div class="meta">' + "".join(f"<div>{esc(line)}</div>" for line in how) + "</div>"]
    for run, table in overlap_tables(lists, baseline, measure, p, cmp).items():
        headers = ["query", ("RBO", how[0]), (f"Jaccard{at_k}", how[1]), ("τ", how[2])]
        judged = "delta" in table.columns
        if judged:
            headers += [f"{baseline} NDCG{at_k}", f"{run} NDCG{at_k}", (f"Δ {run}", f"{run} − {baseline}"),
                        ("judging hole", how[3])]
        rows = []
        for q, r in table.iterrows():
            row = [str(q), num(r["rbo"]), num(r["jaccard"]), num(r["tau"])]
            if judged:
                row += [num(r["ndcg_baseline"]), num(r["ndcg"]),
                        Cell("0", 0.0, "num") if r["delta"] == 0 else num(r["delta"], "+.4f"),
                        Cell("yes", 1.0, tip=runs_overlap.HOLE_TEXT) if r["hole"] else Cell("", 0.0)]
            rows.append(row)
        holes = list(table.index[table["hole"].to_numpy(dtype=bool)]) if judged else []
        said = runs_overlap.holes_line(holes, run)
        parts.append(f"<h3>{esc(run)} against {esc(baseline)}, the most different first</h3>"
                     + (f'<div class="verdict same">{esc(said)}</div>' if said else "")
                     + "<p>Click a heading to sort.</p>"
                     + page.table(headers, rows, sortable=True, numeric=tuple(range(1, len(headers))),
                                  scroll=len(rows) > 25))
        parts += [ranked_side_by_side(lists, baseline, run, str(q), table.loc[q], k)
                  for q in table.index[:shown]]
    return parts


def ranked_side_by_side(lists: Lists, baseline: str, run: str, query: str, figures: pd.Series,
                        k: int | None) -> str:
    """One query's two ranked lists, the first k ranks side by side, each document of the run with
    where the baseline ranked it."""
    a, b = list(lists[baseline].get(query, [])), list(lists[run].get(query, []))
    at_a = {d: i + 1 for i, d in enumerate(a)}
    rows = []
    for i in range(min(k or max(len(a), len(b)), max(len(a), len(b)))):
        doc_a = a[i] if i < len(a) else ""
        doc_b = b[i] if i < len(b) else ""
        was = at_a.get(doc_b)
        moved = "" if not doc_b else f"new (not in {baseline})" if was is None else \
            "=" if was == i + 1 else f"{'↑' if was > i + 1 else '↓'}{abs(was - i - 1)} (was {was})"
        rows.append([str(i + 1), doc_a, doc_b, moved])
    table = page.table(["rank", f"{baseline}: document", f"{run}: document", f"in {baseline}"], rows,
                       numeric=(0,))
    tau = "n/a" if math.isnan(figures["tau"]) else f"{figures['tau']:.4f}"
    return (f'<div class="query"><h3>Query {esc(query)}: RBO {figures["rbo"]:.4f}, Jaccard '
            f'{figures["jaccard"]:.4f}, τ {esc(tau)}</h3><div class="lists">{table}</div></div>')


def overlap_report(lists: Lists, baseline: str, measure: Measure, sources: Sources | None = None,
                   p: float = runs_overlap.DEFAULT_P) -> str:
    """The whole page for runs without judgments: how differently they rank each query."""
    others = ", ".join(r for r in lists if r != baseline)
    title = f"Rankings compared without judgments: {others} against {baseline}"
    return page.document(title, [f"<h1>{esc(title)}</h1>", provenance(measure, sources or Sources()),
                                 *overlap_parts(lists, baseline, measure, p)])


def compare_report(runs: Mapping[str, Dataset] | ListOf, cmp: Comparison, sources: Sources | None = None,
                   **kw) -> str:
    """The whole self-contained HTML page."""
    others = ", ".join(cmp.summary.index)
    return page.document(f"NDCG{at(cmp.measure)}: {others} against {cmp.baseline}",
                         compare_parts(runs, cmp, sources, **kw))
