"""What the direct path (`reading.direct.summarise`, `evaluate_rows`) holds while it scores a big run:
temporaries of a few rows, not copies of whole columns (the command's peak of memory, issue 36)."""

import numpy as np
import pyarrow as pa

from ndcg_gui.core.arrays.ids import Groups
from ndcg_gui.core.ndcg.evaluate import evaluate_rows
from ndcg_gui.core.ndcg.presets import PRESETS

# Counts what Arrow makes through it; kept for the whole session, as every array made through it
# refers to it until freed.
COUNTED = pa.proxy_memory_pool(pa.default_memory_pool())
COUNTED_RUN = pa.proxy_memory_pool(pa.default_memory_pool())  # (one a test: each its own maximum)


def test_ties_at_the_kth_place_take_those_rows_doc_ids_not_a_joined_copy_of_the_column():
    # A ranked run parsed in pieces (its doc column chunked), each list tied across its 10th place.
    n_queries, size = 400, 500
    query = pa.chunked_array([pa.array([f"q{q}" for q in range(n_queries) for _ in range(size)])])
    docs = [f"doc-{q}-{i:05d}" for q in range(n_queries) for i in range(size)]
    half = len(docs) // 2
    doc = pa.chunked_array([pa.array(docs[:half]), pa.array(docs[half:])])
    key = np.tile(np.concatenate([np.arange(size, 0, -1)[:8], [1.0] * 4, -np.arange(size - 12.0)]),
                  n_queries).astype(float)
    pool_query = pa.array([f"q{q}" for q in range(n_queries)])
    pool_doc = pa.array([f"doc-{q}-00009" for q in range(n_queries)])
    grade = np.ones(n_queries)
    groups, pool_groups = Groups.of(query.chunk(0)), Groups.of(pool_query)
    measure = PRESETS["trec_eval"].at(10).per_query()
    before = pa.default_memory_pool()
    pa.set_memory_pool(COUNTED)
    try:
        table = evaluate_rows(groups, key, True, doc, pool_groups, pool_doc, grade, measure)
    finally:
        pa.set_memory_pool(before)
    # trec_eval breaks the tie by doc id, descending: of the four tied (ids 8-11), 11 and 10 are in
    # the first 10, so the one relevant document (9) is not.
    assert (table["ndcg"] == 0).all() and len(table) == n_queries
    assert COUNTED.max_memory() < doc.nbytes / 10


def test_a_plain_run_is_never_whole_in_memory_while_it_is_scored(tmp_path, monkeypatch):
    # Long lines (long ids and tag), so the file's bytes outweigh the arrays of a value a row.
    import tracemalloc

    from ndcg_gui.core.formats import trec_text
    from ndcg_gui.core.reading.direct import summarise

    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    tag = "a-run-tag-long-enough-to-weigh-" + "x" * 60
    with run.open("w") as f:
        for q in range(200):
            for i in range(100):
                f.write(f"query-{q} Q0 clueweb12-0000tw-{q:04d}-{i:05d} {i + 1} {100 - i}.25 {tag}\n")
    qrels.write_text("".join(f"query-{q} 0 clueweb12-0000tw-{q:04d}-00003 1\n" for q in range(200)))
    monkeypatch.setattr(trec_text, "_PIECE", 1 << 16)  # pieces far smaller than the file
    measure = PRESETS["trec_eval"].at(10)
    summarise(run, qrels, measure)  # (imports and caches first)
    tracemalloc.start()
    try:
        summary = summarise(run, qrels, measure)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert summary is not None and (summary.table["ndcg"] > 0).all()
    assert peak < run.stat().st_size / 3


def _short_run(tmp_path, queries: int = 2000, docs: int = 100):
    """A ranked run of short lines (where the arrays of a value a row outweigh the file's bytes)
    and one judgment a query."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    with run.open("w") as f:
        for q in range(queries):
            f.write("".join(f"{q} Q0 D{q * 1000 + i} {i + 1} {(docs - i) / 7:.3f} t\n" for i in range(docs)))
    qrels.write_text("".join(f"{q} 0 D{q * 1000 + 3} 1\n" for q in range(queries)))
    return run, qrels, queries * docs


def test_the_direct_path_holds_each_column_once_and_its_scores_at_ranking_precision(tmp_path, monkeypatch):
    # Numbers made numpy a piece at a time (no whole Arrow column of scores beside numpy's), the
    # scores read at the precision trec_eval's rule ranks at (float32), the query text let go once
    # grouped, the key made once the pair keys are gone. The two peaks (numpy's, traced; Arrow's,
    # through a counting pool) bound what is held at once: 62 bytes a row before, 51 after.
    import tracemalloc

    from ndcg_gui.core.formats import trec_text
    from ndcg_gui.core.reading.direct import summarise

    run, qrels, rows = _short_run(tmp_path)
    monkeypatch.setattr(trec_text, "_PIECE", 1 << 16)  # pieces far smaller than the file
    measure = PRESETS["trec_eval"].at(10)
    expected = summarise(run, qrels, measure)  # (imports and caches first)
    before = pa.default_memory_pool()
    pa.set_memory_pool(COUNTED_RUN)
    tracemalloc.start()
    try:
        summary = summarise(run, qrels, measure)
        numpy_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        pa.set_memory_pool(before)
    assert summary is not None and summary.table.equals(expected.table) and len(summary.table) == 2000
    assert (numpy_peak + COUNTED_RUN.max_memory()) / rows < 56
