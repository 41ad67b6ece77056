"""PolicyBox: a box the person changes asks for the policy; the document's policy shown is not
asked for again."""

from __future__ import annotations

from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.qt.widgets.queries.policy_box import PolicyBox


def test_a_change_in_a_box_asks_for_both_boxes_policy(qtbot):
    box = PolicyBox()
    qtbot.addWidget(box)
    with qtbot.waitSignal(box.picked) as blocker:
        box.undefined_combo.setCurrentIndex(box.undefined_combo.findData("skip"))
    assert blocker.args == [Measure(undefined="skip", empty="zero")]
    assert box.policy() == Measure(undefined="skip", empty="zero")


def test_a_policy_shown_is_not_asked_for(qtbot):
    box = PolicyBox()
    qtbot.addWidget(box)
    with qtbot.assertNotEmitted(box.picked):
        box.show_policy(Measure(undefined="skip", empty="skip"))
    assert box.policy() == Measure(undefined="skip", empty="skip")
