"""The exercises' checking and diagnosis, against brute force: each slip a student makes is
worked out here by plain loops (not the core), its figure given as the answer, and the diagnosis
must name a step whose own slip, worked out here again, gives that figure."""

from __future__ import annotations

import math
import random
from decimal import ROUND_HALF_UP, Decimal

import pytest

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.teaching.exercises import Difficulty, Exercise, Question, close, draw


def by_hand(x: float, places: int) -> float:
    """Rounded as a person does, at the decimals the figure shows."""
    return float(Decimal(f"{x:.12f}").quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


# ---- brute force: a list's figures, and the slips, by loops ---------------------------------------
def bf(ex: Exercise, q: Question, slip: str = "", places: int = 0) -> float | None:
    lst, c, r = ex.list, ex.measure, q.rank
    exponential = (c.gain == "exponential") != (slip == "gain_exponential" or slip == "gain_linear")

    def gain(x: float) -> float:
        return 2.0 ** x - 1 if exponential else x

    def disc(i: int) -> float:
        jk = (c.discount == "jarvelin") != (slip in ("discount_log2_i", "discount_log2_i_plus_1"))
        d = (1.0 / math.log(i + 1) if slip == "discount_ln" else 1.0 if slip == "no_discount"
             else (1.0 if i < 2 else 1.0 / math.log2(i)) if jk else 1.0 / math.log2(i + 1))
        return by_hand(d, places) if slip == "rounded_discount" else d

    grades = [float(g) for g in lst.grades]
    gains = [gain(g) for g in grades]
    if ex.measure.ties == "average" and lst.scores is not None and slip != "ties_not_shared":
        i = 0
        while i < len(gains):
            j = i
            while j + 1 < len(gains) and lst.scores[j + 1] == lst.scores[i]:
                j += 1
            mean = sum(gains[i:j + 1]) / (j + 1 - i)
            gains[i:j + 1] = [mean] * (j + 1 - i)
            i = j + 1
    pool = list(grades)
    judged = c.ideal == "judged" and lst.has_pool
    flipped = (slip == "ideal_missed_left_out" and judged) or (slip == "ideal_with_missed" and not judged)
    if judged != flipped:
        pool += list(lst.unretrieved.values())
    ideal = sorted((gain(g) for g in pool), reverse=True)

    def term(g: float, i: int) -> float:
        t = g * disc(i)
        return by_hand(t, places) if slip == "rounded_terms" else t

    dcg = sum(term(g, i) for i, g in enumerate(gains[:r], 1))
    idepth = len(ideal) if slip == "ideal_not_cut" else r
    idcg = dcg if slip == "ideal_list_order" else sum(term(g, i) for i, g in enumerate(ideal[:idepth], 1))
    if slip == "rounded_before_dividing":
        dcg, idcg = by_hand(dcg, places), by_hand(idcg, places)
    if q.figure == "dcg":
        return dcg
    if q.figure == "idcg":
        return idcg
    if q.figure == "ndcg":
        if slip == "ndcg_inverted":
            return idcg / dcg if dcg else None
        return dcg / idcg if idcg else 0.0
    if q.figure == "gain":
        return gains[r - 1]
    d = disc(r)
    return {"discount_not_inverted": 1 / d if d else None, "discount_next_rank": disc(r + 1)}.get(slip, d)


SLIPS = ["gain_exponential", "gain_linear", "ties_not_shared", "discount_ln", "discount_log2_i",
         "discount_not_inverted", "discount_next_rank", "no_discount", "ideal_list_order",
         "ideal_missed_left_out", "ideal_not_cut", "rounded_discount", "rounded_terms",
         "rounded_before_dividing", "ndcg_inverted"]


def slip_figure(ex: Exercise, q: Question, mistake: str, decimals: int) -> float | None:
    """The brute-force figure of the slip a diagnosis names (its code: `rounded_terms_2`, `cut_off`…)."""
    if mistake == "truncated":
        return math.trunc(bf(ex, q) * 10**decimals) / 10**decimals
    base, _, places = mistake.rpartition("_")
    if base == "rounded_answer":
        return by_hand(bf(ex, q), int(places))
    if base.startswith("rounded_"):
        return bf(ex, q, base, int(places))
    return bf(ex, q, mistake)


def test_brute_force_is_the_cores_figure():
    for seed in range(40):
        ex = draw(Difficulty(length=7, ties=seed % 2 == 0, missed=seed % 3, cutoff_below=seed % 4 == 0,
                             gain="exponential" if seed % 5 == 0 else "linear"), random.Random(seed))
        for q in (*ex.questions, *ex.row(1 + seed % 7).questions):
            assert bf(ex, q) == pytest.approx(ex.answer(q), abs=1e-9), (seed, q)


E1 = RankedList(docs=list("abcde"), grades=[3, 2, 3, 0, 1])
MISSED = RankedList(docs=list("abcde"), grades=[3, 2, 3, 0, 1], unretrieved={"x": 3.0}, has_pool=True)


@pytest.mark.parametrize(("lst", "config", "ask", "slip", "places", "decimals", "step"), [
    (E1, Measure(ideal="retrieved"), "dcg", "gain_exponential", 0, 4, "Step 1, the gains"),
    (E1, Measure(gain="exponential"), "ndcg", "gain_linear", 0, 4, "Step 1, the gains"),
    (E1, Measure(), "dcg", "discount_ln", 0, 4, "Step 2, the discounts"),
    (E1, Measure(), "dcg", "discount_log2_i", 0, 4, "Step 2, the discounts"),
    (E1, Measure(), "idcg", "ideal_list_order", 0, 4, "Step 4, the ideal ranking"),
    (MISSED, Measure(), "idcg", "ideal_missed_left_out", 0, 4, "Step 4, the ideal ranking"),
    (MISSED, Measure(), "ndcg", "ideal_missed_left_out", 0, 4, "Step 4, the ideal ranking"),
    (E1, Measure(), "dcg", "rounded_terms", 1, 2, "Step 5, rounding"),
    (E1, Measure(), "ndcg", "ndcg_inverted", 0, 3, "Step 6, the division"),
])
def test_each_slip_on_e1_is_named_at_its_step(lst, config, ask, slip, places, decimals, step):
    ex = Exercise.at_k(lst, config.with_(k=5))
    q = next(q for q in ex.questions if q.figure == ask)
    wrong = bf(ex, q, slip, places)
    check = ex.check(q, f"{wrong:.{decimals}f}", decimals)
    assert not check.correct
    d = check.diagnosis
    assert d.mistake == (f"{slip}_{places}" if slip.startswith("rounded") else slip)
    assert d.step == step
    assert d.arithmetic in check.text()


def test_idcg_in_the_lists_order_is_said_so_with_the_ideal():
    ex = Exercise.at_k(E1, Measure(k=5))
    d = ex.check(Question("idcg", 5), "6.1487", 4).diagnosis
    assert d.message.startswith("your IDCG used the list's order, not the ideal's")
    assert "3 3 2 1 0" in d.message and "6.3235" in d.arithmetic


def test_a_figure_at_another_depth_names_the_cut_off():
    ex = Exercise.at_k(E1, Measure(k=3))
    d = ex.check(Question("dcg", 3), "6.1487", 4).diagnosis  # DCG@5: the whole list summed
    assert (d.mistake, d.step) == ("cut_off", "Step 3, the cut-off") and "DCG@5" in d.message


def test_right_answers_pass_at_the_precision_asked_and_only_there():
    ex = Exercise.at_k(E1, Measure(k=5))
    q = Question("ndcg", 5)  # 0.97236…
    assert ex.check(q, "0.97", 2).correct and ex.check(q, "0.972", 3).correct
    assert ex.check(q, "0,9724", 4).correct  # a decimal comma
    assert not ex.check(q, "0.972", 4).correct  # not to 4 decimals
    assert ex.check(q, "0.9723", 4).diagnosis.mistake == "truncated"
    bad = ex.check(q, "zero point nine", 4)
    assert bad.given is None and not bad.correct and "not a number" in bad.text()


@pytest.mark.parametrize("seed", range(60))
def test_every_diagnosis_is_a_slip_that_gives_the_students_figure(seed):
    """Random lists, every slip worked out by brute force as the student's answer: the diagnosis
    is never "unknown" and the slip it names, worked out again here, gives that figure."""
    rng = random.Random(seed)
    ex = draw(Difficulty(length=rng.randint(2, 8), max_grade=rng.choice([1, 3, 4]),
                         real_grades=seed % 7 == 0, ties=seed % 2 == 1, missed=seed % 3,
                         cutoff_below=seed % 4 != 0, gain=rng.choice(["linear", "exponential"])), rng)
    tried = 0
    for q in (*ex.questions, *ex.row(rng.randint(1, len(ex.list))).questions):
        right = ex.answer(q)
        for slip in SLIPS:
            for places, decimals in ((2, 4), (1, 3)) if slip.startswith("rounded") else ((0, 4),):
                wrong = bf(ex, q, slip, places)
                if wrong is None or close(wrong, right, decimals):  # (the slip changes nothing here)
                    continue
                tried += 1
                check = ex.check(q, repr(wrong), decimals)
                d = check.diagnosis
                assert d is not None and d.mistake != "unknown", (seed, q, slip)
                if d.mistake == "cut_off":
                    depth = int(d.message.split("@")[1].split(":")[0])
                    named = ex.answer(Question(q.figure, depth))
                else:
                    named = slip_figure(ex, q, d.mistake, decimals)
                assert named is not None and close(wrong, named, decimals), (seed, q, slip, d.mistake)
    assert tried


def test_draw_follows_its_difficulty():
    for seed in range(30):
        d = Difficulty(length=6, max_grade=4, ties=True, missed=2, cutoff_below=True, gain="exponential")
        ex = draw(d, random.Random(seed))
        lst = ex.list
        assert len(lst) == 6 and set(lst.grades) <= {0, 1, 2, 3, 4} and lst.grades.max() > 0
        assert len(lst.unretrieved) == 2 and ex.measure.ideal == "judged"
        assert ex.measure.k < 6 and ex.measure.ties == "average"
        tied = [i for i in range(5) if lst.scores[i] == lst.scores[i + 1]]
        assert len(tied) == 1 and lst.grades[tied[0]] != lst.grades[tied[0] + 1]
        assert ex.measure.gain == "exponential"
    plain = draw(Difficulty(length=4), random.Random(1))
    assert plain.list.scores is None and not plain.list.unretrieved and plain.measure.k == 4
    assert [q.label for q in plain.questions] == ["DCG@4", "IDCG@4", "NDCG@4"]


def test_a_slip_found_in_one_answer_is_named_first_for_the_others():
    ex = Exercise.at_k(E1, Measure(ideal="retrieved", k=5))
    dcg, idcg, ndcg = ex.questions
    alone = ex.check(ndcg, "1", 3).diagnosis  # NDCG = 1: CG / ideal CG, or DCG over itself
    assert alone.mistake == "no_discount"  # (the first step that gives it)
    checks = ex.check_all({dcg: "6.149", idcg: "6.149", ndcg: "1"}, 3)
    assert checks[0].correct
    assert [c.diagnosis.mistake for c in checks[1:]] == ["ideal_list_order", "ideal_list_order"]
