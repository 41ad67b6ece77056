"""DuckDB refuses a grade whose gain 2^g - 1 no double holds as the in-memory path refuses it
(`ndcg-inspect` without --engine): the same one line, naming the qrels file and the line of the
first such grade (TREC text, CSV), or the Parquet file and its row; before it scores, for one run
and for a comparison. A grade whose gain fits (1023, or any grade under a linear gain) is scored."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from ndcg_gui.core.errors import InputError
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.presets import PRESETS

pytest.importorskip("duckdb")

TF = PRESETS["tf_ranking"].at(10)
RUN = "".join(f"{q} Q0 {d} {r} {5 - r} r\n" for q, docs in (("1", "abc"), ("2", "de"), ("3", "f"))
              for r, d in enumerate(docs, start=1))
# (query 3's grade the first infinite one in file order; query 1's later in the file)
QRELS = [("3", "f", 2.0), ("1", "a", 1.0), ("2", "d", 5000.0), ("2", "e", 0.0), ("1", "b", 1e6)]


def write(tmp_path, qrels=QRELS, form="trec"):
    run = tmp_path / "run.txt"
    run.write_text(RUN)
    frame = pd.DataFrame(qrels, columns=["query", "doc", "grade"])
    if form == "trec":
        path = tmp_path / "qrels.txt"
        path.write_text("# judged by hand\n" + "".join(f"{q} 0 {d} {g:g}\n" for q, d, g in qrels))
    elif form == "csv":
        path = tmp_path / "qrels.csv"
        frame.to_csv(path, index=False)
    else:
        path = tmp_path / "qrels.parquet"
        frame.to_parquet(path, index=False)
    return run, path


def cli(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ndcg_gui.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, check=False)


@pytest.mark.parametrize("form", ["trec", "csv"])
def test_duckdb_says_the_in_memory_line(tmp_path, form):
    run, qrels = write(tmp_path, form=form)
    asked = (run.name, "--qrels", qrels.name, "--preset", "tf_ranking", "--engine")
    memory, duck = cli(*asked, "memory", cwd=tmp_path), cli(*asked, "duckdb", cwd=tmp_path)
    line = 4  # (the comment line, or the header, then the third row)
    expected = (f'ndcg-inspect: {qrels.name}:{line}: grade 5000 (query "2", doc "d") gives an infinite gain '
                "under 2^g - 1; expected a grade below 1024 under the exponential gain\n")
    assert memory.returncode == 2 and memory.stderr == expected
    assert duck.returncode == 2 and duck.stderr == expected and duck.stdout == ""
    compared = cli(run.name, run.name, "--qrels", qrels.name, "--preset", "tf_ranking", "--engine", "duckdb",
                   cwd=tmp_path)
    assert compared.returncode == 2 and compared.stderr == expected and compared.stdout == ""


def test_a_parquet_file_is_named_with_its_row(tmp_path):
    from ndcg_gui.core.sql.duckdb_engine import score_files

    run, qrels = write(tmp_path, form="parquet")
    with pytest.raises(InputError) as caught:
        score_files(str(run), str(qrels), TF)
    assert str(caught.value) == (f'{qrels.name}: row 3: grade 5000 (query "2", doc "d") gives an infinite '
                                 "gain under 2^g - 1; expected a grade below 1024 under the exponential gain")


def test_a_gain_that_fits_is_scored_as_in_memory(tmp_path):
    from ndcg_gui.core.sql.duckdb_engine import score_files

    fits = [(q, d, 1023.0 if g > 1023 else g) for q, d, g in QRELS]
    run, qrels = write(tmp_path, fits)
    got = score_files(str(run), str(qrels), TF).table.set_index("query")
    frame = pd.DataFrame(fits, columns=["query", "doc", "grade"])
    ranked = pd.DataFrame([line.split()[:5] for line in RUN.splitlines()],
                          columns=["query", "q0", "doc", "rank", "score"]).astype({"score": float})
    expected = evaluate(ranked[["query", "doc", "score"]], frame, TF.per_query())
    assert got.loc["2", "idcg"] == expected.loc["2", "idcg"] and got.loc["2", "idcg"] > 1e307
    assert got.loc["1", "ndcg"] == pytest.approx(expected.loc["1", "ndcg"], rel=1e-12)
    linear = score_files(str(run), str(write(tmp_path, QRELS)[1]), TF.with_(gain="linear"))
    assert linear.table["idcg"].notna().all() and (linear.table["idcg"] < float("inf")).all()


def test_a_table_kept_with_an_infinite_gain_is_not_used_again(tmp_path):
    """A cache written before the engine refused infinite gains (its IDCG inf) is scored again,
    and refused, instead of being read back."""
    import dataclasses

    from ndcg_gui.core.sql.cache import cache_key, cache_path, per_query_table, write_cache
    from ndcg_gui.core.sql.duckdb_engine import score_files

    elsewhere = tmp_path / "fits"
    elsewhere.mkdir()
    fits = score_files(*map(str, write(elsewhere, [(q, d, min(g, 3.0)) for q, d, g in QRELS])), TF)
    run, qrels = map(str, write(tmp_path))
    table = fits.table.copy()
    table.loc[table["query"] == "2", ["dcg", "idcg"]] = float("inf")
    path, key = cache_path(run, qrels, TF), cache_key(run, qrels, TF)
    write_cache(path, key, dataclasses.replace(fits, table=table))
    said = r'^qrels.txt:4: grade 5000 \(query "2", doc "d"\) gives an infinite'
    with pytest.raises(InputError, match=said):
        per_query_table(run, qrels, TF, cache=True)
