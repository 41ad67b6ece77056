"""The reader against what the pandas reader it replaced gave on the same files.

tests/data/reader_expectations.jsonl.gz holds 2,212 cases of the differential test that ran both
readers side by side until the old one was removed (tests/core/test_reader_differential.py in the
history, run with NDCG_RECORD_EXPECTATIONS=FILE; hypothesis wrote valid and broken TREC runs,
qrels, CSV/TSV files in several encodings, and mutations of valid files): the files, and what the
old reader showed of them (lists, grades, scores, order, each row's origin and other cells, the file
format record, or the one-line error), recorded where both agreed. Where the old reader could not
read a file (pandas' own parser message, or a crash), the case only asks for no crash. The reader
must still show the same. Where the two readers differed, the old one was at fault: a `#` line
after a lone CR, a line of one empty quoted cell read as a row, pandas' own message for a trailing
space or a quote inside a cell, a form feed read as whitespace; each was checked then. Since, four
cases whose quote is never closed expect that said ('a quote opened on this line is not closed'),
not the old field count (issue 15); and 24 qrels files whose first line has a grade "nan" or "inf"
expect that said ('grade "nan" (field 4) is not a finite number'), not "no header naming the
columns" (issue 20, finding 15); and 53 files whose first TREC line has a mistyped number (`1e`,
`1,5`, `0.5é`) expect the TREC reader's line and cell, not "no header naming the columns" (four of
them, a qrels line `q7 0 d 1,5`, were read as a CSV row: document "q7 0 d 1", grade 5; issue 33,
finding 10).
"""

from __future__ import annotations

import base64
import gzip
import json
import math
from pathlib import Path

import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load

CASES = Path(__file__).resolve().parents[2] / "data" / "reader_expectations.jsonl.gz"


def _number(x) -> object:
    x = float(x)
    return None if math.isnan(x) else x


def _format(fmt) -> dict | None:
    if fmt is None:
        return None
    return {
        "kind": fmt.kind, "encoding": fmt.encoding, "file_encoding": fmt.file_encoding, "bom": fmt.bom,
        "line_ending": fmt.line_ending, "final_newline": fmt.final_newline, "delimiter": fmt.delimiter,
        "columns": fmt.columns, "header": fmt.header, "quote_all": fmt.quote_all,
        "decimal_comma": fmt.decimal_comma, "blank_rows": fmt.blank_rows,
        "record_query": [fmt.queries[c] if c >= 0 else None for c in fmt.record_query.tolist()],
        "text": bytes(fmt.text_bytes()),
    }


def observe(path, qrels=None, need_grades=True):
    """Everything a load gives that a person or a save can see, or its error."""
    try:
        ds = load(path, qrels, need_grades=need_grades)
    except InputError as err:
        return ("error", type(err).__name__, str(err), err.line, err.column)
    lists = {}
    for q in ds.queries():
        rl = ds.ranked_list(q)
        lists[q] = (
            [str(d) for d in rl.docs], [_number(g) for g in rl.grades],
            None if rl.scores is None else [_number(s) for s in rl.scores],
            None if rl.origin is None else rl.origin.tolist(),
            {n: [str(v) for v in vals] for n, vals in rl.extras.items()},
            sorted((d, _number(g)) for d, g in rl.unretrieved.items()), rl.has_pool,
        )
    return ("ok", ds.kind, ds.tag, ds.extra_columns, ds.queries(), lists, _format(ds.file_format),
            _format(ds.qrels_format))


def as_json(value):
    """An observation in JSON's terms (tuples as lists, bytes as base64)."""
    if isinstance(value, bytes | bytearray):
        return {"base64": base64.b64encode(value).decode()}
    if isinstance(value, tuple | list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    return value


def _cases() -> list[dict]:
    with gzip.open(CASES, "rt") as f:
        return [json.loads(line) for line in f]


ALL = _cases()


@pytest.mark.parametrize("start", range(0, len(ALL), 100))
def test_the_reader_shows_what_the_old_reader_showed(tmp_path, start):
    for i, case in enumerate(ALL[start:start + 100], start=start):
        folder = tmp_path / str(i)
        folder.mkdir()
        for name, data in case["files"].items():
            (folder / name).write_bytes(base64.b64decode(data))
        run = folder / next(iter(case["files"]))
        qrels = folder / case["qrels"] if case["qrels"] else None
        seen = as_json(observe(run, qrels, case["need_grades"]))  # (a crash fails here)
        if case["expected"] != "no crash":
            assert seen == case["expected"], (i, case["files"])


def test_the_recorded_cases_cover_every_kind_of_file():
    seen = [case["expected"] for case in ALL if case["expected"] != "no crash"]
    kinds = {e[1] for e in seen if e[0] == "ok"}
    errors = [e for e in seen if e[0] == "error"]
    assert {"csv", "trec_run", "qrels"} <= kinds and len(errors) > 100 and len(ALL) > 1000
