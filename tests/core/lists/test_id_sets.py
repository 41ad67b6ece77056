"""The ids of many queries as texts and sets, made in parts (so that a worker lets the window's
thread in between): the same as made in one call."""

from __future__ import annotations

import numpy as np

from ndcg_gui.core.lists import id_sets


def test_made_in_parts_they_equal_what_one_call_makes(monkeypatch):
    monkeypatch.setattr(id_sets, "PART", 7)
    ids = np.array([3, "a", 3, "q10", *map(str, range(40))], dtype=object)
    assert id_sets.texts(ids) == list(map(str, ids))
    texts = id_sets.texts(ids)
    assert list(id_sets.id_keys(texts)) == list(dict.fromkeys(texts))
    assert list(id_sets.id_keys(["x"], {"y": None})) == ["y", "x"]
    assert id_sets.texts([]) == [] and id_sets.id_keys([]) == {}


def test_id_keys_are_a_set_the_collector_does_not_track():
    import gc

    keys = id_sets.id_keys([str(i) for i in range(120_000)])
    assert len(keys) == 120_000 and "119999" in keys and "x" not in keys and not gc.is_tracked(keys)
    assert list(id_sets.id_keys(["x"], {"y": None})) == ["y", "x"]
