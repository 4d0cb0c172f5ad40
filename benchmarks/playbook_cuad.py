"""Playbook review on CUAD (issue #44): per-position compliant / deviation / missing vs CUAD's labels, LLM-free.

Positions CUAD's annotations decide (:data:`PLAYBOOK`): presence of anti-assignment, a cap on
liability, audit rights and insurance (required); no non-compete and no exclusivity (required
absent); governing law in {New York, Delaware}; renewal term at most 1 year; notice to stop renewal
at most 90 days. Gold per agreement from ``master_clauses.csv``: a category is present when its
annotation column is non-empty; ``present`` -> compliant / missing, ``absent`` -> deviation /
compliant; a value position is missing when its category is absent, else compliant / deviation
by the ``-Answer`` column read with the same value readers (:mod:`clauselens.grid.values`); an
answer that states no one jurisdiction or period ("perpetual") is left out of that position (counted).

Splits (``--split``):

* ``report`` -- the CUAD report split: every ``legalbench-rag/corpus/cuad/`` TXT agreement with a
  ``master_clauses.csv`` row that is NOT in ``train_allowed.txt`` (the 134 of ``presence_head.py``),
  and the 21 PDFs of ``selected_contracts.json`` parsed from the PDF (their own rows);
* ``dev`` -- the presence head's tune split (65 ``train_allowed`` agreements whose labels chose the
  head's thresholds, not its weights), where ``--margins`` compares one unclear margin for all.

Thresholds and bands: by default each category's calibrated threshold and band
(:mod:`clauselens.playbook.calibrate`: 5-fold out-of-fold scores over the 327 ``train_allowed``
agreements, the dev agreements among them; no report-split agreement); ``--margin M`` sets one band
for all; the result also records the earlier configuration (the head's own thresholds, chosen on
the 65 tune agreements, band 1.0 log-odds for all) on the same agreements, under ``head_thresholds``.

Party reading (``party_reading``): for Anti-Assignment, Non-Compete and Exclusivity clauses CUAD
annotates, whom the annotated clause binds as the review's party check reads it (each party / one
party / both named / unknown; CUAD does not label the obligated party, so a coverage, not an accuracy).

Reported per position: accuracy (unclear counts as wrong), accuracy over the decided (non-unclear)
outcomes, unclear rate, Wilson 95% intervals, the baseline "always no clause" (missing for a
required or value position, compliant for a required-absent one), and the count of compliant
outcomes without a quoted clause (must be 0), and how often a compliant / deviation quote of an
agreement CUAD annotates for the category overlaps an annotated clause (a 60-character slice of
it, as the head's window labels). On the 21 PDFs, the grid-raw comparison
(``selected_pdf_vs_grid``): the same cells answered by the review grid with the 1.5B (committed answers
of :data:`GRID_RAW`, read with the same value readers; ``pred`` after the grid's checks,
``model_pred`` the model's raw answer) against the playbook's outcomes, on the cells both have. Wall time per agreement (parse + review; PDFs parsed
through the document store, so a second run times the review mostly). No model call. Run::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python benchmarks/playbook_cuad.py --split report > /tmp/playbook_cuad.log 2>&1
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from clauselens.config import Settings
from clauselens.grid.values import durations_in, jurisdictions_in
from clauselens.heads.base import sha256_file
from clauselens.heads.presence import PresenceHead
from clauselens.heads.train_presence import CUAD, allowed_keys, corpus_files, key, label_windows, load_rows
from clauselens.playbook.calibrate import CALIBRATION, load_calibration
from clauselens.playbook.model import Playbook, parse_playbook
from clauselens.playbook.review import Reviewer
from clauselens.playbook.rules import days, reduce_jurisdictions
from clauselens.playbook.sources import load_file
from clauselens.playbook.stack import STACK

RESULTS = Path(__file__).resolve().parent / "results"
#: The grid's committed answers (the 1.5B, CUAD preset) on the same 21 PDFs: the grid-raw comparison.
GRID_RAW = RESULTS / "cuad_grid_yesno_cuad21_1.5b.json"
PLAYBOOK = """
name: CUAD-decidable positions (benchmark){margin}
positions:
  - id: anti_assignment
    topic: "Is assignment restricted?"
    category: Anti-Assignment
    require: present
  - id: cap_on_liability
    topic: "Is liability capped?"
    category: Cap On Liability
    require: present
  - id: audit_rights
    topic: "Are there audit rights?"
    category: Audit Rights
    require: present
  - id: insurance
    topic: "Must a party carry insurance?"
    category: Insurance
    require: present
  - id: no_non_compete
    topic: "Is there a non-compete?"
    category: Non-Compete
    require: absent
  - id: no_exclusivity
    topic: "Is there exclusivity?"
    category: Exclusivity
    require: absent
  - id: governing_law
    topic: "Which law governs?"
    category: Governing Law
    require: {{governing_law_in: [New York, Delaware]}}
  - id: renewal_term
    topic: "How long is a renewal term?"
    category: Renewal Term
    value_near: [renew, successive, additional, extend, extension]
    require: {{period_at_most: 1 year}}
  - id: renewal_notice
    topic: "What notice stops the renewal?"
    category: Notice Period To Terminate Renewal
    value_near: [notice, prior, written, before]
    terms: [renew, non-renew, expir, extend, extension, automatic, continu, successive]
    require: {{period_at_most: 90 days}}
"""
ANSWER_COLUMN = {"Governing Law": "Governing Law-Answer", "Renewal Term": "Renewal Term-Answer",
                 "Notice Period To Terminate Renewal": "Notice Period To Terminate Renewal- Answer"}


def load_labels() -> dict[str, dict[str, str]]:
    """Per agreement key: each category's annotation (joined) and the -Answer columns."""
    import ast
    import csv

    csv.field_size_limit(10**9)
    out: dict[str, dict[str, str]] = {}
    with open(CUAD / "master_clauses.csv", newline="") as f:
        for r in csv.DictReader(f):
            row = {c: " ".join(ast.literal_eval(v or "[]")) for c, v in r.items() if c != "Filename" and "Answer" not in c}
            row.update({c: v for c, v in r.items() if "Answer" in c})
            out[key(r["Filename"])] = row
    return out


@lru_cache(maxsize=1)
def cuad_spans() -> dict[str, dict[str, list[str]]]:
    """Per agreement key, CUAD's annotated clause texts per category."""
    return load_rows()[1]


def gold(pb: Playbook, row: dict[str, str]) -> dict[str, str | None]:
    """The gold outcome per position (None: the label states no value the rule can compare)."""
    out: dict[str, str | None] = {}
    for p in pb.positions:
        present = bool(row[p.category].strip())
        rule = p.require
        if rule.rule == "present":
            out[p.id] = "compliant" if present else "missing"
        elif rule.rule == "absent":
            out[p.id] = "deviation" if present else "compliant"
        elif not present:
            out[p.id] = "missing"
        elif rule.rule == "governing_law_in":
            law = reduce_jurisdictions(jurisdictions_in(row[ANSWER_COLUMN[p.category]]))
            inside = law & set(rule.allowed)
            out[p.id] = None if not law or (inside and inside != law) else ("compliant" if inside else "deviation")
        else:
            periods = durations_in(row[ANSWER_COLUMN[p.category]])
            if not periods or rule.period is None:
                out[p.id] = None
            else:
                d = days(periods[0])
                ok = d <= days(rule.period) + 1e-9 if rule.rule == "period_at_most" else d >= days(rule.period) - 1e-9
                out[p.id] = "compliant" if ok else "deviation"
    return out


def grid_outcome(pb: Playbook, pid: str, answer: str) -> str:
    """A grid cell's answer read as the position's outcome (the same value readers as the gold;
    an answer no reader can compare is "unclear")."""
    p = next(x for x in pb.positions if x.id == pid)
    a = (answer or "").strip()
    said_no = not a or a.lower() in ("no", "not found", "none")
    rule = p.require
    if rule.rule in ("present", "absent"):
        yes = a.lower().startswith("yes")
        return ("compliant" if yes else "missing") if rule.rule == "present" else ("deviation" if yes else "compliant")
    if said_no:
        return "missing"
    if rule.rule == "governing_law_in":
        law = reduce_jurisdictions(jurisdictions_in(a))
        inside = law & set(rule.allowed)
        return "unclear" if not law or (inside and inside != law) else ("compliant" if inside else "deviation")
    periods = durations_in(a)
    if not periods or rule.period is None:
        return "unclear"
    d = days(periods[0])
    ok = d <= days(rule.period) + 1e-9 if rule.rule == "period_at_most" else d >= days(rule.period) - 1e-9
    return "compliant" if ok else "deviation"


def grid_compare(pb: Playbook, records: list[dict[str, Any]], grid_file: Path) -> dict[str, Any]:
    """The playbook's outcomes against the grid's committed answers (``pred``: after the grid's
    checks; ``model_pred``: the 1.5B's raw answer) on the same (agreement, position) cells."""
    data = json.loads(grid_file.read_text())
    cells = {(key(r["contract"]), r["category"]): r for r in data["rows"]}
    out: dict[str, Any] = {"grid_file": str(grid_file.relative_to(RESULTS.parent.parent)), "grid_command": data.get("command"),
                           "grid_date_utc": data.get("date_utc"), "positions": {}}
    tot = {"n": 0, "playbook": 0, "grid": 0, "raw": 0, "playbook_unclear": 0}
    for p in pb.positions:
        n = right_pb = right_grid = right_raw = unclear = 0
        for r in records:
            g = r["gold"].get(p.id)
            cell = cells.get((key(r["agreement"]), p.category or ""))
            if g is None or cell is None:
                continue
            n += 1
            right_pb += r["pred"][p.id] == g
            unclear += r["pred"][p.id] == "unclear"
            right_grid += grid_outcome(pb, p.id, str(cell["pred"])) == g
            right_raw += grid_outcome(pb, p.id, str(cell["model_pred"])) == g
        out["positions"][p.id] = {"n": n, "playbook_accuracy": wilson_row(right_pb, n), "playbook_unclear": unclear,
                                  "grid_accuracy": wilson_row(right_grid, n), "grid_raw_model_accuracy": wilson_row(right_raw, n)}
        for k, v in (("n", n), ("playbook", right_pb), ("grid", right_grid), ("raw", right_raw), ("playbook_unclear", unclear)):
            tot[k] += v
    out["all"] = {"n": tot["n"], "playbook_accuracy": wilson_row(tot["playbook"], tot["n"]),
                  "playbook_unclear": tot["playbook_unclear"], "grid_accuracy": wilson_row(tot["grid"], tot["n"]),
                  "grid_raw_model_accuracy": wilson_row(tot["raw"], tot["n"])}
    return out


#: Categories whose clauses oblige a party (the party check of a position with ``party:``).
PARTY_CATEGORIES = ("Anti-Assignment", "Non-Compete", "Exclusivity")


def party_reading(spans: dict[str, list[str]], parties: dict[str, list[str]]) -> dict[str, str]:
    """Per category CUAD annotates in the agreement: whom its annotated clause binds, as the review's
    party check reads it (:func:`clauselens.playbook.parties.bound` over the clause's sentences):
    "each party", "one party", "both named" or "unknown". CUAD does not label the obligated party,
    so this measures how often a party-specific position can be decided, not whether it is right."""
    from clauselens.playbook.parties import ALL, Sides, bound
    from clauselens.playbook.rules import sentences

    sides = Sides(parties)
    out = {}
    for cat in PARTY_CATEGORIES:
        if not spans.get(cat):
            continue
        got = [b for t in spans[cat] for _, sen in sentences(t) for b in [bound(sen, sides)] if b is not None]
        binds = set().union(*got) if got else set()
        out[cat] = "unknown" if not got else "each party" if ALL in binds else "one party" if len(binds) == 1 else "both named"
    return out


def party_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for cat in PARTY_CATEGORIES:
        vals = [r["party_reading"][cat] for r in records if cat in r.get("party_reading", {})]
        known = sum(v != "unknown" for v in vals)
        out[cat] = {"annotated_agreements": len(vals), **{k: vals.count(k) for k in ("each party", "one party", "both named", "unknown")},
                    "party_read": known, "party_read_95ci": wilson(known, len(vals))}
    return out


def wilson_row(k: int, n: int) -> dict[str, Any]:
    return {"correct": k, "accuracy": round(k / n, 4) if n else None, "95ci": wilson(k, n)}


def wilson(k: int, n: int) -> list[float]:
    if n == 0:
        return [0.0, 0.0]
    z, p = 1.96, k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(c - h, 4), round(c + h, 4)]


def baseline(rule: str) -> str:
    return "compliant" if rule == "absent" else "missing"


def summarise(pb: Playbook, records: list[dict[str, Any]]) -> dict[str, Any]:
    per: dict[str, Any] = {}
    tot = {"n": 0, "correct": 0, "decided": 0, "decided_correct": 0, "unclear": 0, "base": 0}
    head_only = dict(tot)
    for p in pb.positions:
        rows = [r for r in records if r["gold"].get(p.id) is not None]
        n = len(rows)
        correct = sum(r["pred"][p.id] == r["gold"][p.id] for r in rows)
        unclear = sum(r["pred"][p.id] == "unclear" for r in rows)
        dec = n - unclear
        base = sum(r["gold"][p.id] == baseline(p.require.rule) for r in rows)
        confusion: dict[str, int] = {}
        for r in rows:
            k = f"{r['gold'][p.id]}->{r['pred'][p.id]}"
            confusion[k] = confusion.get(k, 0) + 1
        quoted = [r["quote_on_annotated_clause"][p.id] for r in records if p.id in r.get("quote_on_annotated_clause", {})]
        per[p.id] = {"rule": p.require.describe(), "category": p.category, "n": n, "left_out": len(records) - n,
                     "quote_on_annotated_clause": {"quoted": len(quoted), "on_clause": sum(quoted),
                                                   "rate_95ci": wilson(sum(quoted), len(quoted))},
                     "accuracy": round(correct / n, 4) if n else None, "accuracy_95ci": wilson(correct, n),
                     "decided_accuracy": round(correct / dec, 4) if dec else None, "decided_95ci": wilson(correct, dec),
                     "unclear_rate": round(unclear / n, 4) if n else None, "always_no_clause_accuracy": round(base / n, 4) if n else None,
                     "confusion_gold_to_pred": dict(sorted(confusion.items()))}
        for agg in (tot, head_only) if p.require.rule in ("present", "absent") else (tot,):
            agg["n"] += n
            agg["correct"] += correct
            agg["decided"] += dec
            agg["decided_correct"] += correct
            agg["unclear"] += unclear
            agg["base"] += base

    def fold(a: dict[str, int]) -> dict[str, Any]:
        n, d = a["n"], a["decided"]
        return {"cells": n, "accuracy": round(a["correct"] / n, 4) if n else None, "accuracy_95ci": wilson(a["correct"], n),
                "decided_accuracy": round(a["decided_correct"] / d, 4) if d else None, "decided_95ci": wilson(a["decided_correct"], d),
                "unclear_rate": round(a["unclear"] / n, 4) if n else None, "always_no_clause_accuracy": round(a["base"] / n, 4) if n else None}

    secs = [r["seconds"] for r in records]
    return {"agreements": len(records), "positions": per,
            "party_reading": party_summary(records), "all_positions": fold(tot), "presence_head_positions": fold(head_only),
            "compliant_without_quote": sum(r["compliant_without_quote"] for r in records),
            "seconds_per_agreement": {"mean": round(statistics.mean(secs), 3) if secs else None,
                                      "median": round(statistics.median(secs), 3) if secs else None,
                                      "p95": round(sorted(secs)[int(0.95 * (len(secs) - 1))], 3) if secs else None}}


def playbook(margin: float | None) -> Playbook:
    """The benchmark playbook; ``margin`` None: each category's calibrated band."""
    extra = "" if margin is None else f"\nunclear_margin: {margin}"
    return parse_playbook(PLAYBOOK.format(margin=extra), "benchmark playbook")


def run(files: list[tuple[str, Path]], labels: dict[str, dict[str, str]], reviewers: dict[str, Reviewer],
        settings: Settings) -> dict[str, list[dict[str, Any]]]:
    """Records per reviewer (the first one is timed: parse + review)."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in reviewers}
    for k, path in files:
        t0 = time.perf_counter()
        try:
            a = load_file(path, settings)
        except Exception as e:  # noqa: BLE001 - a file the parser refuses is reported, not fatal
            print(f"skip {path.name}: {e}", file=sys.stderr)
            for name in reviewers:
                out[name].append({"agreement": path.name, "error": str(e), "gold": {}, "pred": {}, "seconds": 0.0,
                                  "compliant_without_quote": 0})
            continue
        for name, reviewer in reviewers.items():
            pb = reviewer.playbook
            needs = {p.id: p.require.needs_clause for p in pb.positions}
            cat = {p.id: p.category or "" for p in pb.positions}
            rv = reviewer.review(a.passages, agreement=a.label, source_path=str(path))
            secs = time.perf_counter() - t0
            pred = {r.position_id: r.outcome for r in rv.results}
            cwq = sum(1 for r in rv.results if r.outcome == "compliant" and needs[r.position_id] and not r.quotes)
            spans = cuad_spans().get(k, {})
            on_clause = {r.position_id: bool(label_windows([" ".join(q.text for q in r.quotes)], spans[cat[r.position_id]])[0])
                         for r in rv.results if r.quotes and r.outcome in ("compliant", "deviation") and spans.get(cat[r.position_id])}
            out[name].append({"agreement": path.name, "gold": gold(pb, labels[k]), "pred": pred, "seconds": round(secs, 3),
                              "compliant_without_quote": cwq, "quote_on_annotated_clause": on_clause,
                              "party_reading": party_reading(spans, a.parties),
                              "values": {r.position_id: r.value for r in rv.results if r.value}})
            t0 = time.perf_counter()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=["report", "dev"], default="report")
    ap.add_argument("--margin", type=float, default=None, help="one unclear band for all categories (default: calibrated)")
    ap.add_argument("--margins", default="", help="dev: comma-separated margins to compare")
    ap.add_argument("--no-pdf", action="store_true", help="report: skip the 21 PDFs")
    args = ap.parse_args()
    t0 = time.time()
    head = PresenceHead()
    labels = load_labels()
    settings = Settings()
    corpus = corpus_files()
    allowed = allowed_keys()
    cal = load_calibration()
    result: dict[str, Any] = {"split": args.split, "head_sha256": head.meta["sha256"], "llm_calls": 0,
                              "calibration": {"file": "clauselens/playbook/presence_calibration.json",
                                              "sha256": sha256_file(CALIBRATION) if CALIBRATION.is_file() else None,
                                              "categories": cal},
                              "stack": {"file": "clauselens/playbook/presence_stack.json",
                                        "sha256": sha256_file(STACK) if STACK.is_file() else None}}
    if args.split == "dev":
        tune = [k for k in head.meta["manifest"]["tune_agreements"] if k in labels]
        files = [(k, corpus[k]) for k in tune]
        result["data"] = (f"presence head's tune split: {len(files)} train_allowed agreements (TXT) whose labels chose the "
                          "head's thresholds and are among the calibration's out-of-fold agreements (dev)")
        result["by_margin"] = {}
        margins: list[float | None] = [float(x) for x in args.margins.split(",") if x.strip()] or [args.margin]
        reviewers = {"calibrated" if m is None else str(m): Reviewer(playbook(m), head=head) for m in margins}
        reviewers["head_thresholds"] = Reviewer(playbook(1.0), head=head, calibration={})
        reviewers["no_stack"] = Reviewer(playbook(None), head=head, stack=False)
        for m, recs in run(files, labels, reviewers, settings).items():
            result["by_margin"][m] = summarise(reviewers[m].playbook, recs)
            s = result["by_margin"][m]
            print(f"margin {m}: head positions {s['presence_head_positions']} all {s['all_positions']}", file=sys.stderr)
        name = "playbook_cuad_dev.json"
    else:
        pb = playbook(args.margin)
        reviewers = {"main": Reviewer(pb, head=head), "head_thresholds": Reviewer(playbook(1.0), head=head, calibration={}),
                     "no_stack": Reviewer(pb, head=head, stack=False)}
        report = sorted(k for k in corpus if k in labels and k not in allowed)
        txt = run([(k, corpus[k]) for k in report], labels, reviewers, settings)
        result["margin"] = args.margin if args.margin is not None else "calibrated per category"
        result["data"] = {"report_txt": f"{len(report)} legalbench-rag/corpus/cuad TXT agreements with a master_clauses.csv row, "
                                        "not in train_allowed.txt (none of them trained or tuned anything)",
                          "selected_pdf": "the 21 PDFs of selected_contracts.json, parsed from the PDF"}
        result["report_txt"] = summarise(pb, txt["main"])
        result["head_thresholds"] = {"what": "the head's own thresholds (65 tune agreements), band 1.0 for all",
                                     "report_txt": summarise(pb, txt["head_thresholds"])}
        result["no_stack"] = {"what": "calibrated, Exclusivity decided by the head alone (no wording stacker)",
                              "report_txt": summarise(pb, txt["no_stack"])}
        result["report_txt_agreements"] = [r["agreement"] for r in txt["main"]]
        if not args.no_pdf:
            sel = json.loads((CUAD / "selected_contracts.json").read_text())
            pdfs = [(key(Path(s["pdf"]).name), CUAD / s["pdf"]) for s in sel]
            pdf = run([(k, p) for k, p in pdfs if k in labels], labels, reviewers, settings)
            result["selected_pdf"] = summarise(pb, pdf["main"])
            result["head_thresholds"]["selected_pdf"] = summarise(pb, pdf["head_thresholds"])
            result["no_stack"]["selected_pdf"] = summarise(pb, pdf["no_stack"])
            result["selected_pdf_rows"] = pdf["main"]
            if GRID_RAW.is_file():
                result["selected_pdf_vs_grid"] = grid_compare(pb, pdf["main"], GRID_RAW)
        result["report_txt_rows"] = txt["main"]
        name = "playbook_cuad.json"
    result["seconds"] = round(time.time() - t0, 1)
    result["command"] = "OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python benchmarks/playbook_cuad.py " + " ".join(sys.argv[1:])
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / name).write_text(json.dumps(result, indent=1) + "\n")
    if "selected_pdf_vs_grid" in result:
        for pid, v in result["selected_pdf_vs_grid"]["positions"].items():
            print(f"  vs grid {pid:18s} n={v['n']} playbook={v['playbook_accuracy']['accuracy']} "
                  f"grid={v['grid_accuracy']['accuracy']} raw={v['grid_raw_model_accuracy']['accuracy']}", file=sys.stderr)
    for part in ("report_txt", "selected_pdf"):
        if part in result:
            s = result[part]
            print(part, s["agreements"], "head positions", s["presence_head_positions"], "all", s["all_positions"],
                  "compliant without quote", s["compliant_without_quote"], "s/agreement", s["seconds_per_agreement"], file=sys.stderr)
            for pid, v in s["positions"].items():
                print(f"  {pid:18s} n={v['n']:3d} acc={v['accuracy']} decided={v['decided_accuracy']} unclear={v['unclear_rate']} "
                      f"base={v['always_no_clause_accuracy']}", file=sys.stderr)


if __name__ == "__main__":
    main()
