"""A grade whose gain no double holds (2^g - 1 of a grade of 1024 or more, under the exponential
gain): its query's DCG and IDCG would be inf and its NDCG NaN, so every path refuses it in one
line, the same words: the in-memory one (`cli.output.refuse_infinite_gains`) and the engines
(`duckdb_engine`, `spark_engine`), which find it with `infinite_gain_sql` before they score."""

from __future__ import annotations

from ndcg_gui.core.errors import shown
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.sql.ndcg_sql import gain_sql

EXPECTED = "expected a grade below 1024 under the exponential gain"


def infinite_gain_problem(grade: float, query: object, doc: object) -> str:
    """The one line for a row whose grade's gain is infinite."""
    return (f"grade {grade:g} (query {shown(query)}, doc {shown(doc)}) gives an infinite gain under "
            f"2^g - 1; {EXPECTED}")


def infinite_gain_sql(measure: Measure, grade: str = "grade") -> str | None:
    """A predicate (DuckDB's and Spark SQL's) true where grade expression `grade` has an infinite
    gain under `measure`, the SQL's own gain (`gain_sql`: the grade read as the definition reads
    it); None when no finite grade can have one (a linear gain, a gain table)."""
    if measure.gain != "exponential" or measure.gain_table is not None:
        return None
    return f"ABS({gain_sql(grade, measure)}) = CAST('Infinity' AS DOUBLE)"
