"""The scoring heart: which NDCG, and NDCG computed.

    measure.py   the definition of NDCG and its presets
    options.py   command-line options as a definition
    ties.py      tied scores sharing their gains
    metrics.py   one list's CG, DCG, IDCG and NDCG at every rank, and NDCG@k
    evaluate.py  every query of a run at once (`Joined`: joined and ranked once, many definitions)
    mean.py      the mean over queries under a policy, its histogram, the worst query
"""
