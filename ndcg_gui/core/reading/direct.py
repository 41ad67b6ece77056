"""A TREC run scored against its qrels straight from the parsed rows, without a `Dataset`: the
per-query summary of `ndcg-inspect RUN --qrels QRELS` (its lines, or `--summary-csv`).

`load` joins every row to its judgment, ranks every list and builds a dataset a window can edit;
NDCG@k needs only each query's first k rows (`core.ndcg.evaluate`), about a third of the command's time
on a 2,000,000-line run (`benchmarks/bench_load.py`, section 2). The files are read and checked by
`load`'s own steps in its order, so a bad file gets the same message, and scored by `evaluate` as
`Dataset.evaluate` scores a loaded run: the same rows in the same order (trec_eval's tie rule is
the order `load` ranks by), so the same numbers. Other tie rules score a loaded dataset's own order,
and go through `load`. `tests/test_cli_direct.py` compares the two ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ndcg_gui.core.arrays.ids import Groups, hash_strings, shared_prefix
from ndcg_gui.core.arrays.join import pair_keys
from ndcg_gui.core.arrays.order import score_key
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import trec_text
from ndcg_gui.core.formats.rows import Rows
from ndcg_gui.core.formats.source import decode, head_bytes, read_source
from ndcg_gui.core.lists.dataset import every_query, summary_table
from ndcg_gui.core.ndcg.measure import MetricConfig, score_precision
from ndcg_gui.core.reading.dispatch import read_pool, refuse_repeats, sniff

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

_HEAD = 1 << 16  # `sniff` reads no further


@dataclass(frozen=True)
class RunSummary:
    """What the command line reports of a run and its qrels, as a loaded `Dataset` says it."""

    table: pd.DataFrame  # `Dataset.summary(k, config, "trec")`
    queries: list[str]  # `Dataset.queries()`
    without_results: list[str]  # `Dataset.queries_without_results()`
    unjudged: list[str]  # `Dataset.unjudged_queries()`


def summarise(path: str | Path, qrels: str | Path, k: int | None, config: MetricConfig) -> RunSummary | None:
    """The summary at k with trec_eval's tie rule, or None when `path` is not a TREC run (then
    `load` reads it). Raises `InputError` as `load(path, qrels)` would."""
    if not _starts_like_a_run(path):
        return None
    source = read_source(path)
    if sniff(source) != "trec_run":  # (the first bytes misled: a rare file)
        return None
    qsource = read_source(qrels)
    pool, _ = read_pool(qsource, sniff(qsource), None)
    qsource.release()
    run = trec_text.read_run(source)
    source.release()
    groups, pool_groups = Groups.of(run.query), Groups.of(pool.query)
    skip = shared_prefix(run.doc, pool.doc)
    # `load`'s checks, in its order: grouped rows are in `ranked` order as far as queries go.
    refuse_repeats(run, groups.codes, "run", _keys(groups, run, skip), ranked_rows=groups.starts is not None)
    refuse_repeats(pool, pool_groups.codes, "qrels", _keys(pool_groups, pool, skip))

    from ndcg_gui.core.ndcg.evaluate import (
        evaluate_rows,  # lazy: start-up (pandas: imported meanwhile by the caller)
    )

    key = score_key(run.score, score_precision(config, "trec"))
    result = evaluate_rows(groups, key, True, run.doc, pool_groups, pool.doc,
                           pool.grade, k, config, "trec", "zero")
    run_queries, pool_queries = [str(q) for q in groups.labels], [str(q) for q in pool_groups.labels]
    queries = every_query(run_queries, pool_queries)
    judged = set(pool_queries)
    return RunSummary(summary_table(result, queries), queries, queries[len(run_queries):],
                   [q for q in run_queries if q not in judged])


def _keys(groups: Groups, rows: Rows, skip: int) -> np.ndarray:
    """The rows' (query, doc) keys, as `load` makes them for its check of repeated pairs."""
    return pair_keys(groups.codes, hash_strings(rows.doc, skip), in_place=True)


def _starts_like_a_run(path: str | Path) -> bool:
    """Whether the file's first bytes are a TREC run's (anything odd: no, and `load` says what)."""
    try:
        head = head_bytes(path, _HEAD)
        return sniff(decode(Path(path), head)) == "trec_run"
    except (OSError, InputError, ValueError):
        return False
