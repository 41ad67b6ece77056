"""The edit rules of a ranked list, as pure functions: each takes a `RankedList` and returns an
`Edit` (the list after, the words for the undo step, and the row move when the edit is one), or
None when it would change nothing; a refused edit raises `EditRefused` saying why.

The window's undo commands apply these; a script can call them the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ndcg_gui.core.lists.clipboard import parse_rows
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure

Move = tuple[int, int, int]  # (first, count, destination): rows first..first+count-1 to before destination


class EditRefused(ValueError):
    """An edit that would break a rule of the list (an empty or duplicate document id …)."""


@dataclass(frozen=True)
class Edit:
    after: RankedList
    text: str  # what the undo step is called: "Move row", "Set grade of d3"
    move: Move | None = None  # set when the edit is exactly this row move
    select: tuple[int, int] | None = None  # (first, count): the rows the edit leaves selected


def _changed(before: RankedList, edit: Edit) -> Edit | None:
    return None if edit.after == before else edit


# ---- order ------------------------------------------------------------------------------------
def move_order(n: int, first: int, count: int, destination: int) -> np.ndarray:
    """The row order after a move in Qt's rule: `order[i]` is the old row now at row i."""
    rows = np.arange(n)
    block = rows[first:first + count]
    rest = np.concatenate([rows[:first], rows[first + count:]])
    at = destination if destination <= first else destination - count
    return np.concatenate([rest[:at], block, rest[at:]])


def move_rows(lst: RankedList, first: int, count: int, destination: int) -> Edit | None:
    """Rows first..first+count-1 to before row `destination` (Qt's moveRows rule)."""
    n = len(lst)
    if count < 1 or first < 0 or first + count > n or not 0 <= destination <= n:
        return None
    if first <= destination <= first + count:
        return None
    at = destination if destination < first else destination - count
    what = "row" if count == 1 else f"{count} rows"
    after = lst.moved(first, count, destination)
    return Edit(after, f"Move {what}", (first, count, destination), (at, count))


def move_to(lst: RankedList, from_rank: int, to_rank: int) -> Edit | None:
    """The document at `from_rank` taken out and put back at `to_rank` (1-based, as `best_moves`
    says them); the documents in between shift by one."""
    if not (1 <= from_rank <= len(lst) and 1 <= to_rank <= len(lst)) or from_rank == to_rank:
        return None
    destination = to_rank if to_rank > from_rank else to_rank - 1
    edit = move_rows(lst, from_rank - 1, 1, destination)
    return None if edit is None else replace(edit, text=f"Move {lst.docs[from_rank - 1]} to rank {to_rank}")


def move_block(lst: RankedList, rows: Sequence[int], destination: int) -> Edit | None:
    """Rows (contiguous or not) together to before `destination`, in their order, as one step."""
    rows = sorted(set(rows))
    if not rows:
        return None
    if rows == list(range(rows[0], rows[-1] + 1)):
        return move_rows(lst, rows[0], len(rows), destination)
    picked = set(rows)
    before = [r for r in range(destination) if r not in picked]
    after = [r for r in range(destination, len(lst)) if r not in picked]
    edit = Edit(lst.reordered(before + rows + after), f"Move {len(rows)} rows", None,
                (len(before), len(rows)))
    return _changed(lst, edit)


def move_to_rank(lst: RankedList, rows: Sequence[int], rank: int) -> Edit | None:
    """Rows (in their order) moved so that the first of them is at `rank` (1-based, clamped to the
    list): "Move to rank…", the keyboard's way to drag rows far."""
    rows = sorted({r for r in rows if 0 <= r < len(lst)})
    if not rows:
        return None
    picked = set(rows)
    rest = [r for r in range(len(lst)) if r not in picked]
    at = max(0, min(int(rank) - 1, len(rest)))
    edit = move_block(lst, rows, rest[at] if at < len(rest) else len(lst))
    if edit is not None and len(rows) == 1:
        edit = replace(edit, text=f"Move {lst.docs[rows[0]]} to rank {at + 1}")
    return edit


def step_rows(lst: RankedList, rows: Sequence[int], delta: int) -> Edit | None:
    """Ctrl+Up (-1) / Ctrl+Down (+1): a block of rows one place up or down; scattered rows are
    first gathered into a block where the first of them is."""
    rows = sorted(set(rows))
    if not rows:
        return None
    first, last = rows[0], rows[-1]
    if rows != list(range(first, last + 1)):
        return move_block(lst, rows, first)
    if delta < 0:
        return move_rows(lst, first, len(rows), first - 1) if first > 0 else None
    return move_rows(lst, first, len(rows), last + 2) if last + 1 < len(lst) else None


def reorder(lst: RankedList, order: Sequence[int] | np.ndarray, text: str) -> Edit | None:
    return _changed(lst, Edit(lst.reordered(order), text))


def sort_ideal(lst: RankedList, measure: Measure) -> Edit | None:
    return reorder(lst, lst.ideal_order(measure), "Sort to ideal")


def reverse(lst: RankedList) -> Edit | None:
    return reorder(lst, np.arange(len(lst))[::-1], "Reverse")


def reset(lst: RankedList, original: RankedList) -> Edit | None:
    return _changed(lst, Edit(original, "Reset to the file's order"))


# ---- cells ------------------------------------------------------------------------------------
def set_grade(lst: RankedList, row: int, grade: float) -> Edit | None:
    old = float(lst.grades[row])
    if grade == old or (math.isnan(grade) and math.isnan(old)):
        return None
    return Edit(lst.with_grade(row, grade), f"Set grade of {lst.docs[row]}", select=(row, 1))


def rename(lst: RankedList, row: int, doc: str) -> Edit | None:
    """A row's document id changed. Ids are unique within a list and never empty."""
    doc = str(doc).strip()
    if not doc:
        raise EditRefused("a document id cannot be empty")
    old = str(lst.docs[row])
    if doc == old:
        return None
    ids = lst.docs.tolist()
    if doc in set(ids):
        raise EditRefused(f"document {doc!r} is already in the list (rank {ids.index(doc) + 1})")
    return Edit(lst.with_doc(row, doc), f"Rename {old} to {doc}", select=(row, 1))


def fresh_ids(lst: RankedList, count: int) -> list[str]:
    """`count` new ids d<n>, d<n+1>, … used by no document of the list nor of its judged pool."""
    taken = set(lst.docs.tolist()) | set(lst.unretrieved)
    out, i = [], len(lst) + 1
    while len(out) < count:
        if f"d{i}" not in taken:
            out.append(f"d{i}")
        i += 1
    return out


def insert(lst: RankedList, row: int, docs: Sequence[str] | None, grades: Sequence[float],
           text: str = "Insert rows") -> Edit | None:
    """New rows before `row`; docs=None names them with `fresh_ids`."""
    if not len(grades):
        return None
    docs = fresh_ids(lst, len(grades)) if docs is None else [str(d).strip() for d in docs]
    if any(not d for d in docs):
        raise EditRefused("a document id cannot be empty")
    taken = set(lst.docs.tolist())
    dupes = [d for d in docs if d in taken]
    if dupes or len(set(docs)) != len(docs):
        raise EditRefused(f"document {(dupes or list(docs))[0]!r} would be in the list twice")
    row = max(0, min(row, len(lst)))
    return Edit(lst.inserted(row, docs, grades), text, select=(row, len(docs)))


def remove(lst: RankedList, rows: Sequence[int]) -> Edit | None:
    rows = sorted({r for r in rows if 0 <= r < len(lst)})
    if not rows:
        return None
    what = "row" if len(rows) == 1 else f"{len(rows)} rows"
    return Edit(lst.removed(rows), f"Delete {what}")


def paste_grades(lst: RankedList, row: int, grades: Sequence[float],
                 text: str = "Paste grades") -> Edit | None:
    """Grades of rows row, row+1, … overwritten; those past the end become new documents."""
    row = max(0, min(row, len(lst)))
    fit = min(len(grades), len(lst) - row)
    out = lst
    if fit > 0:
        new_grades = lst.grades.copy()
        new_grades[row:row + fit] = grades[:fit]
        out = replace(lst, grades=new_grades)
    rest = list(grades[max(fit, 0):])
    if rest:
        out = out.inserted(len(out), fresh_ids(out, len(rest)), rest)
    return _changed(lst, Edit(out, text, select=(row, len(grades))))


def paste(lst: RankedList, row: int, text: str) -> Edit | None:
    """Clipboard text at `row` (-1: at the end): document/grade pairs are inserted above it, a
    column of grades overwrites grades from it down. ValueError when the text is not rows."""
    rows = parse_rows(text)
    at = row if 0 <= row <= len(lst) else len(lst)
    if rows.docs is None:
        return paste_grades(lst, at, rows.grades, f"Paste {len(rows.grades)} grades")
    return insert(lst, at, rows.docs, rows.grades, f"Paste {len(rows.docs)} rows")
