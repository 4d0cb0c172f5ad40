"""The clause grid on CUAD (issue #21): does the grid cite the clause CUAD's annotators marked?

Data: CUAD v1's annotations (``../shared/data/cuad/master_clauses.csv``: 510 contracts × 41
categories, the annotated clause texts and the Yes/No or value answers; see its SOURCE.md) on
the 462 CUAD contracts of the LegalBench-RAG corpus (``../shared/data/legalbench-rag/corpus/cuad/``,
byte-identical to CUAD's TXT files, so annotated clause texts are found in them verbatim, up to
whitespace).

**Retrieval level (no LLM; ``--part retrieval``).** For each category and each contract whose
annotation for it is non-empty and found in the text, the grid's retrieval step
(:func:`clauselens.grid.retrieve`: the library pinned to that agreement, searched with the
category's ``search`` text) is run and we record whether its top passage -- the passage a cell
cites when the model quotes the best-ranked one -- overlaps an annotated clause span (top-1), and
whether any of the ``k`` passages the model reads does (top-k). ``grid`` is the grid's retrieval
as shipped (:func:`clauselens.grid.answer.retrieve`: the library's BM25 on the search text;
preamble questions read the first passages first); ``library_hybrid_question`` adds the embedder
on the question (RRF), ``library_search`` the embedder on the search text, ``library_question``
searches the library (hybrid) with the question alone. Baselines run here on the same
contracts: BM25 (bm25s, Lucene, English stop words) over the same library passages, and BM25 over
fixed 500-character chunks of the raw text; and the library searched with the category's
``question`` instead of its ``search`` text.

**Split.** Questions are tuned on the *tune* contracts: those whose sha256(file stem) starts with
``0``, ``1`` or ``2`` (about 3/16 of them; listed in the result JSON); numbers for the *report*
contracts (all the others) are the ones in the README.

**Answer accuracy (with the model; ``--part yesno``).** Read from a grid's cell store
(``clauselens grid ... --out X.xlsx`` writes ``X.cells.sqlite``): each yes/no cell's answer
against the CSV's ``<category>-Answer`` (a "not found" or "unverified" cell counts as "No": the grid
does not show an unchecked "Yes" as an answer; the model's own answers, checks ignored, are scored
beside it), and typed answers by a
lenient value match (dates as dates; other values by containment), per category and overall,
with the sample named; also the mean seconds per cell of that (sequential) run.

    .venv/bin/python -m benchmarks.cuad_grid --part retrieval
    .venv/bin/python -m benchmarks.cuad_grid --part yesno --store out/cuad21.cells.sqlite --tag cuad21

The clause presence head's grid (issue #40; yes/no columns only, no model call; none of the 21 PDFs
is in ``train_allowed.txt``), scored on the same cells as the 1.5B's committed run::

    clauselens grid DIR_OF_THE_21_PDFS --library cuad21_presence --preset cuad --presence \
        --only <the 32 yes/no ids> --out out/cuad21_presence.xlsx
    .venv/bin/python -m benchmarks.cuad_grid --part yesno --store out/cuad21_presence.cells.sqlite \
        --tag cuad21_presence --compare benchmarks/results/cuad_grid_yesno_cuad21_1.5b.json

Anchors, for context only (different task and protocol): CUAD's paper (Hendrycks et al. 2021)
reports DeBERTa-xlarge at 47.8 AUPR and 44.0 precision at 80 % recall on span extraction.
"""

from __future__ import annotations

import argparse
import ast
import csv
import datetime as dt
import hashlib
import json
import re
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from clauselens.grid import CUAD, retrieve
from clauselens.grid.answer import DEFAULT_K
from clauselens.library import Library
from clauselens.provenance import run_provenance
from clauselens.reports.verify import normalize_with_map

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
MASTER = SHARED / "cuad" / "master_clauses.csv"
CORPUS = SHARED / "legalbench-rag" / "corpus" / "cuad"
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "cuad_grid"
CLAUSE_QA_LIB = Path.home() / ".cache" / "clauselens" / "bench" / "clause_qa" / "cuad462-minilm"
RESULTS = REPO / "benchmarks" / "results"
K = DEFAULT_K  # the passages a grid cell's model reads


def split_of(stem: str) -> str:
    """``tune`` for about 3/16 of the contracts (sha256 of the file stem starts with 0-2), else ``report``."""
    return "tune" if hashlib.sha256(stem.encode()).hexdigest()[0] in "012" else "report"


def load_master() -> dict[str, dict[str, str]]:
    """``file stem -> row`` of master_clauses.csv."""
    csv.field_size_limit(10**9)
    with open(MASTER, encoding="utf-8") as f:
        return {Path(r["Filename"]).stem: r for r in csv.DictReader(f)}


def answer_column(row: dict[str, str], cat: str) -> str:
    for key in (f"{cat}-Answer", f"{cat}- Answer"):
        if key in row:
            return row[key].strip()
    raise KeyError(cat)


def annotated_clauses(row: dict[str, str], cat: str) -> list[str]:
    """The clause texts CUAD's annotators marked for ``cat`` in one CSV row (a Python list literal)."""
    try:
        return [c for c in ast.literal_eval(row[cat]) if c.strip()]
    except (ValueError, SyntaxError):
        return []


def gold_spans(text: str, clauses: list[str]) -> list[tuple[int, int]]:
    """``[start, end)`` in ``text`` of each annotated clause found (whitespace-normalised match)."""
    norm, idx = normalize_with_map(text)
    out = []
    for c in clauses:
        q = normalize_with_map(c)[0]
        if len(q) < 3:
            continue
        pos = norm.find(q)
        if pos >= 0:
            out.append((idx[pos], idx[pos + len(q) - 1] + 1))
    return out


def overlaps(spans: list[list[int]] | list[tuple[int, int]], gold: list[tuple[int, int]]) -> bool:
    return any(s < ge and gs < e for s, e in spans for gs, ge in gold)


def open_library(build: bool) -> Library:
    """The 462-contract library (MiniLM): a copy of ``benchmarks/clause_qa.py``'s cuad462 library when
    it exists (same corpus, same code path), else built here with ``Library.add`` (~45 min on 2 cores)."""
    root = CACHE / "cuad462-minilm"
    if not (root / "library.json").exists() and (CLAUSE_QA_LIB / "library.json").exists():
        shutil.copytree(CLAUSE_QA_LIB, root)
    lib = Library.open(root, embedder_name="minilm", abstain_threshold=0.0)
    if build or len(lib) == 0:
        lib.add([CORPUS])
    return lib


def _bm25(corpus_tokens: list[list[str]], query: str):
    import bm25s

    ix = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    ix.index(corpus_tokens, show_progress=False)
    q = bm25s.tokenize([query], stopwords="en", show_progress=False, return_ids=False)[0]
    q = [t for t in q if t in ix.vocab_dict]
    if not q:
        return np.zeros(len(corpus_tokens))
    return np.asarray(ix.get_scores([ix.vocab_dict[t] for t in q]))


def _tok(texts: list[str]) -> list[list[str]]:
    import bm25s

    return bm25s.tokenize(texts, stopwords="en", show_progress=False, return_ids=False)


def run_retrieval(args: argparse.Namespace) -> dict:
    master = load_master()
    lib = open_library(args.build)
    recs = {Path(r.path).stem: r for r in lib.agreements()}
    cats = [q for q in CUAD if not args.only or q.id in args.only.split(",")]
    methods = ("grid", "library_hybrid_question", "library_search", "library_question", "bm25_passages", "bm25_chunks500")
    stats: dict = {}
    per_contract = []
    t0 = time.perf_counter()
    stems = sorted(s for s in recs if s in master)
    if args.limit:
        stems = stems[: args.limit]
    splits = {s: split_of(s) for s in stems}
    if args.split != "all":
        stems = [s for s in stems if splits[s] == args.split]
    for n, stem in enumerate(stems, 1):
        rec, row = recs[stem], master[stem]
        text = (CORPUS / f"{stem}.txt").read_text(encoding="utf-8")
        chunks = lib.catalogue.passages(lib.catalogue.rows_of([rec.doc_id]))
        ch_tokens = _tok([c.text for c in chunks])
        raw = [(i, min(i + 500, len(text))) for i in range(0, len(text), 500)]
        raw_tokens = _tok([text[a:b] for a, b in raw])
        for q in cats:
            clauses = annotated_clauses(row, q.category)
            if not clauses:
                continue
            gold = gold_spans(text, clauses)
            if not gold:
                continue
            got: dict[str, list[list[list[int]]]] = {}
            res = retrieve(lib, rec.doc_id, q, K)
            got["grid"] = [[[s.start, s.end] for s in p.spans] for p in res.passages]
            res = retrieve(lib, rec.doc_id, q, K, dense="question")
            got["library_hybrid_question"] = [[[s.start, s.end] for s in p.spans] for p in res.passages]
            res = retrieve(lib, rec.doc_id, q, K, dense="search")
            got["library_search"] = [[[s.start, s.end] for s in p.spans] for p in res.passages]
            res_q = lib.search(q.question, K, doc_ids=[rec.doc_id], absent_topics=False,
                               front_matter=True if q.front_matter else None)
            got["library_question"] = [[[s.start, s.end] for s in p.spans] for p in res_q.passages]
            sc = _bm25(ch_tokens, q.search_text)
            order = [i for i in np.argsort(-sc, kind="stable")[:K] if sc[i] > 0]
            got["bm25_passages"] = [[[s.start, s.end] for s in chunks[i].spans] for i in order]
            sc = _bm25(raw_tokens, q.search_text)
            order = [i for i in np.argsort(-sc, kind="stable")[:K] if sc[i] > 0]
            got["bm25_chunks500"] = [[list(raw[i])] for i in order]
            line = {"contract": stem, "split": splits[stem], "category": q.category}
            for m in methods:
                top1 = bool(got[m]) and overlaps(got[m][0], gold)
                topk = any(overlaps(sp, gold) for sp in got[m])
                line[m] = [int(top1), int(topk)]
                st = stats.setdefault(splits[stem], {}).setdefault(q.category, {}).setdefault(m, [0, 0, 0])
                st[0] += int(top1)
                st[1] += int(topk)
                st[2] += 1
            per_contract.append(line)
        if n % 25 == 0 or n == len(stems):
            print(f"[cuad_grid] {n}/{len(stems)} contracts, {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    summary = {}
    for split, by_cat in stats.items():
        tot = {m: [0, 0, 0] for m in methods}
        macro = {m: [] for m in methods}
        for ms in by_cat.values():
            for m, (a, b, c) in ms.items():
                tot[m] = [tot[m][0] + a, tot[m][1] + b, tot[m][2] + c]
                macro[m].append((a / c, b / c))
        summary[split] = {m: {"top1_micro": round(tot[m][0] / tot[m][2], 4), f"top{K}_micro": round(tot[m][1] / tot[m][2], 4),
                              "top1_macro": round(float(np.mean([x[0] for x in macro[m]])), 4),
                              f"top{K}_macro": round(float(np.mean([x[1] for x in macro[m]])), 4), "pairs": tot[m][2],
                              "categories": len(macro[m])} for m in methods}
    return {"part": "retrieval", "k": K, "methods": methods, "summary": summary,
            "per_category": {s: {c: {m: {"top1": v[0], f"top{K}": v[1], "n": v[2]} for m, v in ms.items()}
                                 for c, ms in by.items()} for s, by in stats.items()},
            "contracts": {"tune": sorted(s for s in stems if splits[s] == "tune"),
                          "tune_rule": "sha256(file stem) starts with 0, 1 or 2",
                          "report_n": sum(1 for s in stems if splits[s] == "report")},
            "seconds": round(time.perf_counter() - t0, 1), "rows": per_contract}


def run_topic(args: argparse.Namespace) -> dict:
    """Recall of the topic check (:func:`clauselens.grid.answer.topic_check`) on CUAD's annotations:
    for each contract x category with a non-empty annotation, does the annotated text (all its
    clauses, each widened to its sentence in the contract as the grid widens a quote) contain one
    of the category's terms? A miss is a cell that would be marked unverified although it quoted
    the annotated clause. No library, no model."""
    from clauselens.grid.answer import topic_check
    from clauselens.reports.verify import clause_bounds

    master = load_master()
    stems = sorted(s for s in master if (CORPUS / f"{s}.txt").exists())
    if args.limit:
        stems = stems[: args.limit]
    cats = [q for q in CUAD if q.terms and (not args.only or q.id in args.only.split(","))]
    stats: dict = {}
    misses: dict = {}
    for stem in stems:
        split = split_of(stem)
        if args.split != "all" and split != args.split:
            continue
        row = master[stem]
        for q in cats:
            clauses = annotated_clauses(row, q.category)
            if not clauses:
                continue
            text = (CORPUS / f"{stem}.txt").read_text(encoding="utf-8")
            spans = [clause_bounds(text, a, b)[:2] for a, b in gold_spans(text, clauses)]
            if not spans:
                continue
            ok = bool(topic_check(q, " ".join(text[a:b] for a, b in spans)))
            st = stats.setdefault(split, {}).setdefault(q.category, [0, 0])
            st[0] += int(ok)
            st[1] += 1
            if not ok and split == "tune":  # only tune-split misses are shown (they guide the terms)
                misses.setdefault(q.category, []).append(stem)
    summary = {}
    for split, by_cat in stats.items():
        a = sum(v[0] for v in by_cat.values())
        n = sum(v[1] for v in by_cat.values())
        summary[split] = {"pairs": n, "recall_micro": round(a / n, 4),
                          "recall_macro": round(float(np.mean([v[0] / v[1] for v in by_cat.values()])), 4),
                          "categories": len(by_cat)}
    return {"part": "topic", "summary": summary,
            "per_category": {s: {c: {"pass": v[0], "n": v[1]} for c, v in sorted(by.items())} for s, by in stats.items()},
            "tune_misses": misses}


def run_precheck(args: argparse.Namespace) -> dict:
    """How often a cell reaches the model (:func:`clauselens.grid.answer.off_topic` is False: some
    retrieved passage mentions the category's terms), by CUAD's answer: for the yes/no categories,
    the share of "Yes" contracts that pass (a miss is a "No" the model never had a chance to
    change) and of "No" contracts that pass (the model decides those; the 1.5B says "Yes" to most).
    The contracts of the split are added to a lexical library of their own (BM25 statistics are
    per agreement, so the ranking is the grid's). No model."""
    from clauselens.grid.answer import off_topic

    master = load_master()
    split = args.split if args.split != "all" else "tune"
    stems = sorted(s for s in master if (CORPUS / f"{s}.txt").exists() and split_of(s) == split)
    if args.limit:
        stems = stems[: args.limit]
    root = CACHE / f"lexical-{split}"
    lib = Library.open(root, embedder_name="none")
    lib.add([CORPUS / f"{s}.txt" for s in stems])
    recs = {Path(r.path).stem: r for r in lib.agreements()}
    cats = [q for q in CUAD if q.terms and q.type == "yes_no" and (not args.only or q.id in args.only.split(","))]
    counts: dict = {}
    for stem in stems:
        if stem not in recs:
            continue
        for q in cats:
            gold = answer_column(master[stem], q.category)
            if gold not in ("Yes", "No"):
                continue
            passes = not off_topic(q, retrieve(lib, recs[stem].doc_id, q, K).passages)
            c = counts.setdefault(q.category, {"Yes": [0, 0], "No": [0, 0]})
            c[gold][0] += int(passes)
            c[gold][1] += 1
    tot = {g: [sum(c[g][0] for c in counts.values()), sum(c[g][1] for c in counts.values())] for g in ("Yes", "No")}
    summary = {split: {"contracts": len(stems), "pass_given_yes": round(tot["Yes"][0] / max(1, tot["Yes"][1]), 4),
                       "pass_given_no": round(tot["No"][0] / max(1, tot["No"][1]), 4), "yes_pairs": tot["Yes"][1],
                       "no_pairs": tot["No"][1]}}
    return {"part": "precheck", "summary": summary, "per_category": counts}


def value_match(q, gold: str, answer: str) -> bool | None:
    """Lenient match of a typed answer with CUAD's ``-Answer`` value: dates compared as dates
    (CUAD writes m/d/yy), other values when the words of one (minus "and", "the", "of", "state", "law(s)") are all in the other. ``None``
    when CUAD gives no value."""
    gold, answer = gold.strip(), answer.strip()
    if not gold:
        return None
    if q.type == "date":
        from dateutil import parser as dparser

        try:
            return dparser.parse(gold).date().isoformat() == answer
        except (ValueError, OverflowError):
            return gold.lower() == answer.lower()
    stop = {"and", "the", "of", "state", "laws", "law", "a", "an"}
    g, a = (set(re.findall(r"\w+", x.lower())) - stop for x in (gold, answer))
    return bool(a) and bool(g) and (g <= a or a <= g)


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    """95 % Wilson score interval of a proportion k/n."""
    if not n:
        return [0.0, 0.0]
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(float(c - h), 4), round(float(c + h), 4)]


def yesno_scores(rows: list[dict]) -> dict:
    """Yes/no accuracy (Wilson 95 %), always-"No" accuracy and Yes precision/recall/F1 of ``rows``
    (``gold``/``pred`` in Yes/No)."""
    n = len(rows)
    right = sum(r["gold"] == r["pred"] for r in rows)
    tp = sum(r["gold"] == "Yes" and r["pred"] == "Yes" for r in rows)
    py = sum(r["pred"] == "Yes" for r in rows)
    gy = sum(r["gold"] == "Yes" for r in rows)
    prec, rec = (tp / py if py else 0.0), (tp / gy if gy else 0.0)
    return {"n": n, "accuracy": round(right / n, 4) if n else None, "accuracy_95ci": wilson(right, n),
            "always_no_accuracy": round((n - gy) / n, 4) if n else None, "always_no_95ci": wilson(n - gy, n),
            "gold_yes": gy, "pred_yes": py, "precision_yes": round(prec, 4), "recall_yes": round(rec, 4),
            "f1_yes": round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0}


def compare_yesno(rows: list[dict], other: Path) -> dict:
    """This store's yes/no cells against another run's committed result (``--compare``) on the
    (contract, category) cells both have."""
    theirs = {(r["contract"], r["category"]): r for r in json.loads(other.read_text())["rows"] if r["type"] == "yes_no"}
    mine = {(r["contract"], r["category"]): r for r in rows if r["type"] == "yes_no"}
    keys = sorted(set(mine) & set(theirs))
    out: dict = {"compared_with": str(other.relative_to(REPO)) if other.is_relative_to(REPO) else str(other),
                 "cells_in_both": len(keys), "only_here": len(set(mine) - set(theirs)), "only_there": len(set(theirs) - set(mine))}
    for split in ("report", "all"):
        ks = [k for k in keys if split == "all" or mine[k]["split"] == split]
        out[split] = {"this": yesno_scores([mine[k] for k in ks]), "other": yesno_scores([theirs[k] for k in ks]),
                      "per_category_f1_yes": {c: {"this": yesno_scores([mine[k] for k in ks if k[1] == c])["f1_yes"],
                                                  "other": yesno_scores([theirs[k] for k in ks if k[1] == c])["f1_yes"]}
                                              for c in sorted({k[1] for k in ks})}}
    return out


def run_yesno(args: argparse.Namespace) -> dict:
    """Accuracy of a grid's cells against CUAD's answers: yes/no categories exactly, other
    categories by :func:`value_match`. Error cells are excluded and counted."""
    from clauselens.grid import CellStore

    master = load_master()
    store = CellStore(args.store)
    cats = {q.id: q for q in CUAD}
    out: dict = {}
    rows = []
    errors = 0
    seconds = []
    for c in store.cells():
        q = cats.get(c.question_id)
        if q is None:
            continue
        if c.status == "error":
            errors += 1
            continue
        seconds.append(c.seconds)
        row = master.get(Path(c.source_path).stem)
        if row is None:
            continue
        gold = answer_column(row, q.category)
        if q.type == "yes_no":
            if gold not in ("Yes", "No"):
                continue
            # the grid's answer: "Yes" only from a cell whose checks passed (an unverified "Yes" is not shown as one)
            pred = c.answer if c.status == "answered" and c.answer in ("Yes", "No") else "No"
            model_pred = c.answer if c.answer in ("Yes", "No") else "No"  # the model's own answer, checks ignored
            ok: bool | None = pred == gold
            model_ok: bool | None = model_pred == gold
        else:
            pred = model_pred = c.answer
            ok = value_match(q, gold, c.answer) if c.status == "answered" else False
            model_ok = value_match(q, gold, c.answer)
            if model_ok is None:
                continue
        rows.append({"contract": Path(c.source_path).stem, "split": split_of(Path(c.source_path).stem), "category": q.category,
                     "type": q.type, "gold": gold, "pred": pred, "model_pred": model_pred, "status": c.status, "ok": ok,
                     "model_ok": model_ok})
    store.close()
    for split in ("tune", "report", "all"):
        sel = [r for r in rows if split == "all" or r["split"] == split]
        if not sel:
            continue
        by_cat: dict = {}
        for r in sel:
            by_cat.setdefault(r["category"], []).append(r["ok"])
        yn = [r for r in sel if r["type"] == "yes_no"]
        gold_yes = [r for r in yn if r["gold"] == "Yes"]
        pred_yes = [r for r in yn if r["pred"] == "Yes"]
        model_yes = [r for r in yn if r["model_pred"] == "Yes"]
        typed = [r for r in sel if r["type"] != "yes_no"]
        out[split] = {"n": len(sel), "contracts": len({r["contract"] for r in sel}),
                      "yes_no_n": len(yn), "yes_no_accuracy": round(sum(r["ok"] for r in yn) / len(yn), 4) if yn else None,
                      "yes_no_accuracy_model_unchecked": round(sum(r["model_ok"] for r in yn) / len(yn), 4) if yn else None,
                      "precision_yes_model_unchecked": round(sum(r["gold"] == "Yes" for r in model_yes) / len(model_yes), 4)
                      if model_yes else None,
                      "recall_yes_model_unchecked": round(sum(r["model_pred"] == "Yes" for r in gold_yes) / len(gold_yes), 4)
                      if gold_yes else None,
                      "typed_n": len(typed), "typed_accuracy": round(sum(r["ok"] for r in typed) / len(typed), 4) if typed else None,
                      "typed_accuracy_model_unchecked": round(sum(bool(r["model_ok"]) for r in typed) / len(typed), 4)
                      if typed else None,
                      "yes_no_always_no_accuracy": round(sum(r["gold"] == "No" for r in yn) / len(yn), 4) if yn else None,
                      "recall_yes": round(sum(r["pred"] == "Yes" for r in gold_yes) / len(gold_yes), 4) if gold_yes else None,
                      "precision_yes": round(sum(r["gold"] == "Yes" for r in pred_yes) / len(pred_yes), 4) if pred_yes else None,
                      "per_category": {c: {"n": len(v), "accuracy": round(sum(v) / len(v), 4)} for c, v in sorted(by_cat.items())}}
    if getattr(args, "compare", None) is not None:  # a caller's Namespace may not have it (the tests')
        out["comparison"] = compare_yesno(rows, args.compare)
    return {"part": "yesno", "store": str(args.store), "summary": out, "error_cells": errors,
            # median, not mean: a cell's seconds include any time the process was paused
            "median_seconds_per_cell": round(float(np.median(seconds)), 1) if seconds else None,
            "cells_per_minute_at_median": round(60 / float(np.median(seconds)), 2) if seconds and np.median(seconds) > 0 else None,
            "cells": len(seconds), "rows": rows}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=("retrieval", "yesno", "topic", "precheck"), default="retrieval")
    ap.add_argument("--only", default="", help="comma-separated question ids")
    ap.add_argument("--limit", type=int, default=0, help="first N contracts only (smoke runs)")
    ap.add_argument("--split", choices=("all", "tune", "report"), default="all", help="which contracts (tuning: tune)")
    ap.add_argument("--build", action="store_true", help="(re)add the corpus to the library first")
    ap.add_argument("--store", type=Path, help="--part yesno: a grid's .cells.sqlite")
    ap.add_argument("--tag", default="", help="suffix of the result file name")
    ap.add_argument("--compare", type=Path, default=None,
                    help="--part yesno: a committed yesno result JSON (e.g. the 1.5B's) to score on the same cells")
    args = ap.parse_args(argv)
    t0 = time.time()
    res = {"retrieval": run_retrieval, "yesno": run_yesno, "topic": run_topic, "precheck": run_precheck}[args.part](args)
    res.update(command=" ".join(["python -m benchmarks.cuad_grid", *(argv if argv is not None else sys.argv[1:])]),
               date_utc=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
               load_average=list(map(float, Path("/proc/loadavg").read_text().split()[:3])),
               provenance=run_provenance(["bm25s", "numpy", "sentence-transformers", "llama-cpp-python"]),
               wall_seconds=round(time.time() - t0, 1))
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = f"cuad_grid_{res['part']}{'_' + args.tag if args.tag else ''}.json"
    (RESULTS / name).write_text(json.dumps(res, indent=1))
    print(json.dumps(res["summary"], indent=1))
    print(f"wrote benchmarks/results/{name}", file=sys.stderr)


if __name__ == "__main__":
    main()
