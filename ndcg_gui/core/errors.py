"""The one error type for everything a user can get wrong in a file or an option.

`str(err)` is a single line a person can act on, in the form an editor understands:
`ranking.csv:4: grade "high" is not a number`. The parts are also kept as attributes so a window
can jump to the line or highlight the column.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path


def shown(value: object, limit: int = 40) -> str:
    """A value from a file, quoted for a one-line message: control characters escaped, long
    values cut."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return json.dumps(text, ensure_ascii=False)


def path_problem(exc: OSError) -> str:
    """What is wrong with a path, in words, from the error the system gave for it."""
    if exc.errno == errno.ELOOP:
        return "is a symbolic link that loops (it leads back to itself)"
    if exc.errno == errno.ENAMETOOLONG:
        return "the name is too long (at most 255 bytes a name, 4096 a path)"
    if exc.errno == errno.ENOENT:
        return "no such file or folder"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return f"cannot be used: {exc.strerror or exc}"

def printable(text: str) -> str:
    """`text` safe to print on one line of a terminal: line breaks, escape sequences and other
    control characters (and the undecodable bytes of a file name) escaped as Python writes them."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in text)


def file_name(path: str | Path) -> str:
    """How a message names a file: its name; a pipe or device (/dev/fd/63, /dev/stdin) its whole
    path, its name alone saying nothing."""
    path = Path(path)
    text = str(path) if str(path).startswith(("/dev/", "/proc/")) else path.name
    return printable(text)


class InputError(Exception):
    """Bad input: a file that cannot be read as a ranking, or an option that makes no sense.

    path    the file at fault (None for a command-line option or a typed value)
    line    1-based line as counted in an editor, header included (None when not about one line)
    column  1-based field number within that line (None when not about one field)
    """

    def __init__(
        self,
        message: str,
        path: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = " ".join(str(message).splitlines())  # always one line
        self.path = Path(path) if path is not None else None
        self.line = line
        self.column = column
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = file_name(self.path) if self.path is not None else ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        message = printable(self.message)
        return f"{where}: {message}" if where else message

    def __reduce__(self):  # keep the attributes when sent between processes
        return (type(self), (self.message, self.path, self.line, self.column))


class NeedsQrels(InputError):
    """A TREC run given without its qrels: it holds no grades, so nothing could be scored.
    (A program adds how its qrels are given, e.g. "(--qrels QRELS)".)"""

    MESSAGE = "is a TREC run, which holds no grades: give its qrels too"

    @classmethod
    def of(cls, path: str | Path) -> NeedsQrels:
        return cls(cls.MESSAGE, path)


class LoadCancelled(Exception):
    """A load stopped because its `cancel` callback said so (the user closed or replaced it)."""
