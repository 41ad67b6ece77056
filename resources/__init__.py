"""Data files shipped with NDCG Inspector (icon, examples). Read them through `ndcg_gui.assets`."""
