"""A note on a query through the document: one undo step, one notice naming the query."""

from __future__ import annotations

from ndcg_gui.qt.document.changes import Changes


def test_a_note_is_one_undo_step_with_one_notice(qtbot, document):
    query = document.current_query
    assert document.is_clean()
    with qtbot.waitSignal(document.changed) as notice:
        document.set_note(query, "why\tthis\nranks low")
    assert notice.args[0] == Changes(notes=frozenset({query}))
    assert document.note(query) == "why\tthis\nranks low" and not document.is_clean()
    assert document.undo_stack.count() == 1
    document.set_note(query, "why\tthis\nranks low")  # the same note: no step
    assert document.undo_stack.count() == 1
    with qtbot.waitSignal(document.changed) as notice:
        document.undo_stack.undo()
    assert notice.args[0].notes == {query} and document.note(query) == "" and document.is_clean()
    document.undo_stack.redo()
    assert document.note(query) == "why\tthis\nranks low"
    document.set_note(query, "")
    assert document.note(query) == "" and document.undo_stack.count() == 2
