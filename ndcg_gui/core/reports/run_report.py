"""The report of one run: how its NDCG@k was defined and computed, the mean and its histogram,
every query sortable, and the worst queries each with its list beside the ideal one and the
single moves that would raise it most. For one list alone: the per-rank table and the curves.

Built from the core's own figures (`Dataset.evaluate`, `summary`, `ListReport`), so the page
says what the window and `ndcg-inspect` say."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ndcg_gui.core.analysis.judged import judged_at_k
from ndcg_gui.core.analysis.list_report import ListReport
from ndcg_gui.core.analysis.segments import SegmentMeans
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.numbers import format_grade
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.mean import histogram, mean_summary
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset_name
from ndcg_gui.core.reports import page, svg
from ndcg_gui.core.reports.page import Cell, Raw, esc, num
from ndcg_gui.core.reports.provenance import PROGRAM
from ndcg_gui.core.reports.segment_report import segment_means_section

WORST = 5  # worst queries shown with their lists
PAST_K = 5  # documents past k that belong in the top k, shown below the cut


@dataclass(frozen=True)
class Sources:
    """What a report's figures were made from, said on its page beside the measure (which says
    how), so a reader can reproduce them."""

    inputs: dict[str, str] = field(default_factory=dict)  # name -> sha256
    note: str = ""  # e.g. that the lists were edited since the files were read


def at(measure: Measure) -> str:
    """"@10", or "" without a cut-off."""
    return "" if measure.k is None else f"@{measure.k}"


def provenance(measure: Measure, sources: Sources) -> str:
    """The inputs with their sha256, the definition, the tie rule and the program's version."""
    preset = preset_name(measure, ignoring_ties=True)
    rows = [["definition", f"NDCG{at(measure)}: {measure.describe()}"
             + (f" (preset {preset})" if preset else "")],
            ["tied scores", {"trec": "ordered as trec_eval does (score, then document id, descending)",
                             "average": "tied neighbours share their mean gain (scikit-learn)",
                             "file": "kept in file order"}.get(measure.ties, measure.ties)]]
    rows += [[f"input {name}", Raw(f"sha256 <code>{esc(digest)}</code>")]
             for name, digest in sources.inputs.items()]
    if sources.note:
        rows.append(["note", sources.note])
    rows.append(["program", PROGRAM])
    return f'<div class="meta">{page.table([], rows)}</div>'


def grade_text(grade: float) -> str:
    return "unjudged" if math.isnan(grade) else format_grade(grade)


def fix_lines(lst: RankedList, report: ListReport, n: int = 3) -> list[str]:
    """The best single moves of a list, in words."""
    lines = []
    for move in report.best_moves(n).itertuples():
        doc, grade = lst.docs[move.from_rank - 1], lst.grades[move.from_rank - 1]
        lines.append(f"move {doc} (grade {grade_text(grade)}) from rank {move.from_rank} to "
                     f"{move.to_rank}: NDCG{report_at(report)} {report.summary.ndcg:.4f} → "
                     f"{move.ndcg_after:.4f} ({move.delta:+.4f})")
    return lines


def report_at(report: ListReport) -> str:
    return f"@{report.k}"


def list_beside_ideal(lst: RankedList, report: ListReport) -> str:
    """The top k of the list beside the ideal top k (red: a place the ideal gives a better
    document; green: a document past k that belongs in the top k), then those documents past k."""
    k = report.k
    ideal = report.ideal
    marks = report.slot_marks
    below = [i for i in np.flatnonzero(marks == -1) if i >= k][:PAST_K]
    ranks = list(range(min(k, max(len(lst), len(ideal))))) + below
    rows, classes = [], []
    for n, i in enumerate(ranks):
        if i < len(lst):
            grade = lst.grades[i]
            cls = "out" if marks[i] == 1 else "in" if marks[i] == -1 else \
                "unjudged" if math.isnan(grade) else ""
            actual = [Cell(str(lst.docs[i]), cls=cls), Cell(grade_text(grade), cls=cls)]
        else:
            actual = ["", ""]
        if i < min(k, len(ideal)):  # (below the cut only the list's documents that belong above it)
            row = ideal.iloc[i]
            where = f"at {int(row['list_rank'])}" if row["list_rank"] else "not retrieved"
            best = [str(row["doc"]), grade_text(float(row["grade"])), where]
        else:
            best = ["", "", ""]
        rows.append([str(i + 1), *actual, *best])
        classes.append("cut" if n == min(k, len(ranks)) and i >= k else "")
    return page.table(["rank", "list: document", "grade", "ideal: document", "grade", "in the list"], rows,
                      numeric=(0,), row_classes=classes)


def note_html(note: str) -> str:
    """An analyst's note on a query, escaped, its line breaks kept (empty: nothing)."""
    if not note.strip():
        return ""
    lines = "<br>".join(esc(line) for line in note.splitlines())
    return f'<p class="query-note"><b>Note:</b> {lines}</p>'


def worst_query_section(lst: RankedList, query: str, measure: Measure, note: str = "") -> str:
    report = ListReport(lst, measure)
    s = report.summary
    notes = note_html(note) + "".join(f'<div class="note">{esc(w)}</div>' for w in (*s.warnings, *s.notes))
    fixes = fix_lines(lst, report)
    fix = ("<ul class=fix>" + "".join(f"<li>{esc(line)}</li>" for line in fixes) + "</ul>") if fixes else \
        "<p>No single move raises it: the list's judged documents are in their best order.</p>"
    return (f'<div class="query"><h3>Query {esc(query)}: NDCG{at(measure)} {s.ndcg:.4f} '
            f"(DCG {s.dcg:.4f} / IDCG {s.idcg:.4f})</h3>{notes}"
            f"{list_beside_ideal(lst, report)}<div><b>What would fix it</b> (the best single moves):</div>"
            f"{fix}</div>")


def _ranked(dataset, query: str, measure: Measure) -> RankedList:
    """The query's list with its ties in the measure's order (as the window shows it)."""
    return dataset.ranked_list(query).ties_ordered(measure)


def one_list(lst: RankedList, measure: Measure) -> list[str]:
    """The per-rank table and the curves of one list (a notebook's or a typed list's report)."""
    report = ListReport(lst, measure)
    t = report.table
    s = report.summary
    parts = [f'<p class="headline">NDCG{at(measure)} = <b>{s.ndcg:.4f}</b> (DCG{at(measure)} {s.dcg:.4f}, '
             f"IDCG{at(measure)} {s.idcg:.4f}, {s.n} documents)</p>"]
    parts += [f'<div class="note">{esc(w)}</div>' for w in (*s.warnings, *s.notes)]
    rows = [[str(int(r["rank"])), str(r["doc"]), grade_text(float(r["grade"])), num(r["gain"], ".4g"),
             num(r["discount"]), num(r["dcg"]), num(r["idcg"]), num(r["ndcg"])] for _, r in t.iterrows()]
    classes = ["cut" if i == measure.k else "" for i in range(len(rows))]
    parts.append("<h2>Per rank</h2>" + page.table(
        ["rank", "doc", "grade", "gain", "discount", "DCG", "IDCG", "NDCG"], rows,
        numeric=(0, 3, 4, 5, 6, 7), scroll=len(rows) > 30, row_classes=classes))
    parts.append('<div class="charts">' + svg.curves(
        {"DCG": t["dcg"].to_numpy(), "IDCG": t["idcg"].to_numpy()}, "rank", "DCG", "DCG and IDCG per rank",
        measure.k) + svg.curves({"NDCG": t["ndcg"].to_numpy()}, "rank", "NDCG", "NDCG per rank", measure.k)
        + "</div>")
    fixes = fix_lines(lst, report)
    if fixes:
        parts.append("<h2>What would raise it</h2><ul class=fix>"
                     + "".join(f"<li>{esc(line)}</li>" for line in fixes) + "</ul>")
    return parts


def run_parts(dataset: Dataset, measure: Measure, name: str = "run", worst: int = WORST,
              sources: Sources | None = None, segments: SegmentMeans | None = None,
              notes: Mapping[str, str] | None = None) -> list[str]:
    """The report's sections (HTML fragments) for a run, its mean under the measure's policy;
    `segments`: each segment's mean, shown after the histogram; `notes`: the note on each query
    (its sidecar's), beside it wherever it is listed."""
    notes = {str(q): n for q, n in (notes or {}).items() if n.strip()}
    result = dataset.evaluate(measure.per_query())
    mean = mean_summary(result, measure)
    parts = [f"<h1>NDCG{at(measure)} of {esc(name)}</h1>", provenance(measure, sources or Sources())]
    queries = dataset.queries()
    if len(result) == 1 and len(queries) == 1:
        lst = _ranked(dataset, queries[0], measure)
        return [*parts, note_html(notes.get(str(queries[0]), "")), *one_list(lst, measure)]
    values = result["ndcg"].to_numpy(dtype=float)
    parts.append(f'<p class="headline">Mean NDCG{at(measure)} = <b>{esc(_value(mean.mean))}</b> over '
                 f"{mean.counted:,} of {mean.total:,} queries ({esc(measure.describe_mean())}).</p>")
    if len(values):
        parts.append(f"<p>Median {np.median(values):.4f}; lowest {values.min():.4f}, highest "
                     f"{values.max():.4f}; {int((values == 0).sum()):,} queries at 0, "
                     f"{int(mean.undefined):,} without a relevant judged document (IDCG = 0), "
                     f"{int(mean.empty):,} judged but without results.</p>")
        edges, counts = histogram(values)
        parts.append(svg.histogram_chart(edges, counts, f"NDCG{at(measure)} per query (dashed: the mean)",
                                   f"Histogram of NDCG{at(measure)}", marker=mean.mean))
    if segments is not None:
        parts.append(segment_means_section(segments, at(measure)))
    order = result.sort_values("ndcg", kind="stable").index
    # (with results and a relevant judged document: an empty list or IDCG = 0 has no move to show)
    fixable = (result["n_retrieved"] > 0) & ~result["undefined"].astype(bool)
    shown = [q for q in order if fixable[q]][:worst]
    if shown:
        parts.append(f"<h2>The {len(shown)} worst queries</h2><p>Each list beside its ideal order, to "
                     f"k = {measure.k}: <span class=key-out>red</span>, a top-k place the ideal gives a "
                     "better document; <span class=key-in>green</span>, a document below the line that "
                     "belongs in the top k.</p>")
        parts += [worst_query_section(_ranked(dataset, q, measure), q, measure, notes.get(str(q), ""))
                  for q in shown]
    judged = _judged(dataset, result, measure)
    rows = [[str(q), num(r["n_retrieved"], "d"), num(r["n_judged"], "d"), num(r["n_relevant"], "d"),
             num(r["dcg"]), num(r["idcg"]), num(r["ndcg"]), num(judged[q])] for q, r in result.iterrows()]
    headers = ["query", "retrieved", "judged", "relevant", f"DCG{at(measure)}", f"IDCG{at(measure)}",
               f"NDCG{at(measure)}", f"Judged{at(measure)}"]
    if notes:  # (a column only when there are notes: one line each, whole in its tooltip)
        headers.append(("note", "The analyst's note on the query (kept beside the run)"))
        for row, q in zip(rows, result.index, strict=True):
            note = notes.get(str(q), "")
            row.append(page.Cell(" ".join(note.split()), tip=note) if note else "")
    parts.append("<h2>Every query</h2><p>Click a heading to sort. Judged: the share of the first k "
                 "documents that are judged (ir_measures' Judged@k): a low NDCG with a low share is a "
                 "judging hole rather than a bad ranking.</p>" + page.table(
        headers, rows, sortable=True, numeric=(1, 2, 3, 4, 5, 6, 7),
        scroll=len(rows) > 25))
    return parts


def _judged(dataset: Dataset, result, measure: Measure):
    """Judged@k of every query, of the run as retrieved (condensed lists scored again without
    condensing: every document they keep is judged)."""
    if measure.judged_only:
        result = dataset.evaluate(measure.per_query().with_(judged_only=False))
    return judged_at_k(result, measure.k)


def _value(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.4f}"


def run_report(dataset: Dataset, measure: Measure, name: str = "run", **kw) -> str:
    """The whole self-contained HTML page."""
    return page.document(f"NDCG{at(measure)} of {name}", run_parts(dataset, measure, name, **kw))
