"""`ndcg-inspect FILE [options]`: NDCG of every query, headless. Never imports Qt, never opens a window.

With no output option it prints one line per query and a last line "all", like `trec_eval -q`;
`--summary-csv` and `--metrics-csv` write tables instead. With several files, the runs are compared
(`cli/compare.py`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import threading
import warnings
from collections.abc import Iterator, Sequence

from ndcg_gui.cli import compare as cli_compare
from ndcg_gui.cli import engine as cli_engine
from ndcg_gui.cli import gate as cli_gate
from ndcg_gui.cli import overlap as cli_overlap
from ndcg_gui.cli import report as cli_report
from ndcg_gui.cli import segments as cli_segments
from ndcg_gui.cli.arguments import EXIT_BAD_INPUT, FILES_HELP, add_common, measure_of, needs_qrels_hint
from ndcg_gui.cli.output import (
    PROG,
    check_outputs,
    judged_at,
    note_left_out,
    note_not_finite,
    output,
    pick_query,
    refuse_infinite_gains,
    render,
    say,
)

FORMATS = ("text", "tsv", "csv", "json")

_EPILOG = FILES_HELP + """

Output (stdout, ready to pipe): a header, one line per query (query, n_docs, n_judged, dcg,
idcg, ndcg at k) and a last line "all" (counts summed, dcg, idcg and ndcg averaged over the
queries), like trec_eval -q -m ndcg_cut.K. Judged queries without results are listed and
score 0 (trec_eval -c); queries without any judgment are left out. Both are said on stderr.
  ndcg-inspect run.txt --qrels qrels.txt
  ndcg-inspect run.txt --qrels qrels.txt -k 20 --format tsv | sort -k6 -g | head
  ndcg-inspect ranking.csv -k 5 --preset sklearn --format json

Tables instead of the lines:
  --summary-csv OUT   the same rows as a CSV file (without "all"), then k and the definition
                      on every row
  --metrics-csv OUT   the per-rank table (rank, doc, grade, judged, gain, discount, cg, dcg,
                      ideal_grade, idcg, ndcg, query, definition) of --query (default: the
                      first)
OUT is replaced atomically (a temporary file renamed over it); "-" is stdout; /dev/stdout,
/dev/stderr, a FIFO or a device is written into as the shell set it up (after ">> log.csv",
appended), never replaced. OUT may not be FILE or the --qrels file.

Comparing runs (two files or more, judged by the same --qrels): one row per run with its mean,
the difference from the baseline (the first, or --baseline), wins/ties/losses, the paired t-test's
and the randomization test's p (10,000 sign flips, seed 0), Holm's correction over the runs, the
95 % bootstrap interval of the difference and the effect size; how many judged queries each run
returned results for; how each figure was made. -q adds each query's NDCG and differences.
  ndcg-inspect bm25.run rerank.run --qrels qrels.txt
  ndcg-inspect bm25.run rerank.run dense.run --qrels qrels.txt -k 20 -q --missing skip
  ndcg-inspect bm25.run rerank.run --qrels qrels.txt --format json
CSV and TSV print one table (the per-query one with -q) and say how it was made on stderr.

Without --qrels (or with --overlap beside them): how differently the runs rank each query, the most
different first: rank-biased overlap (RBO_ext, --rbo-p 0.9), Jaccard@k, Kendall's tau over the union;
with qrels, each query's NDCG and delta beside them, and the judging holes named.
  ndcg-inspect bm25.run dense.run
  ndcg-inspect bm25.run dense.run --qrels qrels.txt --overlap --format json

A regression gate for CI: status 1 when a candidate is significantly worse than the baseline
(randomization test, Holm over the candidates, p < --alpha, and a drop larger than --min-delta),
0 otherwise; one line saying why (or JSON), and a JUnit XML file for the CI's dashboard.
  ndcg-inspect bm25.run rerank.run --qrels qrels.txt --fail-if-worse --min-delta 0.005
  ndcg-inspect base.run a.run b.run --qrels qrels.txt --fail-if-worse --junit-xml gate.xml

Reports to share: one HTML file that opens anywhere (no network), naming every input by its
sha256, the definition and the program's version; a Markdown or LaTeX table of a comparison.
  ndcg-inspect run.txt --qrels qrels.txt --report run.html
  ndcg-inspect bm25.run rerank.run --qrels qrels.txt --report compare.html --table md

Bad input exits with status 2 and a one-line message naming the file and line.
"""


def build_parser() -> argparse.ArgumentParser:
    from ndcg_gui.core.ndcg.measure import DEFAULT_K

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="NDCG Inspector, headless: the NDCG of every query of a ranked-list file, "
        "printed like trec_eval -q or written as CSV. No window, no display needed.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common(
        parser, file_required=True,
        k_help=f"cut-off k (default {DEFAULT_K}, as in the window; --metrics-csv writes every rank "
        "unless -k is given)",
    )
    parser.add_argument("runs", metavar="RUN", nargs="*",
                        help="further runs of the same topics: compare them with FILE")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="how the per-query lines are printed (default: text)")
    parser.add_argument("--metrics-csv", metavar="OUT.csv",
                        help="write the per-rank metrics table of --query to OUT.csv ('-': stdout)")
    parser.add_argument("--summary-csv", metavar="OUT.csv",
                        help="write one row per query (query, n_docs, n_judged, dcg, idcg, ndcg at k, k, "
                        "definition) to OUT.csv ('-': stdout)")
    parser.add_argument("--explain", nargs=2, metavar=("A", "B"),
                        help="why the mean NDCG@k differs between presets A and B: the walk from A to B, "
                        "one choice at a time, with the mean after each step")
    parser.add_argument("--which", type=float, metavar="MEAN",
                        help="which presets give this mean NDCG@k (rounded to the decimals written), "
                        "e.g. a figure from another tool")
    cli_compare.add_options(parser)
    cli_overlap.add_options(parser)
    cli_gate.add_options(parser)
    cli_report.add_options(parser)
    cli_engine.add_options(parser)
    cli_segments.add_options(parser)
    return parser


def main(argv: Sequence[str] | None = None, *, direct: bool = True) -> int:
    """The command; `direct` False scores a run's summary through a whole `Dataset` even where
    `export` need not (the tests compare both ways)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["check"]:  # `ndcg-inspect check RUN --qrels Q`
        from ndcg_gui.cli import check as cli_check
        return cli_check.main(argv[1:], say)
    options = build_parser().parse_args(argv)
    from ndcg_gui.core.errors import InputError, NeedsQrels
    from ndcg_gui.core.formats.source import recording_digests

    # A report or the gate names each input by the sha256 of the bytes read (a pipe is read once).
    provenance = recording_digests() if cli_report.wanted(options) or cli_gate.wanted(options) else None

    code = 0
    try:
        with warnings.catch_warnings(), provenance or contextlib.nullcontext():
            # numpy's overflow warnings name our source lines; a figure too big is said once instead
            warnings.simplefilter("ignore", RuntimeWarning)
            check_outputs(options)  # every output, before the work: none replaces an input
            cli_segments.refuse_unused(options, _unused_by(options))
            cli_segments.refuse_doc_weights(options, _doc_weights_refused_by(options))
            cli_segments.maps(options)  # (their files, before the runs: a bad line stops it at once)
            if cli_engine.wanted(options):  # (it refuses what it does not do yet)
                cli_engine.main_engine(options, say)
            elif cli_report.wanted(options):
                cmp = cli_report.main_report(options, say)
                if cli_gate.wanted(options):
                    code = cli_gate.main_gate(options, say, cmp)
            elif cli_gate.wanted(options):
                code = cli_gate.main_gate(options, say)
            elif cli_overlap.wanted(options):  # runs compared without judgments, or --overlap
                cli_overlap.main_overlap(options, say)
            elif options.runs:
                cli_compare.main_compare(options, say)
            elif options.explain or options.which is not None:
                explain(options)
            else:
                export(options, direct)
    except NeedsQrels as err:
        say(needs_qrels_hint(str(err)))
        return EXIT_BAD_INPUT
    except InputError as err:
        say(str(err))
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `| head` closed the pipe: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:
        from ndcg_gui.core.errors import file_name

        say(f"{file_name(options.file)}: not enough memory to load it")
        return 1
    except KeyboardInterrupt:  # Ctrl+C: one line, the shell's usual status
        say("interrupted")
        return 130
    except Exception as exc:  # a bug: still one line, not a traceback
        say(f"internal error ({type(exc).__name__}: {exc}); please report it")
        return 1
    return code


def _doc_weights_refused_by(options: argparse.Namespace) -> str | None:
    """The option of a mode that does not weigh documents yet, None for the per-query lines."""
    for wanted, name in ((options.runs, "runs compared"), (cli_report.wanted(options), "--report"),
                         (cli_gate.wanted(options), "the gate"), (cli_overlap.wanted(options), "--overlap"),
                         (options.explain, "--explain"), (options.which is not None, "--which"),
                         (options.summary_csv, "--summary-csv"), (options.metrics_csv, "--metrics-csv")):
        if wanted:
            return name
    return None


def _unused_by(options: argparse.Namespace) -> str | None:
    """The option of a mode that uses no segments or weights, None when the mode uses them."""
    if cli_overlap.wanted(options):
        return "runs compared without judgments (--overlap)"
    if options.explain or options.which is not None:
        return "--explain" if options.explain else "--which"
    if not options.runs and not cli_report.wanted(options) and (options.summary_csv or options.metrics_csv):
        return "--summary-csv" if options.summary_csv else "--metrics-csv"
    return None


@contextlib.contextmanager
def importing_meanwhile(module: str) -> Iterator[None]:
    """Import `module` in another thread while the block runs, and wait for it at the end (an
    interpreter never shuts down mid-import). pandas' own import is long even past numpy and
    pyarrow and is first needed once the files are parsed: started after the reader's own modules
    are in, its import overlaps the reading and parsing, which run without the GIL (measured in
    `benchmarks/bench_load.py`, section 2)."""
    if module in sys.modules:
        yield
        return
    thread = threading.Thread(target=importlib.import_module, args=(module,), name=f"import {module}")
    thread.start()
    try:
        yield
    finally:
        while thread.is_alive():  # a Ctrl+C here would leave the interpreter shutting down mid-import
            with contextlib.suppress(KeyboardInterrupt):
                thread.join()


def export(options: argparse.Namespace, direct: bool = True) -> None:
    from ndcg_gui.core.reading import load
    from ndcg_gui.core.reading.direct import summarise

    measure = measure_of(options)  # (at k = 10 unless told: the window's numbers)
    tables = options.summary_csv or options.metrics_csv
    summary = dataset = None
    # (pyarrow imports pandas too, when it first makes a numpy array: after the parse, see `trec_text`)
    with importing_meanwhile("pandas"):
        weighed = measure.doc_weights != "none"  # (a TREC run has no column of document weights)
        if direct and options.qrels is not None and not options.metrics_csv and not weighed:
            # Only the summary: a TREC run is scored from its rows, without a `Dataset` (`direct`).
            summary = summarise(options.file, options.qrels, measure)
        if summary is None:
            dataset = load(options.file, options.qrels)
            if weighed:
                refuse_without_doc_weights(dataset, options.file)
    import numpy as np

    from ndcg_gui.core.writing.writers import write_metrics_csv, write_summary_table  # (pandas)

    if options.summary_csv or not tables:
        table = summary.table if summary is not None else dataset.summary(measure)
        if not np.isfinite(table[["dcg", "idcg"]].to_numpy(dtype=float)).all():
            # (a grade of 1e308 under 2^g - 1: refused by its line, the rows loaded to find it)
            refuse_infinite_gains(dataset or load(options.file, options.qrels), measure)
    if not tables:  # (what the lines need, refused before a note is said: the query, the weights)
        judged = judged_at(table, measure, lambda again: summarise(options.file, options.qrels, again)
                           if summary is not None else dataset.summary(again))
        shown = table
        if options.query is not None:
            # (the table's queries, as an engine's: a query without judgment has no line to show)
            picked = (table["query"] == pick_query(table["query"].tolist(), options.file,
                                                   options.query)).to_numpy()
            shown, judged = table[picked], judged[picked]
        maps = cli_segments.maps(options, dataset.run if dataset is not None else None, options.file,
                                 cli_segments.format_of(dataset))
        if weighed:
            scored = dataset.evaluate(measure.per_query())
            maps = cli_segments.with_list_weights(maps, scored, options.file)
        maps.weights_for(shown["query"])  # (an `InputError` for a judged query without a weight)
    if options.summary_csv or not tables:
        # The notes after any refusal: nothing is said before one (the engines refuse first too).
        if summary is not None:
            note_left_out(summary.without_results, summary.unjudged)
        elif dataset.has_pool:
            note_left_out(dataset.queries_without_results(), dataset.unjudged_queries())
        note_not_finite(table, options.file)
    if options.summary_csv:
        write_summary_table(table, output(options.summary_csv), measure)
    if options.metrics_csv:
        query = pick_query(dataset.queries(), options.file, options.query, "in the run")
        listed = dataset.ranked_list(query).ties_ordered(measure)
        # (every rank unless -k is given)
        write_metrics_csv(listed, output(options.metrics_csv), measure.at(options.k))
    if not tables:
        groups = cli_segments.summary_rows(shown, judged, maps, say) if maps else None
        sys.stdout.write(render(shown, measure.k, options.format, judged, groups))
        sys.stdout.flush()


def refuse_without_doc_weights(dataset, path: str) -> None:
    """`InputError` for --doc-weights on a run without a doc_weight column."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.formats.doc_weights import COLUMN
    from ndcg_gui.core.ndcg.evaluate import doc_weight_column

    if doc_weight_column(dataset.run.columns) is None:
        raise InputError(f"--doc-weights: the run has no {COLUMN} column (a CSV or Parquet run holds one)",
                         path)


def explain(options: argparse.Namespace) -> None:
    """--explain A B and --which MEAN: printed, for the run's every query at k."""
    from ndcg_gui.core.analysis.difference import explain_difference, presets_giving
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.ndcg.measure import DEFAULT_K
    from ndcg_gui.core.ndcg.presets import PRESETS
    from ndcg_gui.core.reading import load

    for name in options.explain or ():
        if name not in PRESETS:
            raise InputError(f'--explain "{name}": expected one of {", ".join(PRESETS)}')
    k = options.k if options.k is not None else DEFAULT_K
    dataset = load(options.file, qrels=options.qrels)
    keep = ["query", "doc"] + (["score"] if dataset.has_scores else [])
    if dataset.qrels is not None:
        run, qrels = dataset.run[keep], dataset.qrels[["query", "doc", "grade"]]
    else:
        run, qrels = dataset.run[[*keep, "grade"]], None
    if options.explain:
        a, b = (PRESETS[name].at(k) for name in options.explain)
        print(explain_difference(run, qrels, a, b, tuple(options.explain)).text())
    if options.which is not None:
        text = f"{options.which}"
        digits = len(text.split(".")[1]) if "." in text else 0
        table = presets_giving(options.which, run, qrels, k, digits)
        hits = table[table["match"]]
        print(f"mean NDCG@{k} {text}: " + (", ".join(hits["preset"]) if len(hits) else "no preset gives it"))
        for row in table.itertuples():
            print(f"  {row.preset:14} {row.mean:.{max(digits, 4)}f}{'  ✓' if row.match else ''}")


def run() -> None:
    """The `ndcg-inspect` command: `main`, then out without the interpreter's teardown. Every
    file is written and closed by then; what is left is freeing the arrays and modules, a share
    of a big run's whole time worth skipping (`benchmarks/bench_load.py`, section 2)."""
    from ndcg_gui.core.memory import tune_process

    tune_process()  # before pyarrow is imported
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl+C after main's own handler
        code = 130
    for stream in (sys.stdout, sys.stderr):  # (None when the shell closed it: `>&-`)
        with contextlib.suppress(BrokenPipeError, OSError, ValueError):  # `| head` closed the pipe
            if stream is not None:
                stream.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
