"""Files shipped in `resources/` (installed as the package `ndcg_gui.resources`).

Found through importlib.resources, so they work from a wheel, an editable install and a frozen
bundle alike; never through a path relative to the source tree.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGE = "ndcg_gui.resources"
EXAMPLE = "examples/e1.csv"


def resource(name: str) -> Traversable:
    """A shipped file, e.g. `resource("examples/e1.csv")`."""
    return files(PACKAGE).joinpath(*name.split("/"))


def resource_path(name: str) -> AbstractContextManager[Path]:
    """A context manager giving a real file system path to a shipped file."""
    return as_file(resource(name))


def read_bytes(name: str) -> bytes:
    return resource(name).read_bytes()
