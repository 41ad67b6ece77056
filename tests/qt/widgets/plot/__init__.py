"""Tests of ndcg_gui/qt/widgets/plot (the package tree mirrored)."""
