"""Many queries: the query panel, its table of queries and the mean policy's boxes."""
