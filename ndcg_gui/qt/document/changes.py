"""What one step changed, said once: the document emits one `Changes` after every change, and each
model or view reads what concerns it (as Anki's operations report `OpChanges`). What is worked out
from the document (every query's scores, the run comparison) is part of the same notice: worked
out before it is sent, or, when it comes back from the background, sent as a `Changes` of its own.
Nothing depends on the order of several signals."""

from __future__ import annotations

from dataclasses import dataclass, field

Move = tuple[int, int, int]  # (first, count, destination) in Qt's moveRows rule


@dataclass(frozen=True)
class ComparisonChanges:
    """What changed in the run comparison's figures."""

    runs: bool = False  # runs, baseline, focus or every score changed: redraw everything
    queries: frozenset[str] = frozenset()  # these queries' per-query NDCG changed (an edit)
    summary: bool = False  # the statistics were recomputed
    ties: bool = False  # the verdicts under each run's worst and best tie order

    def __or__(self, other: ComparisonChanges) -> ComparisonChanges:
        return ComparisonChanges(self.runs or other.runs, self.queries | other.queries,
                                 self.summary or other.summary, self.ties or other.ties)


@dataclass(frozen=True)
class Changes:
    dataset: bool = False  # another file (or an undone open): every query may differ
    query: bool = False  # another query is shown
    lists: frozenset[str] = field(default_factory=frozenset)  # queries whose list changed
    move: Move | None = None  # the shown list changed by exactly this row move
    definition: bool = False  # k, the metric's definition or the tie rule
    comparing: bool = False  # the runs compared, the baseline or the run in the plots
    policy: bool = False  # which queries the mean counts
    segments: bool = False  # each query's segment or weight (read, or dropped)
    notes: frozenset[str] = field(default_factory=frozenset)  # queries whose note changed
    scores: bool = False  # every query's NDCG (the query panel's), or whether it is being worked out
    comparison: ComparisonChanges | None = None  # the run comparison's figures
    checks: bool = False  # the input checks' findings (or whether they are being worked out)
    reading: bool = False  # a query picked began or stopped being read (`Document.reading`)
    problem: str | None = None  # background work that failed, in one line (the window says it)

    def __or__(self, other: Changes) -> Changes:
        """Both changes in one notice."""
        comparison = self.comparison if other.comparison is None else \
            other.comparison if self.comparison is None else self.comparison | other.comparison
        return Changes(
            dataset=self.dataset or other.dataset, query=self.query or other.query,
            lists=self.lists | other.lists, move=self.move if other.move is None else other.move,
            definition=self.definition or other.definition, comparing=self.comparing or other.comparing,
            policy=self.policy or other.policy, segments=self.segments or other.segments,
            notes=self.notes | other.notes,
            scores=self.scores or other.scores, comparison=comparison,
            checks=self.checks or other.checks, reading=self.reading or other.reading,
            problem="; ".join(p for p in (self.problem, other.problem) if p) or None,
        )

    def shown_list(self, current_query: str) -> bool:
        """Whether the list on screen is another one than before (content or identity)."""
        return self.dataset or self.query or current_query in self.lists
