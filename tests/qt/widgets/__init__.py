"""Tests of ndcg_gui/qt/widgets (the package tree mirrored)."""
