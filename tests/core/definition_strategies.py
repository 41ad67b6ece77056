"""Hypothesis strategies shared by the what-if, unjudged and definitions tests: every preset and
hand-made definitions (gain tables that need not rise with the grade, Järvelin bases), negative and
fractional grades, judged pools that hold grades the list does not, cut-offs below and above the
list length."""

from hypothesis import strategies as st

from ndcg_gui.core import PRESETS, Measure
from ndcg_gui.core.ndcg.presets import preset

GRADE = st.one_of(
    st.integers(-2, 4).map(float),
    st.floats(-2, 4, allow_nan=False).map(lambda x: round(x, 2)),
)
SMALL_GRADE = st.sampled_from([-1.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.5])
CUTOFF = st.one_of(st.none(), st.integers(1, 14))


@st.composite
def configs(draw) -> Measure:
    if draw(st.booleans()):
        return preset(draw(st.sampled_from(sorted(PRESETS))))
    # Gains as people write them (to 3 decimals): a gain of 1e-293 only tests floating-point noise.
    table = st.dictionaries(
        st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0]),
        st.floats(-3, 9, allow_nan=False).map(lambda x: round(x, 3)), max_size=4
    )
    return Measure(
        gain=draw(st.one_of(st.sampled_from(["linear", "exponential"]), table)),
        discount=draw(st.sampled_from(["log2", "jarvelin"])),
        base=draw(st.sampled_from([2, 2.5, 3, 1.5])),
        ideal=draw(st.sampled_from(["judged", "retrieved"])),
        negative=draw(st.sampled_from(["keep", "zero"])),
    )


def judged_pools(known: list[float], grade=GRADE):
    """None (no pool known) or the list's judged grades plus documents it did not retrieve."""
    return st.one_of(st.none(), st.lists(grade, max_size=5).map(lambda extra: [*known, *extra]))


# --- runs and qrels: the one generator every engine's test draws from ------------------------------
#
# What makes two readings or two rankings of one input differ: scores equal as float32 but not as
# float64 (1 and 1 + 1e-9), a float64 apart by one ulp, exact ties; negative and fractional grades
# (2.5: trec_eval reads 2); unjudged documents, judged documents not retrieved, judged queries
# without results, queries without judgments; ids that normalise alike (é and e + U+0301), ids
# with a trailing space or a blank inside (not in TREC text, where a blank ends a field); query
# columns of text, integers or floats (401.0).

NEAR_TIED = st.sampled_from([1.0, 1.0 + 1e-9, 1.0 + 2.0**-52, 2.0, 12.34567891, 12.3456789])
ENGINE_SCORES = st.one_of(NEAR_TIED, NEAR_TIED, st.sampled_from([0.0, -3.25, 1e-40, 7e38]),
                          st.floats(-100, 100, allow_nan=False))
ENGINE_GRADES = st.one_of(st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0]),
                          st.floats(-3, 4, allow_nan=False).map(lambda x: round(x, 2)))
TEXT_QUERIES = ["1", "10", "a", "é", "e\u0301", "q 7"]
NUMBER_QUERIES = ["1", "10", "401", "7"]
DOCS = ["d1", "d2", "d3", "D4", "d10", "é5", "e\u03015", "z", "ä", "d 8", "d1 "]
FORMS = ("trec", "csv", "parquet", "parquet-int", "parquet-float")


@st.composite
def engine_inputs(draw, forms=FORMS):
    """(run, qrels, form): frames of text ids (query, doc, score / grade) in file order, and the
    form they are written in (`write_inputs`)."""
    form = draw(st.sampled_from(forms))
    queries = NUMBER_QUERIES if form in ("parquet-int", "parquet-float") else TEXT_QUERIES
    docs = DOCS
    if form == "trec":  # (a blank ends a field of TREC text)
        queries, docs = [q for q in queries if " " not in q], [d for d in docs if " " not in d]
    pairs = st.tuples(st.sampled_from(queries), st.sampled_from(docs))
    run_pairs = draw(st.lists(pairs, unique=True, min_size=1, max_size=30))
    scores = draw(st.lists(ENGINE_SCORES, min_size=len(run_pairs), max_size=len(run_pairs)))
    judged = draw(st.lists(st.sampled_from(run_pairs), unique=True))
    judged = list(dict.fromkeys(judged + draw(st.lists(pairs, min_size=0 if judged else 1, max_size=10))))
    grades = draw(st.lists(ENGINE_GRADES, min_size=len(judged), max_size=len(judged)))
    import pandas as pd  # (pandas: only the tests that draw inputs need it)

    run = pd.DataFrame({"query": [q for q, _ in run_pairs], "doc": [d for _, d in run_pairs],
                        "score": pd.Series(scores, dtype=float)})
    qrels = pd.DataFrame({"query": [q for q, _ in judged], "doc": [d for _, d in judged],
                          "grade": pd.Series(grades, dtype=float)})
    return run, qrels, form


def write_inputs(folder, run, qrels, form: str):
    """The run and qrels written in `form`: TREC text, CSV, or Parquet with a query column of
    text, integers or floats; returns their paths."""
    from pathlib import Path

    import pandas as pd

    folder = Path(folder)
    if form == "trec":
        run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
        run_path.write_text("".join(f"{q} Q0 {d} {i + 1} {s!r} t\n" for i, (q, d, s) in
                                    enumerate(run.itertuples(index=False))), encoding="utf-8")
        qrels_path.write_text("".join(f"{q} 0 {d} {g!r}\n" for q, d, g in qrels.itertuples(index=False)),
                              encoding="utf-8")
        return run_path, qrels_path
    if form == "csv":
        run_path, qrels_path = folder / "run.csv", folder / "qrels.csv"
        run.to_csv(run_path, index=False)
        qrels.to_csv(qrels_path, index=False)
        return run_path, qrels_path
    kind = {"parquet": None, "parquet-int": "int64", "parquet-float": "float64"}[form]
    run_path, qrels_path = folder / "run.parquet", folder / "qrels.parquet"
    for frame, path in ((run, run_path), (qrels, qrels_path)):
        typed = frame.assign(query=frame["query"].astype("int64").astype(kind)) if kind else frame
        pd.DataFrame(typed).to_parquet(path, index=False)
    return run_path, qrels_path
