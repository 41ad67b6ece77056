"""`ndcg-inspect RUN_A RUN_B [RUN_C …] --qrels QRELS`: runs compared query by query with
`core.compare_runs`, printed as one row per run (and, with -q, one row per query). Never imports Qt.

Every figure is printed with how it was made (`Comparison.describe`: the test, its draws and seed):
after the tables in text, in the object in JSON, on stderr beside a CSV or TSV table.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ndcg_gui.cli.output import aligned, pick_query

if TYPE_CHECKING:  # pandas and the comparison load only when runs are compared: the one-file path
    import pandas as pd  # starts sooner (see `cli.main`)

    from ndcg_gui.core.analysis.runs.compare import Comparison
    from ndcg_gui.core.analysis.runs.segment_compare import SegmentComparison
    from ndcg_gui.core.lists.dataset import Dataset

MISSING_HELP = ("a judged query a run returned nothing for: 'zero' scores it 0 and compares every "
                "judged query (trec_eval -c), 'skip' compares only the queries every run returned "
                "results for (default: zero)")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of a comparison (the runs themselves are the positional arguments)."""
    from ndcg_gui.cli.arguments import sample_count
    from ndcg_gui.core.ndcg.measure import MAX_SAMPLES

    group = parser.add_argument_group("comparing runs (two files or more)")
    group.add_argument("-q", "--per-query", action="store_true",
                       help="also print each query's NDCG in every run and its differences")
    group.add_argument("--baseline", metavar="RUN",
                       help="the run the others are compared with, by its name in the output "
                       "(default: the first)")
    group.add_argument("--missing", choices=("zero", "skip"), default="zero", help=MISSING_HELP)
    group.add_argument("--samples", type=sample_count, default=10_000,
                       help="random sign flips of the randomization test and resamples of the "
                       f"bootstrap interval, 1 to {MAX_SAMPLES:,} (default: 10000)")
    group.add_argument("--seed", type=int, default=0,
                       help="seed of numpy's default_rng for both (default: 0)")


def compare(options: argparse.Namespace, paths: list[str], say) -> str:
    """Load every run (against --qrels), compare them, and return what stdout gets; notes go to
    `say` (stderr)."""
    from ndcg_gui.core.analysis.runs.tie_verdicts import tie_verdicts

    runs = load_runs(options, paths)
    cmp = comparison(options, runs)
    # The verdict under each compared run's worst and best order of tied documents.
    ties = tie_verdicts(cmp, runs, next(iter(runs.values())).qrels if options.qrels else None)
    return printed(cmp, options, say, ties)


def printed(cmp: Comparison, options: argparse.Namespace, say, ties: dict | None = None) -> str:
    """What stdout gets for the runs compared (in memory or by an engine); notes go to `say`.
    `ties`: each run's verdict under its worst and best order of tied documents (in memory only:
    an engine returns each query's figure, not its list)."""
    from ndcg_gui.cli import segments as cli_segments

    maps = cli_segments.maps(options)  # (read with the runs; an engine's comparison: the files only)
    cmp = cli_segments.weighted(cmp, maps)  # (before the notes: weights refused, in one line alone)
    per_query = _per_query(cmp, options.query) if options.per_query else None  # (--query refused first)
    _notes(cmp, say)
    segments = cli_segments.by_segment(cmp, maps, say)
    if options.format == "json":
        return render_json(cmp, per_query, ties, segments)
    if options.format in ("csv", "tsv"):
        for line in cmp.describe().splitlines():
            say(f"note: {line}")
        for verdict in (ties or {}).values():
            if verdict.queries:
                say(f"note: ties: {verdict.text()}")
        if segments is not None:
            for line in [*map(segments.where, segments.runs), segments.methods()]:
                say(f"note: segments: {line}")
        table = per_query if per_query is not None else \
            _table(cmp) if segments is None else cli_segments.segment_table(segments)
        return _delimited(table, "\t" if options.format == "tsv" else ",")
    return render_text(cmp, per_query, ties, segments)


def load_runs(options: argparse.Namespace, paths: list[str]) -> dict[str, Dataset]:
    """Every run of `paths` loaded against --qrels, by its name in the output (the file name
    without a run's extension; a repeated name numbered)."""
    from ndcg_gui.cli.arguments import measure_of
    from ndcg_gui.cli.output import refuse_infinite_gains
    from ndcg_gui.core.reading import load

    runs = {name: load(path, options.qrels) for name, path in run_names(options, paths).items()}
    for dataset in runs.values():  # (a NaN NDCG would be left out of a mean and a verdict unsaid)
        refuse_infinite_gains(dataset, measure_of(options))
    return runs


def run_names(options: argparse.Namespace, paths: list[str]) -> dict[str, str]:
    """Every run's name in the output (the file name without a run's extension, written as a
    terminal shows it: a line break, an escape sequence or an undecodable byte as its Python escape;
    a repeated name numbered) -> its path; `InputError` for options a comparison does not take."""
    from ndcg_gui.core.errors import InputError, printable
    from ndcg_gui.core.state.workspace import run_label

    for name in ("metrics_csv", "summary_csv"):
        if getattr(options, name, None):
            raise InputError(f"--{name.replace('_', '-')} writes the table of one file, not of "
                             f"{len(paths)} compared runs")
    if options.samples < 1 or options.seed < 0:
        raise InputError("--samples must be 1 or more and --seed 0 or more")
    names: dict[str, str] = {}
    for path in paths:
        stem, n = printable(run_label(Path(path).name)), 1
        name = stem
        while name in names:
            n += 1
            name = f"{stem} ({n})"
        names[name] = path
    if options.baseline is not None and options.baseline not in names:
        raise InputError(f"--baseline {options.baseline!r} is not one of the runs: {', '.join(names)}")
    return names


def comparison(options: argparse.Namespace, runs: dict[str, Dataset]) -> Comparison:
    """The runs compared as the options say (also the gate's and the report's comparison)."""
    from ndcg_gui.cli import segments as cli_segments
    from ndcg_gui.cli.arguments import measure_of
    from ndcg_gui.core.analysis.runs.compare import compare_runs

    first = next(iter(runs.values()))
    qrels = first.qrels if options.qrels else None
    cmp = compare_runs(runs, qrels, measure_of(options), **statistics(options))
    # (the first run's own segment and weight columns, when no file is given)
    return cli_segments.weighted(cmp, cli_segments.maps(options, first.run, options.file,
                                                        cli_segments.format_of(first)))


def statistics(options: argparse.Namespace) -> dict:
    """How the options say runs are compared, once each run is scored (the measure aside)."""
    return {"baseline": options.baseline, "samples": options.samples, "seed": options.seed}


def _notes(cmp: Comparison, say) -> None:
    """Which judged queries a run returned nothing for, and what became of them."""
    left_out = cmp.judged - cmp.n_queries
    if left_out:
        say(f"note: {left_out} of {cmp.judged} judged queries left out: a run returned nothing for them "
            "(--missing skip)")
    for run, scored in cmp.scored.items():
        if scored < cmp.judged and cmp.measure.empty == "zero":
            say(f"note: {run} returned nothing for {cmp.judged - scored} of {cmp.judged} judged "
                "queries, scored 0 there (--missing zero)")


def _per_query(cmp: Comparison, query: str | None) -> pd.DataFrame:
    """One row per query compared: each run's NDCG, then each run's difference from the baseline."""
    import pandas as pd

    frame = cmp.per_query.copy()
    deltas = cmp.deltas.add_prefix("delta ")
    table = pd.concat([frame, deltas], axis=1)
    table.index.name = "query"
    if query is not None:
        table = table.loc[[pick_query(table.index.tolist(), None, query, "compared")]]
    return table.reset_index()


def _table(cmp: Comparison) -> pd.DataFrame:
    """The comparison table with the run's name first and how many judged queries there are."""
    table = cmp.table().reset_index()
    table.insert(2, "judged", cmp.judged)
    return table


def _missing(x) -> bool:
    """Whether a cell holds no figure (None, pandas' NA or NaN)."""
    import pandas as pd

    return x is None or x is pd.NA or (isinstance(x, float) and math.isnan(x))


def _number(x) -> str:
    """A figure in a CSV/TSV cell: as it reads back exactly; empty when there is none."""
    from ndcg_gui.core.lists.numbers import number_text as fmt

    if _missing(x):
        return ""
    return str(x) if isinstance(x, str) else fmt(x)


def _delimited(table: pd.DataFrame, sep: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.itertuples(index=False):
        writer.writerow([_number(v) for v in row])
    return out.getvalue()


def _json_value(x):
    if _missing(x):
        return None
    if hasattr(x, "item"):
        x = x.item()
    return None if isinstance(x, float) and not math.isfinite(x) else x  # (JSON has no inf)


def render_json(cmp: Comparison, per_query: pd.DataFrame | None, ties: dict | None = None,
                segments: SegmentComparison | None = None) -> str:
    runs = []
    for row in _table(cmp).to_dict("records"):
        row = {c: _json_value(v) for c, v in row.items()}
        row["exact"] = bool(cmp.exact[row["run"]]) if row["run"] in cmp.exact.index else None
        compared = row["run"] in cmp.summary.index
        row["p_is_bound"] = cmp.at_floor(row["run"]) if compared else None  # rand_p: an upper bound
        row["verdict"] = cmp.verdict(row["run"]) if compared else None
        if ties is not None:  # the verdict under the run's worst and best order of tied documents
            verdict = ties.get(row["run"])
            row["tie_orders"] = ({c: _json_value(v) for c, v in verdict.as_dict().items()}
                                 if verdict is not None else None)
        runs.append(row)
    data = {
        "k": cmp.k, "baseline": cmp.baseline, "judged": cmp.judged, "compared": cmp.n_queries,
        "missing": cmp.measure.empty, "ties": cmp.measure.ties, "definition": cmp.measure.describe(),
        "samples": cmp.samples, "seed": cmp.seed, "confidence": cmp.confidence,
        "runs": runs, "methods": cmp.methods,
    }
    if per_query is not None:
        rows = per_query.to_dict("records")
        data["queries"] = [{c: _json_value(v) for c, v in row.items()} for row in rows]
    if cmp.weights is not None:
        data["weighted"] = cmp.weights_from or True
    if segments is not None:
        from ndcg_gui.cli import segments as cli_segments

        data["segments"] = cli_segments.segments_json(segments)
    from ndcg_gui.core.reports.escaping import json_text

    return json_text(data) + "\n"


def _fixed(x, form: str) -> str:
    return "–" if _missing(x) else format(x, form)


def render_text(cmp: Comparison, per_query: pd.DataFrame | None, ties: dict | None = None,
                segments: SegmentComparison | None = None) -> str:
    from ndcg_gui.core.analysis.runs.run_diff import p_texts
    from ndcg_gui.core.errors import printable

    at = f"@{cmp.k}" if cmp.k is not None else ""
    blocks = []
    if per_query is not None:
        header = ["query", *[f"ndcg{at} {r}" for r in cmp.runs], *[f"Δ {r}" for r in cmp.deltas.columns]]
        rows = [[str(row[0]), *[_fixed(v, ".4f") for v in row[1:len(cmp.runs) + 1]],
                 *["0" if v == 0 else _fixed(v, "+.4f") for v in row[len(cmp.runs) + 1:]]]
                for row in per_query.itertuples(index=False)]
        blocks.append(aligned(header, rows))
    table = cmp.table()
    conf = f"{cmp.confidence * 100:g} % CI"
    header = ["run", "scored", f"mean ndcg{at}", "delta", "W/T/L", "t-test p", "rand. p", conf, "effect",
              "Holm p", "verdict"]
    rows = []
    for run, r in table.iterrows():
        figures = [str(run), f"{r['scored']}/{cmp.judged}", _fixed(r["mean"], ".4f")]
        if run == cmp.baseline:
            rows.append([*figures, "(baseline)", *[""] * 7])
            continue
        ci = f"[{_fixed(r['ci_low'], '+.4f')}, {_fixed(r['ci_high'], '+.4f')}]"
        rand_p, holm_p = p_texts(cmp, run)
        rows.append([*figures, _fixed(r["delta"], "+.4f"), f"{r['wins']}/{r['ties']}/{r['losses']}",
                     _fixed(r["t_p"], ".4g"), rand_p, ci, _fixed(r["effect_size"], "+.3f"), holm_p,
                     cmp.verdict(run)])
    blocks.append(aligned(header, rows))
    if segments is not None:
        from ndcg_gui.cli import segments as cli_segments

        blocks.append(cli_segments.segments_text(segments, at, aligned))
    if ties:
        blocks.append("Ties (each run's worst and best order of tied documents, the baseline as scored):\n"
                      + "".join(f"  {printable(verdict.text())}\n" for verdict in ties.values()))
    described = "".join(f"  {line}\n" for line in cmp.describe().splitlines())
    blocks.append("How each figure was made:\n" + described)
    return "\n".join(blocks)


def main_compare(options: argparse.Namespace, say) -> None:
    sys.stdout.write(compare(options, [options.file, *options.runs], say))
    sys.stdout.flush()
