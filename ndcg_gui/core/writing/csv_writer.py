"""Ranked lists as CSV text.

A loaded CSV is written in its own format: the records of unedited queries byte for byte, and an
edited query's rows rewritten with the file's delimiter, quoting, decimal comma and extra columns,
only the changed cells written anew (`core.writing.rewrite`). Anything else (a typed list, a TREC run saved
as CSV, a CSV that cannot hold the edits) gets the standard layout: query (when named), rank, doc,
grade, score, then the extra columns.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from ndcg_gui.core.formats.csv_text import unquote
from ndcg_gui.core.formats.file_format import FileChanged, FileFormat
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.numbers import number_text
from ndcg_gui.core.writing.rewrite import (
    Records,
    cells,
    field_positions,
    file_bytes,
    joined,
    rewritten_queries,
)
from ndcg_gui.core.writing.trec_writer import out_of_trec_order, rescored_scores

_GENERATED_DOC = re.compile(r"d[1-9][0-9]*")
_NUMBER_ROLES = ("grade", "score", "rank")


def csv_bytes(dataset: Dataset, queries: Sequence[str] | None = None, rank: bool = False) -> bytes:
    """The dataset as CSV bytes, in the loaded file's format when it can hold the lists (and, with
    `rank`, has a rank column: else the standard layout, whose rank column keeps every order)."""
    own = dataset.file_format
    if (queries is None and own is not None and own.kind == "csv" and (not rank or "rank" in own.columns)
            and _fits(dataset, own)):
        try:
            return _in_own_format(dataset, own)
        except FileChanged:  # the loaded file is not there as it was: every line anew
            pass
    return _standard(dataset, own if own is not None and own.kind == "csv" else None, queries)


def keeps_order_by_scores(dataset: Dataset) -> bool:
    """Whether a CSV save writes the loaded file's own layout with a score column and no rank
    column: the order is then the scores', and a reordered list gets scores n, n-1, … 1 (any
    other CSV save writes a rank column and keeps the scores)."""
    own = dataset.file_format
    return (own is not None and own.kind == "csv" and "score" in own.columns and "rank" not in own.columns
            and _fits(dataset, own))


def _fits(dataset: Dataset, own: FileFormat) -> bool:
    """Whether the file's columns can hold the lists as they are now (a header-less list of grades
    cannot hold a document id that someone typed; a file without a query column, a second query)."""
    roles = set(own.columns)
    run = dataset.run
    if "query" not in roles and (run["query"] != "").any():
        return False
    if "grade" not in roles and not dataset.has_pool:
        return False
    if "doc" not in roles and not run["doc"].astype(str).str.fullmatch(_GENERATED_DOC).all():
        return False  # documents are named d1, d2… by position when read back
    if own.blank_rows and own.header is None and len(run) and np.isnan(run["grade"].iloc[0]):
        return False  # a blank first line is not read as a row: an unjudged first document needs a header
    for name in dataset.extra_columns[own.columns.count(""):]:  # columns the file does not have
        if (run[name].astype(str) != "").any():
            return False
    if own.delimiter is None:  # fields split on spaces: a text with a space or an empty one cannot be
        texts = [run[c].astype(str) for c in ("query", "doc") if c in roles]
        texts += [run[c].astype(str) for c in dataset.extra_columns[: own.columns.count("")]]
        # (as the reader splits them, `source.split_whitespace` and `lines`: at spaces, tabs and
        # line breaks only; `\s` also took a control character such as \x1f, which it keeps)
        return not any((t.str.contains(r"[ \t\r\n]") | (t == "")).any() for t in texts if len(t))
    return True


# ---- the file's own format ----------------------------------------------------------------------
def _in_own_format(dataset: Dataset, own: FileFormat) -> bytes:
    records = Records(own)
    style = _Style.of(own, records)
    present = set(dataset.queries())
    blocks = {
        query: _query_lines(dataset, query, own, records, style) if query in present else []
        for query in rewritten_queries(dataset.queries(), dataset.edited, own)
    }
    return file_bytes(own, records, blocks)


class _Style:
    """How new cells are written in one file."""

    def __init__(self, delimiter: str | None, quote_all: bool = False, decimal_comma: bool = False,
                 separator: str = " ") -> None:
        self.delimiter = delimiter
        self.quote_all = quote_all
        self.decimal_comma = decimal_comma
        self.separator = delimiter if delimiter is not None else separator  # between new fields

    @classmethod
    def of(cls, own: FileFormat, records: Records) -> _Style:
        first = records.text(0) or ""
        return cls(own.delimiter, own.quote_all, own.decimal_comma, "\t" if "\t" in first else " ")

    def number(self, value: float, integer: bool = False) -> str:
        text = str(int(value)) if integer else number_text(value)
        return text.replace(".", ",") if self.decimal_comma else text

    def quoted(self, text: str, force: bool = False) -> str:
        d = self.delimiter
        needs = (
            force or self.quote_all or '"' in text or "\n" in text or "\r" in text or text != text.strip()
            or (d is not None and d in text) or (d is None and (text == "" or any(c in text for c in " \t")))
        )
        return '"' + text.replace('"', '""') + '"' if needs else text


def _query_lines(dataset: Dataset, query: str, own: FileFormat, records: Records, style: _Style) -> list[str]:
    rl = dataset.ranked_list(query)
    n = len(rl)
    roles = own.columns
    scores = rl.scores
    rows = range(n)
    if "score" in roles and "rank" not in roles:  # the order is the scores': they must give it
        if _scores_rank_it(rl):
            rows = np.argsort(rl.origin, kind="stable")  # the lines where they were
        else:
            scores = _scores_in_order(rl.docs, rl.scores if rl.scores is not None else np.full(n, np.nan))
    extras = [name for name in dataset.extra_columns][: roles.count("")]
    lines = []
    for i in rows:
        values = {
            "query": query,
            "doc": str(rl.docs[i]),
            "grade": float(rl.grades[i]),
            "score": float(scores[i]) if scores is not None else math.nan,
            "rank": float(i + 1),
        }
        row_extras = [str(rl.extras[name][i]) if name in rl.extras else "" for name in extras]
        origin = int(rl.origin[i]) if rl.origin is not None else -1
        lines.append(_line(records.text(origin) if origin >= 0 else None, roles, values, row_extras, style))
    return lines


def _scores_rank_it(rl) -> bool:
    """Whether the file's own scores still rank the list as it stands, with every row from the
    file: high first, tied rows in trec_eval's order or the file's. Then the lines are written in
    the file's order with their scores (only the edited cells change), and either tie rule reads
    the list back as it was."""
    if rl.scores is None or rl.origin is None or not len(rl):
        return False
    scores, origin = np.asarray(rl.scores, dtype=float), np.asarray(rl.origin)
    if np.isnan(scores).any() or (origin < 0).any():
        return False
    if not out_of_trec_order(np.zeros(len(rl), dtype=np.int64), rl.docs, scores).any():
        return True
    by_file = np.lexsort((origin, -scores))  # score high first, tied rows in the file's order
    return bool((by_file == np.arange(len(rl))).all())


def _scores_in_order(docs: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The list's scores when they rank it in its order (trec_eval's rule), else n, n-1, … 1."""
    query = np.zeros(len(docs), dtype=np.int64)
    moved = out_of_trec_order(query, docs, scores)
    return rescored_scores(query, scores, moved)


def _line(raw: str | None, roles: tuple[str, ...], values: dict, extras: list[str], style: _Style) -> str:
    """One row: the record as it was with only the changed cells written anew (or all anew)."""
    d = style.delimiter
    parts = cells(raw, d) if raw is not None else None
    where = field_positions(parts, d) if parts is not None else []
    if parts is not None and len(where) != len(roles):
        parts = None  # not the shape it was read with: write it anew
    new: list[str] = []
    extra = iter(extras)
    for j, role in enumerate(roles):
        value = next(extra, "") if role == "" else values[role]
        old = parts[where[j]] if parts is not None else None
        if old is not None and _same(role, old, value, style):
            new.append(old)
            continue
        was_quoted = old is not None and old.strip(" \t").startswith('"')
        if role in _NUMBER_ROLES:
            text = style.number(value, integer=role == "rank") if not math.isnan(value) else ""
        else:
            text = value  # (ids as they are: they must match their qrels; see `writers.protect`)
        new.append(style.quoted(text, force=was_quoted))
    if parts is None:
        return (style.separator if d is None else d).join(new)
    for j, text in enumerate(new):
        parts[where[j]] = text
    return joined(parts, d)


def _same(role: str, old: str, value, style: _Style) -> bool:
    """Whether a cell as written reads back as `value` (then it is kept exactly as it was)."""
    if role == "":
        return value in (old, unquote(old, style.delimiter or ","))
    text = unquote(old, style.delimiter or ",")
    if role in _NUMBER_ROLES:
        read = _number(text, style.decimal_comma)
        return read is not None and (read == value or (math.isnan(read) and math.isnan(value)))
    return text == value


def _number(text: str, comma: bool) -> float | None:
    if text == "":
        return math.nan
    for candidate in (text, text.replace(",", ".") if comma else None):
        if candidate is None:
            continue
        try:
            return float(candidate)
        except ValueError:
            continue
    return None


# ---- the standard layout ------------------------------------------------------------------------
def _standard(dataset: Dataset, own: FileFormat | None, queries: Sequence[str] | None) -> bytes:
    """query (when there is more than one, or it has a name), rank, doc, grade (empty = unjudged),
    score when known, then the extra columns; in the loaded CSV's delimiter, encoding, line
    ending and decimal comma when there is one (a header-less or space-separated file gets a
    header, and tabs)."""
    run = dataset.run
    if queries is not None:
        run = run[run["query"].isin(list(queries))]
    rank = run.groupby("query", sort=False).cumcount().to_numpy() + 1
    with_query = run["query"].nunique() > 1 or (len(run) and run["query"].iloc[0] != "")
    delimiter = own.delimiter if own is not None and own.delimiter is not None else (
        "\t" if own is not None else ",")
    style = _Style(delimiter, decimal_comma=own is not None and own.decimal_comma)
    # The file's own header names for the columns it has.
    named = dict(zip(own.columns, own.header, strict=True)) if own is not None and own.header else {}
    roles = ("query", "rank", "doc", "grade", "score")
    name = {role: named.get(role, role).strip() or role for role in roles}
    header, columns = [], []
    if with_query:
        header.append(name["query"])
        columns.append([style.quoted(str(q)) for q in run["query"]])
    header += [name["rank"], name["doc"], name["grade"]]
    columns += [
        [str(r) for r in rank.tolist()],
        [style.quoted(str(d)) for d in run["doc"]],
        [style.number(g) if not math.isnan(g) else "" for g in run["grade"].tolist()],
    ]
    if "score" in run:
        header.append(name["score"])
        columns.append([style.number(s) if not math.isnan(s) else "" for s in run["score"].tolist()])
    for extra in dataset.extra_columns:
        header.append(extra)
        columns.append([style.quoted(str(v)) if str(v) else "" for v in run[extra]])
    ending = own.line_ending if own is not None else "\n"
    lines = [delimiter.join(style.quoted(h) for h in header)]
    lines += [delimiter.join(row) for row in zip(*columns, strict=True)]
    text = ending.join(lines) + ending
    if own is None:
        return text.encode("utf-8")
    try:
        body = text.encode(own.file_encoding)
        bom = own.bom
    except UnicodeEncodeError:
        body, bom = text.encode("utf-8"), b"\xef\xbb\xbf"
    return bom + body
