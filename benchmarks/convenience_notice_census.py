"""The notice to end an agreement at will, read by the grid's rule, against CUAD's Termination For Convenience clauses.

A user's "how much warning must a party give to end the agreement early without a reason?" is a typed duration cell read
by rule (``clauselens.grid.rule.rule_cell``); among sentences stating different notice periods, the one that lets the
agreement be ended at will is preferred (:func:`clauselens.grid.whose.at_will`, issue #45). CUAD annotates each
agreement's Termination For Convenience clauses, so every answered cell can be checked: is its period one the annotated
clauses state? Per agreement and question wording (:data:`WORDINGS`, three lay phrasings written for this census):

* ``consistent`` / ``inconsistent``: CUAD has such a clause, and the answered period is / is not one it states;
* ``answered_no_clause``: answered where CUAD annotates no such clause (a cure or renewal notice read as one: wrong);
* ``unanswered_with_clause`` / ``unanswered_no_clause``: unverified or not found.

The agreements are the CUAD preset's splits (``benchmarks/grid_user_questions.py``: tune, report[0:280] inspected,
report[280:] held out: ``--summary-only``). No model, no training::

    .venv/bin/python -m benchmarks.convenience_notice_census --split tune
    .venv/bin/python -m benchmarks.convenience_notice_census --split report --limit 280
    .venv/bin/python -m benchmarks.convenience_notice_census --split report --skip 280 --summary-only
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
WORDINGS = ("How much warning must a party give to end the agreement early without a reason?",
            "How much notice is needed to cancel this contract for no particular reason?",
            "If one side simply wants to end the deal without any reason, how much notice must it give?")


def census(split: str, skip: int, limit: int) -> dict[str, Any]:
    from benchmarks.cuad_grid import load_master, open_library, split_of
    from clauselens.grid.questions import GridQuestion
    from clauselens.grid.rule import rule_cell
    from clauselens.grid.values import durations_in, same_period
    from clauselens.library.library import chunks_of
    from clauselens.retrieval.types import Passage

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
        clauses = ast.literal_eval(master[stem].get("Termination For Convenience") or "[]")
        stated = [p for c in clauses for p in durations_in(c)]
        for i, wording in enumerate(WORDINGS):
            q = GridQuestion(id=f"w{i}", type="duration", question=wording)
            cell = rule_cell({"row_key": stem, "question_id": q.id, "fingerprint": "", "model": "rule"}, q, passages)
            if cell.status != "answered":
                verdict = "unanswered_with_clause" if clauses else "unanswered_no_clause"
            elif not clauses:
                verdict = "answered_no_clause"
            else:
                mine = durations_in(cell.answer)
                ok = bool(mine) and all(any(same_period(m, w) for w in stated) for m in mine)
                verdict = "consistent" if ok else "inconsistent"
            counts[verdict] += 1
            rows.append({"agreement": stem, "wording": i, "status": cell.status, "answer": cell.answer, "verdict": verdict,
                         "quote": cell.quote[:300], "cuad": [c[:300] for c in clauses]})
    answered = counts["consistent"] + counts["inconsistent"] + counts["answered_no_clause"]
    return {"split": split, "skipped_first": skip, "agreements": len(stems), "cells": len(stems) * len(WORDINGS),
            "counts": counts, "answered": answered,
            "wrong_share_of_answered": round((counts["inconsistent"] + counts["answered_no_clause"]) / answered, 3) if answered else None,
            "wall_seconds": round(time.perf_counter() - t0, 1), "rows": rows}


def main(argv: list[str] | None = None) -> None:
    from benchmarks.grid_user_questions import wilson

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--split", choices=("tune", "report"), default="tune")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--summary-only", action="store_true", help="held-out agreements: counts only, no rows")
    ap.add_argument("--tag", default="")
    args = ap.parse_args(argv)
    out = census(args.split, args.skip, args.limit)
    c = out["counts"]
    out["wrong_ci95"] = wilson(c["inconsistent"] + c["answered_no_clause"], out["answered"])
    if args.summary_only:
        out.pop("rows")
    out["command"] = " ".join(["python -m benchmarks.convenience_notice_census", *(argv if argv is not None else sys.argv[1:])])
    name = f"convenience_notice_census_{args.split}_{args.skip}_{args.limit or 'all'}{'_' + args.tag if args.tag else ''}.json"
    (RESULTS / name).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))
    print("wrote", RESULTS / name)


if __name__ == "__main__":
    main()
