"""For people learning NDCG: the worked example's note, the step-by-step walk, exercises, and a
list under two definitions side by side. Widgets only: the data and the checking are the core's
(`core/teaching/`)."""
