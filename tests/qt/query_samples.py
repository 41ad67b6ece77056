"""The shipped multi-query sample (a TREC run of 26 queries and its qrels), read plainly with pandas
so the query tests do not depend on the readers (tested on their own)."""

import pandas as pd

from ndcg_gui.assets import resource_path

RUN_COLUMNS = ["query", "Q0", "doc", "rank", "score", "tag"]
QRELS_COLUMNS = ["query", "iter", "doc", "grade"]


def sample_frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(run with query, doc, score; qrels with query, doc, grade)."""
    text = {"query": str, "doc": str}
    with resource_path("examples/sample.run") as run_path, resource_path("examples/sample.qrels") as qp:
        run = pd.read_csv(run_path, sep=" ", header=None, names=RUN_COLUMNS, dtype=text)
        qrels = pd.read_csv(qp, sep=" ", header=None, names=QRELS_COLUMNS, dtype=text)
    return run[["query", "doc", "score"]], qrels[["query", "doc", "grade"]]
