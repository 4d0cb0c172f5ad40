"""Typed grid cells in everyday words, read by the grid's rule, checked against CUAD's clause annotations (issue #45).

A user asks a grid "how much warning to end the deal without a reason?" or "how long does the warranty last?" in their
own words; the cell is read by rule (``clauselens.grid.rule.rule_cell``). CUAD annotates, for every agreement, the
clauses of 41 categories, so a typed answer can be checked on hundreds of agreements: is the answered value one the
category's annotated clauses state? Each probe (:data:`PROBES`) is a CUAD category, an answer type and three lay wordings
written for this census (the ``at_will`` probe is a yes/no question, read by the evidence rule); per agreement and wording:

* ``consistent`` / ``inconsistent``: CUAD annotates such a clause, and the answered value is / is not one it states;
* ``answered_no_clause``: answered where CUAD annotates no such clause (a value from another clause: wrong);
* ``unanswered_with_clause`` / ``unanswered_no_clause``: unverified or not found (a yes/no cell the rule leaves undecided).

A yes/no probe is ``consistent`` when its answered "Yes" / "No" says whether CUAD annotates such a clause.

CUAD's spans can be shorter than the sentence that states the value, so ``inconsistent`` is an upper bound on wrong
answers there; read its rows. The agreements are the CUAD preset's splits (``benchmarks/grid_user_questions.py``: tune,
report[0:280] inspected, report[280:] held out: ``--summary-only``). No model, no training::

    .venv/bin/python -m benchmarks.typed_census --probe convenience_notice --split tune
    .venv/bin/python -m benchmarks.typed_census --probe all --split report --limit 280
    .venv/bin/python -m benchmarks.typed_census --probe all --split report --skip 280 --summary-only
"""

from __future__ import annotations

import argparse
import ast
import json
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
#: probe -> (CUAD category, answer type, three lay wordings)
PROBES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "convenience_notice": ("Termination For Convenience", "duration", (
        "How much warning must a party give to end the agreement early without a reason?",
        "How much notice is needed to cancel this contract for no particular reason?",
        "If one side simply wants to end the deal without any reason, how much notice must it give?")),
    "warranty_length": ("Warranty Duration", "duration", (
        "How long does the warranty last?",
        "For how long are the products guaranteed against defects?",
        "How long is the warranty period on what is sold?")),
    "liability_cap": ("Cap On Liability", "amount", (
        "What is the most either side could have to pay in damages?",
        "How much is a party's liability capped at?",
        "Up to what amount can one side be held liable?")),
    "non_compete_length": ("Non-Compete", "duration", (
        "For how long is a party barred from competing?",
        "How long does the ban on competing last?",
        "For how long after the deal ends can they not work for a competitor?")),
    "minimum_purchase": ("Minimum Commitment", "amount", (
        "What is the minimum amount that must be bought?",
        "How much does the buyer have to order at the least?",
        "What is the smallest purchase commitment each year?")),
    "insurance_amount": ("Insurance", "amount", (
        "How much insurance coverage must be carried?",
        "What is the minimum insurance a party must have?",
        "How much liability insurance is required?")),
    "revenue_share": ("Revenue/Profit Sharing", "amount", (
        "What percentage of revenue is shared?",
        "What royalty rate is paid on sales?",
        "What cut of the profits does the other side get?")),
    # yes/no (the evidence rule, :func:`clauselens.grid.rule.yes_no_cell`): right when "Yes" iff CUAD annotates such a clause
    "at_will": ("Termination For Convenience", "yes_no", (
        "Can a party end the agreement early without giving a reason?",
        "May either side cancel the contract for no particular reason?",
        "Is a party allowed to terminate without cause?")),
}


def stated(qtype: str, answer: str, clauses: list[str]) -> bool:
    """Is every value of ``answer`` one that ``clauses`` state (periods by :func:`same_period`, amounts by value)?"""
    from clauselens.grid.values import amounts_in, durations_in, same_period

    if qtype == "duration":
        mine, want = durations_in(answer), [p for c in clauses for p in durations_in(c)]
        return bool(mine) and all(any(same_period(m, w) for w in want) for m in mine)
    got, have = amounts_in(answer), [a.value for c in clauses for a in amounts_in(c)]
    return bool(got) and all(any(abs(g.value - h) < 1e-6 for h in have) for g in got)


def yes_no_consistent(answer: str, clauses: list[str]) -> bool:
    """Does a yes/no cell's ``answer`` say whether CUAD annotates such a clause (``clauses``)?"""
    return (answer == "Yes") == bool(clauses)


def census(probe: str, split: str, skip: int, limit: int) -> dict[str, Any]:
    from benchmarks.cuad_grid import load_master, open_library, split_of
    from clauselens.grid.questions import GridQuestion
    from clauselens.grid.rule import rule_cell, yes_no_cell
    from clauselens.library.library import chunks_of
    from clauselens.retrieval.types import Passage

    category, qtype, wordings = PROBES[probe]
    master = load_master()
    lib = open_library(False)
    recs = {Path(r.path).stem: r for r in lib.agreements()}
    stems = sorted(s for s in recs if s in master and split_of(s) == split)[skip:][: limit or None]
    keys = ("consistent", "inconsistent", "answered_no_clause", "unanswered_with_clause", "unanswered_no_clause")
    counts = {k: 0 for k in keys}
    rows = []
    t0 = time.perf_counter()
    for stem in stems:
        passages = [Passage.from_chunk(c, 0.0, "rule") for c in chunks_of(lib, recs[stem].doc_id)]
        clauses = ast.literal_eval(master[stem].get(category) or "[]")
        for i, wording in enumerate(wordings):
            q = GridQuestion(id=f"w{i}", type=qtype, question=wording)
            base = {"row_key": stem, "question_id": q.id, "fingerprint": "", "model": "rule"}
            cell = yes_no_cell(base, q, passages) if qtype == "yes_no" else rule_cell(base, q, passages)
            if cell is None or cell.status != "answered":
                verdict = "unanswered_with_clause" if clauses else "unanswered_no_clause"
            elif qtype == "yes_no":
                verdict = "consistent" if yes_no_consistent(cell.answer, clauses) else "inconsistent"
            elif not clauses:
                verdict = "answered_no_clause"
            else:
                verdict = "consistent" if stated(qtype, cell.answer, clauses) else "inconsistent"
            counts[verdict] += 1
            rows.append({"agreement": stem, "wording": i, "status": cell.status if cell else "undecided", "answer": cell.answer if cell else "",
                         "verdict": verdict, "quote": cell.quote[:300] if cell else "", "cuad": [c[:300] for c in clauses]})
    answered = counts["consistent"] + counts["inconsistent"] + counts["answered_no_clause"]
    return {"probe": probe, "category": category, "type": qtype, "wordings": list(wordings),
            "split": split, "skipped_first": skip, "agreements": len(stems), "cells": len(stems) * len(wordings),
            "counts": counts, "answered": answered,
            "wrong_share_of_answered": round((counts["inconsistent"] + counts["answered_no_clause"]) / answered, 3) if answered else None,
            "wall_seconds": round(time.perf_counter() - t0, 1), "rows": rows}


def main(argv: list[str] | None = None) -> None:
    from benchmarks.grid_user_questions import wilson
    from benchmarks.term_period_census import census_arguments, write_census

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--probe", choices=(*PROBES, "all"), default="all")
    census_arguments(ap)
    args = ap.parse_args(argv)
    for probe in PROBES if args.probe == "all" else (args.probe,):
        out = census(probe, args.split, args.skip, args.limit)
        c = out["counts"]
        out["wrong_ci95"] = wilson(c["inconsistent"] + c["answered_no_clause"], out["answered"])
        path = write_census(out, f"typed_census_{probe}", "benchmarks.typed_census", args, argv)
        print(probe, json.dumps(c), "answered", out["answered"], "wrong share", out["wrong_share_of_answered"], "->", path.name)


if __name__ == "__main__":
    main()
