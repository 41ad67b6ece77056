"""Rows pasted from a spreadsheet or typed into the quick-list box, as plain data (no Qt)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_SPLIT = re.compile(r"[\t;,]|\s+")


@dataclass(frozen=True)
class PastedRows:
    docs: list[str] | None  # None: a column of grades only
    grades: list[float]


def _number(text: str) -> float:
    t = text.strip()
    if t == "":
        return math.nan  # an empty grade cell: unjudged
    value = float(t)
    if not math.isfinite(value):
        raise ValueError
    return value


def _fields(line: str) -> list[str]:
    if "\t" in line:  # spreadsheets copy cells separated by tabs; keep empty cells
        return [f.strip() for f in line.split("\t")]
    return [f for f in _SPLIT.split(line.strip()) if f != ""]


def parse_rows(text: str) -> PastedRows:
    """A column of grades, or document/grade pairs (tab, comma, semicolon or space separated).
    A first line that is not numbers is taken as a header and skipped."""
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
            grade = _number(cell)
        except ValueError:
            if number == 1:
                continue  # a header row
            what = f"line {number}: grade {cell!r} is not a number"
            raise ValueError(f"cannot paste {what} (expected grades, or document and grade)") from None
        if pairs:
            if not fields[0]:
                raise ValueError(f"cannot paste line {number}: the document id is empty")
            docs.append(fields[0])
        grades.append(grade)
    if not grades:
        raise ValueError("the clipboard holds no grades")
    return PastedRows(docs if pairs else None, grades)


def parse_quick_list(text: str) -> list[float]:
    """`3 2 3 0 1` (spaces, commas or semicolons) as grades."""
    fields = [f for f in _SPLIT.split(text.strip()) if f]
    if not fields:
        raise ValueError("type some grades, e.g. 3 2 3 0 1")
    grades = []
    for i, f in enumerate(fields, start=1):
        try:
            value = float(f)
        except ValueError:
            raise ValueError(f"grade {i}, {f!r}, is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"grade {i}, {f!r}, is not a finite number")
        grades.append(value)
    return grades
