"""Run against run: the "Compare runs" pane and the side-by-side lists."""
