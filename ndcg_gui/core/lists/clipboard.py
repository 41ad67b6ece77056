"""Rows as text: what a person pastes from a spreadsheet or types into the quick-list box, and
what Copy puts on the clipboard (tab-separated, as spreadsheets copy cells)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ndcg_gui.core.lists.numbers import format_grade, parse_grade
from ndcg_gui.core.lists.ranked_list import RankedList

_SPLIT = re.compile(r"[\t;,]|\s+")


@dataclass(frozen=True)
class PastedRows:
    docs: list[str] | None  # None: a column of grades only
    grades: list[float]


def _fields(line: str) -> list[str]:
    if "\t" in line:  # spreadsheets copy cells separated by tabs; keep empty cells
        return [f.strip() for f in line.split("\t")]
    return [f for f in _SPLIT.split(line.strip()) if f != ""]


def parse_rows(text: str) -> PastedRows:
    """A column of grades, or document/grade pairs (tab, comma, semicolon or space separated).
    A first line that is not numbers is taken as a header and skipped. An empty grade cell is
    unjudged."""
    lines = [line for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.strip()]
    if not lines:
        raise ValueError("the clipboard holds no rows")
    rows = [_fields(line) for line in lines]
    pairs = max(len(r) for r in rows) >= 2
    docs: list[str] = []
    grades: list[float] = []
    for number, fields in enumerate(rows, start=1):
        cell = fields[1] if pairs and len(fields) > 1 else ("" if pairs else fields[0])
        try:
            grade = parse_grade(cell)
        except ValueError:
            if number == 1:
                continue  # a header row
            raise ValueError(f"cannot paste line {number}: grade {cell!r} is not a number "
                             "(expected grades, or document and grade)") from None
        if pairs:
            if not fields[0]:
                raise ValueError(f"cannot paste line {number}: the document id is empty")
            docs.append(fields[0])
        grades.append(grade)
    if not grades:
        raise ValueError("the clipboard holds no grades")
    return PastedRows(docs if pairs else None, grades)


def parse_quick_list(text: str) -> list[float]:
    """`3 2 3 0 1` (spaces, commas or semicolons between grades) as grades. Every grade is
    required: a typed list has no unjudged documents."""
    fields = [f for f in re.split(r"[;,\s]+", text.strip()) if f]
    if not fields:
        raise ValueError("type some grades, e.g. 3 2 3 0 1")
    grades = []
    for i, f in enumerate(fields, start=1):
        try:
            value = parse_grade(f)
        except ValueError:
            raise ValueError(f"{f!r} (the grade in place {i}) is not a number") from None
        if value != value:
            raise ValueError(f"{f!r} (the grade in place {i}) is not a number")
        grades.append(value)
    return grades


def rows_as_tsv(lst: RankedList, rows: Iterable[int] | None = None) -> str:
    """The rows (all when None) as `doc<TAB>grade` lines under a header; unjudged is empty. Pasting
    the text back gives the same documents and grades."""
    picked = range(len(lst)) if rows is None else rows
    lines = ["doc\tgrade"] + [f"{lst.docs[r]}\t{format_grade(lst.grades[r])}" for r in picked]
    return "\n".join(lines) + "\n"
