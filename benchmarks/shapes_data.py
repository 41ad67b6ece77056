"""The seeded TREC runs and qrels of issue 36's shapes, made once in benchmarks/.data/ and kept.

Each query retrieves `docs` documents (ids drawn without repeats from a corpus ten times the
list within ten million, MS MARCO-like `D1234567` texts), scored with three decimals (gamma
distributed: long lists have many ties, short ones a few) and written in descending score order
with ranks, as TREC runs are. 12 % of the retrieved documents are judged
(grades 0-3) and every query has one relevant document it did not retrieve.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / ".data"


def _doc_names(numbers: np.ndarray):
    """MS MARCO-like ids (`D` and the document's number) as an Arrow array of text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pc.binary_join_element_wise("D", pa.array(numbers.astype(np.int64)).cast(pa.string()), "")


def _joined(*parts):
    import pyarrow as pa

    chunks = [c for p in parts for c in (p.chunks if isinstance(p, pa.ChunkedArray) else [p])]
    return pa.chunked_array([c.cast(pa.string()) for c in chunks])


def make_shape(queries: int, docs: int, seed: int = 36, folder: Path = DATA) -> tuple[Path, Path]:
    """(run, qrels) paths of `queries` queries x `docs` documents, written once."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    run_path = folder / f"shape-{queries}x{docs}.run"
    qrels_path = folder / f"shape-{queries}x{docs}.qrels"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    n = queries * docs
    corpus = docs * 10
    # Distinct documents per query without a Python loop: a random offset and a stride
    # co-prime with the corpus size walk distinct residues.
    offset = rng.integers(0, corpus, size=queries)
    stride = 7919 if corpus % 7919 else 7907
    doc_no = (offset[:, None] + np.arange(docs)[None, :] * stride) % corpus
    doc_no = doc_no.ravel() + np.repeat(rng.integers(0, max(10**7 // corpus, 1), size=queries), docs) * corpus
    score = np.round(rng.gamma(2.0, 3.0, size=(queries, docs)), 3)
    score = -np.sort(-score, axis=1).ravel()
    qid = (np.arange(queries) + 1001).astype(str)
    query = pa.array(np.repeat(qid, docs))
    names = _doc_names(doc_no)
    run = pa.table({"q": query, "q0": pa.array(np.full(n, "Q0")), "d": names,
                    "r": pa.array(np.tile(np.arange(1, docs + 1), queries)),
                    "s": pa.array(score).cast(pa.string()), "t": pa.array(np.full(n, "bench"))})
    options = pa_csv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pa_csv.write_csv(run, run_path, options)

    judged = rng.random(n) < 0.12
    grades = rng.integers(0, 4, size=n)
    missing = _doc_names(np.arange(queries) + 2 * 10**9)  # one relevant document per query, not retrieved
    qrels = pa.table({
        "q": _joined(query.filter(pa.array(judged)), pa.array(qid)),
        "z": pa.array(np.full(int(judged.sum()) + queries, "0")),
        "d": _joined(names.filter(pa.array(judged)), missing),
        "g": pa.array(np.concatenate([grades[judged], rng.integers(1, 4, size=queries)])),
    })
    row_query = np.concatenate([np.repeat(np.arange(queries), docs)[judged], np.arange(queries)])
    order = np.argsort(row_query, kind="stable")  # grouped by query, as qrels files are
    pa_csv.write_csv(qrels.take(pa.array(order)), qrels_path, options)
    return run_path, qrels_path
