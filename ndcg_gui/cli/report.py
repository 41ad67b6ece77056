"""`ndcg-inspect … --report OUT.html` and `--table md|latex`: a report to share and a table for a
paper, from one run (the run's report) or several (the comparison's). Never imports Qt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("reports to share")
    group.add_argument("--report", metavar="OUT.html",
                       help="write one self-contained HTML page (no network needed): one run's mean, "
                       "histogram and worst queries with their fixes, or a comparison's statistics, "
                       "verdict, scatter and biggest losses")
    group.add_argument("--table", choices=("md", "latex"),
                       help="print the comparison as a Markdown or LaTeX table, ranx's significance "
                       "letters on each run's figure (two runs or more)")
    group.add_argument("--table-out", metavar="OUT",
                       help="write the --table to OUT instead of printing it")


def wanted(options: argparse.Namespace) -> bool:
    return bool(options.report or options.table or options.table_out)


def main_report(options: argparse.Namespace, say):
    """Write the report and the table; returns the comparison (None for one run) so that a gate
    on the same command line need not compare the runs again."""
    from ndcg_gui.cli import compare as cli_compare
    from ndcg_gui.cli import segments as cli_segments
    from ndcg_gui.cli.arguments import measure_of
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.reports.provenance import file_hashes
    from ndcg_gui.core.reports.run_report import Sources
    from ndcg_gui.core.state.workspace import run_label
    from ndcg_gui.core.writing.writers import atomic_write

    if options.table_out and not options.table:
        raise InputError("--table-out names where --table goes: add --table md or --table latex")
    if options.table and not options.runs:
        raise InputError("--table compares runs: give two run files or more")
    if options.table and not options.table_out and options.fail_if_worse:
        raise InputError("--fail-if-worse prints its verdict: write the table with --table-out")
    if options.per_query or options.format != "text":
        raise InputError("--report and --table write their own output; leave out -q and --format")
    alpha = 0.05 if options.alpha is None else options.alpha
    if not 0 < alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, not {alpha:g}")
    measure = measure_of(options)
    paths = [options.file, *options.runs]

    def sources() -> Sources:  # once every input is read: the sha256 of what was read (`cli.main`)
        return Sources(file_hashes([*paths, options.qrels, *cli_segments.inputs(options)]))

    cmp = None
    overlap = _overlap_lists(options, paths, measure) if options.runs else None
    if overlap is not None and overlap[1] is None:  # no judgments: the rankings compared alone
        from ndcg_gui.core.reports.compare_report import overlap_report

        if options.table or options.fail_if_worse:
            raise InputError("--table and --fail-if-worse compare NDCG: give the runs' --qrels")
        lists, _, p = overlap
        html = overlap_report(lists, options.baseline or next(iter(lists)), measure, sources(), p)
        atomic_write(options.report, lambda f: f.write(html))
        say(f"wrote {options.report}")
        return None
    if options.runs:
        from ndcg_gui.cli.output import refuse_infinite_gains
        from ndcg_gui.core.formats.query_notes import notes_beside
        from ndcg_gui.core.reports.compare_report import compare_report
        from ndcg_gui.core.reports.tables import comparison_table

        runs = overlap[1] if overlap is not None else cli_compare.load_runs(options, paths)
        notes, problem = notes_beside(options.file)  # the first run's (a bad sidecar is said)
        if problem is not None:
            say(problem)
        cmp = cli_compare.comparison(options, runs)
        cli_compare._notes(cmp, say)
        segments = cli_segments.by_segment(cmp, cli_segments.maps(options), say)
        if options.report:
            more = {"overlap": overlap[0], "p": overlap[2]} if overlap is not None else {}
            html = compare_report(runs, cmp, sources(), alpha=alpha, segments=segments, notes=notes, **more)
            atomic_write(options.report, lambda f: f.write(html))
        if options.table:
            text = comparison_table(cmp, options.table, alpha)
            if options.table_out:
                atomic_write(options.table_out, lambda f: f.write(text))
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
    else:
        from ndcg_gui.cli.output import refuse_infinite_gains
        from ndcg_gui.core.formats.query_notes import notes_beside
        from ndcg_gui.core.reading import load
        from ndcg_gui.core.reports.run_report import run_report

        dataset = load(options.file, options.qrels)
        refuse_infinite_gains(dataset, measure)
        notes, problem = notes_beside(options.file)  # (a bad sidecar is said; the report is written)
        if problem is not None:
            say(problem)
        maps = cli_segments.maps(options, dataset.run, options.file, cli_segments.format_of(dataset))
        means = cli_segments.run_means(dataset, measure, maps, say)
        html = run_report(dataset, measure, run_label(Path(options.file).name), sources=sources(),
                          segments=means, notes=notes)
        atomic_write(options.report, lambda f: f.write(html))
    if options.report:
        say(f"wrote {options.report}")
    return cmp


def _overlap_lists(options: argparse.Namespace, paths: list[str], measure):
    """(each run's ranked lists, the runs loaded — None without judgments —, RBO's p) when the
    report compares the runs' rankings (`cli.overlap.wanted`: no qrels, or --overlap); else None.
    Runs that all hold grades of their own, without --overlap, are compared by NDCG alone."""
    from ndcg_gui.cli import compare as cli_compare
    from ndcg_gui.cli import overlap as cli_overlap
    from ndcg_gui.core.analysis.runs.overlap import DEFAULT_P, ranked_lists
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.reading import load

    if not cli_overlap.wanted(options):
        return None
    p = DEFAULT_P if options.rbo_p is None else options.rbo_p
    if not 0 < p < 1:
        raise InputError(f"--rbo-p must be between 0 and 1 (exclusive), not {p:g}")
    runs = {name: load(path, options.qrels, need_grades=False)
            for name, path in cli_compare.run_names(options, paths).items()}
    scored = options.qrels is not None or all(bool(r.run["grade"].notna().any()) for r in runs.values())
    if scored and not options.overlap:
        return None
    lists = {name: ranked_lists(run.run, measure) for name, run in runs.items()}
    return lists, (runs if scored else None), p
