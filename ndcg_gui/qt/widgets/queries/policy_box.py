"""The two boxes that say which queries the mean counts (the document's measure's `empty` and
`undefined`): a judged query the run returned nothing for, and a query with IDCG = 0."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QWidget

from ndcg_gui.core.ndcg.measure import Measure

_TREATMENTS = [("count as 0", "zero"), ("leave out", "skip")]


class PolicyBox(QWidget):
    """`picked(policy)` when the person changes a box; `show_policy` sets both without asking. A
    policy is a `Measure` whose mean choices (`empty`, `undefined`) are read; its others are not."""

    picked = Signal(object)  # Measure

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.empty_combo = self._combo(
            "Judged queries with no results: a query with judgments that the run returned nothing "
            "for: count it as NDCG 0 "
            "(trec_eval -c) or leave it out of the mean (trec_eval, pytrec_eval)"
        )
        self.undefined_combo = self._combo(
            "Queries with IDCG = 0: a query with no relevant judged document has IDCG = 0 and NDCG "
            "undefined: count it "
            "as 0 (trec_eval, ranx) or leave it out of the mean"
        )
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # label above when narrow
        # Short labels, a row each beside their box in the narrow dock; the tooltips say the rest.
        for text, combo in (("No results:", self.empty_combo), ("IDCG = 0:", self.undefined_combo)):
            label = QLabel(text, toolTip=combo.toolTip())
            label.setBuddy(combo)
            # (a screen reader names a box by its value, "count as 0", without a name of its own)
            combo.setAccessibleName(f"Queries with {text.rstrip(':').replace('No results', 'no results')}")
            form.addRow(label, combo)

    def _combo(self, tooltip: str) -> QComboBox:
        combo = QComboBox(toolTip=tooltip)
        for label, value in _TREATMENTS:
            combo.addItem(label, value)
        combo.currentIndexChanged.connect(self._on_combo)
        return combo

    def policy(self) -> Measure:
        return Measure(empty=self.empty_combo.currentData() or "zero",
                       undefined=self.undefined_combo.currentData() or "zero")

    def show_policy(self, policy: Measure) -> None:
        with QSignalBlocker(self.empty_combo), QSignalBlocker(self.undefined_combo):
            self.empty_combo.setCurrentIndex(self.empty_combo.findData(policy.empty))
            self.undefined_combo.setCurrentIndex(self.undefined_combo.findData(policy.undefined))

    def _on_combo(self) -> None:
        self.picked.emit(self.policy())
