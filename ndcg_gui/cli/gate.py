"""`ndcg-inspect BASELINE CANDIDATE [CANDIDATE2 …] --qrels Q --fail-if-worse`: the regression gate
of a CI job. Exit status 1 when a candidate is significantly worse than the baseline
(`core.analysis.runs.gate`), 0 otherwise, 2 for bad input; one line saying why on stdout (or one JSON
object with --format json), and a JUnit XML file with --junit-xml. Never imports Qt.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ndcg_gui.core.analysis.runs.compare import Comparison

EXIT_WORSE = 1


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "regression gate (BASELINE CANDIDATE [CANDIDATE …])",
        "A candidate is worse when the paired randomization test (Holm-corrected over the\n"
        "candidates) gives p < ALPHA and its mean NDCG is more than D below the baseline's.")
    group.add_argument("--fail-if-worse", action="store_true",
                       help="exit with status 1 when a candidate is significantly worse than the "
                       "baseline (the first file, or --baseline), 0 otherwise")
    group.add_argument("--alpha", type=float, default=None, metavar="ALPHA",
                       help="significance level of the gate (default: 0.05)")
    group.add_argument("--min-delta", type=float, default=None, metavar="D",
                       help="a drop of mean NDCG no larger than D passes even when significant "
                       "(default: 0)")
    group.add_argument("--junit-xml", metavar="OUT.xml",
                       help="also write the gate's result as JUnit XML (one test case per candidate)")


def wanted(options: argparse.Namespace) -> bool:
    """Whether any option of the gate was given (all of them need --fail-if-worse; --alpha also
    sets the level of a report's verdicts and a table's marks)."""
    alpha = options.alpha is not None and not (options.report or options.table)
    return bool(options.fail_if_worse or alpha or options.min_delta is not None or options.junit_xml)


def main_gate(options: argparse.Namespace, say, cmp: Comparison | None = None) -> int:
    """Run the gate; returns the exit status (1: a candidate is worse). Bad input raises
    `InputError` (status 2 in `cli.main.main`). `cmp`: the runs already compared (by `cli/report.py`)."""
    from ndcg_gui.cli import compare as cli_compare
    from ndcg_gui.core.analysis.runs.gate import check_levels, check_samples, decide
    from ndcg_gui.core.errors import InputError, printable
    from ndcg_gui.core.reports.junit import write_junit
    from ndcg_gui.core.reports.provenance import file_hashes

    if not options.fail_if_worse:
        raise InputError("--alpha, --min-delta and --junit-xml belong to the gate (or --alpha to a "
                         "--report or --table): add --fail-if-worse")
    if not options.runs:
        raise InputError("--fail-if-worse compares candidates with a baseline: give BASELINE CANDIDATE …")
    if options.format not in ("text", "json"):
        raise InputError("--fail-if-worse prints a line of text or, with --format json, one JSON object")
    if options.per_query:
        raise InputError("--fail-if-worse prints its verdict alone; run without it for -q")
    alpha = 0.05 if options.alpha is None else options.alpha
    min_delta = 0.0 if options.min_delta is None else options.min_delta
    try:
        check_levels(alpha, min_delta)
    except ValueError as err:
        raise InputError(f"--{str(err).replace('min delta', 'min-delta')}") from None
    try:  # (before the runs are read: a gate that cannot fail is refused, not run)
        check_samples(options.samples, alpha, len(options.runs))
    except ValueError as err:
        raise InputError(f"--samples {options.samples}: {err}") from None
    paths = [options.file, *options.runs]
    if cmp is None:
        cmp = cli_compare.comparison(options, cli_compare.load_runs(options, paths))
        cli_compare._notes(cmp, say)
    try:
        gate = decide(cmp, alpha, min_delta)
    except ValueError as err:
        raise InputError(str(err)) from None
    inputs = file_hashes([*paths, options.qrels])
    if options.junit_xml:
        write_junit(gate, options.junit_xml, cmp.measure.describe(), inputs)
    if options.format == "json":
        sys.stdout.write(render_json(gate, cmp, inputs))
    else:
        sys.stdout.write(printable(gate.line()) + "\n")  # (a run's name from a file name)
    sys.stdout.flush()
    return EXIT_WORSE if gate.failed else 0


def _number(x: float) -> float | None:
    return x if math.isfinite(x) else None  # (JSON has no NaN or Infinity)


def render_json(gate, cmp, inputs: dict[str, str]) -> str:
    data = {
        "verdict": "fail" if gate.failed else "pass",
        "reason": gate.line(),
        "worse": gate.worse,
        "baseline": gate.baseline,
        "baseline_mean": _number(gate.baseline_mean),
        "alpha": gate.alpha,
        "min_delta": gate.min_delta,
        "k": gate.k,
        "queries": gate.n_queries,
        "definition": cmp.measure.describe(),
        "test": cmp.methods["rand_p"],
        "correction": cmp.methods["p_holm"],
        "inputs": inputs,
        "candidates": [
            {"run": v.run, "mean": _number(v.mean), "delta": _number(v.delta), "wins": v.wins,
             "ties": v.ties, "losses": v.losses, "p": _number(v.p), "p_holm": _number(v.p_holm),
             "worse": v.worse, "reason": v.reason}
            for v in gate.verdicts
        ],
    }
    from ndcg_gui.core.reports.escaping import json_text

    return json_text(data) + "\n"
