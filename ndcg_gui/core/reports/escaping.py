"""Text from outside (file and run names, query and document ids) made safe for where it is
written. A terminal line takes `core.errors.printable`; XML 1.0 (the gate's JUnit file) and HTML
(the reports and their charts) take only some characters, and `xml_text` writes any other (a
control character, ESC, a lone surrogate left by a file name's undecodable bytes, U+FFFE) as a
visible Python escape (`\\x1b`), as `printable` does; Markdown and LaTeX escape their own
specials after `printable` (`tables`); JSON keeps every value, a terminal's controls as `\\u`
escapes (`json_text`)."""

from __future__ import annotations

import html
import json
import re

# XML 1.0's characters, less DEL and the C1 controls (allowed there, but acted on by a terminal
# that shows a CI log).
_NOT_XML = re.compile("[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _escaped(match: re.Match[str]) -> str:
    return match[0].encode("unicode_escape", "backslashreplace").decode("ascii")


def xml_text(value: object) -> str:
    """`value` as text XML 1.0 and HTML accept (still to be escaped for markup: `html_text`)."""
    return _NOT_XML.sub(_escaped, str(value))


def html_text(value: object) -> str:
    """`value` as HTML or XML text or an attribute's value: `xml_text`, then `<>&"'` escaped."""
    return html.escape(xml_text(value))


_NOT_PRINTABLE = re.compile(r"[^\x20-\x7e]")


def _json_escape(match: re.Match[str]) -> str:
    c = match[0]
    if c.isprintable():
        return c
    units = c.encode("utf-16-be", "surrogatepass")  # (a character past U+FFFF: its two halves)
    return "".join(f"\\u{int.from_bytes(units[i:i + 2]):04x}" for i in range(0, len(units), 2))


def json_text(data) -> str:
    """`data` as one line of JSON, non-ASCII letters as they are and every character a terminal
    acts on or UTF-8 cannot hold (DEL, C1 controls, a lone surrogate of a file name's undecodable
    bytes, a line separator) as a \\u escape: the same value, safe on a terminal or in a CI log."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return _NOT_PRINTABLE.sub(_json_escape, text)  # (outside strings JSON holds only ASCII)
