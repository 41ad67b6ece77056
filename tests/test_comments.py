"""No comment or docstring in ndcg_gui quotes a timing (issue 38): speed is measured in benchmarks and
its figures are kept with their command in benchmarks/README.md, where a rerun can update them; a
figure in a comment goes stale the day the code around it changes. Comments say why."""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ndcg_gui"

# A number (1, 0.2, 2,000, a range's end 31-39) then a unit of time, "CPU" allowed between
# ("7.6 CPU seconds"); or a ratio of speed ("3x faster", "2.5 × slower").
TIMING = re.compile(
    r"(?<![\w.])\d[\d.,]*\s?(?:CPU\s)?(?:ms|µs|us|ns|s|secs?|seconds?|min|minutes?|hours?)\b"
    r"|\d[\d.,]*\s?[x×]\s(?:faster|slower|quicker)\b",
    re.IGNORECASE,
)


def _docstrings(tree: ast.AST) -> list[ast.Constant]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.append(first.value)
    return found


def timing_figures(source: str) -> list[tuple[int, str]]:
    """(line, text) of each comment or docstring line of `source` that quotes a timing."""
    hits = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and TIMING.search(token.string):
            hits.append((token.start[0], token.string.strip()))
    lines = source.splitlines()
    for doc in _docstrings(ast.parse(source)):
        for number in range(doc.lineno, (doc.end_lineno or doc.lineno) + 1):
            if TIMING.search(lines[number - 1]):
                hits.append((number, lines[number - 1].strip()))
    return sorted(hits)


@pytest.mark.parametrize(
    "text",
    [
        "# sorting them held the GIL ~0.2 s",
        "# 50M rows: 7.6 CPU seconds against 10.4",
        "# a repaint 31-39 ms beside a worker",
        '"""Cost: about 0.5 ms for 1,000 documents."""',
        "# DuckDB: 20M rows, 1.1 s against 6.2 s",
        "# 3x faster than a dict",
        "# 2 minutes on 500M rows",
        "# a load of 9s",
    ],
)
def test_a_timing_is_found(text: str) -> None:
    assert timing_figures(text + "\n") == [(1, text)]


@pytest.mark.parametrize(
    "text",
    [
        "# an 8-byte window, 4 KiB blocks",
        "# held the GIL for seconds, minutes on billions of rows",
        "# trec_eval 9.x keeps float sim",
        "# a window of 1024 x 700",
        "# the 50M-line run, 2,000 queries",
        'label = "took 2 s"',
    ],
)
def test_what_is_not_a_timing(text: str) -> None:
    assert timing_figures(text + "\n") == []


def test_a_function_docstring_and_a_later_line_are_scanned() -> None:
    source = 'def f():\n    """Sorts the ids.\n\n    (500,000 ids: ~45 ms.)"""\n    return 1\n'
    assert timing_figures(source) == [(4, "(500,000 ids: ~45 ms.)\"\"\"")]


def test_no_comment_or_docstring_quotes_a_timing() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert files, PACKAGE
    stale = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
        for path in files
        for line, text in timing_figures(path.read_text(encoding="utf-8"))
    ]
    assert not stale, "timings belong in benchmarks/README.md with their command:\n" + "\n".join(stale)
