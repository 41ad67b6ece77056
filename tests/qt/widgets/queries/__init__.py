"""Tests of ndcg_gui/qt/widgets/queries (the package tree mirrored)."""
