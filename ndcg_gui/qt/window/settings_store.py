"""What the window keeps between sessions (QSettings): the definition of NDCG and k, and the
recent files. Unknown or broken values are ignored, so an old or hand-edited settings file can
never stop the window from opening."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.measure import DEFAULT_K
from ndcg_gui.core.ndcg.options import format_gain_table, parse_gain
from ndcg_gui.core.ndcg.presets import DEFAULT_PRESET, PRESETS, preset_name
from ndcg_gui.qt.document.document import Document

FIELDS = ("gain", "discount", "base", "ideal", "negative", "judged_only", "idcg_zero", "ideal_order",
          "ideal_depth", "rounding", "precision", "truncate_grades")


def save_definition(settings: QSettings, document: Document) -> None:
    """The measure in use, its mean policy aside (the recovery file keeps that with the session),
    under the keys every version has written: each field, k and ties."""
    config = document.measure
    settings.beginGroup("definition")
    for name in FIELDS:
        value = getattr(config, name)
        if name == "gain" and not isinstance(value, str):
            value = format_gain_table(config.gain_table)
        elif name == "discount" and config.discount_table is not None:
            value = "table:" + ",".join(repr(v) for v in config.discount_table)
        elif name in ("judged_only", "rounding", "precision", "truncate_grades"):
            value = "" if value is None else str(value)  # (INI files hold text)
        settings.setValue(name, value)
    settings.setValue("k", document.k)
    settings.setValue("ties", config.ties)
    settings.endGroup()


def restore_definition(settings: QSettings, document: Document) -> str:
    """The definition and k of the last session set on `document`; returns what in them differs
    from a first session's (trec_eval at k = 10, as `ndcg-inspect` scores), said in words, or "":
    a k kept silently gave figures that disagreed with the command line's."""
    settings.beginGroup("definition")
    try:
        values = {name: settings.value(name) for name in FIELDS if settings.contains(name)}
        k = settings.value("k")
        ties = settings.value("ties")
    finally:
        settings.endGroup()
    fields = {}
    for name, value in values.items():
        if name == "gain" and isinstance(value, str) and "=" in value:
            try:
                value = parse_gain(value)
            except InputError:
                continue
        elif name == "discount" and isinstance(value, str) and value.startswith("table:"):
            try:
                value = tuple(float(v) for v in value[len("table:"):].split(","))
            except ValueError:
                continue
        elif name in ("judged_only", "truncate_grades"):
            value = {"True": True, "False": False, "true": True, "false": False}.get(str(value), value)
        elif name == "precision":
            value = None if value in ("", None, "None") else value
        elif name == "rounding":
            value = None if value in ("", None) else int(value) if str(value).isdigit() else value
        fields[name] = value
    # A first session starts on trec_eval's definition, so the preset box names a tool (on
    # Measure's own defaults it said "Custom": trec_eval's, but negative grades kept). A
    # broken value is dropped alone: the other saved fields are still the person's.
    measure = PRESETS[DEFAULT_PRESET]
    if ties in ("trec", "file", "average"):
        fields["ties"] = ties
    for name, value in fields.items():
        try:
            measure = replace(measure, **{name: value})
        except (TypeError, ValueError):
            continue
    try:
        k = int(k) if k is not None and int(k) >= 1 else None
    except (TypeError, ValueError):
        k = None
    # The measure a session starts with: not an undo step (without a saved k, the window's).
    document.set_measure(measure.at(k), undoable=False)
    return kept_note(document.measure)


def kept_note(measure) -> str:
    """What of `measure` (its k and definition) is not a first session's, as the headline says it:
    "" if none."""
    first = PRESETS[DEFAULT_PRESET]
    kept = [f"k = {measure.k}"] if measure.k != DEFAULT_K else []
    if measure.with_(k=None, empty="zero", undefined="zero") != first:
        name = preset_name(measure)
        kept.append(f"the {name} definition" if name is not None else "this definition")
    if not kept:
        return ""
    return (f"{' and '.join(kept)} kept from the last session (a new session, like ndcg-inspect, "
            f"uses {DEFAULT_PRESET} at k = {DEFAULT_K})")


RECENT_MAX = 10


class RecentFiles:
    """The last files opened (a run and its qrels count as one entry), newest first."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings
        value = settings.value("recent/files", [])
        if isinstance(value, str):
            value = [value]
        self.entries: list[str] = [str(v) for v in value or []][:RECENT_MAX]

    def add(self, path: str | Path, qrels: str | Path | None = None) -> None:
        entry = str(Path(path).resolve()) + (f"\n{Path(qrels).resolve()}" if qrels else "")
        self.entries = [entry, *[r for r in self.entries if r != entry][:RECENT_MAX - 1]]
        self.save()

    def save(self) -> None:
        self._settings.setValue("recent/files", self.entries)

    def items(self) -> list[tuple[str, str | None]]:
        """(run, qrels or None) of each entry."""
        return [(run, qrels or None) for run, _, qrels in (e.partition("\n") for e in self.entries)]
