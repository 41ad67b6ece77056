"""Where unexpected errors are written: a log file in the application's data folder, so a
traceback never reaches the screen but is never lost either."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from ndcg_gui import APP_NAME, __version__

LOG_NAME = "ndcg-gui.log"


def log_path() -> Path:
    folder = Path(QStandardPaths.writableLocation(QStandardPaths.AppLocalDataLocation))
    return folder / LOG_NAME


def write_log(text: str) -> Path | None:
    """Append `text` under a dated heading; the log's path, or None when it cannot be written."""
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(f"--- {datetime.now().isoformat(timespec='seconds')} {APP_NAME} {__version__}\n{text}\n")
    except OSError:
        return None
    return path
