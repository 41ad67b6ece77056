"""`ndcg-inspect RUN --qrels QRELS --engine duckdb`: the per-query lines (or --summary-csv) scored
by DuckDB on the files where they lie (`core.sql.duckdb_engine`), printed as the in-memory path
prints them. Comparing runs, reports, the gate and --metrics-csv stay in memory for now."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

ENGINES = ("memory", "duckdb")


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("engine (runs larger than memory)")
    group.add_argument("--engine", choices=ENGINES, default="memory",
                       help="memory (default): read the files into memory; duckdb: score them in "
                       "DuckDB where they lie (TREC text, CSV, Parquet; files or globs), spilling "
                       "to disk; needs pip install 'ndcg-gui[duckdb]'")
    group.add_argument("--memory-limit", metavar="SIZE",
                       help="DuckDB's memory limit, e.g. 2GB (default: DuckDB's, 80%% of RAM)")
    group.add_argument("--threads", type=int, metavar="N", help="DuckDB's threads (default: every core)")


def wanted(options: argparse.Namespace) -> bool:
    return options.engine != "memory"


def main_engine(options: argparse.Namespace, say: Callable[[str], None]) -> None:
    """The per-query lines or --summary-csv of one run, scored by the engine."""
    from ndcg_gui import cli_gate, cli_output, cli_report
    from ndcg_gui.core.config import DEFAULT_K
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.options import config_from_options
    from ndcg_gui.core.sql import NotExpressible
    from ndcg_gui.core.sql.duckdb_engine import score_files
    from ndcg_gui.core.state.workspace import Definition

    asked = (("several runs", options.runs), ("--metrics-csv", options.metrics_csv),
             ("--report/--table", cli_report.wanted(options)), ("--fail-if-worse", cli_gate.wanted(options)))
    refused = [flag for flag, value in asked if value]
    if refused:
        raise InputError(f"--engine {options.engine} does not do {refused[0]} yet; leave out --engine")
    if options.qrels is None:
        raise InputError(f"--engine {options.engine} needs the judgments: --qrels QRELS")
    if options.threads is not None and options.threads < 1:
        raise InputError(f"--threads {options.threads}: expected a whole number from 1")
    config, ties = config_from_options(options.preset, options.gain, options.discount)
    k = options.k if options.k is not None else DEFAULT_K
    cli_output.check_output(options.summary_csv, [options.file, options.qrels])
    try:
        result = score_files(options.file, options.qrels, Definition(k, config, ties),
                             options.memory_limit, options.threads)
    except NotExpressible as err:
        raise InputError(f"--engine {options.engine}: {err}; leave out --engine") from None
    table = _summary(result.table)
    cli_output.note_left_out(table.loc[table["n_docs"] == 0, "query"].tolist(), result.unjudged)
    cli_output.note_not_finite(table, options.file)
    if options.summary_csv:
        from ndcg_gui.core.writing.writers import write_summary_table

        write_summary_table(table, cli_output.output(options.summary_csv), k, config, ties)
        return
    if options.query is not None:
        picked = cli_output.pick_query(table["query"].tolist(), options.file, options.query)
        table = table[table["query"] == picked]
    sys.stdout.write(cli_output.render(table, k, options.format))
    sys.stdout.flush()


def _summary(result):
    """`Dataset.summary`'s table from the engine's rows: the run's queries in order of first
    appearance, then the judged queries without results in the qrels' order."""
    import pandas as pd

    from ndcg_gui.core.lists.dataset import SUMMARY_COLUMNS

    ordered = result.assign(_without=result["first_row"].isna()).sort_values(
        ["_without", "first_row", "first_judged"], kind="stable")
    return pd.DataFrame({
        "query": ordered["query"].to_numpy(dtype=object),
        "n_docs": ordered["n_retrieved"].to_numpy(),
        "n_judged": ordered["n_judged"].to_numpy(),
        "dcg": ordered["dcg"].to_numpy(),
        "idcg": ordered["idcg"].to_numpy(),
        "ndcg": ordered["ndcg"].to_numpy(),
    }, columns=SUMMARY_COLUMNS)
