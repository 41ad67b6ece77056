"""Tests of ndcg_gui/qt/document (the package tree mirrored)."""
