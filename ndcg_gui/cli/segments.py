"""`--segments FILE` and `--weights FILE` (or the run's own `segment` and `weight` columns): each
query's segment and weight, for `ndcg-inspect`'s lines (`all:SEGMENT` before `all`), its comparison
(each segment's Δ, W/T/L, test and verdict, Holm over the segments) and its report. The figures are
the core's (`core.analysis.segments`, `core.analysis.runs.segment_compare`); this module reads the
options, says once on stderr what a map left out, and lays the rows out. Never imports Qt."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.runs.compare import Comparison
    from ndcg_gui.core.analysis.runs.segment_compare import SegmentComparison
    from ndcg_gui.core.analysis.segments import SegmentMeans
    from ndcg_gui.core.formats.file_format import FileFormat
    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.core.ndcg.measure import Measure

SEGMENTS_HELP = ("each query's segment (locale, device, query type…), one line query<TAB>segment: the mean "
                 "of each segment is printed as a line all:SEGMENT before all, and runs are compared in "
                 "each segment too (Holm's correction over the segments); default: the run's own 'segment' "
                 "column, if it has one")
WEIGHTS_HELP = ("each query's weight (its traffic, say), one line query<TAB>weight, a number of at least 0; "
                "every judged query needs one: the means, the segments' means and the comparison's tests "
                "become weighted, the per-query figures stay; default: the run's own 'weight' column, if it "
                "has one")
LISTED = 10  # queries named in a note before "..."


DOC_WEIGHTS_HELP = ("weigh each document by the run's doc_weight column (a CSV or Parquet run) as TF-Ranking "
                    "does: weight x gain in DCG and in the ideal, a weight of 0 leaves the list, and the all "
                    "line the mean weighted by each list's weight (its documents' weights averaged by gain); "
                    "with --preset tf_ranking, for the per-query lines")


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("segments and query weights")
    group.add_argument("--segments", metavar="FILE", help=SEGMENTS_HELP)
    group.add_argument("--weights", metavar="FILE", help=WEIGHTS_HELP)
    group.add_argument("--doc-weights", action="store_true", help=DOC_WEIGHTS_HELP)


def inputs(options: argparse.Namespace) -> list[str]:
    """The files these options read (no output may replace them; a report names them)."""
    return [p for p in (getattr(options, "segments", None), getattr(options, "weights", None)) if p]


def refuse_shared_streams(options: argparse.Namespace) -> None:
    """An `InputError` when --segments or --weights is the pipe another input is read from
    (`--qrels /dev/stdin --weights /dev/stdin`): a pipe holds one file, and each reader would
    get the same bytes, read as the wrong format."""
    import os
    import stat

    from ndcg_gui.core.errors import InputError

    named = {"FILE": getattr(options, "file", None), "--qrels": getattr(options, "qrels", None)}
    named.update({f"RUN {r}": r for r in getattr(options, "runs", None) or ()})
    named.update({flag: getattr(options, flag[2:], None) for flag in ("--segments", "--weights")})
    seen: dict[tuple[int, int], str] = {}
    for flag, path in named.items():
        if not path or not isinstance(path, str):
            continue
        try:
            info = os.stat(path)
        except OSError:  # (its reader says what is wrong with it)
            continue
        if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen and flag in ("--segments", "--weights"):
            raise InputError(f"{seen[key]} and {flag} are one pipe ({path}): it holds one file; give each "
                             "its own (a file, or another <(cmd))")
        seen.setdefault(key, flag)


@dataclass(frozen=True)
class Maps:
    """The segments and the weights the options (or the run's columns) give; None: none."""

    segments: QueryMap[str] | None = None
    weights: QueryMap[float] | None = None

    def __bool__(self) -> bool:
        return self.segments is not None or self.weights is not None

    def weights_for(self, queries) -> dict[str, float] | None:
        """Every judged query's weight (an `InputError` for one without), or None unweighted."""
        from ndcg_gui.core.analysis.weights import query_weights

        return None if self.weights is None else query_weights(self.weights, queries)


def maps(options: argparse.Namespace, run: pd.DataFrame | None = None, path: str | None = None,
         form: FileFormat | None = None) -> Maps:
    """The maps of --segments and --weights, else of the `segment` and `weight` columns of `run`
    (the first run's rows, read from `path`). Each file is read once for the command (a pipe can
    be read only once: `main` reads them before the runs, so a bad line stops it at once), each
    column once a run is given; kept on `options`. `form`: how the run's file was written
    (`format_of`): its decimal mark, which its weight column reads too, and its lines, which a
    message about a cell names."""
    kept = getattr(options, "_query_maps", None)
    if kept is None:
        refuse_shared_streams(options)
        kept = options._query_maps = _read_maps(options, None, None)
    if run is not None and not getattr(options, "_query_columns", False):
        options._query_columns = True
        columns = _read_maps(options, run, path, form)
        kept = options._query_maps = Maps(kept.segments or columns.segments, kept.weights or columns.weights)
    return kept


def refuse_unused(options: argparse.Namespace, mode: str | None) -> None:
    """An `InputError` when --segments or --weights is given where nothing uses them (`mode`: the
    option that asked for that, None when they are used)."""
    from ndcg_gui.core.errors import InputError

    if mode is not None and inputs(options):
        given = "--segments" if getattr(options, "segments", None) else "--weights"
        raise InputError(f"{given} goes with the per-query lines, a comparison, --report or the gate, "
                         f"not with {mode}")


def refuse_doc_weights(options: argparse.Namespace, mode: str | None) -> None:
    """An `InputError` when --doc-weights is given where its weighted mean is not printed yet
    (`mode`: the option that asked for that), or beside query weights (one weight per list)."""
    from ndcg_gui.core.errors import InputError

    if not getattr(options, "doc_weights", False):
        return
    if getattr(options, "weights", None):
        raise InputError("--doc-weights and --weights: give one; TF-Ranking's list weights come from the "
                         "documents' weights")
    if mode is not None:
        raise InputError(f"--doc-weights goes with the per-query lines (or --engine, which refuses it), "
                         f"not with {mode} (yet)")


def with_list_weights(maps: Maps, result: pd.DataFrame, path: str) -> Maps:
    """`maps` with TF-Ranking's list weights (`evaluate.list_weights` of `result`, scored with
    document weights) as the queries' weights: the all line becomes TF-Ranking's weighted mean.
    An `InputError` when the run also has a query weight column (one weight per list)."""
    from ndcg_gui.core.errors import InputError, file_name
    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.core.ndcg.evaluate import list_weights

    if maps.weights is not None:
        raise InputError(f"--doc-weights and {maps.weights.origin}: give one; TF-Ranking's list weights "
                         f"come from the documents' weights")
    origin = f'TF-Ranking\'s list weights of column "doc_weight" of {file_name(path)}'
    weights = dict(zip(map(str, result.index), list_weights(result).tolist(), strict=True))
    return Maps(maps.segments, QueryMap(weights, "weight", origin))


def format_of(dataset) -> FileFormat | None:
    """How a dataset's file was written (None: not read from a text file, or no dataset)."""
    return getattr(dataset, "file_format", None)


def _comma_decimal(form: FileFormat | None) -> bool:
    """Whether a file reads a comma as the decimal mark, as its reader takes grades and scores:
    a text table whose cells are not split by commas."""
    return form is not None and form.comma_may_be_decimal()


def _read_maps(options: argparse.Namespace, run: pd.DataFrame | None, path: str | None,
               form: FileFormat | None = None) -> Maps:
    from functools import partial

    from ndcg_gui.cli.output import record_line
    from ndcg_gui.core.analysis.weights import parse_weight
    from ndcg_gui.core.formats.query_map import column_map, named_column, read_query_map
    from ndcg_gui.core.reading.dispatch import columnar_row

    def one(option: str | None, what: str, parse):
        if option:
            return read_query_map(option, what, parse) if run is None else None
        column = named_column(tuple(run.columns), what, path) if run is not None else None
        line_of = partial(record_line, path, form)
        return column_map(run, column, path, what, parse, line_of, partial(columnar_row, path)) \
            if column is not None else None

    # (a file of query<TAB>weight lines is split by tabs: a comma there is a decimal mark)
    weight = partial(parse_weight, decimal_comma=_comma_decimal(form) or run is None)
    return Maps(one(getattr(options, "segments", None), "segment", str),
                one(getattr(options, "weights", None), "weight", weight))


def _listed(queries: list[str]) -> str:
    """Query ids for a note, each quoted (an empty id is "", not nothing)."""
    from ndcg_gui.core.errors import shown

    return ", ".join(map(shown, queries[:LISTED])) + (", ..." if len(queries) > LISTED else "")


def note_unassigned(unassigned: list[str], unknown: list[str], maps: Maps, say) -> None:
    """Say once which queries are in no segment (counted in all only), and which queries of the
    map are not judged queries (another run's ids, say)."""
    if maps.segments is None:
        return
    if unassigned:
        many = "query is" if len(unassigned) == 1 else "queries are"
        say(f"note: {len(unassigned):,} judged {many} in no segment of {maps.segments.origin}, counted in "
            f"all only: {_listed(unassigned)}")
    if unknown:
        many = "query" if len(unknown) == 1 else "queries"
        from ndcg_gui.core.formats.query_map import respelled

        hint = respelled(unknown, unassigned)  # (1.0 against a Parquet float id read as "1")
        hint = f" ({hint})" if hint else ""
        say(f"note: {maps.segments.origin} names {len(unknown):,} {many} that no judged query of the run "
            f"is: {_listed(unknown)}{hint}")


# --- one run: the all:SEGMENT lines ----------------------------------------------------------------


def per_query(table: pd.DataFrame, judged: pd.Series | None = None) -> pd.DataFrame:
    """The command line's table (query, n_docs, n_judged, dcg, idcg, ndcg) as `evaluate`'s
    (index query; n_retrieved, undefined), with Judged@k beside it."""
    frame = table.set_index("query").rename(columns={"n_docs": "n_retrieved"})
    frame["undefined"] = frame["idcg"].to_numpy(dtype=float) == 0
    if judged is not None:
        frame["judged"] = judged.to_numpy(dtype=float)
    return frame


def summary_rows(table: pd.DataFrame, judged: pd.Series | None, maps: Maps, say) -> tuple[list[dict], dict]:
    """The all:SEGMENT rows (with --segments) and the all row, weighted with --weights: each the
    counts summed and the figures averaged over its queries, as the all line is; `queries`, how many.
    Every judged query counts (judged queries without results score 0: trec_eval -c)."""
    from ndcg_gui.core.analysis.segments import segment_means

    frame = per_query(table, judged)
    figures = ["dcg", "idcg", *(["judged"] if judged is not None else [])]
    weights = maps.weights_for(frame.index)
    segments = maps.segments.values if maps.segments is not None else {}
    means = segment_means(frame, segments, weights=weights, figures=figures, sums=("n_retrieved", "n_judged"))

    def row(name: str, figures_row) -> dict:
        return {"query": name, "n_docs": int(figures_row["n_retrieved"]),
                "n_judged": int(figures_row["n_judged"]),
                "dcg": float(figures_row["dcg"]), "idcg": float(figures_row["idcg"]),
                "ndcg": float(figures_row["mean"]), "queries": int(figures_row["counted"]),
                **({"judged": float(figures_row["judged"])} if judged is not None else {})}

    rows = [row(f"all:{name}", r) for name, r in means.table.iterrows()]
    note_unassigned(means.unassigned, means.unknown, maps, say)
    if weights is not None:
        say(f"note: the all lines are weighted by {maps.weights.origin}; each query's own line is not")
    overall = row("all", means.overall)
    if weights is not None:
        overall["weighted_by"] = maps.weights.origin
    return rows, overall


# --- runs compared -----------------------------------------------------------------------------------


def weighted(cmp: Comparison, maps: Maps) -> Comparison:
    """The comparison weighted by the queries' weights (its tests the weighted ones), or as it is."""
    from ndcg_gui.core.analysis.runs.compare import weighed

    return weighed(cmp, maps.weights)


def by_segment(cmp: Comparison, maps: Maps, say) -> SegmentComparison | None:
    """Each compared run in each segment (weighted as the comparison is), or None without segments."""
    if maps.segments is None:
        return None
    from ndcg_gui.core.analysis.runs.segment_compare import compare_segments

    segments = compare_segments(cmp.per_query, cmp.baseline, maps.segments.values, weights=cmp.weights,
                                samples=cmp.samples, seed=cmp.seed, confidence=cmp.confidence)
    present = set(map(str, cmp.per_query.index))
    note_unassigned(segments.unassigned, [q for q in maps.segments.values if q not in present], maps, say)
    return segments


SEGMENT_TABLE = ["run", "segment", "queries", "baseline_mean", "mean", "delta", "wins", "ties", "losses",
                 "rand_p", "p_holm", "ci_low", "ci_high", "verdict"]


def segment_table(segments: SegmentComparison) -> pd.DataFrame:
    """One row per compared run and segment, as CSV and TSV print it."""
    return segments.table.reset_index()[SEGMENT_TABLE]


def segments_json(segments: SegmentComparison) -> dict:
    """The segments' figures for JSON: each row, where each run won and lost, and how."""
    import math

    def value(x):
        if hasattr(x, "item"):
            x = x.item()
        return None if isinstance(x, float) and not math.isfinite(x) else x

    rows = [{c: value(v) for c, v in row.items()} for row in segment_table(segments).to_dict("records")]
    return {"rows": rows, "where": {run: segments.where(run) for run in segments.runs},
            "in_no_segment": segments.unassigned, "methods": segments.methods()}


def segments_text(segments: SegmentComparison, at: str, aligned) -> str:
    """The segments' table under the comparison's (laid out by `aligned`, the comparison's own
    table layout), then where each run won and lost."""

    def fixed(x, form: str) -> str:
        return "–" if x != x else format(x, form)

    conf = f"{segments.confidence * 100:g} % CI"
    header = ["run", "segment", "queries", f"{segments.baseline} ndcg{at}", f"mean ndcg{at}", "delta",
              "W/T/L", "rand. p", "Holm p", conf, "verdict"]
    rows = [[str(run), str(name), str(int(r["queries"])), fixed(r["baseline_mean"], ".4f"),
             fixed(r["mean"], ".4f"), fixed(r["delta"], "+.4f"),
             f"{int(r['wins'])}/{int(r['ties'])}/{int(r['losses'])}",
             fixed(r["rand_p"], ".4g"), fixed(r["p_holm"], ".4g"),
             f"[{fixed(r['ci_low'], '+.4f')}, {fixed(r['ci_high'], '+.4f')}]", r["verdict"]]
            for (run, name), r in segments.table.iterrows()]
    where = "".join(f"  {segments.where(run)}\n" for run in segments.runs)
    return (f"By segment ({'weighted, ' if segments.weighted else ''}Holm over the segments of each run):\n"
            + aligned(header, rows) + "Where each run won and lost:\n" + where
            + f"  ({segments.methods()})\n")


def run_means(dataset, measure: Measure, maps: Maps, say) -> SegmentMeans | None:
    """One run's mean in each segment (and of all, weighted with --weights) for its report, or
    None without segments or weights; the queries the measure's mean policy counts, as the report's
    own mean (every judged query unless --missing skip)."""
    if not maps:
        return None
    from ndcg_gui.core.analysis.segments import segment_means

    result = dataset.evaluate(measure.per_query())
    segments = maps.segments.values if maps.segments is not None else {}
    means = segment_means(result, segments, measure, weights=maps.weights_for(result.index))
    note_unassigned(means.unassigned, means.unknown, maps, say)
    return means
