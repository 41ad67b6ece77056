"""ranx's inputs at one width of document id, so its numba functions compile once for all tests.

ranx turns each dict of document ids into a numpy array of fixed-width text, and numba compiles its
functions again for each width (and value type) it meets: ids drawn by hypothesis, one to five
characters long, made each ranx test compile up to five sets of them on a clean clone. One document
of the widest id, added to one query of both dicts, last and of grade 0, gives every call the same
width and leaves every query's ranx NDCG as it was: its gain is 0 under both of ranx's gains, so it
adds nothing to DCG, and grade 0 adds nothing to the ideal.
"""

from __future__ import annotations

# The widest id the tests draw ("u" and four characters: test_against_pytrec_eval's unretrieved
# documents); '~' is in none of their alphabets, so it names no document of theirs.
PAD = "~pad~"


def one_width(run: dict[str, dict], qrels: dict[str, dict]) -> tuple[dict[str, dict], dict[str, dict]]:
    """`run` and `qrels` (ranx's dicts) with PAD in their first common query: scored below all of
    its documents, judged 0 (an int or a float, as the other grades are). The inputs are not changed."""
    query = next(q for q in run if q in qrels)
    assert PAD not in run[query] and PAD not in qrels[query], "PAD names a real document"
    grades = qrels[query].values()
    zero = 0.0 if any(isinstance(g, float) for g in grades) else 0
    run = {**run, query: {**run[query], PAD: min(run[query].values(), default=0.0) - 1.0}}
    qrels = {**qrels, query: {**qrels[query], PAD: zero}}
    return run, qrels
