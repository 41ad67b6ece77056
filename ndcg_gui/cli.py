"""`ndcg-gui [FILE] [options]`: the window, or headless exports when an output option is given.

The headless paths never import Qt, so they are fast and work on a machine without a display.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ndcg_gui import __version__

EXIT_BAD_INPUT = 2

_EPILOG = """\
Files: a CSV/TSV table (delimiter and header detected; columns named e.g. query/qid,
doc/docid/id, grade/relevance/label, score, rank), a header-less list of grades or of
"document,grade" pairs, a TREC run (qid Q0 docno rank score tag) with or without --qrels,
or a TREC qrels file alone. An empty grade cell means "unjudged" (gain 0).

Headless use (no window, no display needed):
  ndcg-gui run.txt --qrels qrels.txt -k 10 --summary-csv summary.csv
  ndcg-gui ranking.csv -k 5 --preset sklearn --metrics-csv per_rank.csv

--summary-csv writes one row per query: query, n_docs, n_judged, dcg, idcg, ndcg at k
(judged queries without results score 0). --metrics-csv writes the per-rank table
(rank, doc, grade, judged, gain, discount, cg, dcg, ideal_grade, idcg, ndcg) of --query
(default: the first). Bad input exits with status 2 and a one-line message naming the file
and line.
"""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return value


def build_parser() -> argparse.ArgumentParser:
    from ndcg_gui.core.config import DEFAULT_K, PRESETS
    from ndcg_gui.core.options import DISCOUNT_HELP, GAIN_HELP

    parser = argparse.ArgumentParser(
        prog="ndcg-gui",
        description=(
            "NDCG Inspector: see CG, DCG, IDCG and NDCG of a ranked list at every rank.\n"
            "With no output option it opens the window (on a worked example when no FILE is\n"
            "given); with --metrics-csv or --summary-csv it writes the table and exits."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", help="a CSV/TSV ranked list, or a TREC run or qrels file")
    parser.add_argument("--qrels", help="TREC qrels with the judgments for FILE")
    parser.add_argument("--query", help="the query to open or export (default: the first)")
    parser.add_argument(
        "-k", type=_positive_int, default=None,
        help=f"cut-off k (default {DEFAULT_K}, in the window and --summary-csv alike; "
        "--metrics-csv writes every rank unless -k is given)",
    )
    parser.add_argument(
        "--preset", choices=list(PRESETS),
        help="a named definition of NDCG: "
        + "; ".join(f"{name} = {p.label}" for name, p in PRESETS.items()),
    )
    parser.add_argument("--gain", help=GAIN_HELP + " (overrides the preset's)")
    parser.add_argument("--discount", help=DISCOUNT_HELP + " (overrides the preset's)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="save a PNG of the window and exit")
    parser.add_argument(
        "--metrics-csv", metavar="OUT.csv",
        help="write the per-rank metrics table of --query to OUT.csv and exit (no window)",
    )
    parser.add_argument(
        "--summary-csv", metavar="OUT.csv",
        help="write one row per query (query, n_docs, n_judged, dcg, idcg, ndcg at k) and exit "
        "(no window)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
    if options.metrics_csv or options.summary_csv:
        if options.file is None:
            parser.error("FILE is required with --metrics-csv or --summary-csv")
        return run_headless(options)
    from ndcg_gui.qt.app import run_gui  # Qt only on the window's path

    return run_gui(options)


def run_headless(options: argparse.Namespace) -> int:
    """The exports: no Qt, a one-line message and status 2 for anything wrong with the input."""
    from ndcg_gui.core.errors import InputError

    try:
        export(options)
    except InputError as err:
        print(f"ndcg-gui: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except MemoryError:
        print(f"ndcg-gui: {options.file}: not enough memory to load it", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: still one line, not a traceback
        print(f"ndcg-gui: internal error ({type(exc).__name__}: {exc}); please report it", file=sys.stderr)
        return 1
    return 0


def export(options: argparse.Namespace) -> None:
    from ndcg_gui.core.config import DEFAULT_K
    from ndcg_gui.core.options import config_from_options
    from ndcg_gui.core.readers import load
    from ndcg_gui.core.writers import write_metrics_csv, write_summary_csv

    config, ties = config_from_options(options.preset, options.gain, options.discount)
    dataset = load(options.file, options.qrels)
    if options.summary_csv:
        k = options.k if options.k is not None else DEFAULT_K  # the window's numbers
        write_summary_csv(dataset, options.summary_csv, k, config, ties)
    if options.metrics_csv:
        query = pick_query(dataset, options.query)
        write_metrics_csv(dataset.ranked_list(query), options.metrics_csv, config, options.k)


def pick_query(dataset, query: str | None) -> str:
    """The query asked for, else the first; an `InputError` naming some queries when absent."""
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.errors import shown as quoted

    queries = dataset.queries()
    if query is None:
        if not queries:
            raise InputError("has no queries", dataset.path)
        return queries[0]
    if query not in queries:
        listed = ", ".join(queries[:10]) + (", ..." if len(queries) > 10 else "")
        raise InputError(f"no query {quoted(query)}; it has {len(queries)}: {listed}", dataset.path)
    return query


if __name__ == "__main__":
    sys.exit(main())
