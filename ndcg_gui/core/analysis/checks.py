"""Check the input before trusting a number: what in a run and its qrels makes tools disagree.

Each check gives a count, a few examples and whether it can change a figure (then `ndcg-inspect
check` exits with status 1). The run and qrels are the raw rows, in file order, before the loader
refuses repeats or orders anything (`raw_frames` reads them so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_gui.core.formats.source import read_source
from ndcg_gui.core.reading import dispatch

N_EXAMPLES = 3


@dataclass(frozen=True)
class Finding:
    """One check: `count` cases (0: nothing found), up to three `examples`, and whether such a
    case can change a figure (`changes_figure`), which tools would then disagree on."""

    name: str
    count: int
    examples: tuple[str, ...]
    changes_figure: bool
    why: str

    def line(self) -> str:
        mark = "!" if self.count and self.changes_figure else "·" if self.count else "ok"
        text = f"{mark:2} {self.name}: {self.count}"
        if self.count:
            text += f" ({'; '.join(self.examples)}{'…' if self.count > len(self.examples) else ''})"
            text += f" — {self.why}"
        return text


def check(run: pd.DataFrame, qrels: pd.DataFrame | None = None, k: int | None = 10) -> list[Finding]:
    """Every check on `run` (columns query, doc; score, rank, grade when the file has them) and
    `qrels` (query, doc, grade), rows in file order."""
    run = run.assign(query=run["query"].astype(str), doc=run["doc"].astype(str))
    if qrels is not None:
        qrels = qrels.assign(query=qrels["query"].astype(str), doc=qrels["doc"].astype(str))
    judgments = qrels if qrels is not None else run[run["grade"].notna()] if "grade" in run else None
    return [
        _duplicates(run),
        _ties_across_k(run, qrels, k),
        _ranks_against_scores(run),
        *_one_side(run, qrels),
        _negative(judgments),
        _no_relevant(run, judgments),
        _all_equal(run),
        _near_ids(run, qrels),
    ]


def would_change(findings: list[Finding]) -> bool:
    """Whether any finding can change a figure (the exit status of `ndcg-inspect check`)."""
    return any(f.count and f.changes_figure for f in findings)


# --- the checks ---------------------------------------------------------------------------------


def _duplicates(run: pd.DataFrame) -> Finding:
    repeated = run[run.duplicated(["query", "doc"], keep="first")]
    pairs = repeated[["query", "doc"]].head(N_EXAMPLES).itertuples(index=False)
    examples = tuple(f"{q}: {d}" for q, d in pairs)
    return Finding("duplicate documents", len(repeated), examples, True,
                   "tools keep the first, the last, or refuse the run (this program refuses it)")


def _ties_across_k(run: pd.DataFrame, qrels: pd.DataFrame | None, k: int | None) -> Finding:
    if "score" not in run or k is None:
        return Finding("ties across the cut-off", 0, (), True, "")
    crossing = []
    for query, rows in run.groupby("query", sort=False):
        scores = np.sort(rows["score"].to_numpy(dtype=float))[::-1]
        if len(scores) > k and scores[k - 1] == scores[k]:
            tied = int((scores == scores[k - 1]).sum())
            crossing.append(f"{query}: {tied} documents tie with score {scores[k - 1]:g} at rank {k}")
    return Finding("ties across the cut-off", len(crossing), tuple(crossing[:N_EXAMPLES]), True,
                   "which of them count depends on the tie rule (see the tie range)")


def _ranks_against_scores(run: pd.DataFrame) -> Finding:
    if "score" not in run or "rank" not in run:
        return Finding("ranks that disagree with scores", 0, (), True, "")
    bad = []
    for query, rows in run.groupby("query", sort=False):
        by_rank = rows.sort_values("rank", kind="stable")["score"].to_numpy(dtype=float)
        rises = np.flatnonzero(by_rank[1:] > by_rank[:-1])
        if len(rises):
            r = rows.sort_values("rank", kind="stable")["rank"].to_numpy()
            i = rises[0]
            bad.append(f"{query}: rank {r[i + 1]:g} has score {by_rank[i + 1]:g} "
                       f"> rank {r[i]:g}'s {by_rank[i]:g}")
    return Finding("ranks that disagree with scores", len(bad), tuple(bad[:N_EXAMPLES]), True,
                   "trec_eval ranks by score, other tools by the rank column or the file order")


def _one_side(run: pd.DataFrame, qrels: pd.DataFrame | None) -> list[Finding]:
    if qrels is None:
        return []
    run_q, qrels_q = set(run["query"]), set(qrels["query"])
    only_run = sorted(run_q - qrels_q)
    only_qrels = sorted(qrels_q - run_q)
    return [
        Finding("queries only in the run", len(only_run), tuple(only_run[:N_EXAMPLES]), True,
                "left out by trec_eval, counted as 0 by tools that average over the run's queries"),
        Finding("queries only in the qrels", len(only_qrels), tuple(only_qrels[:N_EXAMPLES]), True,
                "scored 0 with trec_eval -c (and this program), left out without -c"),
    ]


def _negative(judgments: pd.DataFrame | None) -> Finding:
    if judgments is None:
        return Finding("negative grades", 0, (), True, "")
    neg = judgments[judgments["grade"] < 0]
    examples = tuple(f"{q}: {d} = {g:g}" for q, d, g in neg[["query", "doc", "grade"]].head(N_EXAMPLES)
                     .itertuples(index=False))
    return Finding("negative grades", len(neg), examples, True,
                   "trec_eval counts them 0 (and drops them from condensed lists), others keep them")


def _no_relevant(run: pd.DataFrame, judgments: pd.DataFrame | None) -> Finding:
    if judgments is None:
        return Finding("queries without a relevant document", 0, (), True, "")
    best = judgments.groupby("query")["grade"].max()
    none = sorted(best.index[best <= 0].astype(str))
    return Finding("queries without a relevant document", len(none), tuple(none[:N_EXAMPLES]), True,
                   "IDCG = 0: scored 0 (trec_eval, XGBoost ndcg-), 1 (XGBoost ndcg, LightGBM), or left out")


def _all_equal(run: pd.DataFrame) -> Finding:
    if "score" not in run:
        return Finding("lists whose scores are all equal", 0, (), False, "")
    stats = run.groupby("query", sort=False)["score"].agg(["nunique", "size"])
    flat = stats.index[(stats["nunique"] == 1) & (stats["size"] > 1)].astype(str).tolist()
    return Finding("lists whose scores are all equal", len(flat), tuple(flat[:N_EXAMPLES]), True,
                   "the whole order is the tie rule's: docno (trec_eval), file order, or averaged")


_SPACES = re.compile(r"\s+")


def _key(text: str) -> str:
    return _SPACES.sub(" ", text.strip()).casefold()


def _near_ids(run: pd.DataFrame, qrels: pd.DataFrame | None) -> Finding:
    """Ids (queries; documents of a query) that differ only by case or spaces."""
    found: list[str] = []
    frames = [run] + ([qrels] if qrels is not None else [])
    queries = pd.unique(np.concatenate([f["query"].to_numpy(dtype=object) for f in frames]))
    found += _collisions(queries, "query ")
    pairs = pd.concat([f[["query", "doc"]] for f in frames]).drop_duplicates()
    for query, rows in pairs.groupby(pairs["query"].map(_key), sort=False):
        found += _collisions(rows["doc"].unique(), f"{query}: ")
    return Finding("ids that differ only by case or spaces", len(found), tuple(found[:N_EXAMPLES]), True,
                   "an exact join treats them as different documents: a judged one reads as unjudged")


def _collisions(ids, prefix: str) -> list[str]:
    groups: dict[str, list[str]] = {}
    for text in ids:
        groups.setdefault(_key(str(text)), []).append(str(text))
    return [prefix + " vs ".join(repr(t) for t in same) for same in groups.values() if len(same) > 1]


# --- reading ------------------------------------------------------------------------------------


def raw_frames(path: str | Path, qrels: str | Path | None = None
               ) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The run's and the qrels' rows as written, in file order (nothing refused or ordered):
    query, doc and whichever of score, rank, grade the file has."""
    def frame(source_path, pool: bool) -> pd.DataFrame:
        source = read_source(source_path)
        kind = dispatch.sniff(source)
        rows = dispatch.read_pool(source, kind, None)[0] if pool else dispatch._with_ids(
            dispatch._read_rows(source, kind, False, None)[0])
        columns = {"query": rows.query.to_pandas().astype(str), "doc": rows.doc.to_pandas().astype(str)}
        for name in ("score", "rank", "grade"):
            values = getattr(rows, name)
            if values is not None:
                columns[name] = pd.Series(values, dtype=float)
        order = np.argsort(rows.record, kind="stable")
        return pd.DataFrame(columns).iloc[order].reset_index(drop=True)

    return frame(path, False), (frame(qrels, True) if qrels is not None else None)
