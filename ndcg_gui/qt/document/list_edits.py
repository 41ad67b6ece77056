"""The edits of the list on screen, each one core rule (`core.lists.edits`) pushed as one undo step
through `Document.apply`. Mixed into `Document`, which holds the state and the history: this part
only names the edits a person makes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.edits import Edit


class ListEdits:
    """Each method makes its edit of `current_list()` and `apply`s it (None or False: nothing to do);
    `apply`, `current_list`, `original_list`, `config` and `new_list` are `Document`'s."""

    def move_rows(self, first: int, count: int, destination: int) -> bool:
        """Rows first..first+count-1 to before row `destination` (Qt's rule). False if a no-op."""
        return self.apply(edits.move_rows(self.current_list(), first, count, destination)) is not None

    def move_to(self, from_rank: int, to_rank: int) -> Edit | None:
        """The document at `from_rank` put at `to_rank` (a best move)."""
        return self.apply(edits.move_to(self.current_list(), from_rank, to_rank))

    def move_block(self, rows: Sequence[int], destination: int) -> Edit | None:
        return self.apply(edits.move_block(self.current_list(), rows, destination))

    def step_rows(self, rows: Sequence[int], delta: int) -> Edit | None:
        return self.apply(edits.step_rows(self.current_list(), rows, delta))

    def set_grade(self, row: int, grade: float) -> None:
        self.apply(edits.set_grade(self.current_list(), row, grade))

    def set_doc(self, row: int, doc: str) -> None:
        self.apply(edits.rename(self.current_list(), row, doc))

    def insert_rows(self, row: int, docs: Sequence[str] | None, grades: Sequence[float],
                    text: str = "Insert rows") -> Edit | None:
        return self.apply(edits.insert(self.current_list(), row, docs, grades, text))

    def remove_rows(self, rows: Sequence[int]) -> None:
        self.apply(edits.remove(self.current_list(), rows))

    def set_grades_from(self, row: int, grades: Sequence[float], text: str = "Paste grades") -> None:
        self.apply(edits.paste_grades(self.current_list(), row, grades, text))

    def paste(self, row: int, text: str) -> Edit | None:
        """Rows pasted into the list; into a new, empty document they are the new list as loaded."""
        edit = edits.paste(self.current_list(), row, text)
        if edit is not None and not len(self.current_list()) and not len(self.original_list()):
            self.new_list(edit.after, "Paste a new list")
            return edit
        return self.apply(edit)

    def reorder(self, order: Sequence[int] | np.ndarray, text: str) -> None:
        self.apply(edits.reorder(self.current_list(), order, text))

    def sort_ideal(self) -> None:
        self.apply(edits.sort_ideal(self.current_list(), self.measure))

    def reverse(self) -> None:
        self.apply(edits.reverse(self.current_list()))

    def reset_to_original(self) -> Edit | None:
        return self.apply(edits.reset(self.current_list(), self.original_list()))
