"""Tests of ndcg_gui/qt/window (the package tree mirrored)."""
