"""Why a list's NDCG is what it is: what the window shows of a list (`ListReport`), the arithmetic
of a cell, single moves, unjudged documents, definitions side by side, and runs compared."""
