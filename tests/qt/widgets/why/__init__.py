"""Tests of ndcg_gui/qt/widgets/why (the package tree mirrored)."""
