"""The list on screen: the ranked list and its grades box, the per-rank table, the headline
with the definition, and the counts in the status bar."""
