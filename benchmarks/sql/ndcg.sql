-- NDCG@k of every judged query, as trec_eval computes ndcg_cut.k, written once for any SQL engine
-- that has window functions: DuckDB runs it embedded on Parquet (larger than memory: it spills),
-- Spark SQL runs it unchanged on a cluster. Inputs are two tables (or views):
--   run(query, doc, score)      one row per retrieved document
--   qrels(query, doc, grade)    one row per judged document
-- The definition is the program's "trec_eval" preset: gain = grade, discount 1/log2(rank + 1),
-- the ideal ranking from every judged document, negative grades as 0, scores compared as
-- single-precision floats (trec_eval keeps `float sim`), ties by doc id in descending byte order.
-- A judged query the run did not answer scores 0 (evaluate(missing="zero")); a query of the run
-- without any judgment is left out, as trec_eval does. The cut-off k is the one number in `params`.
WITH params AS (
    SELECT 10 AS k
),
ranked AS (
    SELECT query, doc,
           ROW_NUMBER() OVER (PARTITION BY query
                              ORDER BY CAST(score AS FLOAT) DESC, doc DESC) AS rnk
    FROM run
),
top_k AS (
    SELECT t.query, t.rnk, CASE WHEN q.grade > 0 THEN q.grade ELSE 0 END AS gain
    FROM ranked t
    CROSS JOIN params p
    LEFT JOIN qrels q ON q.query = t.query AND q.doc = t.doc
    WHERE t.rnk <= p.k
),
dcg AS (
    SELECT query, SUM(gain / LOG2(rnk + 1)) AS dcg, COUNT(*) AS n_ranked
    FROM top_k
    GROUP BY query
),
ideal AS (
    SELECT query, grade,
           ROW_NUMBER() OVER (PARTITION BY query ORDER BY grade DESC) AS rnk
    FROM qrels
    WHERE grade > 0
),
idcg AS (
    SELECT i.query, SUM(i.grade / LOG2(i.rnk + 1)) AS idcg
    FROM ideal i
    CROSS JOIN params p
    WHERE i.rnk <= p.k
    GROUP BY i.query
),
judged AS (
    SELECT DISTINCT query FROM qrels
)
SELECT j.query,
       COALESCE(d.dcg, 0) AS dcg,
       COALESCE(i.idcg, 0) AS idcg,
       CASE WHEN COALESCE(i.idcg, 0) > 0 THEN COALESCE(d.dcg, 0) / i.idcg ELSE 0 END AS ndcg
FROM judged j
LEFT JOIN dcg d ON d.query = j.query
LEFT JOIN idcg i ON i.query = j.query
ORDER BY ndcg, j.query
