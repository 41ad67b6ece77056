"""What one step changed, said once: the document emits one `Changes` after every change, and each
model or view reads what concerns it (as Anki's operations report `OpChanges`). Nothing depends on
the order of several signals."""

from __future__ import annotations

from dataclasses import dataclass, field

Move = tuple[int, int, int]  # (first, count, destination) in Qt's moveRows rule


@dataclass(frozen=True)
class Changes:
    dataset: bool = False  # another file (or an undone open): every query may differ
    query: bool = False  # another query is shown
    lists: frozenset[str] = field(default_factory=frozenset)  # queries whose list changed
    move: Move | None = None  # the shown list changed by exactly this row move
    definition: bool = False  # k, the metric's definition or the tie rule
    comparing: bool = False  # the runs compared, the baseline or the run in the plots
    policy: bool = False  # which queries the mean counts

    def shown_list(self, current_query: str) -> bool:
        """Whether the list on screen is another one than before (content or identity)."""
        return self.dataset or self.query or current_query in self.lists
