"""The plots: the DCG, IDCG and NDCG curves with their exports, the per-query histogram, and the
run-against-run scatter."""
