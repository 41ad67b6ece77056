"""`ndcg-inspect check RUN [--qrels Q] [-k K]`: what in the input makes NDCG figures disagree.

Prints one line per check (count, examples, why it matters); exit status 1 when any found case
can change a figure, 0 when none, 2 for input it cannot read.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from ndcg_gui.cli.arguments import EXIT_BAD_INPUT, positive_int


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ndcg-inspect check",
        description="Check a run (and its qrels) before trusting an NDCG: duplicate documents, ties "
        "across the cut-off, ranks that disagree with scores, queries only in the run or only in the "
        "qrels, negative grades, fractional grades (and what each preset does with them), queries "
        "without a relevant document, lists whose scores are all equal, ids that differ only by case "
        "or spaces. Exit status 1 when any would change a figure.",
    )
    parser.add_argument("file", metavar="RUN", help="a TREC run or a ranked-list table")
    parser.add_argument("--qrels", help="TREC qrels with the judgments for RUN")
    parser.add_argument("-k", type=positive_int, default=None, help="cut-off k (default 10)")
    return parser


def main(argv: Sequence[str], say: Callable[[str], None]) -> int:
    from ndcg_gui.core.analysis.checks import check, raw_frames, would_change
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.ndcg.measure import DEFAULT_K

    options = build_parser().parse_args(argv)
    try:
        run, qrels = raw_frames(options.file, options.qrels)
    except InputError as err:
        say(str(err))
        return EXIT_BAD_INPUT
    findings = check(run, qrels, options.k if options.k is not None else DEFAULT_K)
    for finding in findings:
        print(finding.line())
    return 1 if would_change(findings) else 0
