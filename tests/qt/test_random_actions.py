"""Seeded random actions through the real window, as a person would act: keys, drops through the
model's drop API, typed cells, paste, menu actions, the definition controls, the query panel, other
files, and key presses sent to whatever widget has the focus (Ctrl+Up/Down, Delete, Ctrl+Z, Ctrl+Y,
a grade typed + Enter, Enter on a why table's row; Ctrl+Z/Y must step the one undo history
wherever the keyboard is). After every action:

(a) every cell each view painted equals what its model says now (`ScreenMirror`: a cell whose
    value changed without being announced is a figure shown wrong);
(b) the per-rank table, headline, plot curves, hover readout, status counts and the query panel's
    row equal the core recomputed from scratch on the document's current list; while runs are
    compared, every run's per-query NDCG, the statistics, the panel's run columns, summary lines
    and histogram, the scatter and the open query's side-by-side lists equal `evaluate` and
    the paired statistics recomputed from scratch on plain frames;
(c) at the end, undoing everything gives back exactly the data as loaded;
(d) no Qt warning (pytest-qt fails the test on one: qt_log_level_fail in pyproject.toml).

`make test` runs a bounded number of actions per seed; NDCG_RANDOM_ACTIONS=N runs N per seed (and
NDCG_RANDOM_SEEDS=a,b,c other seeds) for a long run. A failing seed is kept in REGRESSION_SEEDS.
"""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import show_active
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from run_samples import ndcg_from_scratch, read_run
from screen_mirror import ScreenMirror

from ndcg_gui.core.analysis.runs.compare import paired_summary
from ndcg_gui.core.analysis.runs.overlap import HOLE_RBO, holes_line, rbo_ext
from ndcg_gui.core.analysis.runs.run_diff import delta_line
from ndcg_gui.core.analysis.workspace_report import SAMPLES, SEED
from ndcg_gui.core.lists import edits
from ndcg_gui.core.lists.query_order import natural_order
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.metrics import condensed_keep, dcg_idcg_at, finish, ndcg_at, per_rank
from ndcg_gui.core.reading import load
from ndcg_gui.qt.models.query_model import COL_NDCG, FIXED_COLUMNS
from ndcg_gui.qt.models.run_diff_model import COL_DOC, COL_RANK_A, COL_RANK_B

# The offscreen platform cannot raise windows (tooltips) nor propagate size hints: not our warnings.

ACTIONS = int(os.environ.get("NDCG_RANDOM_ACTIONS", "150"))
SEEDS = [int(s) for s in os.environ.get("NDCG_RANDOM_SEEDS", "1,2,3,4").split(",")]
REGRESSION_SEEDS: list[int] = []


# ---- the data a person opens ----------------------------------------------------------------------
def write_files(folder: Path) -> dict[str, tuple[Path, Path | None]]:
    """The example, a 40-row CSV (negative, real and missing grades, tied scores, a title column), a
    multi-query TREC run with qrels that judge documents the run missed (negative and real grades,
    tied scores), and a second run of the same topics (one left out, documents the first missed)."""
    rng = np.random.default_rng(7)
    e1 = folder / "e1.csv"
    e1.write_text("doc,grade\ndoc-A,3\ndoc-B,2\ndoc-C,3\ndoc-D,0\ndoc-E,1\n")

    grades = rng.choice(["3", "2", "1", "0", "0", "-1", "0.5", "1.5", ""], size=40)
    scores = np.round(rng.choice([9.5, 8.0, 8.0, 7.25, 6.0, 6.0, 5.5, 4.0, 3.0], size=40), 2)
    rows = [f"d{i:02d},{g},{s},title {i}" for i, (g, s) in enumerate(zip(grades, scores, strict=True))]
    csv = folder / "forty.csv"
    csv.write_text("doc,grade,score,title\n" + "\n".join(rows) + "\n")

    run_lines, qrels_lines = [], []
    for q in ("301", "302", "310", "q4"):
        n = int(rng.integers(6, 14))
        docs = [f"{q}-D{j}" for j in range(n + 5)]  # the last five never retrieved
        for rank, doc in enumerate(docs[:n], start=1):
            score = float(rng.choice([10.0, 9.0, 9.0, 8.5, 7.0]))  # ties
            run_lines.append(f"{q} Q0 {doc} {rank} {score} sys")
        for doc in docs:
            if rng.random() < 0.75:
                grade = rng.choice([3, 2, 1, 0, -1, 0.5])
                qrels_lines.append(f"{q} 0 {doc} {grade:g}")
    qrels_lines.append("q9 0 lonely 2")  # a judged query with no results
    run = folder / "sys.run"
    run.write_text("\n".join(run_lines) + "\n")
    qrels = folder / "sys.qrels"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    second_lines = []
    for q in ("301", "302", "q4"):
        docs = [f"{q}-D{j}" for j in rng.permutation(12)[: int(rng.integers(4, 11))]]
        second_lines += [f"{q} Q0 {d} {r} {float(rng.choice([5.0, 4.0, 4.0, 3.0]))} other"
                         for r, d in enumerate(docs, start=1)]
    second = folder / "other.run"
    second.write_text("\n".join(second_lines) + "\n")
    return {"e1": (e1, None), "forty": (csv, None), "run": (run, qrels), "other": (second, qrels)}


# ---- the window and what it shows -----------------------------------------------------------------
class Screen:
    """The window under test, mirrors of every table it paints, and the checks."""

    def __init__(self, window, qtbot) -> None:
        self.w, self.qtbot = window, qtbot
        self.doc = window.document
        panel = window.query_panel
        why = window.why
        self.mirrors = [
            ScreenMirror(window.ranking_model, "ranked list"),
            ScreenMirror(window.metrics_model, "per-rank table"),
            ScreenMirror(panel.proxy, "query table"),
            ScreenMirror(why.ideal, "ideal vs list"),
            ScreenMirror(why.missed, "missed documents"),
            ScreenMirror(why.what_if, "what-if table"),
            ScreenMirror(why.moves, "best moves"),
            ScreenMirror(why.judge, "judge first"),
            ScreenMirror(why.definitions, "definitions"),
            ScreenMirror(window.compare_pane.diff_model, "side-by-side lists"),
        ]

    def settle(self) -> None:
        QApplication.processEvents()

    def check(self, what: str) -> None:
        self.settle()
        problems = [p for m in self.mirrors for p in m.stale_cells()]
        problems += self.recomputed_problems()
        assert not problems, f"after {what}:\n" + "\n".join(problems)

    # (b) every figure equals the core recomputed from scratch ------------------------------------
    def recomputed_problems(self) -> list[str]:
        doc, w = self.doc, self.w
        lst = doc.current_list()
        out: list[str] = []
        grades = np.nan_to_num(np.asarray(lst.grades, float), nan=0.0)
        pool = None
        if lst.has_pool:
            judged = ~np.isnan(lst.grades)
            pool = np.concatenate([lst.grades[judged], np.array(list(lst.unretrieved.values()), float)])
        table = expected_table(lst, doc.measure, doc.measure.ties)
        rm, mm = w.ranking_model, w.metrics_model
        if rm.rowCount() != len(lst) or mm.rowCount() != len(lst):
            return [f"tables have {rm.rowCount()} / {mm.rowCount()} rows, the list {len(lst)}"]
        for r in range(len(lst)):
            shown_doc = rm.index(r, 1).data()
            if shown_doc != str(lst.docs[r]):
                out.append(f"ranked list row {r}: document {shown_doc!r}, list {lst.docs[r]!r}")
            g = lst.grades[r]
            shown_grade = rm.index(r, 2).data()
            want = "unjudged" if math.isnan(g) else _number(g)
            if shown_grade != want:
                out.append(f"ranked list row {r}: grade {shown_grade!r}, list {want!r}")
        columns = {mm.headerData(c, Qt.Orientation.Horizontal): c for c in range(mm.columnCount())}
        for name, header in (("cg", "CG"), ("dcg", "DCG"), ("idcg", "IDCG"), ("ndcg", "NDCG"),
                             ("discount", "Disc.")):
            want = table[name].to_numpy()
            for r in range(len(lst)):
                shown = mm.index(r, columns[header]).data()
                if shown != f"{want[r]:.4f}":
                    out.append(f"per-rank table row {r} {header}: {shown!r}, recomputed {want[r]:.4f}")
                    break
        # Bold NDCG@k row, greyed rows beyond k.
        k = doc.k
        bold = [r for r in range(len(lst)) if _bold(mm.index(r, columns["NDCG"]))]
        if bold != ([k - 1] if k <= len(lst) else []):
            out.append(f"bold NDCG rows {bold}, expected rank k = {k}")

        ndcg = expected_ndcg(table, k, lst, doc.measure)
        change = w.headline.change.text()
        original = doc.original_list()
        if original != lst and len(original):  # (an empty list as loaded is no reference)
            then = expected_ndcg(expected_table(original, doc.measure, doc.measure.ties), k, original,
                                 doc.measure)
            if f"{ndcg - then:+.4f}" not in change or f"({then:.4f})" not in change:
                out.append(f"headline change {change!r}, recomputed {ndcg - then:+.4f} from {then:.4f}")
        elif "vs as loaded" in change:
            out.append(f"headline change {change!r} for a list as loaded")
        headline = w.headline.ndcg.text()
        if f"NDCG@{k}" not in headline or f"{ndcg:.4f}" not in headline:
            out.append(f"headline {headline!r}, recomputed NDCG@{k} = {ndcg:.4f}")
        if w.headline.k.value() != k:
            out.append(f"k box {w.headline.k.value()}, document k {k}")

        out += plot_problems(w.plot, doc, lst, table, pool)

        status = w.status_counts.text()
        judged_n = int((~np.isnan(lst.grades)).sum())
        for part in (f"{len(lst)} docs", f"{judged_n} judged", f"{len(lst) - judged_n} unjudged"):
            if part not in status:
                out.append(f"status bar {status!r} lacks {part!r}")
        missed = len(lst.unretrieved)
        if (f"{missed} missed" in status) != bool(missed):
            out.append(f"status bar {status!r}: {missed} judged documents not retrieved")

        kind = w.row_kind.currentData()
        g = np.asarray(lst.grades, float)
        want_shown = {"all": np.ones(len(g), bool), "relevant": np.nan_to_num(g) > 0,
                      "judged": ~np.isnan(g), "unjudged": np.isnan(g)}[kind]
        shown = np.array([not w.ranking_view.isRowHidden(r) for r in range(len(lst))], bool)
        if not np.array_equal(shown, want_shown):
            out.append(f"rows shown under {kind!r}: {np.flatnonzero(shown)[:10]}, "
                       f"expected {np.flatnonzero(want_shown)[:10]}")
        out += self.query_row_problems(lst, pool)
        out += self.why_problems(lst, grades, pool)
        out += self.comparison_problems()
        return out

    def why_problems(self, lst, grades, pool) -> list[str]:
        """The tab in view shows the core's what-if, ideal and unjudged figures for this list."""
        doc, why = self.doc, self.w.why
        tab = why.tabText(why.currentIndex())
        out: list[str] = []
        if tab == "What if":  # recomputed with core.whatif from the grades alone
            from ndcg_gui.core.analysis.whatif import move_effects

            effects = move_effects(grades, doc.measure, pool)
            now = ndcg_at(grades, doc.measure, judged=pool)  # what-if moves: ties not averaged
            for r in range(len(lst)):
                want = effects["ndcg_if_first"].iloc[r] - now
                shown = why.what_if.text(r, 4).replace("−", "-").replace("±", "")
                if abs(float(shown) - want) > 6e-5:
                    out.append(f"what-if row {r}: Δ if first {shown}, recomputed {want:+.4f}")
                    break
        if tab == "Best moves":
            from ndcg_gui.core.analysis.whatif import best_moves

            best = best_moves(grades, doc.measure, pool, n=1)
            if len(best) and why.moves.rowCount() and \
                    abs(float(why.moves.text(0, 1)) - best["ndcg_after"].iloc[0]) > 6e-5:
                out.append(f"best move shows {why.moves.text(0, 1)}, "
                           f"recomputed {best['ndcg_after'].iloc[0]:.4f}")
        if tab == "Ideal":  # the ideal column is the judged pool (or the list) by gain
            from ndcg_gui.core.ndcg.metrics import gains

            shown = [why.ideal.text(r, 4) for r in range(why.ideal.rowCount())]
            # the judged pool, or without one the list's judged grades (unjudged have no place)
            own = np.asarray(lst.grades, float)
            source = pool if pool is not None and doc.measure.ideal == "judged" else own[~np.isnan(own)]
            want = sorted(gains(np.asarray(source, float), doc.measure), reverse=True)
            got = [float(g) for g in shown if g != ""]
            got_gains = sorted(gains(np.asarray(got, float), doc.measure), reverse=True)
            if not np.allclose(got_gains, want):
                out.append(f"ideal column grades {shown[:8]} are not the ideal of the pool")
        missing = len(lst.unretrieved) if doc.measure.ideal == "judged" else 0
        if tab == "Missed" and why.missed.rowCount() != missing:
            out.append(f"missed list has {why.missed.rowCount()} rows, the list misses {missing}")
        return out

    def comparison_problems(self) -> list[str]:
        """While runs are compared: every figure equals `evaluate` on plain frames (the open run's
        lists one by one, the other runs read by pandas) and the paired statistics of those."""
        w, doc, c = self.w, self.doc, self.w.comparison
        panel = w.query_panel
        if not c.active:
            out = [] if panel.model.columnCount() == FIXED_COLUMNS else ["run columns shown without runs"]
            return out + (["the Compare runs tab shows without runs"] if w.right_tabs.count() > 1 else [])
        w.compare.flush()
        self.settle()
        ndcg = ndcg_from_scratch(doc, {n: c.path_of(n) for n in c.added}, c.doc_name)
        runs = {n: read_run(c.path_of(n)) for n in c.added}
        out = []
        if list(c.ndcg.index) != list(ndcg.index) or list(c.ndcg.columns) != list(ndcg.columns) \
                or not np.allclose(c.ndcg.to_numpy(), ndcg.to_numpy(), rtol=1e-9, atol=1e-12):
            with pd.option_context("display.width", 250, "display.max_columns", 20):
                return [f"comparison NDCG differs from evaluate():\n{c.ndcg}\n{ndcg}"]
        compared = ndcg.index
        if panel.policy.empty == "skip":  # only the queries every run returned results for
            answered = {q for q in doc.queries() if len(doc.list_for(q))}
            for run in runs.values():
                answered &= set(run["query"])
            compared = ndcg.index[ndcg.index.isin(answered)]
        stats = paired_summary(ndcg.loc[compared], c.baseline, SAMPLES, SEED)
        got = c.comparison.summary
        if list(c.compared) != list(compared) or \
                not np.allclose(got.to_numpy(float), stats.to_numpy(float), rtol=1e-9, equal_nan=True):
            out.append(f"comparison statistics differ from paired_summary():\n{got}\n{stats}")
        ties = self.w.comparison_ties.verdicts  # (checked against brute force in test_tie_verdicts)
        said = {n: ties[n].short() for n in ties}
        lines = [delta_line(c.comparison, n) + (f" · {said[n]}" if said.get(n) else "") for n in c.others]
        if said := holes_line(self.judging_holes(ndcg), c.focus):
            lines.append(said)
        if panel.compare_label.text() != "\n".join(lines):
            out.append(f"summary lines {panel.compare_label.text()!r}, expected {lines!r}")
        out += self.panel_run_problems(ndcg)
        out += self.scatter_and_lines_problems(ndcg, runs)
        return out

    def judging_holes(self, ndcg: pd.DataFrame) -> list[str]:
        """The compared queries the focus run ranks very differently (RBO of the two lists on
        screen below HOLE_RBO) with the same NDCG as the baseline, lowest RBO first, ties by id."""
        c = self.w.comparison
        rbo = {q: rbo_ext(c.list_for(c.baseline, q).docs.tolist(), c.list_for(c.focus, q).docs.tolist())
               for q in c.compared}
        holes = [q for q in c.compared
                 if rbo[q] < HOLE_RBO and abs(ndcg.at[q, c.focus] - ndcg.at[q, c.baseline]) < 1e-9]
        rank = dict(zip(holes, natural_order(np.array(holes, dtype=object)), strict=True))
        return sorted(holes, key=lambda q: (rbo[q], rank[q]))

    def panel_run_problems(self, ndcg: pd.DataFrame) -> list[str]:
        c, panel, q = self.w.comparison, self.w.query_panel, self.doc.current_query
        model, out = panel.model, []
        row = model.row_of(q)
        if row < 0 or q not in ndcg.index:
            return out
        base = ndcg.at[q, c.baseline]
        compared = q in c.compared
        for name in c.names:
            column = COL_NDCG if name == c.doc_name else model.column_of("ndcg", name)
            shown = model.index(row, column).data()
            if not _near(shown, ndcg.at[q, name]):
                out.append(f"query table NDCG of {name} for {q}: {shown!r}, "
                           f"evaluate() says {ndcg.at[q, name]:.6f}")
            if name != c.baseline:
                d = ndcg.at[q, name] - base
                shown = model.index(row, model.column_of("delta", name)).data()
                tie = compared and abs(d) <= 1e-9
                if (shown == "") == compared or (shown == "0") != tie or (compared and not _near(shown, d)):
                    out.append(f"query table Δ {name} for {q}: {shown!r}, recomputed {d:+.6f}")
        deltas = (ndcg[c.focus] - ndcg[c.baseline]).loc[c.compared]
        deltas = deltas.where(deltas.abs() > 1e-9, 0.0)
        hist = panel.histogram
        expected, _ = np.histogram(deltas.to_numpy(), bins=hist.edges)
        if not hist.deltas or hist.counts.tolist() != expected.tolist():
            out.append(f"histogram of differences {hist.counts.tolist()}, recomputed {expected.tolist()}")
        return out

    def scatter_and_lines_problems(self, ndcg: pd.DataFrame, runs: dict[str, pd.DataFrame]) -> list[str]:
        c, pane, doc, out = self.w.comparison, self.w.compare_pane, self.doc, []
        scatter = pane.scatter
        if scatter.made:  # what the plot draws, each point in the colour of its difference
            x, y, queries, colours = scatter.drawn()
        else:
            queries = np.array(scatter.queries, dtype=object)
            x, y = (np.array([getattr(scatter.point(q), a)() for q in queries]) for a in ("x", "y"))
            colours = None
        if sorted(queries) != sorted(c.compared):
            return [f"scatter shows {len(queries)} queries, {len(c.compared)} compared"]
        for i, q in enumerate(queries):
            base, other = ndcg.at[q, c.baseline], ndcg.at[q, c.focus]
            if not np.allclose([x[i], y[i]], [base, other], atol=1e-9):
                out.append(f"scatter point of {q} at {(x[i], y[i])}")
                break
            d = other - base
            if colours is not None and colours[i] != (0 if d > 1e-9 else 1 if d < -1e-9 else 2):
                out.append(f"scatter point of {q} coloured {colours[i]} for a difference of {d}")
                break
        q = doc.current_query
        ringed = scatter.ringed
        if (ringed is not None) != (q in scatter.queries):
            out.append(f"scatter ring {ringed} for the open query {q}")

        def ranked(name):  # the document's list as shown; another run by score, ties by the rule
            if name == c.doc_name:
                return [str(d) for d in doc.list_for(q).docs]
            f = runs[name]
            f = f[f["query"] == q]
            # Scores compared at the definition's precision (None: float32 for "trec", float64
            # otherwise, issue 32); tied ones by document id, descending ("trec"), or in the
            # file's order ("file" and "average" alike).
            precision = doc.measure.precision or ("float32" if doc.measure.ties == "trec" else "float64")
            f = f.assign(key=f["score"].astype(precision))
            if doc.measure.ties != "trec":
                return list(f.sort_values("key", ascending=False, kind="stable")["doc"])
            return list(f.sort_values(["key", "doc"], ascending=[False, False])["doc"])  # trec_eval's

        a, b = ranked(c.baseline), ranked(c.focus)
        model = pane.diff_model
        depth = model.depth
        want = sorted(set(a[:depth]) | set(b[:depth]))
        shown = [model.index(r, COL_DOC).data() for r in range(model.rowCount())]
        if sorted(shown) != want:
            return [*out, f"side-by-side lists show {shown}, expected {want}"]
        for r, d in enumerate(shown):
            ranks = (model.index(r, COL_RANK_A).data(), model.index(r, COL_RANK_B).data())
            if ranks != tuple(str(x.index(d) + 1) if d in x else "–" for x in (a, b)):
                out.append(f"side-by-side ranks of {d}: {ranks}; lists {a}, {b}")
                break
        return out

    def query_row_problems(self, lst, pool) -> list[str]:
        doc = self.doc
        if len(doc.queries()) < 2 or (pool is None and lst.has_pool):
            return []
        panel = self.w.query_panel
        row = panel.model.row_of(doc.current_query)
        if row < 0:
            return [] if lst.has_pool and pool is not None and not len(pool) else [
                f"query {doc.current_query!r} is not in the query table"]
        # evaluate() from scratch on the current list, under the document's ties rule.
        run = pd.DataFrame({"query": doc.current_query, "doc": lst.docs.astype(str),
                            "rank": np.arange(1, len(lst) + 1)})
        qrels = None
        if lst.has_pool:
            judgments = lst.judgments()
            qrels = pd.DataFrame({"query": doc.current_query, "doc": list(judgments),
                                  "grade": list(judgments.values())})
        else:
            run["grade"] = lst.grades
        if doc.measure.ties == "average" and lst.scores is not None:  # (a row without a score ties nothing)
            # scikit-learn's averaging over the ties of the list as it stands: scores that keep
            # its order and tie exactly the neighbours with equal scores.
            changes = np.concatenate([[True], lst.scores[1:] != lst.scores[:-1]])[: len(lst)]
            run = run.drop(columns="rank").assign(score=-np.cumsum(changes).astype(float))
            ties = "average"
        else:
            ties = "file"
        result = evaluate(run, qrels, doc.measure.per_query().with_(ties=ties))
        if doc.current_query not in result.index:
            return []
        want = f"{result.loc[doc.current_query, 'ndcg']:.4f}"
        shown = panel.model.index(row, 4).data()
        proxy_row = panel.proxy.mapFromSource(panel.model.index(row, 4))
        painted = proxy_row.data() if proxy_row.isValid() else shown
        if shown != want or painted != want:
            return [f"query table NDCG of {doc.current_query!r}: {shown!r} (painted {painted!r}), "
                    f"evaluate() says {want}"]
        return []


def plot_problems(plot, doc, lst, table: pd.DataFrame, pool) -> list[str]:
    """The curve plot against the per-rank table recomputed from scratch (`table`), the list as
    loaded recomputed the same way, the document's report (band, losses), and its own rules:
    the view within the list, NDCG's panel covering 0–1, k labelled only within the list."""
    out: list[str] = []
    plot.settle()  # the unjudged band waits for edits to pause
    n = len(lst)
    for curve, name in ((plot.dcg, "dcg"), (plot.idcg, "idcg"), (plot.ndcg, "ndcg")):
        x, y = curve.xData, curve.yData
        x, y = (np.zeros(0), np.zeros(0)) if y is None else (x, y)
        if len(y) != n or not np.allclose(y, table[name].to_numpy(), atol=1e-12) \
                or not np.array_equal(x, np.arange(1, n + 1)):
            out.append(f"plot {name} curve differs from the recomputed column")
        if curve.isVisible() != plot.toggles[name.upper()].isChecked():
            out.append(f"plot {name} curve shown {curve.isVisible()} against its toggle")
    # The list as loaded: drawn while the list differs from it, equal to its own recomputed NDCG.
    original = doc.original_list()
    differs = original != lst and len(original) > 0 and plot.toggles["As loaded"].isChecked()
    if plot.baseline.isVisible() != differs:
        out.append(f"'as loaded' curve shown {plot.baseline.isVisible()}, the list differs {differs}")
    elif differs:
        base = expected_table(original, doc.measure, doc.measure.ties)
        if not np.allclose(plot.baseline.yData, base["ndcg"].to_numpy(), atol=1e-12):
            out.append("'as loaded' curve differs from the original list's NDCG recomputed")
    # The band: the report's, drawn when asked for and there are unjudged documents; the line inside.
    averaged = doc.measure.ties == "average" and lst.scores is not None and len(lst) > 1 and \
        bool((lst.scores[1:] == lst.scores[:-1]).any())
    want_band = plot.toggles["Unjudged band"].isChecked() and bool(np.isnan(lst.grades).any()) \
        and not averaged  # the band is not worked out for shared gains
    if plot.band.isVisible() != want_band:
        out.append(f"unjudged band shown {plot.band.isVisible()}, expected {want_band}")
    elif want_band:
        band = doc.report.band
        if not plot.band_is_current() or not np.array_equal(plot.band_low.yData, band["low"]) \
                or not np.array_equal(plot.band_high.yData, band["high"]):
            out.append("unjudged band differs from the report's")
        at = band["rank"].to_numpy() - 1
        line = table["ndcg"].to_numpy()[at]
        # The line counts unjudged documents as gain 0 outside the judged pool; the band's gradings
        # put them in the pool, where with negative grades kept a 0 sits above a negative grade in
        # the ideal: only without that is the line one of the band's gradings.
        grades_seen = np.concatenate([np.nan_to_num(lst.grades, nan=0.0), list(lst.unretrieved.values())])
        negatives_kept = doc.measure.negative == "keep" and bool((grades_seen < 0).any())
        # A condensed list leaves its unjudged documents out now; judged, they are back in: the
        # line is then none of the band's gradings either.
        line_is_a_grading = not negatives_kept and not doc.measure.judged_only
        if line_is_a_grading and ((line < band["low"] - 1e-9) | (line > band["high"] + 1e-9)).any():
            out.append("the NDCG line leaves the unjudged band")
    # Loss bars: the first k losses, adding up to IDCG@k - DCG@k of the recomputed table.
    # A condensed list that drops rows (judged only: unjudged rows, and negative grades under
    # negative="zero") has no loss per row of the list as shown.
    grades = np.asarray(lst.grades, float)
    drops = doc.measure.judged_only and bool(
        (np.isnan(grades) | ((grades < 0) & (doc.measure.negative == "zero"))).any())
    if plot.loss.isVisible() != (plot.toggles["Loss per rank"].isChecked() and n > 0 and not drops):
        out.append("loss bars shown against their toggle")
    elif plot.loss.isVisible():
        heights = np.asarray(plot.loss.opts["height"], float)
        cut = min(doc.k, n)
        # Losses are a position analysis: tied scores in list order, gains not shared.
        plain = table if not averaged else expected_table(lst, doc.measure, "trec")
        gap = plain["idcg"].iloc[cut - 1] - plain["dcg"].iloc[cut - 1]
        if len(heights) != cut or not math.isclose(heights.sum(), gap, abs_tol=1e-9):
            out.append(f"loss bars add up to {heights.sum()}, IDCG@k - DCG@k = {gap}")
    # Marks at the ranks in view whose grade is above 0.
    x0, x1 = plot.visible_ranks()
    marks = [item.getData()[0] for item in plot.mark_items if item.isVisible()]
    marked = sorted({r for ranks in marks for r in ranks.tolist() if x0 <= r <= x1})
    relevant = [r + 1 for r in np.flatnonzero(np.nan_to_num(lst.grades, nan=0.0) > 0) if x0 <= r + 1 <= x1]
    if plot.toggles["Relevant ranks"].isChecked() and marked != relevant:
        out.append(f"relevant ranks marked {marked}, grades > 0 at {relevant}")
    # The view: within the list; NDCG's scale covers 0–1 and every NDCG; k labelled within the list.
    if x0 < 0.5 - 1e-9 or x1 > max(n, 1) + 0.5 + 1e-9:
        out.append(f"plot shows ranks {x0}..{x1} of a {n}-row list")
    y0, y1 = plot.bottom.vb.viewRange()[1]
    ndcg = table["ndcg"].to_numpy()
    if y0 > min(0.0, ndcg.min(initial=0.0)) or y1 < max(1.0, ndcg.max(initial=1.0)):
        out.append(f"NDCG panel shows {y0}..{y1}, NDCG spans {ndcg.min(initial=0)}..{ndcg.max(initial=1)}")
    label = [text for _x, text in plot.top.getAxis("top")._tickLevels[0]]
    if label != ([f"k = {doc.k}"] if doc.k <= n else []):
        out.append(f"k label {label} with k = {doc.k} and {n} rows")
    if plot.cursor.isVisible():
        rank = int(plot.cursor.value())
        text = plot.readout.text().replace("\N{NO-BREAK SPACE}", " ")
        if not 1 <= rank <= n or f"NDCG {table['ndcg'].iloc[rank - 1]:.4f}" not in text \
                or str(lst.docs[rank - 1]) not in text:
            out.append(f"hover readout {text!r} is not rank {rank} of this list")
    elif plot.readout.text().strip():
        out.append(f"hover readout {plot.readout.text()!r} without its cursor")
    return out


def expected_table(lst, config, ties) -> pd.DataFrame:
    """`per_rank` of the list; under ties="average", each run of neighbours with equal scores
    sharing its mean gain (scikit-learn's rule), worked out here apart from the window's code."""
    grades = _scored_grades(lst, config)
    judged = ~np.isnan(lst.grades)
    pool = None
    if lst.has_pool:
        pool = np.concatenate([lst.grades[judged], np.array(list(lst.unretrieved.values()), float)])
    table = per_rank(grades, config, judged=pool)
    if ties != "average" or lst.scores is None or not len(lst):
        return table
    # Runs of equal scores among the rows that hold a rank (a condensed list's left-out rows none).
    kept = np.flatnonzero(condensed_keep(grades, config)) if config.judged_only else np.arange(len(lst))
    gain = table["gain"].to_numpy().copy()
    start = 0
    for end in range(1, len(kept) + 1):
        if end == len(kept) or lst.scores[kept[end]] != lst.scores[kept[start]]:
            gain[kept[start:end]] = gain[kept[start:end]].mean()
            start = end
    table["gain"] = gain
    table["cg"] = np.cumsum(gain)
    table["dcg"] = np.cumsum(gain * table["discount"].to_numpy())
    idcg = table["idcg"].to_numpy()
    table["ndcg"] = finish(table["dcg"].to_numpy(), idcg, config)
    if config.judged_only and len(kept) and kept[0] > 0:  # rows before the first kept one: no rank yet
        table.loc[: kept[0] - 1, "ndcg"] = finish(np.zeros(1), np.zeros(1), config)[0]
    return table


def _scored_grades(lst, config) -> np.ndarray:
    """The grades the list is scored with: unjudged as 0, or left as NaN for a condensed list
    (`Measure.judged_only`) to leave out."""
    grades = np.asarray(lst.grades, float)
    return grades if config.judged_only else np.nan_to_num(grades, nan=0.0)


def expected_ndcg(table: pd.DataFrame, k: int, lst, config) -> float:
    """NDCG@k from an expected table: at rank k, or past the list's end with the ideal cut at k."""
    grades = _scored_grades(lst, config)
    judged = ~np.isnan(lst.grades)
    pool = None
    if lst.has_pool:
        pool = np.concatenate([lst.grades[judged], np.array(list(lst.unretrieved.values()), float)])
    rows = np.flatnonzero(condensed_keep(grades, config)) if config.judged_only else np.arange(len(table))
    if not len(rows):
        return ndcg_at(grades, config.with_(k=k), judged=pool)
    dcg = float(table["dcg"].iloc[rows[min(k, len(rows)) - 1]])  # at rank k (among the kept rows)
    _, idcg = dcg_idcg_at(grades, config.with_(k=k), judged=pool)
    return float(finish(np.array([dcg]), np.array([idcg]), config)[0])


def _near(shown: str, value: float) -> bool:
    """A 4-decimal figure on screen stands for `value` (rounding noise of the last bits aside)."""
    try:
        return abs(float(shown) - value) <= 5.1e-5
    except ValueError:
        return False


def _number(x: float) -> str:
    """A grade as given: 2, 0.5, -1."""
    return str(int(x)) if float(x).is_integer() else np.format_float_positional(float(x), trim="-")


def _bold(index: QModelIndex) -> bool:
    font = index.data(Qt.ItemDataRole.FontRole)
    return font is not None and font.bold()


# ---- the actions ----------------------------------------------------------------------------------
class Person:
    """Random actions through the window's own controls."""

    def __init__(self, screen: Screen, files: dict, rng: random.Random) -> None:
        self.s, self.w, self.doc, self.files, self.rng = screen, screen.w, screen.doc, files, rng

    def act(self) -> str:
        actions = [
            (8, self.key_move), (6, self.drop_rows), (5, self.edit_grade), (3, self.rename),
            (2, self.paste), (2, self.add_row), (2, self.delete), (1, self.menu_action),
            (6, self.undo_redo), (2, self.change_k), (3, self.change_definition),
            (3, self.switch_query), (1, self.open_file), (1, self.hover_plot), (1, self.quick_list),
            (3, self.switch_tab), (2, self.apply_best_move), (2, self.drop_missed), (1, self.use_definition),
            (1, self.show_rows),
            (2, self.plot_control),
            (2, self.add_run), (1, self.remove_run), (1, self.pick_runs), (1, self.click_scatter),
            (1, self.change_policy),
            (8, self.keys_to_the_focus),
        ]
        weights = [w for w, _ in actions]
        action = self.rng.choices([a for _, a in actions], weights)[0]
        return action()

    # helpers
    def n(self) -> int:
        return len(self.doc.current_list())

    def select(self, rows: list[int]) -> None:
        view = self.w.ranking_view
        view.selectionModel().clearSelection()
        for r in rows:
            view.selectionModel().select(view.model().index(r, 0),
                                         QItemSelectionModel.Select | QItemSelectionModel.Rows)
        if rows:
            view.selectionModel().setCurrentIndex(view.model().index(rows[0], 0),
                                                  QItemSelectionModel.NoUpdate)

    def some_rows(self) -> list[int]:
        n = self.n()
        if not n:
            return []
        if self.rng.random() < 0.7:
            first = self.rng.randrange(n)
            return list(range(first, min(n, first + self.rng.choice([1, 1, 2, 3]))))
        return sorted(self.rng.sample(range(n), min(n, self.rng.randint(1, 3))))

    # actions
    def key_move(self) -> str:
        rows = self.some_rows()
        self.select(rows)
        key = self.rng.choice([Qt.Key.Key_Up, Qt.Key.Key_Down])
        self.w.ranking_view.setFocus()
        before = self.doc.current_list()
        QTest.keyClick(self.w.ranking_view, key, Qt.KeyboardModifier.ControlModifier)
        # The keys did what the core's rule says (a no-op at the ends).
        expected = edits.step_rows(before, rows, -1 if key == Qt.Key.Key_Up else 1)
        assert self.doc.current_list() == (before if expected is None else expected.after), \
            f"Ctrl+arrow on rows {rows} did not move them as core.edits.step_rows says"
        return f"Ctrl+{'Up' if key == Qt.Key.Key_Up else 'Down'} on rows {rows}"

    def drop_rows(self) -> str:
        rows = self.some_rows()
        if not rows:
            return "drop (empty list)"
        model = self.w.ranking_model
        mime = model.mimeData([model.index(r, 0) for r in rows])
        to = self.rng.randrange(self.n() + 1)
        if model.canDropMimeData(mime, Qt.DropAction.MoveAction, to, 0, QModelIndex()):
            model.dropMimeData(mime, Qt.DropAction.MoveAction, to, 0, QModelIndex())
        return f"drag rows {rows} to before row {to}"

    def edit_grade(self) -> str:
        if not self.n():
            return "edit grade (empty list)"
        row = self.rng.randrange(self.n())
        text = self.rng.choice(["0", "1", "2", "3", "-1", "0.5", "2,5", "", "unjudged", "high", "1e400"])
        self.w.ranking_model.setData(self.w.ranking_model.index(row, 2), text)
        return f"type grade {text!r} in row {row}"

    def rename(self) -> str:
        if not self.n():
            return "rename (empty list)"
        lst = self.doc.current_list()
        row = self.rng.randrange(self.n())
        choices = [f"new-{self.rng.randrange(1000)}", str(lst.docs[self.rng.randrange(self.n())]), " "]
        choices += list(lst.unretrieved)[:3]
        name = self.rng.choice(choices)
        self.w.ranking_model.setData(self.w.ranking_model.index(row, 1), name)
        after = self.doc.current_list()
        if lst.has_pool:  # a judgment belongs to its document: a rename never adds or drops one
            assert after.judgments() == lst.judgments(), f"rename row {row} to {name!r} changed judgments"
        return f"rename row {row} to {name!r}"

    def paste(self) -> str:
        self.select(self.some_rows()[:1])
        if self.rng.random() < 0.5:
            text = "\n".join(self.rng.choice(["0", "1", "2", "", "3"]) for _ in range(self.rng.randint(1, 4)))
        else:
            pairs = [f"p{self.rng.randrange(10_000)}\t{self.rng.choice(['1', '', '2'])}"
                     for _ in range(self.rng.randint(1, 3))]
            text = "doc\tgrade\n" + "\n".join(pairs)
        self.w.editing.paste_rows(text)
        return f"paste {text!r}"

    def add_row(self) -> str:
        self.select(self.some_rows()[:1])
        self.w.actions.add_row.trigger()
        return "add row"

    def delete(self) -> str:
        rows = self.some_rows()
        self.select(rows)
        self.w.actions.delete.trigger()
        return f"delete rows {rows}"

    def menu_action(self) -> str:
        action = self.rng.choice([self.w.actions.sort, self.w.actions.reverse, self.w.actions.reset])
        action.trigger()
        return action.text().replace("&", "")

    def undo_redo(self) -> str:
        action = self.rng.choice([self.w.actions.undo, self.w.actions.undo, self.w.actions.redo])
        if action.isEnabled():
            action.trigger()
        return action.text().replace("&", "")

    def change_k(self) -> str:
        k = self.rng.choice([1, 2, 3, 5, 10, 20, max(1, self.n()), self.n() + 3])
        self.w.headline.k.setValue(k)
        return f"k = {k}"

    def change_definition(self) -> str:
        panel = self.w.headline.definition
        box = self.rng.choice([panel.preset, panel.gain, panel.discount, panel.ideal, panel.negative,
                               panel.base])
        if box is panel.base:
            value = self.rng.choice([2.0, 3.0, 1.5, 10.0])
            box.setValue(value)
            return f"base b = {value}"
        # Only what a person can pick: a greyed item (Spark's preset, whose ideal keeps an order the
        # window's edits do not) is listed but not offered.
        model = box.model()
        i = self.rng.choice([i for i in range(box.count())
                             if model.flags(model.index(i, 0)) & Qt.ItemFlag.ItemIsEnabled])
        box.setCurrentIndex(i)
        box.activated.emit(i)
        return f"definition {box.toolTip()[:20]!r} -> {box.itemText(i)!r}"

    def switch_query(self) -> str:
        panel = self.w.query_panel
        if panel.proxy.rowCount() == 0:
            return "switch query (none listed)"
        r = self.rng.randrange(panel.proxy.rowCount())
        index = panel.proxy.index(r, 1)
        panel.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
        return f"pick query {index.data()!r}"

    def open_file(self) -> str:
        name = self.rng.choice(sorted(self.files))
        path, qrels = self.files[name]
        self.w.files.open(path, qrels)
        return f"open {name}"

    def hover_plot(self) -> str:
        n = self.n()
        if n:
            rank = self.rng.randint(1, n)
            self.w.plot.show_rank(rank)
            return f"hover the plot at rank {rank}"
        return "hover (empty list)"

    def show_rows(self) -> str:
        box = self.w.row_kind
        box.setCurrentIndex(self.rng.randrange(box.count()))
        return f"show {box.currentData()} rows"

    def switch_tab(self) -> str:
        tab = self.rng.randrange(self.w.why.count())
        self.w.why.setCurrentIndex(tab)
        return f"tab {self.w.why.tabText(tab)!r}"

    def apply_best_move(self) -> str:
        self.w.why.apply_move(self.rng.choice([0, 0, 1]))
        return "apply a best move"

    def drop_missed(self) -> str:
        missed = self.doc.current_list().unretrieved
        if not missed:
            return "drop a missed document (none)"
        doc = self.rng.choice(sorted(missed))
        at = self.rng.randrange(self.n() + 1)
        self.w.ranking_model.insert_judged([doc], at)
        return f"drop missed {doc!r} at row {at}"

    def use_definition(self) -> str:
        row = self.rng.randrange(5)
        self.w.why.apply_definition(row)
        return f"use definition row {row}"
    def plot_control(self) -> str:
        """A toggle of the plot's bar, or a View-menu zoom."""
        plot, actions = self.w.plot, self.w.actions
        choice = self.rng.choice([*plot.toggles, "zoom to k", "show all"])
        if choice == "zoom to k":
            actions.zoom_to_k.trigger()
        elif choice == "show all":
            actions.show_all.trigger()
        else:
            plot.toggles[choice].toggle()
        return f"plot: {choice}"

    def quick_list(self) -> str:
        grades = " ".join(self.rng.choice(["3", "2", "1", "0", "-1", "0.5"])
                          for _ in range(self.rng.randint(1, 8)))
        self.w.quick_entry.setText(grades)
        self.w.editing.apply_quick_list()
        return f"type the list {grades!r}"


    def add_run(self) -> str:
        name = self.rng.choice(["run", "other"])
        opened = ""
        if not self.w.comparison.can_add() and self.rng.random() < 0.8:  # (else: refused, said so)
            first = self.rng.choice(["run", "other"])
            self.w.files.open(*self.files[first])
            opened = f"open {first}, "
        self.w.compare.add_run(self.files[name][0])
        return f"{opened}add {name} to compare"

    def remove_run(self) -> str:
        menu = self.w.actions.remove_run_menu
        menu.aboutToShow.emit()
        actions = [a for a in menu.actions() if a.isEnabled()]
        if not actions:
            return "remove a compared run (none)"
        action = self.rng.choice(actions)
        action.trigger()
        return f"remove the compared run {action.text()}"

    def pick_runs(self) -> str:
        pane = self.w.compare_pane
        combo = self.rng.choice([pane.baseline_combo, pane.focus_combo])
        if not self.w.comparison.active or combo.count() == 0:
            return "pick a run (none compared)"
        i = self.rng.randrange(combo.count())
        combo.setCurrentIndex(i)
        combo.activated.emit(i)
        return f"{'baseline' if combo is pane.baseline_combo else 'against'} = {combo.itemText(i)}"

    def click_scatter(self) -> str:
        scatter = self.w.compare_pane.scatter
        if not self.w.comparison.active or not scatter.queries:
            return "click the scatter (nothing compared)"
        self.w.right_tabs.setCurrentWidget(self.w.compare_pane)
        self.s.settle()
        query = self.rng.choice(scatter.queries)
        vb = scatter.getPlotItem().getViewBox()
        pos = scatter.mapFromScene(vb.mapViewToScene(scatter.point(query)))
        QTest.mouseClick(scatter.viewport(), Qt.MouseButton.LeftButton, pos=pos)
        return f"click the scatter point of {query}"

    def change_policy(self) -> str:
        combo = self.w.query_panel.empty_combo
        i = self.rng.randrange(combo.count())
        combo.setCurrentIndex(i)
        return f"judged queries with no results: {combo.itemText(i)}"


    # ---- keys, as a person presses them: to whatever widget has the focus -------------------------
    def focus_somewhere(self) -> str:
        """Put the keyboard where a person might have it: the list (some rows selected, the current
        cell in the grade column), the grades box, or a row of a why table."""
        w = self.w
        where = self.rng.choice(["list", "list", "list", "grades box", "why table"])
        if where == "list" or not self.n():
            rows = self.some_rows()
            self.select(rows)
            if rows:
                w.ranking_view.selectionModel().setCurrentIndex(
                    w.ranking_model.index(rows[0], w.ranking_model.GRADE), QItemSelectionModel.NoUpdate)
            w.ranking_view.setFocus()
            return f"the list (rows {rows})"
        if where == "grades box":
            w.quick_entry.setFocus()
            return "the grades box"
        why = w.why
        views = [why.ideal_view, why.missed_view, why.what_if_view, why.moves_view, why.judge_view,
                 why.definitions_view]
        view = self.rng.choice(views)
        why.setCurrentIndex(next(i for i in range(why.count()) if why.widget(i).isAncestorOf(view)))
        self.s.settle()
        if view.model().rowCount():
            view.setCurrentIndex(view.model().index(self.rng.randrange(view.model().rowCount()), 0))
        view.setFocus()
        return f"the {why.tabText(why.currentIndex())} table"

    def keys_to_the_focus(self) -> str:
        """Keys sent to QApplication.focusWidget(), never to the widget meant: Ctrl+Up/Down, Delete,
        Ctrl+Z, Ctrl+Y, a grade typed and Enter, Enter on a why table's row."""
        where = self.focus_somewhere()
        self.s.settle()
        focus = QApplication.focusWidget()
        assert focus is not None, f"no widget has the focus after putting it on {where}"
        stack = self.doc.undo_stack
        index, box_undo = stack.index(), self.w.quick_entry.isUndoAvailable()
        ctrl, none = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.NoModifier
        choice = self.rng.choice(["Ctrl+Up", "Ctrl+Down", "Delete", "Ctrl+Z", "Ctrl+Z", "Ctrl+Y",
                                  "type + Enter", "Enter"])
        if choice == "type + Enter":
            text = self.rng.choice(["2", "0", "1 3 0", "x"]) if focus is self.w.quick_entry else \
                self.rng.choice(["0", "1", "2", "3", "-1"])
            QTest.keyClicks(focus, text)
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
            self.s.settle()  # (an item delegate commits a turn of the event loop later)
            return f"type {text!r} + Enter in {where}"
        keys = {"Ctrl+Up": (Qt.Key.Key_Up, ctrl), "Ctrl+Down": (Qt.Key.Key_Down, ctrl),
                "Delete": (Qt.Key.Key_Delete, none), "Ctrl+Z": (Qt.Key.Key_Z, ctrl),
                "Ctrl+Y": (Qt.Key.Key_Y, ctrl), "Enter": (Qt.Key.Key_Return, none)}
        QTest.keyClick(focus, *keys[choice])
        self.s.settle()
        if choice in ("Ctrl+Z", "Ctrl+Y") and not (focus is self.w.quick_entry and box_undo):
            # The window's one undo history takes it, wherever the keyboard is (finding 2).
            expected = index - 1 if choice == "Ctrl+Z" and index > 0 else \
                index + 1 if choice == "Ctrl+Y" and index < stack.count() else index
            assert stack.index() == expected, f"{choice} in {where}: at step {stack.index()}, not {expected}"
        return f"{choice} in {where}"


def undo_everything(window) -> None:
    """Undo every step of the document's history: edits, definition changes, other files opened."""
    stack = window.document.undo_stack
    while stack.canUndo():
        stack.undo()
        QApplication.processEvents()


@pytest.mark.slow  # (minutes of examples or actions: make test, not the quick loop)
@pytest.mark.parametrize("seed", REGRESSION_SEEDS + SEEDS)
def test_random_actions_keep_the_screen_right(seed, qtbot, settings, dialog_log, tmp_path, monkeypatch):
    from ndcg_gui.qt.window.main_window import MainWindow

    files = write_files(tmp_path)
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    show_active(window, qtbot)  # keys reach the active window only
    screen = Screen(window, qtbot)
    rng = random.Random(seed)
    start = rng.choice(sorted(files))
    window.files.open(*files[start])
    history = [f"open {start}"]
    screen.check(history[-1])
    # The gain combo's "table…" asks for grade=gain pairs: a person types a table, or cancels.
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **kw: rng.choice(
        [("0=0,1=1,2=3,3=7", True), ("1=2,3=1", True), ("nonsense", True), ("", False)]))
    person = Person(screen, files, rng)
    for _ in range(ACTIONS):
        history.append(person.act())
        screen.check(" → ".join(history[-6:]))

    # (c) undo everything: back to the first file opened, each query's list as read from disk.
    undo_everything(window)
    screen.check("undoing everything")
    doc = window.document
    first, qrels = files[start]
    assert doc.path == first
    fresh = load(first, qrels)
    for query in fresh.queries():
        assert doc.list_for(query) == fresh.ranked_list(query), f"query {query} after undoing all"
    assert doc.is_clean()

