"""What an open document is, as one immutable value: the loaded dataset, the lists edited since,
the measure in use (which NDCG, at which k, and which queries the mean counts), and the file it
is saved to.

Every change makes a new `Workspace` (the lists and arrays are shared, never copied), so undo keeps
the state before and after a step for the cost of a dictionary, and a script can do what the
window does:

    ws = Workspace.of(load("run.txt", "qrels.txt"))
    ws = ws.with_list("301", edits.reverse(ws.list_for("301")).after)
    ws.evaluate()            # every query under ws.measure, edits included
    write_trec_run(ws.for_saving(), "edited.run")
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Container, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.formats.query_map import QueryMap
from ndcg_gui.core.lists import id_sets
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.typed_dataset import TypedDataset
from ndcg_gui.core.ndcg.measure import DEFAULT_K, MEAN_FIELDS, Measure

if TYPE_CHECKING:
    import pandas as pd

RUN_SUFFIXES = (".run", ".runs", ".txt", ".trec", ".res", ".tsv", ".csv", ".gz")


def run_label(file_name: str) -> str:
    """A run's name as a comparison shows it: the file name without a run file's extension or
    TREC's "input." prefix (input.bm25.run -> bm25)."""
    name = file_name
    while Path(name).suffix.lower() in RUN_SUFFIXES and Path(name).stem:
        name = Path(name).stem
    return name[len("input."):] if name.startswith("input.") and len(name) > len("input.") else name


def window_measure() -> Measure:
    """A new document's measure: the library's default at the window's cut-off."""
    return Measure(k=DEFAULT_K)


@dataclass(frozen=True, eq=False)
class AddedRun:
    """A run compared with the open one: read from `path` against the document's judgments."""

    name: str
    dataset: Dataset
    path: Path | None = None


@dataclass(frozen=True)
class Comparing:
    """What a person set up to compare: the runs added (in order), the baseline (None: the open
    run) and the run put against it in the plots (None: the first other run)."""

    runs: tuple[AddedRun, ...] = ()
    baseline: str | None = None
    focus: str | None = None

    def names(self) -> list[str]:
        return [r.name for r in self.runs]

    def run(self, name: str) -> AddedRun:
        for r in self.runs:
            if r.name == name:
                return r
        raise KeyError(f"no run {name!r} is compared")


@dataclass
class FileRef:
    """Where a document is saved, and what the file holds now. Shared by every state of one
    document (so Save As, which is not an undo step, renames all of them); a new open makes a new
    one. `saved_lists`: the edited lists as last saved (none: the file as opened). `made_here`: the
    lists were typed or pasted in and never saved, so they are unsaved work though no list differs
    from the document's own "as loaded"."""

    path: Path | None = None
    qrels_path: Path | None = None
    name: str = "untitled"
    saved_lists: Mapping[str, RankedList] = field(default_factory=dict)
    made_here: bool = False
    saved_notes: Mapping[str, str] = field(default_factory=dict)  # the notes its sidecar holds

    @classmethod
    def of(cls, path: str | Path | None, qrels: str | Path | None = None, name: str | None = None) -> FileRef:
        p = Path(path) if path is not None else None
        return cls(p, Path(qrels) if qrels is not None else None, name or (p.name if p else "untitled"))


_QUERIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _queries_of(dataset: Dataset) -> tuple[tuple[str, ...], Container[str], Container[str]]:
    """(the dataset's queries, ("",) when none; those as a set; the dataset's own as a set): made
    once per dataset, not once per state (every edit makes a state, and a big file's set is a frame's work).
    A tuple and dicts of texts, which the garbage collector does not walk (`core.lists.id_sets`)."""
    known = _QUERIES.get(dataset)
    if known is None:
        # (In parts: a worker opening a big file's queries in one call held the GIL from the window.)
        queries = tuple(id_sets.texts(dataset.queries()))
        own = id_sets.id_keys(queries)  # (one set when the dataset has queries)
        known = _QUERIES[dataset] = (queries or ("",), own if queries else {"": None}, own)
    return known


@dataclass(frozen=True, eq=False)
class Workspace:
    dataset: Dataset
    lists: Mapping[str, RankedList] = field(default_factory=dict)  # edited queries only
    measure: Measure = field(default_factory=window_measure)  # which NDCG, at k; what the mean counts
    file: FileRef = field(default_factory=FileRef)
    comparing: Comparing = field(default_factory=Comparing)
    segments: QueryMap[str] | None = None  # each query's segment (File ▸ Open segments…, its column)
    weights: QueryMap[float] | None = None  # each query's weight (the run's `weight` column)
    notes: Mapping[str, str] = field(default_factory=dict)  # each query's note (its sidecar file)

    def __post_init__(self) -> None:
        if self.measure.k is None:
            raise ValueError("a document is scored at a cut-off: k must be a whole number ≥ 1")
        object.__setattr__(self, "lists", MappingProxyType(dict(self.lists)))
        object.__setattr__(self, "notes", MappingProxyType(dict(self.notes)))
        queries, shown, known = _queries_of(self.dataset)
        object.__setattr__(self, "_queries", queries)
        object.__setattr__(self, "_shown", shown)
        object.__setattr__(self, "_known", known)

    @classmethod
    def of(cls, dataset: Dataset, measure: Measure | None = None,
           file: FileRef | None = None) -> Workspace:
        file = file or FileRef.of(dataset.path, dataset.qrels_path)
        return cls(dataset, {}, measure or window_measure(), file)

    @classmethod
    def empty(cls, measure: Measure | None = None) -> Workspace:
        return cls.of(TypedDataset.of(RankedList.from_grades([])), measure)

    @classmethod
    def typed(cls, lists: Mapping[str, RankedList], name: str = "Typed list",
              measure: Measure | None = None) -> Workspace:
        """Lists typed or pasted in, as a new untitled document: they are its lists "as loaded" (the
        reference of 'vs as loaded', Moved and Reset), and unsaved work until saved."""
        named = {str(q): lst if lst.query == str(q) else replace(lst, query=str(q))
                 for q, lst in lists.items()}
        if not named:
            named = {"": RankedList.from_grades([])}
        (first, *_), rest = named.values(), dict(list(named.items())[1:])
        dataset = TypedDataset.of(first)
        if rest:
            dataset = dataset.with_lists(rest)
        made_here = any(len(lst) for lst in named.values())
        return cls.of(dataset, measure, FileRef(None, None, name, made_here=made_here))

    # ---- reading ----------------------------------------------------------------------------
    @property
    def k(self) -> int:
        return self.measure.k  # type: ignore[return-value]  (never None: __post_init__)

    def queries(self) -> list[str]:
        """Every query: the dataset's, then queries typed in (a new list in an empty document)."""
        return list(self._queries) + [q for q in self.lists if q not in self._shown]

    def query_count(self) -> int:
        """len(queries()), without making the list (asked often; a big file's list is not free)."""
        return len(self._queries) + sum(q not in self._shown for q in self.lists)

    def first_query(self) -> str:
        return self._queries[0]

    def has_query(self, query: str) -> bool:
        """Whether `query` is one of `queries()` (without making the list of them)."""
        return query in self._shown or query in self.lists

    def original(self, query: str) -> RankedList:
        """The list as the file holds it (an empty list for a query the file does not have)."""
        if query not in self._known:
            return RankedList.from_grades([], query=query)
        # Tied scores in the order the tie rule in use gives them.
        return self.dataset.ranked_list(query).ties_ordered(self.measure)

    def at_hand(self, query: str) -> bool:
        """Whether `list_for(query)` answers at once (False: the dataset reads it from its files)."""
        return query in self.lists or query not in self._known or self.dataset.at_hand(query)

    def all_at_hand(self, query: str) -> bool:
        """Whether every list of `query` the window shows, the open run's and each compared run's,
        answers at once (`read_all` reads them)."""
        return self.at_hand(query) and all(r.dataset.at_hand(query) for r in self.comparing.runs)

    def read_all(self, query: str) -> None:
        """Read `query`'s lists (`all_at_hand`): a dataset that reads them from its files keeps them."""
        self.original(query)
        for r in self.comparing.runs:
            if r.dataset.has_query(query):
                r.dataset.ranked_list(query)

    def read_edited(self) -> None:
        """Read the edited queries' lists as loaded not read yet, the open run's and each run
        compared's (each dataset keeps them once read: `with_list`, `with_run`); what a worker does
        for a state made away from the window (edits recovered after a crash). One that cannot be
        read is read again when its query is shown, and said then."""
        for dataset in (self.dataset, *(r.dataset for r in self.comparing.runs)):
            for q in self.lists:
                if not dataset.at_hand(q):
                    with contextlib.suppress(InputError):
                        dataset.ranked_list(q)

    def has_judgments(self) -> bool:
        """Whether there is anything to score NDCG by: qrels, or grades in the run or its edits."""
        if self.dataset.has_pool or any(lst.judgments() for lst in self.lists.values()):
            return True
        if not self.dataset.in_memory:
            return True  # (read where it lies: only with its qrels)
        return bool(self.dataset.run["grade"].notna().any())

    def list_for(self, query: str) -> RankedList:
        lst = self.lists.get(query)  # (an edited list may be empty: every row deleted)
        return lst if lst is not None else self.original(query)

    def edited_queries(self) -> list[str]:
        """Queries whose list differs from the file's."""
        return [q for q, lst in self.lists.items() if lst != self.original(q)]

    def unjudged_queries(self) -> list[str]:
        """Queries with results but no judgment as the lists stand (nothing to score them by): the
        file's, less those an edit has judged since."""
        return [q for q in self.dataset.unjudged_queries()
                if not (q in self.lists and self.lists[q].judgments())]

    def unsaved_queries(self) -> list[str]:
        """Queries whose list differs from what the file holds (as opened, or as last saved)."""
        if self.file.made_here:  # typed in, never saved: every list with rows is unsaved work
            return [q for q in self.queries() if len(self.list_for(q))]
        saved = self.file.saved_lists
        return [q for q in dict.fromkeys([*self.lists, *saved])
                if (a := self.lists.get(q)) is not (b := saved.get(q))
                and (self.original(q) if a is None else a) != (self.original(q) if b is None else b)]

    def worth_recovering(self) -> bool:
        """Whether a crash would lose something the person did: unsaved lists, runs compared, a
        mean policy of their own, segments read."""
        own_mean = any(getattr(self.measure, f) != getattr(window_measure(), f) for f in MEAN_FIELDS)
        return bool(self.unsaved_queries() or self.comparing.runs or own_mean or self.segments is not None
                    or self.notes_unsaved())

    def notes_unsaved(self) -> bool:
        """Whether the notes differ from what the sidecar holds (as read, or as last written)."""
        return dict(self.notes) != dict(self.file.saved_notes)

    def mark_notes_saved(self) -> None:
        """The sidecar now holds the notes as they are in this state."""
        self.file.saved_notes = dict(self.notes)

    def mark_saved(self) -> None:
        """The file now holds the lists as they are in this state."""
        self.file.saved_lists = dict(self.lists)
        self.file.made_here = False

    def judgments_edited(self) -> bool:
        """Whether a grade or a judged document differs from the file's: the qrels need saving."""
        return any(self.lists[q].judgments() != self.original(q).judgments() for q in self.edited_queries())

    def for_saving(self) -> Dataset:
        """The dataset with every edited query's list swapped in (unedited queries untouched)."""
        edited = {q: self.lists[q] for q in self.edited_queries()}
        return self.dataset.with_lists(edited) if edited else self.dataset

    def evaluate(self) -> pd.DataFrame:
        """Every query scored under the measure, edits included, every judged query listed (the
        mean policy is the mean's: `Measure.per_query`; `Dataset.evaluate`)."""
        return self.for_saving().evaluate(self.measure.per_query())

    # ---- changing: each returns a new workspace -----------------------------------------------
    def with_list(self, query: str, lst: RankedList) -> Workspace:
        # Its list as loaded (compared with the edited one at every notice) and the runs compared's
        # (an edit rescores the query for every run) kept, once read: a list not read yet (a run
        # just added, its job reading it) is not read here, where the window's GUI thread waits.
        self.dataset.keep(query)
        for r in self.comparing.runs:
            r.dataset.keep(query)
        lists = dict(self.lists)
        lists[query] = replace(lst, query=query) if lst.query != query else lst
        return replace(self, lists=lists)

    def with_measure(self, measure: Measure | None = None, **choices: object) -> Workspace:
        """Under `measure`, or the one in use, with some choices changed (`Measure.with_`)."""
        new = (measure or self.measure).with_(**choices)
        return self if new == self.measure else replace(self, measure=new)

    # ---- runs compared with this one ------------------------------------------------------------
    def with_run(self, dataset: Dataset, path: str | Path | None = None, name: str | None = None,
                 open_name: str = "") -> tuple[Workspace, str]:
        """`dataset` compared too, under a name of its own (its file's, told apart by (2), (3)…
        from the others and from `open_name`, the open run's). ValueError for an open run with
        grades of its own but no qrels (the runs would share no judgments); one with no judgments
        at all is compared by its rankings alone (`core.analysis.runs.overlap`)."""
        if not self.dataset.has_pool and self.has_judgments():
            raise ValueError("open a run with its qrels first: runs are compared on judgments")
        stem = name or (run_label(Path(path).name) if path else "run")
        taken = {open_name, *self.comparing.names()}
        name, n = stem, 1
        while name in taken:
            n += 1
            name = f"{stem} ({n})"
        for query in self.lists:  # (kept once read, as `with_list` keeps the runs' compared before)
            dataset.keep(query)
        added = AddedRun(name, dataset, Path(path) if path is not None else None)
        return replace(self, comparing=replace(self.comparing, runs=(*self.comparing.runs, added))), name

    def without_run(self, name: str) -> Workspace:
        c = self.comparing
        c.run(name)  # (KeyError when it is not compared)
        runs = tuple(r for r in c.runs if r.name != name)
        if not runs:
            return replace(self, comparing=Comparing())
        return replace(self, comparing=Comparing(runs, None if c.baseline == name else c.baseline,
                                                 None if c.focus == name else c.focus))

    def without_runs(self) -> Workspace:
        return self if not self.comparing.runs else replace(self, comparing=Comparing())

    def with_baseline(self, name: str | None) -> Workspace:
        """`name` the baseline (None: the open run); the focus moves off it."""
        c = self.comparing
        if name is not None:
            c.run(name)
        if name == c.baseline:
            return self
        focus = None if c.focus == name else c.focus
        return replace(self, comparing=replace(c, baseline=name, focus=focus))

    def with_focus(self, name: str | None) -> Workspace:
        c = self.comparing
        return self if name == c.focus else replace(self, comparing=replace(c, focus=name))

    def with_note(self, query: str, note: str) -> Workspace:
        """`query` with `note` (an empty note, or one of spaces alone: none)."""
        notes = dict(self.notes)
        if note.strip():
            notes[query] = note
        else:
            notes.pop(query, None)
        return self if notes == dict(self.notes) else replace(self, notes=notes)

    def with_notes(self, notes: Mapping[str, str], saved: bool = False) -> Workspace:
        """Every note replaced by `notes` (`saved`: as the sidecar holds them, read when opened)."""
        kept = {str(q): str(n) for q, n in notes.items() if str(n).strip()}
        if saved:
            self.file.saved_notes = dict(kept)
        return self if kept == dict(self.notes) else replace(self, notes=kept)

    def with_segments(self, segments: QueryMap[str] | None) -> Workspace:
        """Each query's segment from `segments` (None: none): the query panel filters by them."""
        return self if segments is self.segments else replace(self, segments=segments)

    def with_weights(self, weights: QueryMap[float] | None) -> Workspace:
        """Each query's weight from `weights` (None: none): the query panel's mean is weighted."""
        return self if weights is self.weights else replace(self, weights=weights)

    def carrying(self, old: Workspace, setup: bool = True) -> Workspace:
        """This newly opened document with what the person set up in `old` that still holds: the
        measure (`setup`: its mean policy too), and (`setup`) the segments (unless it has its own)
        and the runs compared when the judgments are the same qrels file (they were compared on
        them). `setup` False: a
        document that comes with its own mean policy and runs (edits recovered after a crash)."""
        if not setup:
            own = {f: getattr(self.measure, f) for f in MEAN_FIELDS}
            return replace(self, measure=old.measure.with_(**own))
        # (a file with its own segment column keeps it; the weights are always the file's own)
        new = replace(self, measure=old.measure,
                      segments=self.segments if self.segments is not None else old.segments)
        same_qrels = (old.comparing.runs and self.dataset.has_pool and self.file.qrels_path is not None
                      and self.file.qrels_path == old.file.qrels_path)
        return replace(new, comparing=old.comparing) if same_qrels else new

    def size(self) -> int:
        """Rows held (run and judgments): what keeping this state for undo costs."""
        return self.dataset.row_count()
