"""The definition of NDCG and k kept between sessions (QSettings). Unknown or broken values are
ignored, so an old or hand-edited settings file can never stop the window from opening."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from ndcg_gui.core.config import MetricConfig
from ndcg_gui.qt.document import Document

FIELDS = ("gain", "discount", "base", "ideal", "negative")


def save_definition(settings: QSettings, document: Document) -> None:
    config = document.config
    settings.beginGroup("definition")
    for name in FIELDS:
        value = getattr(config, name)
        if name == "gain" and not isinstance(value, str):
            value = ",".join(f"{g:g}={v:g}" for g, v in config.gain_table.items())
        settings.setValue(name, value)
    settings.setValue("k", document.k)
    settings.setValue("ties", document.ties)
    settings.endGroup()


def restore_definition(settings: QSettings, document: Document) -> None:
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
                value = {float(a): float(b) for a, b in (pair.split("=") for pair in value.split(","))}
            except ValueError:
                continue
        fields[name] = value
    try:
        config = MetricConfig(**fields)
    except (TypeError, ValueError):
        config = None
    try:
        k = int(k) if k is not None and int(k) >= 1 else None
    except (TypeError, ValueError):
        k = None
    document.set_definition(config=config, k=k,
                            ties=ties if ties in ("trec", "file", "average") else None)
