"""A columnar file whose columns no alias names says so, with qrels given or not: it used to say
"no grade column … (or give --qrels)" even when the qrels were given (a notebook's MultiIndex
frame met it too, its column names made the text of tuples)."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.reading import load


@pytest.mark.parametrize("with_qrels", [True, False])
def test_columns_no_alias_names_are_said_as_such(tmp_path, with_qrels):
    pd.DataFrame({"who": ["a"], "what": [1.0]}).to_parquet(tmp_path / "run.parquet")
    (tmp_path / "q.qrels").write_text("q 0 a 1\n")
    with pytest.raises(InputError) as info:
        load(tmp_path / "run.parquet", tmp_path / "q.qrels" if with_qrels else None)
    assert str(info.value) == ('run.parquet: no column names a query, doc, grade or score: found "who", '
                               '"what"; expected columns named as query, doc, grade, score, rank (or their '
                               "aliases)")
