"""NDCG as SQL text, for engines that read data larger than memory (DuckDB now, Spark next)."""

from ndcg_gui.core.sql.ndcg_sql import NotExpressible, check_expressible, ndcg_sql

__all__ = ["NotExpressible", "check_expressible", "ndcg_sql"]
