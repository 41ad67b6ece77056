"""A TREC run scored against its qrels straight from the parsed rows, without a `Dataset`: the
per-query summary of `ndcg-inspect RUN --qrels QRELS` (its lines, or `--summary-csv`).

`load` joins every row to its judgment, ranks every list and builds a dataset a window can edit;
NDCG@k needs only each query's first k rows (`core.ndcg.evaluate`), a large share of the command's time
on a big run (`benchmarks/bench_load.py`, section 2). The files are read and checked by
`load`'s own steps in its order, so a bad file gets the same message, and scored by `evaluate` as
`Dataset.evaluate` scores a loaded run: the same rows in the same order (trec_eval's tie rule is
the order `load` ranks by), so the same numbers. Other tie rules score a loaded dataset's own order,
and go through `load`. `tests/test_cli_direct.py` compares the two ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ndcg_gui.core.arrays.ids import Groups, hash_strings, shared_prefix
from ndcg_gui.core.arrays.join import label_union, pair_keys
from ndcg_gui.core.arrays.order import score_key
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats import trec_text
from ndcg_gui.core.formats.rows import Rows
from ndcg_gui.core.formats.source import decode, head_bytes, read_source
from ndcg_gui.core.lists.dataset import summary_frame
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading.dispatch import read_pool, refuse_repeats, sniff

if TYPE_CHECKING:
    import pandas as pd

_HEAD = 1 << 16  # `sniff` reads no further


@dataclass(frozen=True)
class RunSummary:
    """What the command line reports of a run and its qrels, as a loaded `Dataset` says it."""

    table: pd.DataFrame  # `Dataset.summary(measure)`
    queries: list[str]  # `Dataset.queries()`
    without_results: list[str]  # `Dataset.queries_without_results()`
    unjudged: list[str]  # `Dataset.unjudged_queries()`


def summarise(path: str | Path, qrels: str | Path, measure: Measure) -> RunSummary | None:
    """The summary under `measure` (whose tie rule is trec_eval's), or None when it is another
    rule or `path` is not a TREC run (then `load` reads it). Raises `InputError` as
    `load(path, qrels)` would."""
    if measure.ties != "trec" or not _starts_like_a_run(path):
        return None
    # Most runs are parsed as they are read (never whole in memory); the others read whole, as
    # `load` reads them, so their messages come in its order (the run's bytes, the qrels, the
    # run's lines).
    single = measure.score_precision == "float32"  # (scores kept as the ranking compares them)
    run = trec_text.read_plain_run(path, np.float32 if single else np.float64)
    if run is None:
        source = read_source(path)
        if sniff(source) != "trec_run":  # (the first bytes misled: a rare file)
            return None
    qsource = read_source(qrels)
    pool, _ = read_pool(qsource, sniff(qsource), None)
    qsource.release()
    if run is None:
        run = trec_text.read_run(source)
        source.release()
    groups, pool_groups = Groups.of(run.query), Groups.of(pool.query)
    run.query = _coded(groups)  # (its text let go: the codes say it, for a message)
    skip = shared_prefix(run.doc, pool.doc)
    # `load`'s checks, in its order: grouped rows are in `ranked` order as far as queries go.
    run_keys = _keys(groups, run, skip)
    refuse_repeats(run, groups.codes, "run", run_keys, ranked_rows=groups.starts is not None)

    from ndcg_gui.core.ndcg.evaluate import (  # lazy: start-up (pandas: imported meanwhile by the caller)
        evaluate_rows,
        scores_every_row,
    )

    measure = measure.per_query()
    # The run's keys kept for the join when every row is joined (lists no longer than k), in a
    # list `evaluate_rows` empties; otherwise let go now, before the scoring's peak.
    kept = [run_keys] if scores_every_row(groups, measure, judged=True) else None
    del run_keys
    docs, score = run.doc, run.score
    del run  # its query codes, scores and line numbers, past its checks: let go before the scoring
    # (scores read as float32 are the key itself: made float64 without a third copy in between)
    key = score.astype(np.float64) if score.dtype == np.float32 else score_key(score, measure.score_precision)
    del score
    refuse_repeats(pool, pool_groups.codes, "qrels", _keys(pool_groups, pool, skip))
    # The queries in `Dataset.queries()` order (`every_query`: the run's, then the judged ones it
    # lacks), the labels matched once: scored in that order, the summary needs no sort or lookup
    # of 300,000 labels (benchmarks/README.md, issue 36).
    queries, (to_query, qr_to_query) = label_union(groups.labels, pool_groups.labels)
    result = evaluate_rows(groups, key, True, docs, pool_groups, pool.doc, pool.grade, measure,
                           union=(queries, to_query, qr_to_query),
                           run_keys=None if kept is None else (kept, skip))
    n_run = len(groups.labels)
    judged = np.zeros(n_run, bool)
    judged[qr_to_query[qr_to_query < n_run]] = True
    listed = queries.tolist()
    return RunSummary(summary_frame(result), listed, listed[n_run:], groups.labels[~judged].tolist())


def _coded(groups: Groups) -> pa.DictionaryArray:
    """The rows' query ids as the codes of `groups` into its labels: the same values (a message
    names them) in a few bytes a row, sharing the codes' memory."""
    return pa.DictionaryArray.from_arrays(pa.array(groups.codes), pa.array(groups.labels, pa.string()))


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
