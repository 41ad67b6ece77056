"""For people learning NDCG: the field's worked examples, the computation rank by rank, and
exercises that check a student's arithmetic and say where it departs."""
