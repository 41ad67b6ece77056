"""What a reader needs to reproduce a figure: each input file's sha256, the program's version."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from ndcg_gui import __version__
from ndcg_gui.core.errors import InputError

PROGRAM = f"NDCG Inspector {__version__}"


def sha256_of(path: str | Path) -> str:
    """The file's sha256 (hex), read in 1 MiB blocks (a run can be gigabytes)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                digest.update(block)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    return digest.hexdigest()


def file_hashes(paths: Iterable[str | Path | None]) -> dict[str, str]:
    """File name -> sha256 of each given path (None skipped), in order; the path as given where
    two files share a name."""
    given = [p for p in paths if p is not None]
    names = [Path(p).name for p in given]
    return {(n if names.count(n) == 1 else str(p)): sha256_of(p) for n, p in zip(names, given, strict=True)}
