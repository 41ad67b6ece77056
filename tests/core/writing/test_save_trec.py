"""Saving a loaded TREC run or qrels: the lines of unedited queries are kept as they were (separator,
comments, extra fields), an edited query's lines are rewritten, and trec_eval's order is kept."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.reading import load
from ndcg_gui.core.writing.writers import write_qrels, write_trec_run

RUNS = {
    "spaces": "301 Q0 a 1 3.5 sys\n301 Q0 b 2 2.25 sys\n302 Q0 c 1 9 sys\n302 Q0 d 2 8 sys\n",
    "tabs, CRLF": "301\tQ0\ta\t1\t3.5\tsys\r\n301\tQ0\tb\t2\t2.25\tsys\r\n302\tQ0\tc\t1\t9\tsys\r\n",
    "comments, blank lines, extra fields, no final newline": (
        "# my run\n301 Q0 a 1 3.5 sys extra field\n301  Q0 b 2 2.25 sys\n\n  # indented\n"
        "302 Q0 c 1 9 sys\n302 Q0 d 2 8.000 sys"
    ),
    "queries out of order, tied scores": "302 Q0 c 1 9 s\n301 Q0 b 1 2 s\n301 Q0 a 2 2 s\n302 Q0 d 2 9 s\n",
}
QRELS = "301 0 a 1\n301 0 b 2\n301 0 z 3\n302 0 c 0\n303 0 x 1\n"


@pytest.fixture
def qrels(tmp_path):
    path = tmp_path / "in.qrels"
    path.write_text(QRELS)
    return path


@pytest.mark.parametrize("text", RUNS.values(), ids=RUNS.keys())
def test_an_untouched_run_and_qrels_are_written_back_byte_for_byte(tmp_path, qrels, text):
    run = tmp_path / "in.run"
    run.write_bytes(text.encode())
    dataset = load(run, qrels)
    write_trec_run(dataset, tmp_path / "out.run")
    write_qrels(dataset, tmp_path / "out.qrels")
    assert (tmp_path / "out.run").read_bytes() == text.encode()
    assert (tmp_path / "out.qrels").read_text() == QRELS


@pytest.mark.parametrize("text", RUNS.values(), ids=RUNS.keys())
def test_only_the_edited_querys_lines_change(tmp_path, qrels, text):
    run = tmp_path / "in.run"
    run.write_bytes(text.encode())
    dataset = load(run, qrels)
    rl = dataset.ranked_list("301")
    edited = dataset.with_lists({"301": rl.reordered([1, 0])})
    write_trec_run(edited, tmp_path / "out.run")
    out = (tmp_path / "out.run").read_text()
    kept = [line for line in text.splitlines() if not line.lstrip().startswith("301")]
    assert [line for line in out.splitlines() if not line.lstrip().startswith("301")] == kept
    back = load(tmp_path / "out.run", qrels)
    assert back.ranked_list("301").docs.tolist() == rl.docs.tolist()[::-1]
    assert back.ranked_list("302") == dataset.ranked_list("302")


def test_a_rewritten_line_keeps_its_separator_and_extra_fields(tmp_path, qrels):
    run = tmp_path / "in.run"
    run.write_text("301\tQ0\ta\t1\t3.5\tsys\textra\n301\tQ0\tb\t2\t2.25\tsys\n")
    dataset = load(run, qrels)
    rl = dataset.ranked_list("301")
    write_trec_run(dataset.with_lists({"301": rl.reordered([1, 0]).inserted(2, ["n"], [1])}), tmp_path / "o")
    assert (tmp_path / "o").read_text() == (
        "301\tQ0\tb\t1\t3\tsys\n301\tQ0\ta\t2\t2\tsys\textra\n301\tQ0\tn\t3\t1\tsys\n"
    )


def test_edited_judgments_change_only_their_lines_new_ones_follow_the_querys(tmp_path, qrels):
    run = tmp_path / "in.run"
    run.write_text(RUNS["spaces"])
    dataset = load(run, qrels)
    rl = dataset.ranked_list("301")  # a (1), b (2); z (3) judged, not retrieved
    rl = rl.with_grade(1, 0).with_grade(0, math.nan).inserted(2, ["new"], [2])
    write_qrels(dataset.with_lists({"301": rl}), tmp_path / "out.qrels")
    assert (tmp_path / "out.qrels").read_text() == (
        "301 0 b 0\n301 0 z 3\n301 0 new 2\n302 0 c 0\n303 0 x 1\n"
    )


def test_a_qrels_file_opened_alone_is_saved_in_its_own_format(tmp_path):
    path = tmp_path / "in.qrels"
    path.write_text("# judged by A\n301\t0\ta\t1\n301\t0\tb\t2\n302\t0\tc\t0\n")
    dataset = load(path)
    write_qrels(dataset, tmp_path / "same")
    assert (tmp_path / "same").read_bytes() == path.read_bytes()
    edited = dataset.with_lists({"301": dataset.ranked_list("301").with_grade(1, 3)})
    write_qrels(edited, tmp_path / "out")
    assert (tmp_path / "out").read_text() == "# judged by A\n301\t0\ta\t1\n301\t0\tb\t3\n302\t0\tc\t0\n"


def test_a_new_tag_rewrites_every_line(tmp_path, qrels):
    run = tmp_path / "in.run"
    run.write_text(RUNS["spaces"])
    write_trec_run(load(run, qrels), tmp_path / "out.run", tag="mine")
    assert {line.split()[5] for line in (tmp_path / "out.run").read_text().splitlines()} == {"mine"}


# ---- any run, any edit ---------------------------------------------------------------------------
_ID = st.text("abcXYZ019_-.#", min_size=1, max_size=5).filter(lambda s: not s.startswith("#"))


@st.composite
def runs(draw):
    sep = draw(st.sampled_from([" ", "\t", "  "]))
    lines = []
    for q in draw(st.lists(st.sampled_from(["301", "302", "q3", "4"]), min_size=1, max_size=3, unique=True)):
        docs = draw(st.lists(_ID, min_size=1, max_size=6, unique=True))
        for i, d in enumerate(docs):
            score = draw(st.sampled_from(["1", "2", "2.5", "-0.125", "3e2", "1.000"]))
            extra = draw(st.sampled_from(["", f"{sep}extra"]))
            lines.append(sep.join([q, "Q0", d, str(i + 1), score, "tag"]) + extra)
            if draw(st.integers(0, 9)) == 0:
                lines.append(draw(st.sampled_from(["", "# note", "  # indented note"])))
    draw(st.randoms()).shuffle(lines)
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    final = ending if draw(st.booleans()) else ""
    return ending.join(lines) + final


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=runs(), choice=st.data())
def test_any_run_is_kept_byte_for_byte_and_a_reordered_query_reads_back(tmp_path, text, choice):
    run = tmp_path / "in.run"
    run.write_bytes(text.encode())
    dataset = load(run, need_grades=False)
    write_trec_run(dataset, tmp_path / "out.run")
    assert (tmp_path / "out.run").read_bytes() == text.encode()
    query = choice.draw(st.sampled_from(dataset.queries()))
    rl = dataset.ranked_list(query)
    order = choice.draw(st.permutations(range(len(rl))))
    edited = dataset.with_lists({query: rl.reordered(order)})
    write_trec_run(edited, tmp_path / "out.run")
    back = load(tmp_path / "out.run", need_grades=False)
    assert back.queries() == dataset.queries()
    for q in dataset.queries():
        want = edited.ranked_list(q).docs.tolist()
        assert back.ranked_list(q).docs.tolist() == want
    kept = [ln for ln in text.splitlines() if ln.split()[:1] != [query]]
    assert [ln for ln in (tmp_path / "out.run").read_text().splitlines() if ln.split()[:1] != [query]] == kept
    if list(order) != list(range(len(rl))):  # a changed order is written with scores that give it
        scores = back.ranked_list(query).scores
        assert np.all(np.diff(scores) < 0) or np.array_equal(scores, rl.scores[list(order)])


@st.composite
def qrels_files(draw):
    sep = draw(st.sampled_from([" ", "\t"]))
    lines = []
    for q in draw(st.lists(st.sampled_from(["301", "302", "q3"]), min_size=1, max_size=3, unique=True)):
        for d in draw(st.lists(_ID, min_size=1, max_size=5, unique=True)):
            lines.append(sep.join([q, draw(st.sampled_from(["0", "Q0", "1"])), d,
                                   draw(st.sampled_from(["0", "1", "2", "-1", "1.5"]))]))
    draw(st.randoms()).shuffle(lines)
    return "\n".join(lines) + "\n"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=qrels_files(), choice=st.data())
def test_any_qrels_is_kept_byte_for_byte_and_edited_grades_read_back(tmp_path, text, choice):
    path = tmp_path / "in.qrels"
    path.write_text(text)
    dataset = load(path)
    write_qrels(dataset, tmp_path / "out")
    assert (tmp_path / "out").read_text() == text
    query = choice.draw(st.sampled_from(dataset.queries()))
    rl = dataset.ranked_list(query)
    row = choice.draw(st.integers(0, len(rl) - 1))
    grade = choice.draw(st.sampled_from([math.nan, 0.0, 3.0, -2.0]))
    edited = dataset.with_lists({query: rl.with_grade(row, grade)})
    write_qrels(edited, tmp_path / "out")
    want = {d: g for d, g in zip(rl.docs.tolist(), rl.grades.tolist(), strict=True)}
    want[rl.docs[row]] = grade
    want = {d: g for d, g in want.items() if not math.isnan(g)}  # unjudged: its line is gone
    if not (tmp_path / "out").read_text().strip():  # the only judgment was taken back
        assert want == {} and len(dataset.queries()) == 1
        return
    back = load(tmp_path / "out")
    got = back.ranked_list(query).judgments() if query in back.queries() else {}
    assert got == want
    for other in dataset.queries():
        if other != query:
            assert back.ranked_list(other).judgments() == dataset.ranked_list(other).judgments()


def test_a_query_whose_rows_were_all_deleted_loses_its_lines(tmp_path, qrels):
    run = tmp_path / "in.run"
    run.write_text(RUNS["comments, blank lines, extra fields, no final newline"])
    dataset = load(run, qrels)
    edited = dataset.with_lists({"301": dataset.ranked_list("301").removed([0, 1])})
    write_trec_run(edited, tmp_path / "out.run")
    assert (tmp_path / "out.run").read_text() == (
        "# my run\n\n  # indented\n302 Q0 c 1 9 sys\n302 Q0 d 2 8.000 sys"
    )
    back = load(tmp_path / "out.run", qrels)
    empty = back.ranked_list("301")  # judged, without results now
    assert len(empty) == 0 and empty.unretrieved == {"a": 1, "b": 2, "z": 3}


def test_a_query_of_a_run_alone_whose_rows_were_all_deleted_loses_its_lines(tmp_path):
    run = tmp_path / "in.run"
    run.write_text(RUNS["spaces"])
    dataset = load(run, need_grades=False)
    write_trec_run(dataset.with_lists({"302": dataset.ranked_list("302").removed([0, 1])}), tmp_path / "o")
    assert (tmp_path / "o").read_text() == "301 Q0 a 1 3.5 sys\n301 Q0 b 2 2.25 sys\n"
