"""Exercises: a list whose figures are hidden, the questions asked of it (DCG@k, IDCG@k, NDCG@k,
or one rank's row), each answer checked to the precision asked, and for a wrong one the first step
of the computation where the student's figure departs, with the arithmetic.

The diagnosis tries the slips people make, in the order the computation goes (the gains, the
discounts, the cut-off, the ideal ranking, rounding, the division, the last digit): the first
slip that reproduces the student's figure names the step. Each slip is the core's own scoring
under a definition changed in one way (or the figures rounded as the student did), so a slip is
found exactly when it gives the student's figure.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.analysis.explain import explain_cell
from ndcg_gui.core.analysis.list_report import display_table, list_summary
from ndcg_gui.core.lists.numbers import format_grade, format_value
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import discount_formula, discounts, round_half_away
from ndcg_gui.core.teaching.steps import sum_text

if TYPE_CHECKING:
    import pandas as pd

FIGURES = ("dcg", "idcg", "ndcg")
ROW = ("gain", "discount", "dcg", "idcg", "ndcg")  # one rank's row, as asked
NAMES = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "NDCG", "gain": "gain", "discount": "discount"}


@dataclass(frozen=True)
class Question:
    figure: str  # one of ROW
    rank: int  # the cut-off of DCG/IDCG/NDCG; the rank of a gain or a discount

    @property
    def label(self) -> str:
        if self.figure in FIGURES:
            return f"{NAMES[self.figure]}@{self.rank}"
        return f"{self.figure} at rank {self.rank}"


@dataclass(frozen=True)
class Difficulty:
    """What a list drawn at random holds: its length, grades 0..max_grade (whole, or real with
    one decimal), a pair of tied scores (whose gains are shared, scikit-learn's rule), relevant
    documents the list missed, a cut-off below the list's length, and the gain."""

    length: int = 5
    max_grade: int = 3
    real_grades: bool = False
    ties: bool = False
    missed: int = 0
    cutoff_below: bool = False
    gain: str = "linear"

    def __post_init__(self) -> None:
        if not 1 <= self.length <= 30 or not 1 <= self.max_grade <= 10 or not 0 <= self.missed <= 5:
            raise ValueError("length 1–30, grades up to 1–10 and 0–5 missed documents")
        if self.gain not in ("linear", "exponential"):
            raise ValueError(f"gain must be 'linear' or 'exponential', not {self.gain!r}")


@dataclass(frozen=True)
class Diagnosis:
    """Where a wrong answer departs: `mistake` (a code, for tests and scripts), the step of the
    computation it belongs to, what the student did, and the arithmetic (the right one, and
    theirs where the slip says it)."""

    mistake: str
    step: str
    message: str
    arithmetic: str

    def text(self) -> str:
        return f"{self.step}: {self.message}\n{self.arithmetic}"


@dataclass(frozen=True)
class Check:
    question: Question
    given: float | None  # None: the answer was not a number
    right: float
    decimals: int
    diagnosis: Diagnosis | None = None

    @property
    def correct(self) -> bool:
        return self.given is not None and close(self.given, self.right, self.decimals)

    def text(self) -> str:
        label = self.question.label
        if self.given is None:
            return f"✗ {label}: not a number"
        if self.correct:
            return f"✓ {label} = {self.right:.{self.decimals}f}"
        said = f"✗ {label}: you gave {self.given:g}, the figure is {self.right:.{self.decimals}f}"
        return said if self.diagnosis is None else f"{said}\n{self.diagnosis.text()}"


def close(given: float, right: float, decimals: int) -> bool:
    """`given` is `right` to `decimals` decimals (rounded, half a unit either way)."""
    return abs(given - right) <= 0.5 * 10.0 ** -decimals + 1e-9


@dataclass(frozen=True)
class Exercise:
    """A list, its measure and the questions asked of it; `source` says where it came from."""

    list: RankedList
    measure: Measure
    questions: tuple[Question, ...]
    source: str = ""

    @classmethod
    def at_k(cls, lst: RankedList, measure: Measure, source: str = "") -> Exercise:
        """DCG@k, IDCG@k and NDCG@k of `lst` at the measure's k (no deeper than the list and its
        missed documents)."""
        pool = len(lst) + len(lst.unretrieved) if lst.has_pool else len(lst)
        k = max(1, min(measure.k or pool, pool))
        return cls(lst, measure, tuple(Question(f, k) for f in FIGURES), source)

    def row(self, rank: int) -> Exercise:
        """The same list, asking rank `rank`'s row: its gain, discount, DCG, IDCG and NDCG."""
        if not 1 <= rank <= len(self.list):
            raise ValueError(f"rank must be 1–{len(self.list)}, not {rank}")
        return replace(self, questions=tuple(Question(f, rank) for f in ROW))

    @cached_property
    def table(self) -> pd.DataFrame:
        return display_table(self.list, self.measure)

    def answer(self, q: Question) -> float:
        return figure_of(self.list, self.measure, q)

    def check(self, q: Question, text: str, decimals: int, prefer: frozenset[str] = frozenset()) -> Check:
        """The student's `text` for `q`, checked to `decimals` decimals and diagnosed when wrong
        (`prefer`: slips tried first, those found in the student's other answers)."""
        given = parse_answer(text)
        right = self.answer(q)
        if given is None or close(given, right, decimals):
            return Check(q, given, right, decimals)
        return Check(q, given, right, decimals, diagnose(self, q, given, decimals, prefer))

    def check_all(self, answers: dict[Question, str], decimals: int) -> list[Check]:
        """Every answer given, each wrong one diagnosed; a slip that explains one answer is tried
        first for the others (an NDCG of 1 after an IDCG in the list's order is that, again)."""
        checks = [self.check(q, text, decimals) for q, text in answers.items()]

        def others(c: Check) -> frozenset[str]:
            return frozenset(o.diagnosis.mistake for o in checks if o is not c and o.diagnosis is not None)

        return [self.check(c.question, answers[c.question], decimals, others(c)) if c.diagnosis else c
                for c in checks]


def parse_answer(text: str) -> float | None:
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def figure_of(lst: RankedList, measure: Measure, q: Question) -> float:
    """The figure `q` asks (at its rank, whatever the measure's k), from the core: the headline's
    scoring for DCG/IDCG/NDCG, the per-rank table for a rank's gain and discount."""
    if q.figure in FIGURES:
        s = list_summary(lst, measure.at(q.rank))
        return {"dcg": s.dcg, "idcg": s.idcg, "ndcg": s.ndcg}[q.figure]
    table = display_table(lst, measure)
    return float(table[q.figure].iat[q.rank - 1])


# ---- drawing a list at random ---------------------------------------------------------------------
def draw(difficulty: Difficulty, rng: random.Random) -> Exercise:
    """A list drawn at `difficulty` (at least one relevant document), asking its figures at k."""
    d, n = difficulty, difficulty.length

    def grade() -> float:
        return round(rng.uniform(0, d.max_grade), 1) if d.real_grades else float(rng.randint(0, d.max_grade))

    grades = [grade() for _ in range(n)]
    if not any(grades):
        grades[rng.randrange(n)] = float(d.max_grade)
    scores, ties = None, "trec"
    if d.ties and n > 1:
        i = rng.randrange(n - 1)
        if grades[i] == grades[i + 1]:  # (a tie of equal grades changes nothing: make it count)
            grades[i + 1] = float((int(grades[i]) + 1) % (d.max_grade + 1))
        scores = [float(n - j) for j in range(n)]
        scores[i + 1] = scores[i]
        ties = "average"
    unretrieved = {f"m{j + 1}": float(rng.randint(1, d.max_grade)) for j in range(d.missed)}
    docs = [f"d{j + 1}" for j in range(n)]
    lst = RankedList(docs=docs, grades=grades, scores=scores, unretrieved=unretrieved,
                     has_pool=bool(unretrieved))
    k = rng.randint(max(1, n // 2), n - 1) if d.cutoff_below and n > 1 else n
    measure = Measure(k=k, gain=d.gain, ideal="judged" if unretrieved else "retrieved", ties=ties)
    said = [f"length {n}", f"grades 0–{d.max_grade}" + (" (real)" if d.real_grades else "")]
    said += ["tied scores"] * bool(scores) + [f"{d.missed} missed"] * bool(d.missed)
    said += [f"k = {k}"] * (k < n) + ["exponential gain"] * (d.gain == "exponential")
    return Exercise(lst, measure,
                    tuple(Question(f, k) for f in FIGURES), "a random list: " + ", ".join(said))


# ---- the diagnosis ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Slip:
    mistake: str
    step: str
    figure: Callable[[Exercise, Question], float | None]  # None: the slip cannot happen here
    message: Callable[[Exercise, Question], str]
    figures: tuple[str, ...] = field(default=ROW)  # the questions it can explain


def _under(ex: Exercise, q: Question, **changes) -> float:
    """`q`'s figure under the exercise's measure with some choices changed."""
    return figure_of(ex.list, ex.measure.with_(**changes), q)


def _gains_of(ex: Exercise) -> tuple[np.ndarray, np.ndarray]:
    """(the list's gains as scored, the ideal's gains), from the per-rank table."""
    return ex.table["gain"].to_numpy(float), ex.table["ideal_gain"].to_numpy(float)


def _rounded(ex: Exercise, q: Question, places: int, what: str) -> float | None:
    """`q`'s figure with the terms (gain × discount), or the discounts, rounded to `places`
    decimals before they are added; for NDCG, or with DCG and IDCG rounded before dividing."""
    r = min(q.rank, len(ex.table))
    gain, ideal = _gains_of(ex)
    disc = ex.table["discount"].to_numpy(float)
    if q.figure == "discount" and what == "discount":
        return float(half_up(disc[q.rank - 1], places))
    if q.figure not in FIGURES:
        return None
    if what == "before dividing":
        if q.figure != "ndcg":
            return None
        dcg, idcg = (float(half_up(figure_of(ex.list, ex.measure, Question(f, q.rank)), places))
                     for f in ("dcg", "idcg"))
        return dcg / idcg if idcg else 0.0
    if ex.list.has_pool and q.rank > len(ex.table):
        return None  # (the ideal past the list's end is not in the table)
    d = half_up(disc[:r], places) if what == "discount" else disc[:r]
    terms = [half_up(g[:r] * d, places) if what == "terms" else g[:r] * d for g in (gain, ideal)]
    dcg, idcg = (float(t.sum()) for t in terms)
    return {"dcg": dcg, "idcg": idcg, "ndcg": dcg / idcg if idcg else 0.0}[q.figure]


def half_up(values, places: int) -> np.ndarray:
    """Rounded as a person rounds by hand: halves away from zero, at the decimal the figure shows
    (0.95 to 1 place is 1.0, though the float 0.95 lies just below it)."""
    return round_half_away(np.asarray(values, float), places)


def _list_order_ideal(ex: Exercise, q: Question) -> float | None:
    dcg = figure_of(ex.list, ex.measure, Question("dcg", q.rank))
    return {"idcg": dcg, "ndcg": 1.0 if dcg else 0.0}.get(q.figure)


def _ideal_grades(ex: Exercise, r: int) -> str:
    ideal = ex.table["ideal_grade"].to_numpy(float)[:r]
    return " ".join(format_grade(g) for g in ideal if not math.isnan(g))


def _gain_message(ex: Exercise, q: Question) -> str:
    exponential = ex.measure.gain == "exponential"
    i = max(1, min(q.rank, len(ex.list)))
    g = float(ex.list.scoring_grades()[i - 1])
    if exponential:
        return (f"your figure takes the grade itself as the gain; this definition's gain is 2^grade − 1 "
                f"(rank {i}: 2^{format_grade(g)} − 1 = {format_value(2 ** g - 1)}, not {format_grade(g)})")
    return (f"your figure uses the gain 2^grade − 1; this definition's gain is the grade itself "
            f"(rank {i}: {format_grade(g)}, not 2^{format_grade(g)} − 1 = {format_value(2 ** g - 1)})")


def _has_tie(ex: Exercise) -> bool:
    s = ex.list.scores
    return s is not None and len(s) > 1 and bool((np.diff(s) == 0).any())


def _slips(ex: Exercise) -> list[_Slip]:
    c = ex.measure
    log2, jk = c.discount == "log2", c.discount == "jarvelin"
    other_gain = "linear" if c.gain == "exponential" else "exponential"
    missed = {d: g for d, g in ex.list.unretrieved.items() if g > 0}
    gain_step, disc_step, cut_step = "Step 1, the gains", "Step 2, the discounts", "Step 3, the cut-off"
    ideal_step, round_step = "Step 4, the ideal ranking", "Step 5, rounding"
    return [
        _Slip("gain_" + other_gain, gain_step,
              lambda e, q: _under(e, q, gain=other_gain) if c.gain_table is None else None,
              _gain_message, ("gain", *FIGURES)),
        _Slip("ties_not_shared", gain_step,
              lambda e, q: _under(e, q, ties="file") if e.measure.ties == "average" and _has_tie(e)
              else None,
              lambda e, q: ("tied scores share their gains under this definition (scikit-learn's rule): each "
                            "of the tied documents counts the mean of their gains; yours kept each its own"),
              ("gain", *FIGURES)),
        _Slip("discount_ln", disc_step,
              lambda e, q: _under(e, q, discount="log", base=math.e) if log2 else None,
              lambda e, q: "you discounted by 1/ln(i+1), the natural logarithm; the discount is 1/log2(i+1)",
              ("discount", *FIGURES)),
        _Slip("discount_log2_i", disc_step,
              lambda e, q: _under(e, q, discount="jarvelin", base=2) if log2 else None,
              lambda e, q: ("you discounted rank i by 1/log2(i) (rank 1 left undiscounted), Järvelin and "
                            "Kekäläinen's form; this definition discounts rank i by 1/log2(i+1)"),
              ("discount", *FIGURES)),
        _Slip("discount_log2_i_plus_1", disc_step,
              lambda e, q: _under(e, q, discount="log2") if jk and c.base == 2 else None,
              lambda e, q: ("you discounted rank i by 1/log2(i+1); this definition leaves ranks 1 and 2 "
                            "undiscounted and discounts rank i ≥ 2 by 1/log2(i)"),
              ("discount", *FIGURES)),
        _Slip("discount_not_inverted", disc_step,
              lambda e, q: 1.0 / float(e.table["discount"].iat[q.rank - 1])
              if float(e.table["discount"].iat[q.rank - 1]) > 0 else None,
              lambda e, q: "you gave the logarithm itself; the discount is one over it", ("discount",)),
        _Slip("discount_next_rank", disc_step,
              lambda e, q: float(discounts(q.rank + 1, c)[q.rank]) if c.discount_table is None else None,
              lambda e, q: f"you took the discount of rank {q.rank + 1}: at rank {q.rank} it is "
                           f"{_formula(e, q.rank)}",
              ("discount",)),
        _Slip("no_discount", disc_step,
              lambda e, q: _under(e, q, discount=(1.0,) * max(q.rank, len(e.list) + len(e.list.unretrieved))),
              lambda e, q: "your figure has no discount: it is the cumulative gain, each gain added as it is",
              ("discount", *FIGURES)),
        _Slip("cut_off", cut_step, lambda e, q: None,  # (`diagnose` tries every other depth)
              lambda e, q: "", FIGURES),
        _Slip("ideal_list_order", ideal_step, _list_order_ideal,
              lambda e, q: (f"your IDCG used the list's order, not the ideal's: the ideal sorts the grades "
                            f"highest first ({_ideal_grades(e, q.rank)})"), ("idcg", "ndcg")),
        _Slip("ideal_missed_left_out", ideal_step,
              lambda e, q: _under(e, q, ideal="retrieved") if missed and c.ideal == "judged" else None,
              lambda e, q: ("the ideal must include the relevant documents the list missed ("
                            + ", ".join(f"{d}: grade {format_grade(g)}" for d, g in missed.items())
                            + "): they are what a perfect list would have shown"), ("idcg", "ndcg")),
        _Slip("ideal_with_missed", ideal_step,
              lambda e, q: _under(e, q, ideal="judged") if missed and c.ideal == "retrieved" else None,
              lambda e, q: ("this definition's ideal is the list's own grades sorted (scikit-learn's); "
                            "yours also counted the judged documents the list missed"), ("idcg", "ndcg")),
        _Slip("ideal_not_cut", ideal_step,
              lambda e, q: _under(e, q, ideal_depth="all"),
              lambda e, q: f"your IDCG sums the whole ideal ranking; it stops at rank {q.rank}, as the DCG "
                           "does",
              ("idcg", "ndcg")),
        *[_Slip(f"rounded_{what.replace(' ', '_')}_{p}", round_step,
                lambda e, q, p=p, what=what: _rounded(e, q, p, what),
                lambda e, q, p=p, what=what: _rounding_message(p, what),
                ("discount", *FIGURES) if what == "discount" else FIGURES)
          for p in (1, 2, 3) for what in ("discount", "terms", "before dividing")],
        _Slip("ndcg_inverted", "Step 6, the division",
              lambda e, q: (lambda d, i: i / d if d else None)(
                  *(figure_of(e.list, e.measure, Question(f, q.rank)) for f in ("dcg", "idcg"))),
              lambda e, q: "you divided IDCG by DCG; NDCG is DCG / IDCG", ("ndcg",)),
    ]


def _rounding_message(places: int, what: str) -> str:
    rounded = {"terms": "each term", "discount": "the discounts"}.get(what, "DCG and IDCG")
    before = "dividing" if what == "before dividing" else "adding"
    decimals = f"{places} decimal{'s' * (places > 1)}"
    return f"you rounded {rounded} to {decimals} before {before}: round only the answer"


def _formula(ex: Exercise, rank: int) -> str:
    return discount_formula(rank, ex.measure)


def arithmetic(ex: Exercise, q: Question) -> str:
    """The right arithmetic of `q`'s figure, written out."""
    c, r = ex.measure, q.rank
    table = ex.table
    if q.figure not in FIGURES:
        return explain_cell(table, r - 1, q.figure, c)
    dcg, idcg = sum_text(table, c, r), sum_text(table, c, r, ideal=True)
    ideal = f"the ideal ranking: {_ideal_grades(ex, r)}"
    if q.figure == "dcg":
        return dcg
    if q.figure == "idcg":
        return f"{ideal}\n{idcg}"
    d, i = (figure_of(ex.list, ex.measure, Question(f, r)) for f in ("dcg", "idcg"))
    ndcg = (f"NDCG@{r} = DCG@{r} / IDCG@{r} = {format_value(d)} / {format_value(i)} = "
            f"{format_value(ex.answer(q))}")
    return f"{dcg}\n{ideal}\n{idcg}\n{ndcg}"


def diagnose(ex: Exercise, q: Question, given: float, decimals: int,
             prefer: frozenset[str] = frozenset()) -> Diagnosis:
    """The first step where `given` departs from `q`'s figure (see the module's text); the slips
    in `prefer` are tried first."""
    right = ex.answer(q)
    worked = arithmetic(ex, q)

    def gives(value: float | None) -> bool:
        return value is not None and math.isfinite(value) and close(given, value, decimals) \
            and not close(value, right, decimals)

    slips = _slips(ex)
    for slip in [s for s in slips if s.mistake in prefer] + [s for s in slips if s.mistake not in prefer]:
        if q.figure not in slip.figures:
            continue
        if slip.mistake == "cut_off":
            depth = _depth_slip(ex, q, gives)
            if depth is not None:
                name = NAMES[q.figure]
                said = f"your figure is {name}@{depth}: the sum stops at rank {q.rank} (k = {q.rank})"
                return Diagnosis("cut_off", slip.step, said, worked)
            continue
        if gives(slip.figure(ex, q)):
            return Diagnosis(slip.mistake, slip.step, slip.message(ex, q), worked)
    for places in range(decimals):
        if gives(float(half_up(right, places))):
            said = f"your figure is rounded to {places} decimals; the answer is asked to {decimals}"
            return Diagnosis(f"rounded_answer_{places}", "Step 7, the last digit", said, worked)
    if gives(math.trunc(right * 10**decimals) / 10**decimals):
        return Diagnosis("truncated", "Step 7, the last digit",
                         f"your figure is cut to {decimals} decimals, not rounded", worked)
    return Diagnosis("unknown", "Somewhere in the sum",
                     f"none of the usual slips gives {format_value(given)}; compare yours with each step:",
                     worked)


def _depth_slip(ex: Exercise, q: Question, gives: Callable[[float], bool]) -> int | None:
    """The other depth whose figure the student gave (summed too far, or stopped early)."""
    deepest = len(ex.list) + (len(ex.list.unretrieved) if ex.list.has_pool else 0)
    for depth in range(1, max(deepest, q.rank) + 1):
        if depth != q.rank and gives(figure_of(ex.list, ex.measure, Question(q.figure, depth))):
            return depth
    return None

