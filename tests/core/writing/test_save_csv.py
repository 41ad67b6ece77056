"""Saving a loaded CSV loses nothing: an untouched file is written back byte for byte, an edited one
changes only the edited query's lines, and the file's other columns travel with their rows.

The files are written here by Python's csv module (an independent writer), in every spelling the
reader accepts; edits are checked against a plain model of the lists (rows as dicts).
"""

from __future__ import annotations

import codecs
import csv
import io
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.reading import load
from ndcg_gui.core.writing.writers import write_csv

VARIANTS = {
    "comma": b"doc,grade\na,3\nb,2\nc,0\n",
    "semicolon, title and url, decimal comma, Windows-1252, CRLF": (
        "query;doc;title;grade;url\r\nq1;a;Caf\u00e9 \"x\";2,5;http://a\r\nq1;b;;;http://b\r\n"
        "q2;c;T;1;\r\n"
    ).encode("cp1252"),
    "tab, scores": b"qid\tdocid\trel\tscore\n1\ta\t1\t0.5\n1\tb\t0\t0.7\n",
    "runs of spaces": b"doc grade\na   3\nb 2\n  c\t0  \n",
    "every cell quoted": b'"doc","grade","note"\r\n"a","3","x, y"\r\n"b","2",""\r\n',
    "CR line ends": b"doc,grade\ra,3\rb,2\r",
    "UTF-8 BOM, no final newline": codecs.BOM_UTF8 + b"doc,grade\na,3\nb,1",
    "UTF-16": "doc,grade,t\n\u00e4,3,\u65e5\nb,1,x\n".encode("utf-16"),
    "blank lines": b"\n\ndoc,grade\n\na,3\nb,2\n\nc,0\n\n",
    "header-less grades with a blank line": b"3\n2\n\n0\n1\n",
    "header-less doc, grade pairs": b"x,1\ny,\nz,2\n",
    "a quoted field over two lines": b'doc,grade,note\n"a, b",1,"two\nlines"\nc,2,plain\n',
    "ranks out of file order": b"query,rank,doc,grade\nq,2,b,1\nq,1,a,3\nr,1,c,0\nq,3,d,2\n",
    "interleaved queries": b"query,doc,grade,score\nq,a,1,3\nr,x,0,1\nq,b,2,2\n",
    "ids with spaces, one quoted": b'doc,grade\n" a ",1\nb ,2\n',
    "spelled headers": b"Query ID;Doc ID;Relevance;Title\nq;a;1;t1\nq;b;0;t2\n",
}


@pytest.mark.parametrize("data", VARIANTS.values(), ids=VARIANTS.keys())
def test_an_untouched_file_is_written_back_byte_for_byte(tmp_path, data):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_bytes(data)
    write_csv(load(path), out)
    assert out.read_bytes() == data


def lists_of(dataset):
    """{query: [(doc, grade or None, {extra: text})]} — what the window shows."""
    result = {}
    for q in dataset.queries():
        rl = dataset.ranked_list(q)
        result[q] = [
            (str(d), None if math.isnan(g) else g, {k: str(v[i]) for k, v in rl.extras.items()})
            for i, (d, g) in enumerate(zip(rl.docs.tolist(), rl.grades.tolist(), strict=True))
        ]
    return result


@pytest.mark.parametrize("data", VARIANTS.values(), ids=VARIANTS.keys())
def test_an_edited_query_reads_back_as_edited_and_the_others_as_they_were(tmp_path, data):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_bytes(data)
    dataset = load(path)
    first = dataset.queries()[0]
    rl = dataset.ranked_list(first)
    edited = rl.reordered(list(range(len(rl)))[::-1]).with_grade(0, 4).inserted(1, ["d9"], [math.nan])
    changed = dataset.with_lists({first: edited})
    write_csv(changed, out)
    back = load(out)
    want = lists_of(changed)
    got = lists_of(back)
    if dataset.file_format.columns == ("grade",):  # a list of grades names its documents by position
        want = {q: [(f"d{i + 1}", g, x) for i, (_, g, x) in enumerate(rows)] for q, rows in want.items()}
    assert got == want
    assert back.extra_columns == dataset.extra_columns


def test_the_semicolon_csv_keeps_title_and_url_and_changes_only_the_edited_lines(tmp_path):
    text = (
        "Query;Doc ID;Title;Grade;URL\r\n"
        'q1;a;"Café, ""au lait""";2,5;http://x/a\r\n'
        "q1;b;Tea;0;http://x/b\r\n"
        "q1;c;Milk;1;http://x/c\r\n"
        "\r\n"
        "q2;d;Ünïcode;;http://x/d\r\n"
    )
    path, out = tmp_path / "drinks.csv", tmp_path / "saved.csv"
    path.write_bytes(text.encode("cp1252"))
    dataset = load(path)
    assert dataset.extra_columns == ("Title", "URL")
    assert dataset.file_format.header == ("Query", "Doc ID", "Title", "Grade", "URL")
    rl = dataset.ranked_list("q1")
    assert rl.extras["Title"].tolist() == ['Café, "au lait"', "Tea", "Milk"]
    # b dragged to the top, then its grade set to 1.5: the title and url go with it.
    edited = rl.moved(1, 1, 0).with_grade(0, 1.5)
    write_csv(dataset.with_lists({"q1": edited}), out)
    assert out.read_bytes().decode("cp1252").split("\r\n") == [
        "Query;Doc ID;Title;Grade;URL",
        "q1;b;Tea;1,5;http://x/b",
        'q1;a;"Café, ""au lait""";2,5;http://x/a',
        "q1;c;Milk;1;http://x/c",
        "",
        "q2;d;Ünïcode;;http://x/d",
        "",
    ]


def test_a_new_row_gets_blank_extra_cells_and_a_removed_row_takes_its_cells_along(tmp_path):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_text("doc,grade,title\na,1,Alpha\nb,2,Beta\nc,0,Gamma\n")
    dataset = load(path)
    rl = dataset.ranked_list("").removed([1]).inserted(0, ["n"], [3])
    write_csv(dataset.with_lists({"": rl}), out)
    assert out.read_text() == "doc,grade,title\nn,3,\na,1,Alpha\nc,0,Gamma\n"


def test_a_value_the_files_encoding_cannot_hold_switches_the_file_to_utf8(tmp_path):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_bytes("doc;grade\ncafé;1\n".encode("cp1252"))
    dataset = load(path)
    write_csv(dataset.with_lists({"": dataset.ranked_list("").with_doc(0, "→ arrow")}), out)
    assert out.read_bytes() == codecs.BOM_UTF8 + "doc;grade\n→ arrow;1\n".encode()
    assert load(out).ranked_list("").docs.tolist() == ["→ arrow"]


def test_a_list_of_grades_that_gets_named_documents_gets_a_header(tmp_path):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_text("3\n2\n")
    dataset = load(path)
    write_csv(dataset.with_lists({"": dataset.ranked_list("").with_doc(1, "named")}), out)
    assert out.read_text() == "rank,doc,grade\n1,d1,3\n2,named,2\n"


def test_ids_with_leading_or_trailing_spaces_survive_a_save(tmp_path):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_text("doc,grade\na,1\nb,2\n")
    dataset = load(path)
    rl = dataset.ranked_list("").with_doc(0, " a").inserted(2, ["b ", "  "], [0, 1])
    write_csv(dataset.with_lists({"": rl}), out)
    assert load(out).ranked_list("").docs.tolist() == [" a", "b", "b ", "  "]
    write_csv(rl, out)  # the standard layout too
    assert load(out).ranked_list("").docs.tolist() == [" a", "b", "b ", "  "]


FORMULA_LIKE = ["=SUM(A1)", "'-abc", "@user", "+1x", "-x", "''=q", "\tx"]


def test_ids_a_spreadsheet_would_run_are_saved_as_they_are_and_read_back(tmp_path):
    """A saved list's ids are data that must match their qrels: written verbatim (no `'` added),
    so the file reads back with every id as it was, in the file's own layout and the standard one."""
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    rows = "".join(f'q,"{d}",1,"={i}"\n' for i, d in enumerate(FORMULA_LIKE))
    path.write_text("query,doc,grade,title\n" + rows)
    dataset = load(path)
    assert dataset.ranked_list("q").docs.tolist() == FORMULA_LIKE
    write_csv(dataset, out)
    assert out.read_bytes() == path.read_bytes()
    edited = dataset.ranked_list("q").reordered(list(range(len(FORMULA_LIKE)))[::-1]).with_grade(0, 2)
    for writer_input in (dataset.with_lists({"q": edited}), edited):  # own layout, then standard
        write_csv(writer_input, out)
        back = load(out)
        assert back.ranked_list(back.queries()[0]).docs.tolist() == FORMULA_LIKE[::-1]
        write_csv(back, tmp_path / "again.csv")
        assert (tmp_path / "again.csv").read_bytes() == out.read_bytes()


def test_a_reordered_list_ranked_by_score_gets_scores_that_keep_its_order(tmp_path):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_text("doc,grade,score\na,1,0.9\nb,2,0.5\nc,0,0.1\n")
    dataset = load(path)
    write_csv(dataset.with_lists({"": dataset.ranked_list("").reordered([2, 0, 1])}), out)
    assert out.read_text() == "doc,grade,score\nc,0,3\na,1,2\nb,2,1\n"
    assert load(out).ranked_list("").docs.tolist() == ["c", "a", "b"]


# ---- any CSV the reader accepts, any edit ------------------------------------------------------
_ID = st.text("abcXYZ019_-.é", min_size=1, max_size=5) | st.builds(
    lambda a, b: f"{a} {b}", st.text("ab1", min_size=1, max_size=3), st.text("xy2", min_size=1, max_size=3))
_TEXT = st.text(st.sampled_from(list("ab ,;\"'é\n=x")), max_size=8)
_NEW_ID = st.text(st.sampled_from(list("ab ,;\"'é=+-@\t")), min_size=1, max_size=6).filter(
    lambda s: s.strip(" \t") != "" or s == "  ")
_GRADE = st.one_of(st.none(), st.integers(-1, 4).map(float), st.sampled_from([0.5, 2.25, -1.5]))


@st.composite
def csv_files(draw):
    """(bytes, delimiter): a CSV with query, doc, grade and 0-2 extra columns in any order."""
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    comma = delimiter != "," and draw(st.booleans())
    names = {"query": draw(st.sampled_from(["query", "qid", "Topic"])),
             "doc": draw(st.sampled_from(["doc", "DocID", "docno"])),
             "grade": draw(st.sampled_from(["grade", "Relevance", "label"]))}
    extras = draw(st.lists(st.sampled_from(["title", "url", "note"]), max_size=2, unique=True))
    columns = draw(st.permutations(["query", "doc", "grade", *extras]))
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "7", "x"]), min_size=1, max_size=3, unique=True))
    rows = []
    for q in queries:
        for doc in draw(st.lists(_ID, min_size=1, max_size=5, unique=True)):
            grade = draw(_GRADE)
            written = "" if grade is None else f"{grade:g}"
            cells = {"query": q, "doc": doc, "grade": written.replace(".", ",") if comma else written}
            cells.update({e: draw(_TEXT) for e in extras})
            rows.append([cells[c] for c in columns])
    draw(st.randoms()).shuffle(rows)  # queries interleaved
    out = io.StringIO()
    quoting = csv.QUOTE_ALL if draw(st.booleans()) else csv.QUOTE_MINIMAL
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting,
                        lineterminator=draw(st.sampled_from(["\n", "\r\n"])))
    writer.writerow([names.get(c, c) for c in columns])
    writer.writerows(rows)
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1252"]))
    return out.getvalue().encode(encoding)


@st.composite
def edits(draw, n_rows):
    """A few edits of a list of `n_rows` rows, as (name, arguments)."""
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        step = draw(st.sampled_from(["move", "grade", "rename", "insert", "remove", "reverse"]))
        steps.append((step, draw(st.integers(0, 10**6)), draw(_GRADE), draw(_NEW_ID)))
    return steps


def apply(rl, steps):
    """The edits on the RankedList, and on a plain model: rows as [doc, grade, extras]."""
    model = [[d, g, {k: v[i] for k, v in rl.extras.items()}] for i, (d, g) in
             enumerate(zip(rl.docs.tolist(), rl.grades.tolist(), strict=True))]
    for step, seed, grade, new_id in steps:
        n = len(model)
        row = seed % n if n else 0
        if step == "move" and n > 1:
            dest = (seed // 7) % (n + 1)
            rl = rl.moved(row, 1, dest)
            item = model.pop(row)
            model.insert(dest if dest <= row else dest - 1, item)
        elif step == "grade" and n:
            g = math.nan if grade is None else grade
            rl = rl.with_grade(row, g)
            model[row][1] = g
        elif step == "rename" and n and new_id not in [m[0] for m in model]:
            rl = rl.with_doc(row, new_id)
            model[row][0] = new_id
        elif step == "insert" and new_id not in [m[0] for m in model]:
            g = math.nan if grade is None else grade
            rl = rl.inserted(row, [new_id], [g])
            model.insert(row, [new_id, g, dict.fromkeys(rl.extras, "")])
        elif step == "remove" and n > 1:
            rl = rl.removed([row])
            model.pop(row)
        elif step == "reverse":
            rl = rl.reordered(list(range(n))[::-1])
            model.reverse()
    return rl, model


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=csv_files(), choice=st.data())
def test_any_csv_is_kept_byte_for_byte_and_any_edit_reads_back(tmp_path, data, choice):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_bytes(data)
    dataset = load(path)
    write_csv(dataset, out)
    assert out.read_bytes() == data
    query = choice.draw(st.sampled_from(dataset.queries()))
    rl = dataset.ranked_list(query)
    edited, model = apply(rl, choice.draw(edits(len(rl))))
    changed = dataset.with_lists({query: edited})
    write_csv(changed, out)
    back = load(out)
    got = back.ranked_list(query)
    assert got.docs.tolist() == [m[0] for m in model]
    assert np.array_equal(got.grades, np.array([m[1] for m in model], float), equal_nan=True)
    for name in dataset.extra_columns:
        assert got.extras[name].tolist() == [m[2][name] for m in model]
    for other in dataset.queries():  # the other queries' lines are the file's own
        if other != query:
            assert lists_of(back)[other] == lists_of(dataset)[other]
    if edited == rl:
        assert out.read_bytes() == data


def test_a_file_that_cannot_hold_an_edit_is_rewritten_with_its_own_names_and_nothing_lost(tmp_path):
    path, out = tmp_path / "in.txt", tmp_path / "out.txt"
    path.write_text("DocID Relevance\na 1\nb 2\n")  # fields split on spaces: an id with a space cannot fit
    dataset = load(path)
    rl = dataset.ranked_list("").with_doc(0, "a b").inserted(2, ["c"], [0])
    rl = type(rl)(**{**rl.__dict__, "extras": {"note": np.array(["", "kept", ""], dtype=object)}})
    write_csv(dataset.with_lists({"": rl}), out)
    assert out.read_text() == "rank\tDocID\tRelevance\tnote\n1\ta b\t1\t\n2\tb\t2\tkept\n3\tc\t0\t\n"
    back = load(out).ranked_list("")
    assert back.docs.tolist() == ["a b", "b", "c"] and back.extras["note"].tolist() == ["", "kept", ""]


def test_a_query_whose_rows_were_all_deleted_loses_its_lines(tmp_path):
    path, out = tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_text("query,doc,grade\nq,a,1\nr,x,0\nq,b,2\n")
    dataset = load(path)
    write_csv(dataset.with_lists({"q": dataset.ranked_list("q").removed([0, 1])}), out)
    assert out.read_text() == "query,doc,grade\nr,x,0\n"


@pytest.mark.parametrize("ties", ["trec", "file", "average"])
def test_a_grade_edit_keeps_the_file_order_of_tied_rows(tmp_path, ties):
    """Issue 19.10: rows 3 and 4 tie on score; the window shows them in the tie rule's order. One
    grade edited: Save changes that cell alone, not the order of the tied lines."""
    from ndcg_gui.core.lists import edits
    from ndcg_gui.core.state.workspace import Workspace

    data = b"doc,grade,score\na,3,0.9\nb,2,0.8\nc,0,0.5\nd,1,0.5\ne,0,0.1\n"
    path = tmp_path / "in.csv"
    path.write_bytes(data)
    ws = Workspace.of(load(path), Measure(k=10, ties=ties))
    shown = ws.list_for("")
    if ties == "trec":
        assert shown.docs.tolist() == ["a", "b", "d", "c", "e"]  # docno descending among ties
    ws = ws.with_list("", edits.set_grade(shown, 0, 2.0).after)
    write_csv(ws.for_saving(), path)
    assert path.read_bytes() == data.replace(b"a,3,", b"a,2,")


# ---- an inserted row has no score of its own (issue 20, item 3) --------------------------------------
def _insert_and_reopen(tmp_path, path, qrels=None):
    dataset = load(path, qrels)
    query = dataset.queries()[0]
    rl = dataset.ranked_list(query).inserted(1, ["new"], [2])
    edited = dataset.with_lists({query: rl})
    out = tmp_path / "saved.csv"
    write_csv(edited, out)
    return edited, load(out), query


def test_a_csv_with_scores_and_ranks_reopens_after_an_insert(tmp_path):
    """The inserted document's score cell is left empty (it never had one); its rank places it."""
    path = tmp_path / "in.csv"
    path.write_bytes(b"query,rank,doc,grade,score\nq,1,a,3,0.9\nq,2,b,2,0.5\nq,3,c,0,0.1\n")
    edited, back, query = _insert_and_reopen(tmp_path, path)
    assert (tmp_path / "saved.csv").read_bytes().splitlines()[2] == b"q,2,new,2,"
    got, want = back.ranked_list(query), edited.ranked_list(query)
    assert got.docs.tolist() == ["a", "new", "b", "c"]
    assert np.array_equal(got.scores, want.scores, equal_nan=True)  # 0.9, nan, 0.5, 0.1: exactly as edited
    assert np.array_equal(got.grades, want.grades, equal_nan=True)
    assert back.evaluate(Measure(k=3))["ndcg"].tolist() == edited.evaluate(Measure(k=3))["ndcg"].tolist()


def test_a_run_saved_as_csv_after_an_insert_reopens(tmp_path):
    run, qrels = tmp_path / "r.run", tmp_path / "r.qrels"
    run.write_text("q Q0 a 1 3.0 t\nq Q0 b 2 2.0 t\nq Q0 c 3 1.0 t\n")
    qrels.write_text("q 0 a 1\nq 0 b 2\n")
    _edited, back, query = _insert_and_reopen(tmp_path, run, qrels)
    got = back.ranked_list(query)
    assert got.docs.tolist() == ["a", "new", "b", "c"]
    assert np.array_equal(got.scores, [3.0, np.nan, 2.0, 1.0], equal_nan=True)


def test_an_empty_score_without_a_rank_column_is_still_refused(tmp_path):
    """Without ranks the scores give the order: a row without one has no place."""
    path = tmp_path / "in.csv"
    path.write_bytes(b"doc,grade,score\na,3,0.9\nb,2,\n")
    with pytest.raises(Exception, match=r"in\.csv:3: score is empty; expected a number"):
        load(path)


@pytest.mark.parametrize("content", [b"\x1f1e 400", b"a\x1fb 1\nc\x0bd 0\n",
                                     b"query doc grade\nq\x1c1 d\x1f1 2\n"])
def test_ids_with_control_characters_in_a_list_split_on_blanks_are_written_back_as_read(tmp_path, content):
    """Fields split on spaces and tabs keep any other character (a fuzzed file's \\x1f); the
    writer took one for a blank and wrote the file in another layout (fuzz test, stop 30)."""
    path, out = tmp_path / "list.txt", tmp_path / "written.txt"
    path.write_bytes(content)
    dataset = load(path, need_grades=False)
    write_csv(dataset, out)
    assert out.read_bytes() == content
