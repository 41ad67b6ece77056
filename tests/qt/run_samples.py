"""Runs to compare: the shipped sample run and qrels copied to a folder, a second run of the same
topics made from it (scores perturbed, some relevant documents pushed up, one query left out, judged
documents the first run missed brought in), and the figures of any runs recomputed from scratch
with `evaluate` on plain frames (files read by pandas, the open run's lists one by one), not
through the readers, `Dataset` or the comparison."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_gui.assets import resource_path
from ndcg_gui.core.ndcg.evaluate import evaluate

RUN_COLUMNS = ["query", "Q0", "doc", "rank", "score", "tag"]
QRELS_COLUMNS = ["query", "iter", "doc", "grade"]


def copy_sample(folder: Path) -> tuple[Path, Path]:
    paths = []
    for name in ("sample.run", "sample.qrels"):
        with resource_path(f"examples/{name}") as p:
            (folder / name).write_bytes(p.read_bytes())
        paths.append(folder / name)
    return paths[0], paths[1]


def read_run(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep=r"\s+", header=None, names=RUN_COLUMNS, dtype={"query": str, "doc": str})


def read_qrels(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep=r"\s+", header=None, names=QRELS_COLUMNS, dtype={"query": str, "doc": str})


def write_second_run(run_path: Path, qrels_path: Path, out: Path, seed: int = 13, drop: str = "404") -> Path:
    """Another run of the same topics, `drop` left out (a judged query it returns nothing for)."""
    rng = np.random.default_rng(seed)
    run, qrels = read_run(run_path), read_qrels(qrels_path)
    grade = dict(zip(zip(qrels["query"], qrels["doc"], strict=True), qrels["grade"], strict=True))
    lines = []
    for query, part in run.groupby("query", sort=False):
        if query == drop:
            continue
        docs, scores = list(part["doc"]), list(part["score"])
        missed = [d for (q, d), g in grade.items() if q == query and g > 0 and d not in docs][:2]
        docs += missed
        scores = np.array(scores + [min(scores) - 1] * len(missed), float) + rng.normal(0, 1.2, len(docs))
        for i, d in enumerate(docs):
            if grade.get((query, d), 0) > 0 and rng.random() < 0.35:
                scores[i] += rng.uniform(1, 5)
        order = np.argsort(-scores, kind="stable")
        lines += [f"{query} Q0 {docs[i]} {r} {scores[i]:.4f} second" for r, i in enumerate(order[:-1], 1)]
    out.write_text("\n".join(lines) + "\n")
    return out


def document_judgments(document) -> pd.DataFrame:
    """Every judgment of the open document, grade edits included, as a qrels frame."""
    rows = [(q, d, g) for q in document.queries() for d, g in document.list_for(q).judgments().items()]
    return pd.DataFrame(rows, columns=["query", "doc", "grade"])


def open_run_ndcg(document) -> pd.Series:
    """NDCG@k of each judged query of the open run, each list (edits included) scored on its own
    as the window shows it: by position, neighbours with equal scores sharing their gains under
    "average"; against its judged pool, or (a list typed in, with no pool) its own grades."""
    values = {}
    for query in document.queries():
        lst = document.list_for(query)
        judgments = lst.judgments()
        if not judgments:
            continue
        run = pd.DataFrame({"query": query, "doc": lst.docs.astype(str), "rank": range(1, len(lst) + 1)})
        ties = "file"
        if document.measure.ties == "average" and lst.scores is not None and len(lst):
            # scikit-learn's averaging over the ties of the list as it stands: scores that keep
            # its order and tie exactly the neighbours with equal scores (a missing one ties none).
            changes = np.concatenate([[True], lst.scores[1:] != lst.scores[:-1]])
            run, ties = run.drop(columns="rank").assign(score=-np.cumsum(changes).astype(float)), "average"
        qrels = pd.DataFrame({"query": query, "doc": list(judgments), "grade": list(judgments.values())})
        if not lst.has_pool:
            run, qrels = run.assign(grade=lst.grades), None
        values[query] = evaluate(run, qrels, document.measure.per_query().with_(ties=ties))["ndcg"].iloc[0]
    return pd.Series(values, dtype=float).sort_index()


def ndcg_from_scratch(document, others: dict[str, Path], open_name: str) -> pd.DataFrame:
    """Per-query NDCG@k of the open run and of other run files, against the document's
    judgments; a judged query a run returned nothing for scores 0."""
    qrels = document_judgments(document)
    frame = pd.DataFrame({open_name: open_run_ndcg(document)})
    for name, path in others.items():
        run = read_run(path)[["query", "doc", "score"]]
        frame[name] = evaluate(run, qrels, document.measure.per_query())["ndcg"]
    frame.index.name = "query"
    return frame


def show_compared(window, qtbot, files, size=(1366, 768)) -> None:
    """The sample run and its qrels open in `window`, the second run compared, shown at `size`."""
    run, qrels, second = files
    assert window.files.open(run, qrels, ask=False)
    window.compare.add_run(second)
    qtbot.waitUntil(lambda: window.comparison.active and window.right_tabs.count() == 2, timeout=10000)
    window.compare.flush()
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
