"""`ndcg-inspect RUN_A RUN_B` without judgments (or with --overlap beside them): how differently
the runs rank each query, by `core.analysis.runs.overlap`, the queries ranked most differently
first. Never imports Qt.

Each run is compared with the baseline (the first, or --baseline). Where the runs can be scored
(--qrels, or runs that hold their own grades, with --overlap), each query's NDCG and its Δ stand
beside the overlap, and a query ranked very differently with the same NDCG is named: the documents
that moved are unjudged there (a judging hole).
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.lists.dataset import Dataset


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("comparing runs without judgments (two files or more)")
    group.add_argument("--overlap", action="store_true",
                       help="with --qrels too: each query's rank-biased overlap, Jaccard@k and Kendall's "
                       "tau beside its NDCG (without --qrels, runs without grades get them anyway)")
    group.add_argument("--rbo-p", type=float, metavar="P",  # (its default is the core's: no import here)
                       help="the persistence of rank-biased overlap, between 0 and 1 (default 0.9)")


def wanted(options: argparse.Namespace) -> bool:
    """Runs compared by their overlap: asked for, or runs compared with no judgments given."""
    return options.overlap or (bool(options.runs) and options.qrels is None)


def main_overlap(options: argparse.Namespace, say) -> None:
    sys.stdout.write(overlap(options, [options.file, *options.runs], say))
    sys.stdout.flush()


def overlap(options: argparse.Namespace, paths: list[str], say) -> str:
    """What stdout gets; notes go to `say`. Runs that all hold grades, with no --overlap, are
    compared by NDCG alone as before."""
    from ndcg_gui.cli import compare as cli_compare
    from ndcg_gui.cli.arguments import measure_of
    from ndcg_gui.cli.output import pick_query
    from ndcg_gui.core.analysis.runs.overlap import DEFAULT_P, judging_holes, overlap_table
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.reading import load

    if len(paths) < 2:
        raise InputError("--overlap compares runs: give two files or more")
    p = DEFAULT_P if options.rbo_p is None else options.rbo_p
    if not 0 < p < 1:
        raise InputError(f"--rbo-p must be between 0 and 1 (exclusive), not {p:g}")
    names = cli_compare.run_names(options, paths)
    runs = {name: load(path, options.qrels, need_grades=False) for name, path in names.items()}
    scored = options.qrels is not None or all(_has_grades(run) for run in runs.values())
    if scored and not options.overlap:  # CSVs with their own grades: the NDCG comparison, as before
        return cli_compare.compare(options, paths, say)
    cmp = cli_compare.comparison(options, runs) if scored else None
    if cmp is not None:
        cli_compare._notes(cmp, say)
    measure = measure_of(options)
    k = measure.k
    baseline = options.baseline or next(iter(runs))
    tables, holes = [], {}
    for name, run in runs.items():
        if name == baseline:
            continue
        # (each list ranked as the definition's NDCG ranks it: its precision and tie rule)
        table = overlap_table(runs[baseline].run, run.run, measure, p=p)
        if cmp is not None:
            table["ndcg_baseline"] = cmp.per_query[baseline]
            table["ndcg"] = cmp.per_query[name]
            table["delta"] = cmp.deltas[name]
            holes[name] = list(judging_holes(table["rbo"], table["delta"]))
            table["judging_hole"] = table.index.isin(holes[name]).astype(int)  # "all": how many
        table.insert(0, "run", name)
        tables.append(table.reset_index())
    import pandas as pd

    table = pd.concat(tables, ignore_index=True)
    if options.query is not None:
        queries = list(dict.fromkeys(table["query"]))  # (each run's rows: the queries once, in order)
        table = table[table["query"] == pick_query(queries, None, options.query, "compared")]
    means = _means(table)
    methods = _methods(baseline, k, p, cmp is not None)
    notes = _hole_notes(holes)
    if options.format == "json":
        return _json(table, means, baseline, k, p, holes if cmp is not None else None, methods)
    with_means = pd.concat([table, means], ignore_index=True)
    if options.format in ("csv", "tsv"):
        for line in [*methods, *notes]:
            say(f"note: {line}")
        return _delimited(with_means, "\t" if options.format == "tsv" else ",")
    return _text(with_means, k, baseline, [*notes, *methods])


def _has_grades(run: Dataset) -> bool:
    """Whether a run loaded without qrels holds grades of its own (a table's grade column)."""
    return bool(run.run["grade"].notna().any()) if len(run.run) else False


def _means(table: pd.DataFrame) -> pd.DataFrame:
    """One row "all" per compared run: the mean of each figure over its queries (τ over those
    where it is defined; NDCG over the queries compared by NDCG)."""
    figures = [c for c in table.columns if c not in ("query", "run", "judging_hole")]
    means = table.groupby("run", sort=False)[figures].mean().reset_index()
    means.insert(0, "query", "all")
    if "judging_hole" in table.columns:
        means["judging_hole"] = table.groupby("run", sort=False)["judging_hole"].sum().to_numpy()
    return means[table.columns]


def _methods(baseline: str, k: int, p: float, scored: bool) -> list[str]:
    lines = [
        f"each run against {baseline}, the queries ranked most differently first (lowest RBO)",
        f"rbo: rank-biased overlap, extrapolated (RBO_ext, Webber, Moffat & Zobel 2010, eq. 32), "
        f"p = {p:g}, over the whole lists",
        f"jaccard@{k}: shared documents of the first {k} over the documents of either",
        "tau: Kendall's tau-b over the union of the two lists, a document a list lacks tied below its "
        "last one; undefined (–) with fewer than two documents",
    ]
    if scored:
        from ndcg_gui.core.analysis.runs.overlap import HOLE_RBO

        lines.append(f"judging hole: RBO below {HOLE_RBO:g} with the same NDCG: the documents that moved "
                     "are unjudged")
    return lines


def _hole_notes(holes: dict[str, list[str]]) -> list[str]:
    return [f"{run}: {len(queries)} quer{'y' if len(queries) == 1 else 'ies'} ranked very differently "
            f"with the same NDCG (judging holes: judge them to tell the runs apart): {', '.join(queries)}"
            for run, queries in holes.items() if queries]


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _cell(column: str, x) -> str:
    """A CSV/TSV cell: as it reads back exactly; empty where there is no figure."""
    from ndcg_gui.core.lists.numbers import number_text

    if column in ("query", "run"):
        return str(x)
    if _missing(x):
        return ""
    return str(int(x)) if column == "judging_hole" else number_text(float(x))


def _delimited(table: pd.DataFrame, sep: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.itertuples(index=False):
        writer.writerow([_cell(c, v) for c, v in zip(table.columns, row, strict=True)])
    return out.getvalue()


def _json_value(x):
    if hasattr(x, "item"):
        x = x.item()
    return None if _missing(x) or (isinstance(x, float) and not math.isfinite(x)) else x


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{c: _json_value(v) for c, v in r.items()} for r in frame.to_dict("records")]


def _json(table, means, baseline, k, p, holes, methods) -> str:
    """`judging_holes`: per run, its holes (null without NDCG figures)."""
    data = {"baseline": baseline, "k": k, "p": p, "queries": _records(table), "all": _records(means),
            "judging_holes": holes, "methods": methods}
    from ndcg_gui.core.reports.escaping import json_text  # (safe on a terminal: ids from files)

    return json_text(data) + "\n"


def _text(table: pd.DataFrame, k: int, baseline: str, notes: list[str]) -> str:
    from ndcg_gui.cli.output import aligned
    from ndcg_gui.core.errors import printable

    names = {"jaccard": f"jaccard@{k}", "ndcg_baseline": f"ndcg@{k} {baseline}", "ndcg": f"ndcg@{k}",
             "delta": "Δ", "judging_hole": "judging hole"}
    header = [names.get(c, c) for c in table.columns]
    rows = []
    for r in table.to_dict("records"):
        row = []
        for c in table.columns:
            v = r[c]
            if c in ("query", "run"):
                row.append(str(v))
            elif c == "judging_hole":
                row.append(str(int(v)) if r["query"] == "all" else ("yes" if v else ""))
            elif _missing(v):
                row.append("–")
            else:
                row.append(format(v, "+.4f" if c == "delta" and v != 0 else ".4f"))
        rows.append(row)
    return aligned(header, rows) + "\n" + "".join(f"  {printable(line)}\n" for line in notes)
