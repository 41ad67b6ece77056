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

from ndcg_gui.core.analysis.which_preset import frames_of
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.source import read_source
from ndcg_gui.core.ndcg.presets import PRESETS
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
    queries: tuple[str, ...] = ()  # the query each example is of (the window shows it on request)

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
        _fractional(judgments),
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
    pairs = list(pairs)
    examples = tuple(f"{q}: {d}" for q, d in pairs)
    return Finding("duplicate documents", len(repeated), examples, True,
                   "tools keep the first, the last, or refuse the run (this program refuses it)",
                   tuple(q for q, _ in pairs))


def _ties_across_k(run: pd.DataFrame, qrels: pd.DataFrame | None, k: int | None) -> Finding:
    if "score" not in run or k is None:
        return Finding("ties across the cut-off", 0, (), True, "")
    # Each query's scores, highest first (queries in order of appearance): the k-th and the
    # (k+1)-th equal means a tied group crosses the cut-off.
    codes, names = pd.factorize(run["query"])
    order = np.lexsort((-run["score"].to_numpy(dtype=float), codes))
    score, sizes = run["score"].to_numpy(dtype=float)[order], np.bincount(codes, minlength=len(names))
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    long = np.flatnonzero(sizes > k)
    crossing = long[score[starts[long] + k - 1] == score[starts[long] + k]]
    said = []
    for g in crossing[:N_EXAMPLES]:
        at = score[starts[g] + k - 1]
        tied = int((score[starts[g]:starts[g] + sizes[g]] == at).sum())
        said.append(f"{names[g]}: {tied} documents tie with score {at:g} at rank {k}")
    return Finding("ties across the cut-off", len(crossing), tuple(said), True,
                   "which of them count depends on the tie rule (see the tie range)",
                   tuple(str(names[g]) for g in crossing[:N_EXAMPLES]))


def _ranks_against_scores(run: pd.DataFrame) -> Finding:
    if "score" not in run or "rank" not in run:
        return Finding("ranks that disagree with scores", 0, (), True, "")
    # Each query's rows by rank (stable: file order among equal ranks); a score that rises
    # down the ranks is a disagreement, the first of each query said.
    codes, names = pd.factorize(run["query"])
    order = np.lexsort((run["rank"].to_numpy(dtype=float), codes))
    score, rank, code = (run["score"].to_numpy(dtype=float)[order], run["rank"].to_numpy(dtype=float)[order],
                         codes[order])
    rises = np.flatnonzero((code[1:] == code[:-1]) & (score[1:] > score[:-1]))
    first = rises[np.unique(code[rises], return_index=True)[1]]  # (by query, in order of appearance)
    bad = [f"{names[code[i]]}: rank {rank[i + 1]:g} has score {score[i + 1]:g} > rank {rank[i]:g}'s "
           f"{score[i]:g}" for i in first[:N_EXAMPLES]]
    return Finding("ranks that disagree with scores", len(first), tuple(bad), True,
                   "trec_eval ranks by score, other tools by the rank column or the file order",
                   tuple(str(names[code[i]]) for i in first[:N_EXAMPLES]))


def _one_side(run: pd.DataFrame, qrels: pd.DataFrame | None) -> list[Finding]:
    if qrels is None:
        return []
    run_q, qrels_q = set(run["query"].unique()), set(qrels["query"].unique())
    only_run = sorted(run_q - qrels_q)
    only_qrels = sorted(qrels_q - run_q)
    return [
        Finding("queries only in the run", len(only_run), tuple(only_run[:N_EXAMPLES]), True,
                "left out by trec_eval, counted as 0 by tools that average over the run's queries",
                tuple(only_run[:N_EXAMPLES])),
        Finding("queries only in the qrels", len(only_qrels), tuple(only_qrels[:N_EXAMPLES]), True,
                "scored 0 with trec_eval -c (and this program), left out without -c",
                tuple(only_qrels[:N_EXAMPLES])),
    ]


def _negative(judgments: pd.DataFrame | None) -> Finding:
    if judgments is None:
        return Finding("negative grades", 0, (), True, "")
    neg = judgments[judgments["grade"] < 0]
    rows = list(neg[["query", "doc", "grade"]].head(N_EXAMPLES).itertuples(index=False))
    examples = tuple(f"{q}: {d} = {g:g}" for q, d, g in rows)
    return Finding("negative grades", len(neg), examples, True,
                   "trec_eval counts them 0 (and drops them from condensed lists), others keep them",
                   tuple(q for q, _, _ in rows))


def fractional_grades_why() -> str:
    """What each preset does with a fractional grade (from the presets' own definitions), and
    the tools that refuse one."""
    cut = [name for name, p in PRESETS.items() if p.truncate_grades]
    kept = [name for name, p in PRESETS.items() if not p.truncate_grades]
    return (f"the presets {', '.join(cut)} read a grade's whole part as their tools do (trec_eval's "
            f"atol: 2.5 is 2, 0.5 is 0, -0.5 is 0 and judged; written 1e1 it is 1; ranx keeps "
            f"integers); {', '.join(kept)} use it as given; pytrec_eval (ir_measures), XGBoost, "
            f"LightGBM and gdeval refuse it")


def _fractional(judgments: pd.DataFrame | None) -> Finding:
    if judgments is None:
        return Finding("fractional grades", 0, (), True, "")
    grade = judgments["grade"].to_numpy(dtype=float)
    frac = judgments[np.isfinite(grade) & (np.trunc(grade) != grade)]
    rows = list(frac[["query", "doc", "grade"]].head(N_EXAMPLES).itertuples(index=False))
    examples = tuple(f"{q}: {d} = {g:g}" for q, d, g in rows)
    return Finding("fractional grades", len(frac), examples, True, fractional_grades_why(),
                   tuple(q for q, _, _ in rows))


def _no_relevant(run: pd.DataFrame, judgments: pd.DataFrame | None) -> Finding:
    if judgments is None:
        return Finding("queries without a relevant document", 0, (), True, "")
    best = judgments.groupby("query")["grade"].max()
    none = sorted(best.index[best <= 0].astype(str))
    return Finding("queries without a relevant document", len(none), tuple(none[:N_EXAMPLES]), True,
                   "IDCG = 0: scored 0 (trec_eval, XGBoost ndcg-), 1 (XGBoost ndcg, LightGBM), or left out",
                   tuple(none[:N_EXAMPLES]))


def _all_equal(run: pd.DataFrame) -> Finding:
    if "score" not in run:
        return Finding("lists whose scores are all equal", 0, (), False, "")
    stats = run.groupby("query", sort=False)["score"].agg(["nunique", "size"])
    flat = stats.index[(stats["nunique"] == 1) & (stats["size"] > 1)].astype(str).tolist()
    return Finding("lists whose scores are all equal", len(flat), tuple(flat[:N_EXAMPLES]), True,
                   "the whole order is the tie rule's: docno (trec_eval), file order, or averaged",
                   tuple(flat[:N_EXAMPLES]))


_SPACES = re.compile(r"\s+")


def _key(text: str) -> str:
    return _SPACES.sub(" ", text.strip()).casefold()


def _near_ids(run: pd.DataFrame, qrels: pd.DataFrame | None) -> Finding:
    """Ids (queries; documents of a query) that differ only by case or spaces."""
    found: list[tuple[str, str]] = []  # (what is said, the query it is of)
    frames = [run] + ([qrels] if qrels is not None else [])
    queries = pd.unique(np.concatenate([f["query"].to_numpy(dtype=object) for f in frames]))
    found += _collisions(queries, "query ", None)
    pairs = pd.concat([f[["query", "doc"]] for f in frames], ignore_index=True)
    # Only the rows whose document shares its key with another document (anywhere) can say
    # something: found in Arrow's C, which lets go of the GIL (keying every row in Python held
    # it from the window throughout), the rest as before on those few rows.
    pairs = pairs[pairs["doc"].isin(_sharing_a_key(pairs["doc"]))].drop_duplicates()
    pairs = pairs.assign(qk=_keys(pairs["query"]), dk=_keys(pairs["doc"]))
    # Only documents whose key another document of the same query key shares, each text once.
    near = pairs[pairs.duplicated(["qk", "dk"], keep=False)].drop_duplicates(["qk", "dk", "doc"])
    near = near[near.duplicated(["qk", "dk"], keep=False)]
    for _key_pair, rows in near.groupby(["qk", "dk"], sort=False):
        query = str(rows["query"].iloc[0])
        found.append((f"{query}: " + " vs ".join(repr(t) for t in rows["doc"]), query))
    return Finding("ids that differ only by case or spaces", len(found),
                   tuple(text for text, _ in found[:N_EXAMPLES]), True,
                   "an exact join treats them as different documents: a judged one reads as unjudged",
                   tuple(query for _, query in found[:N_EXAMPLES]))


_SPACE = r"[\t-\r\x1c-\x1f ]"  # what `str.isspace` calls a space, among ASCII characters


def _sharing_a_key(texts: pd.Series) -> list[str]:
    """The distinct `texts` whose `_key` another distinct text has too."""
    import pyarrow as pa  # lazy: start-up
    import pyarrow.compute as pc  # lazy: start-up

    unique = pc.unique(pa.array(texts.astype(str).to_numpy(dtype=object), pa.string())
                       if texts.dtype == object else pa.array(texts.astype(str)))
    # ASCII texts keyed in C (their case folding is lowering); the others in Python.
    keys = pc.utf8_lower(unique)
    spaced = pc.match_substring_regex(keys, _SPACE)
    if pc.any(spaced).as_py():  # (most ids have no space: the slower replacing only for those)
        some = pc.replace_substring_regex(pc.replace_substring_regex(
            keys.filter(spaced), f"^{_SPACE}+|{_SPACE}+$", ""), f"{_SPACE}+", " ")
        keys = pc.replace_with_mask(keys, spaced, some)
    other = pc.invert(pc.string_is_ascii(unique))
    if pc.any(other).as_py():
        rest = [_key(t) for t in unique.filter(other).to_pylist()]
        keys = pc.replace_with_mask(keys, other, pa.array(rest, keys.type))
    counts = pc.value_counts(keys)
    shared = counts.field("values").filter(pc.greater(counts.field("counts"), 1))
    return unique.filter(pc.is_in(keys, value_set=shared)).to_pylist() if len(shared) else []


def _keys(texts: pd.Series) -> pd.Series:
    """`_key` of every text (trimmed, inner spaces one, case folded), for a whole column."""
    return texts.astype(str).str.strip().str.replace(r"\s+", " ", regex=True).str.casefold().to_numpy()


def _collisions(ids, prefix: str, query: str | None) -> list[tuple[str, str]]:
    """Each group of `ids` equal but for case and spaces, said with `prefix`, and the query it is
    of (`query`, or the group's first id when the ids are queries)."""
    groups: dict[str, list[str]] = {}
    for text in ids:
        groups.setdefault(_key(str(text)), []).append(str(text))
    return [(prefix + " vs ".join(repr(t) for t in same), query if query is not None else same[0])
            for same in groups.values() if len(same) > 1]


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


def input_frames(dataset, path: str | Path | None = None, qrels: str | Path | None = None
                 ) -> tuple[pd.DataFrame, pd.DataFrame | None, bool]:
    """The rows to check of an open document: as written (`raw_frames`: repeats and a rank column
    kept) when `path` is a regular file that still reads, else as loaded (`dataset`, a
    `core.lists.dataset.Dataset`: a typed list, a pipe read once). The third value says which
    (True: the file as written)."""
    frames = _as_written(path, qrels)
    if frames is not None:
        return (*frames, True)
    return (*frames_of(dataset), False)


def file_findings(path: str | Path, qrels: str | Path | None, k: int | None) -> list[Finding] | None:
    """The findings of the files as written (`raw_frames`), or None when they do not read so (a
    pipe, a file read with options of its own): then the lists as loaded are checked."""
    frames = _as_written(path, qrels)
    return None if frames is None else check(*frames, k)


def _as_written(path, qrels) -> tuple[pd.DataFrame, pd.DataFrame | None] | None:
    if path is not None and Path(path).is_file() and (qrels is None or Path(qrels).is_file()):
        try:
            return raw_frames(path, qrels)
        except (InputError, OSError, ValueError, KeyError):  # (read with options of its own)
            pass
    return None
