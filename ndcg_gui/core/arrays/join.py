"""Run rows joined to their judgments, and (query, doc) pairs checked for repeats, as integers.

The one join of the program: the loader uses it once per file (a `Dataset` then holds each row's
grade), and `evaluate` uses it for the rows it scores. A (query, doc) pair becomes one 64-bit key
(the query's code mixed with the doc id's hash, `core.arrays.ids`); keys are matched in integer
hash tables and every match is confirmed on the strings, so a hash collision can never pair two
different documents: it sends the work to an exact path that numbers the ids instead.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.arrays.ids import hash_strings, mix, take, whole

_U64 = np.uint64
_SLICE = 1 << 16  # rows a step: 0.5 MB temporaries; larger were no faster and held more at a load's peak


def pair_keys(query_codes: np.ndarray, doc_hashes: np.ndarray, in_place: bool = False) -> np.ndarray:
    """One 64-bit key per (query code, doc hash) pair. `in_place`: made in `doc_hashes` itself
    (the caller's, not needed after: no second array of n keys)."""
    keys = doc_hashes if in_place else doc_hashes.copy()
    for start in range(0, len(keys), _SLICE):  # (a slice at a time: small temporaries)
        part = query_codes[start:start + _SLICE].astype(_U64)
        part += _U64(0x632BE59BD9B4E019)
        keys[start:start + _SLICE] ^= mix(part, in_place=True)
    return mix(keys, in_place=True)


def repeated_pair(query_codes: np.ndarray, docs: pa.Array, keys: np.ndarray | None = None
                  ) -> tuple[int, int] | None:
    """The first row whose (query, doc) pair an earlier row already has, and that earlier row;
    None when every pair is distinct. `keys`: the rows' `pair_keys`, when known (not changed)."""
    if len(docs) < 2:
        return None
    if keys is None:
        ordered = pair_keys(query_codes, hash_strings(docs))
        ordered.sort()  # a plain integer sort: far cheaper than a hash table of every key
    else:
        ordered = np.sort(keys)
    if not (ordered[1:] == ordered[:-1]).any():
        return None
    del ordered
    import pandas as pd  # lazy: start-up (the command line parses while pandas loads)

    exact = _exact_keys(query_codes, [docs])[0]  # equal hashes: are the strings equal too?
    repeat = pd.Series(exact).duplicated().to_numpy()
    if not repeat.any():
        return None
    row = int(np.flatnonzero(repeat)[0])
    return row, int(np.flatnonzero(exact == exact[row])[0])


def lookup(run_query: np.ndarray, run_docs: pa.Array, pool_query: np.ndarray, pool_docs: pa.Array,
           pool_values: np.ndarray, keys: list[np.ndarray] | None = None) -> np.ndarray:
    """The value (a grade) of each run row's (query code, doc) pair in the pool, NaN where the
    pool does not have it. Query codes are in one code space for both sides. With repeated
    pairs in the pool, the last one wins. `keys`: the run's and the pool's `pair_keys` when known,
    in a list this empties (its only holder: they are let go once matched)."""
    if len(run_docs) == 0 or len(pool_docs) == 0:
        return np.full(len(run_docs), np.nan)
    if keys is None:
        keys = [pair_keys(run_query, hash_strings(run_docs)), pair_keys(pool_query, hash_strings(pool_docs))]
    match = last_match(keys[1].view(np.int64), keys[0].view(np.int64))
    keys.clear()
    hit = np.flatnonzero(match >= 0)
    if len(hit) and not _same_pairs(run_query, run_docs, hit, pool_query, pool_docs, match[hit]):
        run_keys, pool_keys = _exact_keys(np.concatenate([run_query, pool_query]), [run_docs, pool_docs],
                                          split=len(run_docs))
        match = last_match(pool_keys, run_keys)
        del run_keys, pool_keys
        hit = np.flatnonzero(match >= 0)
    found = pool_values[match[hit]]
    del match
    out = np.full(len(run_docs), np.nan)  # (made last: the keys and matches are let go by then)
    out[hit] = found
    return out


def _same_pairs(run_query, run_docs, run_rows, pool_query, pool_docs, pool_rows) -> bool:
    """Whether the matched rows hold the same query code and the same doc id (byte for byte)."""
    if not np.array_equal(run_query[run_rows], pool_query[pool_rows]):
        return False
    a, b = take(run_docs, run_rows), take(pool_docs, pool_rows)
    if a.type != b.type:
        a, b = a.cast(pa.large_binary()), b.cast(pa.large_binary())
    return bool(pc.all(pc.equal(a, b)).as_py())


def _exact_keys(query_codes: np.ndarray, docs: list[pa.Array], split: int | None = None):
    """Collision-free int64 keys: doc ids numbered exactly (an Arrow hash table of the strings)."""
    every = whole(docs[0]) if len(docs) == 1 else _concat([whole(d) for d in docs])
    codes = pc.dictionary_encode(every).indices.to_numpy().astype(np.int64)
    width = int(codes.max()) + 1 if len(codes) else 1
    keys = query_codes.astype(np.int64) * width + codes
    return [keys] if split is None else [keys[:split], keys[split:]]


def _concat(parts: list[pa.Array]) -> pa.Array:
    kinds = {p.type for p in parts}
    if len(kinds) > 1:
        parts = [p.cast(pa.large_binary()) for p in parts]
    return pa.concat_arrays(parts)


def label_union(*label_sets: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Every label of the sets (each of distinct `str`, as `Groups.labels`) once, in the order
    first seen (the first set's, then the next set's new ones…), and for each set the position
    of its labels in that list. Labels are matched as the join matches ids (64-bit hashes of
    their bytes, every match confirmed on the strings), not in a table of Python strings."""
    every = label_sets[0] if label_sets else np.zeros(0, object)
    positions = [np.arange(len(every))]
    for labels in label_sets[1:]:
        at = _positions(labels, every)
        new = np.flatnonzero(at < 0)
        at[new] = len(every) + np.arange(len(new))
        every = np.concatenate([every, labels[new]])
        positions.append(at)
    return np.asarray(every, dtype=object), positions


def _positions(labels: np.ndarray, among: np.ndarray) -> np.ndarray:
    """The position of each label in `among` (distinct), -1 where it is not there."""
    try:
        texts, known = pa.array(labels, pa.string()), pa.array(among, pa.string())
    except (pa.ArrowException, TypeError, UnicodeEncodeError):  # (lone surrogates: a table of objects)
        import pandas as pd  # lazy: start-up

        return pd.Index(among, dtype=object).get_indexer(pd.Index(labels, dtype=object))
    found = lookup(np.zeros(len(texts), np.int64), texts, np.zeros(len(known), np.int64), known,
                   np.arange(len(known), dtype=np.float64))
    return np.where(np.isnan(found), -1, found).astype(np.int64)


def last_match(table: np.ndarray, probe: np.ndarray) -> np.ndarray:
    """For each probe value, the position of its last occurrence in `table`, or -1.

    The smaller side goes into the hash table and the other streams through it.
    """
    import pandas as pd  # lazy: start-up (the command line parses while pandas loads)

    if len(table) == 0 or len(probe) == 0:
        return np.full(len(probe), -1)
    if len(probe) < len(table):
        uniq, inverse = np.unique(probe, return_inverse=True)
        at = pd.Index(uniq).get_indexer(table)
        hit = np.flatnonzero(at >= 0)
        last = np.full(len(uniq), -1)
        np.maximum.at(last, at[hit], hit)
        return last[inverse]
    index = pd.Index(table)
    if index.is_unique:  # (the loader's pools: repeats were refused) one hash table, no bookkeeping
        return index.get_indexer(probe)
    codes, uniq = pd.factorize(table)
    last = np.full(len(uniq), -1)
    np.maximum.at(last, codes, np.arange(len(table)))
    at = pd.Index(uniq).get_indexer(probe)
    return np.where(at >= 0, last[at], -1)
