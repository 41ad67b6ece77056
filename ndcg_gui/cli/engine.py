"""`ndcg-inspect RUN --qrels QRELS --engine duckdb` (or `spark`): the per-query lines (or
--summary-csv) scored by DuckDB or Spark SQL on the files where they lie (`core.sql.duckdb_engine`,
`core.sql.spark_engine`), printed as the in-memory path prints them; runs compared with the
statistics of the in-memory comparison on the engine's rows. Reports, the gate and --metrics-csv
stay in memory for now."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ndcg_gui.cli.arguments import measure_of

ENGINES = ("auto", "memory", "duckdb", "spark")


def add_options(parser: argparse.ArgumentParser) -> None:
    from ndcg_gui.cli.arguments import THREADS_PER_CORE, memory_limit, spark_master, thread_count

    group = parser.add_argument_group("engine (runs larger than memory)")
    group.add_argument("--engine", choices=ENGINES, default="auto",
                       help="auto (default): duckdb for inputs that loading would take more than half "
                       "of this machine's memory for (or a glob, a folder) when DuckDB is installed, "
                       "said on stderr; memory otherwise. memory: read the files into memory; "
                       "duckdb: score them in DuckDB where they lie (TREC text, CSV, Parquet; files, "
                       "globs, hive folders), spilling to disk; needs pip install 'ndcg-gui[duckdb]'. "
                       "A name holding * ? [ is a glob only where no file has that name")
    group.add_argument("--memory-limit", metavar="SIZE", type=memory_limit,
                       help="DuckDB's memory limit, e.g. 2GB, from 64 MiB to this machine's memory "
                       "(default: DuckDB's, 80%% of RAM)")
    group.add_argument("--threads", type=thread_count, metavar="N",
                       help=f"DuckDB's threads, 1 to {THREADS_PER_CORE} per core (default: every core)")
    group.add_argument("--spark-master", metavar="URL", type=spark_master,
                       help="--engine spark: where Spark runs: local[*] (default: this machine, every "
                       "core), local[N], a cluster (spark://host:7077, yarn) or Spark Connect "
                       "(sc://host:15002); needs pip install 'ndcg-gui[spark]' and Java 17")
    group.add_argument("--cache", action="store_true",
                       help="keep DuckDB's per-query table beside the run (.RUN.ndcg-HASH.parquet) and "
                       "use it again while the files (inode, size, times, a hash of their bytes) and the "
                       "definition are unchanged; only a regular file of your own is read, never through "
                       "a link")


def wanted(options: argparse.Namespace) -> bool:
    """Whether an engine scores the files (`--engine auto` is decided here, and said on stderr)."""
    if options.engine == "auto":
        options.engine = _auto(options)
    _say_patterns(options)
    return options.engine != "memory"


def _say_patterns(options: argparse.Namespace) -> None:
    """Each input whose name holds glob characters, as taken when it could be either: a pattern
    (the engines), or the file of that name (DuckDB and the in-memory path; Spark globs a name
    its own way)."""
    from ndcg_gui.cli.output import say
    from ndcg_gui.core.sql.inputs import how_named, is_pattern

    for path in dict.fromkeys([options.file, *options.runs, options.qrels]):
        if path is None:
            continue
        if (options.engine != "memory") if is_pattern(path) else (options.engine != "spark"):
            said = how_named(path)
            if said is not None:
                say(f"note: {said}")


def _refused(options: argparse.Namespace) -> list[str]:
    """What the engines do not do (yet): the options asking for it."""
    from ndcg_gui.cli import gate as cli_gate
    from ndcg_gui.cli import report as cli_report

    asked = (("--metrics-csv", options.metrics_csv), ("--report/--table", cli_report.wanted(options)),
             ("--fail-if-worse", cli_gate.wanted(options)),
             ("--explain/--which", options.explain or options.which is not None))
    return [flag for flag, value in asked if value]


def _auto(options: argparse.Namespace) -> str:
    """DuckDB when the inputs are too big to load (`core.sql.inputs`) or only it reads them, it is
    installed, and it does everything asked; the in-memory path otherwise."""
    from ndcg_gui.cli.output import say
    from ndcg_gui.core.sql import inputs

    if options.qrels is None or _refused(options):
        return "memory"
    paths = [options.file, *options.runs, options.qrels]
    only = [p for p in paths if inputs.engine_only(p)]
    estimate = inputs.estimate(paths)
    memory = inputs.machine_memory()
    if not only and (estimate is None or not inputs.too_big_for_memory(estimate, memory)):
        return "memory"
    try:
        import duckdb  # noqa: F401
    except ImportError:
        return "memory"
    from ndcg_gui.core.sql import NotExpressible, check_expressible
    from ndcg_gui.core.sql.duckdb_engine import reads

    try:
        check_expressible(measure_of(options).per_query(), row_order=True)
    except NotExpressible:
        return "memory"
    if not (all(reads(p, "trec_run") for p in paths[:-1]) and reads(options.qrels, "qrels")):
        return "memory"
    from ndcg_gui.core.errors import file_name

    why = (f"{file_name(only[0])} is read by DuckDB only" if only else
           f"the inputs ({estimate.size / 1e9:.1f} GB) would take ~{estimate.peak / 1e9:.0f} GB loaded, "
           f"over {inputs.SHARE:.0%} of this machine's {memory / 1e9:.0f} GB; --engine memory loads them")
    say(f"note: scored by DuckDB (--engine auto): {why}")
    return "duckdb"


def main_engine(options: argparse.Namespace, say: Callable[[str], None]) -> None:
    """The per-query lines or --summary-csv of one run, or the comparison of several, scored by
    the engine."""
    from ndcg_gui.cli import output as cli_output
    from ndcg_gui.core.errors import InputError

    refused = _refused(options)
    if refused:
        raise InputError(f"--engine {options.engine} does not do {refused[0]} yet; leave out --engine")
    if options.qrels is None:
        raise InputError(f"--engine {options.engine} needs the judgments: --qrels QRELS")
    if options.threads is not None and options.threads < 1:
        raise InputError(f"--threads {options.threads}: expected a whole number from 1")
    _check_engine_options(options)
    _refuse_own_columns(options)
    measure = measure_of(options)
    if options.runs:
        _compare(options, measure, say)
        return
    cli_output.check_output(options.summary_csv, [options.file, options.qrels])
    result = _score(options, options.file, measure)
    table = _summary(result.table)
    if options.summary_csv:
        from ndcg_gui.core.writing.writers import write_summary_table

        _notes(table, result, options.file)
        write_summary_table(table, cli_output.output(options.summary_csv), measure)
        return
    from ndcg_gui.cli import segments as cli_segments

    # What the lines need, refused before a note is said (as in memory): the query, the weights.
    judged = cli_output.judged_at(table, measure,
                                  lambda again: _summary(_score(options, options.file, again).table))
    shown = table
    if options.query is not None:
        picked = (table["query"] == cli_output.pick_query(table["query"].tolist(), options.file,
                                                          options.query)).to_numpy()
        shown, judged = table[picked], judged[picked]
    maps = cli_segments.maps(options)
    maps.weights_for(shown["query"])  # (an `InputError` for a judged query without a weight)
    _notes(table, result, options.file)
    table = shown
    groups = cli_segments.summary_rows(table, judged, maps, say) if maps else None
    sys.stdout.write(cli_output.render(table, measure.k, options.format, judged, groups))
    sys.stdout.flush()


def _notes(table, result, path: str) -> None:
    """The notes on the queries left out and the figures no double holds, said once nothing
    more can be refused."""
    from ndcg_gui.cli import output as cli_output

    cli_output.note_left_out(table.loc[table["n_docs"] == 0, "query"].tolist(), result.unjudged)
    cli_output.note_not_finite(table, path)


def _check_engine_options(options: argparse.Namespace) -> None:
    """Each engine's options only with that engine."""
    from ndcg_gui.core.errors import InputError

    if options.engine == "spark":
        for flag, value in (("--memory-limit", options.memory_limit), ("--threads", options.threads)):
            if value is not None:
                raise InputError(f"{flag} is DuckDB's; Spark takes --spark-master local[N] "
                                 "(and its own settings from spark-defaults.conf)")
    elif options.spark_master is not None:
        raise InputError("--spark-master goes with --engine spark")


def _refuse_own_columns(options: argparse.Namespace) -> None:
    """The first run's own `segment` or `weight` column, which the in-memory path reads and the
    engines do not (their rows hold query, doc and score only): refused, since the mean printed
    would be unweighted (or not by segment) without a word. A --segments/--weights file instead
    is read, as in memory, where it replaces the column."""
    from ndcg_gui.core.errors import InputError, shown
    from ndcg_gui.core.formats.query_map import named_column

    try:
        import duckdb  # noqa: F401  (the header is read by DuckDB's reader, as it scores)
    except ImportError:  # (--engine duckdb then says how to install it; Spark is not checked)
        return
    from ndcg_gui.core.sql.duckdb_engine import column_names

    names = column_names(options.file)
    for what, given in (("segment", options.segments), ("weight", options.weights)):
        column = named_column(names, what, options.file) if given is None else None
        if column is not None:
            raise InputError(f"has its own {shown(column)} column, which --engine {options.engine} does "
                             f"not read; give it as --{what}s FILE (query<TAB>{what}), or use --engine "
                             "memory", options.file)


def _score(options: argparse.Namespace, run: str, measure):
    """One run scored against --qrels by the engine (`EngineResult`)."""
    from ndcg_gui.cli.output import PROG
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.sql import NotExpressible

    if options.engine == "spark":
        return _score_runs(options, [run], measure)[0]
    from ndcg_gui.core.sql.cache import per_query_table
    from ndcg_gui.core.sql.progress import StderrProgress

    progress = StderrProgress(sys.stderr, f"{PROG}: ")  # (a terminal, or a long job: never stdout)
    try:
        return per_query_table(run, options.qrels, measure, options.cache, options.memory_limit,
                               options.threads, progress)
    except NotExpressible as err:
        raise InputError(f"--engine {options.engine}: {err}; leave out --engine") from None
    finally:
        progress.close()


def _score_runs(options: argparse.Namespace, runs: list[str], measure) -> list:
    """Each run scored against --qrels by the engine; Spark reads and checks the qrels once."""
    if options.engine != "spark":
        return [_score(options, run, measure) for run in runs]
    from ndcg_gui.core.errors import InputError
    from ndcg_gui.core.sql import NotExpressible, spark_engine

    try:
        return spark_engine.score_runs_with_spark(runs, options.qrels, measure,
                                                  options.spark_master or "local[*]")
    except NotExpressible as err:
        raise InputError(f"--engine spark: {err}; leave out --engine") from None


def _compare(options: argparse.Namespace, measure, say: Callable[[str], None]) -> None:
    """`ndcg-inspect RUN_A RUN_B … --engine E`: each run's per-query NDCG from the engine, then the
    statistics of the in-memory comparison on those rows, printed as it prints them."""
    from ndcg_gui.cli import compare as cli_compare
    from ndcg_gui.core.analysis.runs.compare import compare_scored

    names = cli_compare.run_names(options, [options.file, *options.runs])
    results = _score_runs(options, list(names.values()), measure)
    scored = {name: result.table.set_index("query") for name, result in zip(names, results, strict=True)}
    cmp = compare_scored(scored, measure, **cli_compare.statistics(options))
    sys.stdout.write(cli_compare.printed(cmp, options, say))
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
