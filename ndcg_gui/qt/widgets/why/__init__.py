"""Why this NDCG: the tabs that explain the list (ideal, missed, what if, best moves, unjudged,
definitions) and the walk between two definitions."""
