"""Tests of ndcg_gui/qt/models (the package tree mirrored)."""
