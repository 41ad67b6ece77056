"""NDCG Inspector: see CG, DCG, IDCG and NDCG of a ranked list at every rank."""

__version__ = "0.1.0"
APP_NAME = "NDCG Inspector"
