"""Which NDCG: preset, gain, discount (with base), where the ideal comes from, negative grades.

Widgets only: every choice becomes a `Measure` handed to the document, and the widgets are
set back from the document whenever the definition changes (so presets and settings show). When
a choice in one box makes the definition another preset's (2^grade − 1 under trec_eval is ranx
(Burges)'s), the preset box names it and `said` tells the person so: it had changed silently."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLayout,
    QToolTip,
    QWidget,
)

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.measure import GainTable
from ndcg_gui.core.ndcg.options import format_gain_table, parse_gain
from ndcg_gui.core.ndcg.presets import LABELS, PRESETS, preset_name
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

CUSTOM = "custom"
TABLE = "table"  # the gain combo's "table…" item: asks for grade=gain pairs


def _combo(items: list[tuple[str, object]], tip: str) -> QComboBox:
    box = QComboBox()
    for text, data in items:
        box.addItem(text, data)
    box.setToolTip(tip)
    # Sized to a short text, not the longest item, so the row fits beside a query panel.
    box.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(min(10, max(len(t) for t, _ in items)))
    return box


GIVEN_ORDER_TIP = ("{label}: its ideal takes the judgments in the order they are given, which a list "
                   "edited here does not keep (a drag would change IDCG), so it is listed, not offered. "
                   "Score a file with it: ndcg-inspect RUN --qrels Q --preset {name}")


def _list_only_given_order(box: QComboBox) -> None:
    """Presets whose ideal keeps the judgments' given order (Spark) are shown, greyed, with why."""
    for i in range(box.count()):
        name = box.itemData(i)
        preset = PRESETS.get(name)
        if preset is not None and preset.ideal_order != "sorted":
            box.model().item(i).setEnabled(False)
            box.setItemData(i, GIVEN_ORDER_TIP.format(label=LABELS[name], name=name),
                            Qt.ItemDataRole.ToolTipRole)


IDEAL_TIP = ("Where the ideal ranking comes from. 'All judged documents' needs qrels: a relevant document "
             "the list missed then lowers NDCG.")


class DefinitionPanel(QWidget):
    said = Signal(str)  # what a choice did that the person would not see in the box they used

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.preset = _combo([("Custom", CUSTOM)] + [(LABELS[name], name) for name in PRESETS],
                             "A named definition that reproduces a tool's NDCG")
        _list_only_given_order(self.preset)
        self.gain = _combo([("grade (linear)", "linear"), ("2^grade − 1", "exponential")],
                           "Gain of a grade")
        self.discount = _combo([("1/log2(i+1)", "log2"), ("1/log_b(i+1)", "log"),
                                ("Järvelin–Kekäläinen", "jarvelin")],
                               "Discount at rank i (a discount table is shown as a blank choice)")
        self.base = QDoubleSpinBox()
        self.base.setRange(1.01, 100)
        self.base.setDecimals(2)
        self.base.setSingleStep(1)
        self.base.setPrefix("b = ")
        self.base.setToolTip("Log base b of the Järvelin–Kekäläinen discount: ranks below b are not "
                             "discounted, then 1/log_b(i)")
        self.ideal = _combo([("all judged docs", "judged"), ("the list's grades", "retrieved")], IDEAL_TIP)
        self.negative = _combo([("kept", "keep"), ("count as 0", "zero")],
                               "Negative grades: kept as they are (NDCG may leave [0, 1]), or gain 0 "
                               "and left out of the ideal (trec_eval)")
        self.ties = _combo([("doc id (trec_eval)", "trec"), ("file order", "file"),
                            ("averaged (sklearn)", "average")],
                           "Tied scores: ordered by document id, descending (trec_eval); kept in the "
                           "file's order; or each given the mean gain of its group (scikit-learn). "
                           "Matters for the query panel's figures of a run with tied scores; the "
                           "Definitions tab shows the list under each rule.")
        self.gain.addItem("table…", TABLE)

        # One row when the window is wide enough, two when it is not (a 1280 px screen at 125 %).
        self._fields: list[QWidget] = []
        for label, widgets in (("Preset", [self.preset]), ("Gain", [self.gain]),
                               ("Discount", [self.discount, self.base]), ("Ideal from", [self.ideal]),
                               ("Negative", [self.negative]), ("Ties", [self.ties])):
            field = QWidget()
            row = QHBoxLayout(field)
            row.setContentsMargins(0, 0, 6, 0)
            row.addWidget(QLabel(label, buddy=widgets[0]))
            for widget in widgets:
                row.addWidget(widget)
                # (a screen reader names a box by its value, "trec_eval", without a name of its own)
                widget.setAccessibleName(label if widget is widgets[0] else f"{label} log base b")
            self._fields.append(field)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(2)
        # The panel's own minimum is that of two rows; resizeEvent picks the arrangement.
        self._grid.setSizeConstraint(QLayout.SetNoConstraint)
        self._one_row = sum(f.sizeHint().width() for f in self._fields) + 6 * len(self._fields)
        self._rows = 0
        self._arrange(1)

        self.preset.activated.connect(self._preset_chosen)
        for box in (self.discount, self.ideal, self.negative):
            box.activated.connect(lambda _index, b=box: self._field_changed(box=b))
        self.gain.activated.connect(self._gain_chosen)
        self.ties.activated.connect(lambda: self._changed_by(self.ties, ties=self.ties.currentData()))
        self.base.valueChanged.connect(lambda _value: self._field_changed(box=self.base))
        document.changed.connect(self._follow)
        self.show_definition()
        self._show_pool()

    def _set(self, **choices: object) -> None:
        """Ask the document for another definition; the boxes then show the one in use (the asked
        one, or the one before when it was refused: a run DuckDB reads and a choice its SQL does
        not express, which changes nothing and so sends no notice)."""
        self._doc.set_measure(**choices)
        self.show_definition()

    def _follow(self, changes: Changes) -> None:
        if changes.definition:
            self.show_definition()
        if changes.shown_list(self._doc.current_query):
            self._show_pool()

    def _show_pool(self) -> None:
        """Without qrels every judged document is in the list: the ideal comes from the list's
        grades whichever is chosen, so the box says that and is not offered."""
        pooled = self._doc.current_list().has_pool
        self.ideal.setItemText(0, "all judged docs" if pooled else "the list (no qrels)")
        self.ideal.setEnabled(pooled)
        self.ideal.setToolTip(IDEAL_TIP if pooled else
                              "No qrels: every judged document is in the list, so the ideal ranking "
                              "comes from the list's own grades. Open a run with its qrels to count "
                              "the relevant documents it missed.")

    def _arrange(self, rows: int) -> None:
        if rows == self._rows:
            return
        self._rows = rows
        per_row = len(self._fields) if rows == 1 else 3
        for i, field in enumerate(self._fields):
            self._grid.removeWidget(field)
            self._grid.addWidget(field, i // per_row, i % per_row)
        for column in range(len(self._fields) + 1):
            self._grid.setColumnStretch(column, 0)
        self._grid.setColumnStretch(per_row, 1)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        first = sum(f.minimumSizeHint().width() for f in self._fields[:3]) + 18
        height = sum(f.sizeHint().height() for f in self._fields[:2]) + 2
        return QSize(first, height if self._rows == 2 else self._fields[0].sizeHint().height())

    def sizeHint(self) -> QSize:
        hint = self.minimumSizeHint()
        return QSize(max(hint.width(), self._one_row), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._arrange(1 if event.size().width() >= self._one_row else 2)
        super().resizeEvent(event)

    def _preset_chosen(self) -> None:
        name = self.preset.currentData()
        if name != CUSTOM:
            self._doc.set_measure(PRESETS[name])  # (at the k in use, the mean as it is)
            self.show_definition()

    def _gain_chosen(self) -> None:
        if self.gain.currentData() != TABLE:
            self._field_changed(None, self.gain)
            return
        table = self._doc.measure.gain_table
        text, ok = QInputDialog.getText(
            self, "Gain table", "Gain of each grade, as grade=gain pairs (grades not listed keep their "
            "own value, as in trec_eval):", text=format_gain_table(table) if table else "0=0,1=1,2=3,3=7")
        if not ok:
            self.show_definition()
            return
        try:
            gain = parse_gain(text)
        except InputError as err:
            QToolTip.showText(self.gain.mapToGlobal(self.gain.rect().bottomLeft()), f"⚠ {err}", self.gain)
            self.show_definition()
            return
        self._field_changed(gain, self.gain)

    def _field_changed(self, gain: str | GainTable | None = None, box: QWidget | None = None) -> None:
        self._changed_by(box or self.gain, **self._choices_from_boxes(gain))

    def _changed_by(self, box: QWidget, **choices: object) -> None:
        """Set `choices`, made in `box`; say so when the preset box names another preset now."""
        before = self.preset.currentData()
        self._set(**choices)
        after = self.preset.currentData()
        if after != before and after != CUSTOM:
            chosen = box.currentText() if isinstance(box, QComboBox) else box.text()
            rest = f"the rest of {LABELS[before]}" if before != CUSTOM else "the other choices"
            self._say(f"{chosen} with {rest} is {LABELS[after]}'s definition: the preset box says "
                      "so now (Ctrl+Z goes back)")

    def _say(self, message: str) -> None:
        QToolTip.showText(self.preset.mapToGlobal(self.preset.rect().bottomLeft()), message, self.preset)
        self.said.emit(message)

    def _choices_from_boxes(self, gain: str | GainTable | None) -> dict[str, object]:
        gain = gain if gain is not None else self.gain.currentData()
        if gain in (None, TABLE):  # the gain table in use stays as it is
            gain = self._doc.measure.gain
        # Built on the measure in use, so the choices this panel does not show (IDCG = 0,
        # ideal depth and order, condensed lists, rounding, a discount table) stay as they are.
        discount = self.discount.currentData()
        own = self._doc.measure
        return dict(
            gain=dict(gain) if isinstance(gain, GainTable) else gain,
            discount=discount if discount is not None else own.discount,
            # The box shows two decimals: e (Spark's ln) stays e unless the box was changed.
            base=own.base if round(own.base, 2) == self.base.value() else self.base.value(),
            ideal=self.ideal.currentData(),
            negative=self.negative.currentData(),
        )

    def show_definition(self) -> None:
        config = self._doc.measure
        blockers = [QSignalBlocker(w) for w in (self.preset, self.gain, self.discount, self.base,
                                                 self.ideal, self.negative, self.ties)]
        name = preset_name(config)  # (a preset's definition with another tie rule is not the preset)
        self.preset.setCurrentIndex(max(self.preset.findData(name or CUSTOM), 0))
        table_index = self.gain.findData(None)
        if config.gain_table is not None:
            if table_index < 0:
                table_index = self.gain.findData(TABLE)
                self.gain.insertItem(table_index, "", None)
            self.gain.setItemText(table_index, f"table {config.gain_table!r}")
            self.gain.setCurrentIndex(table_index)
        else:
            if table_index >= 0:
                self.gain.removeItem(table_index)
            self.gain.setCurrentIndex(self.gain.findData(config.gain))
        self.discount.setCurrentIndex(self.discount.findData(config.discount))
        self.base.setValue(config.base)
        self.base.setEnabled(config.discount in ("jarvelin", "log"))
        self.ideal.setCurrentIndex(self.ideal.findData(config.ideal))
        self.negative.setCurrentIndex(self.negative.findData(config.negative))
        self.ties.setCurrentIndex(self.ties.findData(config.ties))
        del blockers
