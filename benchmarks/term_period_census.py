"""Is the end date computed from the term clause CUAD's? A census of :func:`clauselens.grid.term.term_end`.

A question about when an agreement ends, over an agreement that writes no end date, is answered from its term clause
(issue #45): the period ("five (5) years from the Effective Date") added to the preamble's date it runs from, or the
period itself when it runs from no date the preamble states. CUAD's ``Expiration Date`` answers are calendar dates its
annotators computed the same way, so each computed date can be checked against them, give or take :data:`SLACK_DAYS`
(CUAD writes the anniversary or the day before it). Per agreement, the product's own reading:

* ``consistent`` / ``inconsistent``: a date was computed and CUAD's date is / is not it;
* ``perpetual``: a date was computed and CUAD says the agreement is perpetual (wrong);
* ``no_gold``: a date was computed and CUAD gives no expiration (not judged);
* ``period_only``: the period runs from another event ("from the Launch") or no start is stated: shown to a user as
  the period, left unverified in the preset's Expiration Date column (not judged);
* ``open_perpetual`` / ``open_dated`` / ``open_no_gold``: no term period, the term clause sets no end ("shall continue
  until terminated", :func:`clauselens.grid.term.open_ended`) and CUAD says perpetual (right) / gives a date (wrong) /
  gives nothing (not judged);
* ``not_read`` / ``several``: no term clause, or term clauses stating different periods.

The agreements are the CUAD preset's splits (``benchmarks/grid_user_questions.py``: tune, report[0:280] inspected,
report[280:] held out: ``--summary-only`` prints counts and writes no per-agreement rows). No model, no question file::

    .venv/bin/python -m benchmarks.term_period_census --split tune
    .venv/bin/python -m benchmarks.term_period_census --split report --limit 280
    .venv/bin/python -m benchmarks.term_period_census --split report --skip 280 --summary-only
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
#: Days CUAD's date may differ from preamble date + period (the anniversary, the day before it, a month's end).
SLACK_DAYS = 3


def matches(end: dt.date, gold: str) -> bool:
    """Is ``end`` one of CUAD's ";"-separated dates, within :data:`SLACK_DAYS`? A date CUAD leaves partly blank
    ("[]/[]/2016": the text names no day or month) matches on the parts it gives."""
    from dateutil import parser as dparser

    for one in gold.split(";"):
        parts = one.strip().split("/")
        if len(parts) == 3 and "[]" in one:
            m, _d, y = parts
            year = int(y) + (2000 if len(y) == 2 and int(y) < 50 else 1900 if len(y) == 2 else 0) if y.isdigit() else None
            if year == end.year and (not m.isdigit() or int(m) == end.month):
                return True
            continue
        try:
            if abs((dparser.parse(one).date() - end).days) <= SLACK_DAYS:
                return True
        except (ValueError, OverflowError):
            continue
    return False


def census(split: str, skip: int, limit: int) -> dict[str, Any]:
    from benchmarks.cuad_grid import answer_column, load_master, open_library, split_of
    from clauselens.grid.rule import FRONT_PASSAGES
    from clauselens.grid.term import OPEN_GROUPS, term_end
    from clauselens.library.library import chunks_of

    master = load_master()
    lib = open_library(False)
    recs = {Path(r.path).stem: r for r in lib.agreements()}
    stems = sorted(s for s in recs if s in master and split_of(s) == split)[skip:][: limit or None]
    counts = {k: 0 for k in ("consistent", "inconsistent", "perpetual", "no_gold", "period_only", "open_perpetual", "open_dated",
                             "open_no_gold", "not_read", "several")}
    rows = []
    t0 = time.perf_counter()
    for stem in stems:
        texts = [c.text for c in chunks_of(lib, recs[stem].doc_id)]
        r = term_end(texts, texts[:FRONT_PASSAGES])  # the product's reading: a computed end date, else the period
        gold = answer_column(master[stem], "Expiration Date")
        if r.candidate is None:
            counts["several" if r.choices else "not_read"] += 1
            continue
        computed = len(r.value) == 10 and r.value[4] == "-"
        if r.candidate.groups == OPEN_GROUPS:
            verdict = "open_no_gold" if not gold else "open_perpetual" if gold.lower().startswith("perpetual") else "open_dated"
        elif not computed:
            verdict = "period_only"
        elif not gold:
            verdict = "no_gold"
        elif gold.lower().startswith("perpetual"):
            verdict = "perpetual"
        else:
            verdict = "consistent" if matches(dt.date.fromisoformat(r.value), gold) else "inconsistent"
        counts[verdict] += 1
        c = r.candidate
        rows.append({"agreement": stem, "value": r.value, "gold": gold, "verdict": verdict, "reason": r.reason,
                     "quote": " ".join(texts[c.passage][c.start:c.end].split())[:400]})
    judged = counts["consistent"] + counts["inconsistent"] + counts["perpetual"]
    open_judged = counts["open_perpetual"] + counts["open_dated"]
    return {"open_judged": open_judged, "open_perpetual_share": round(counts["open_perpetual"] / open_judged, 3) if open_judged else None,
            "split": split, "skipped_first": skip, "agreements": len(stems), "counts": counts, "judged": judged,
            "consistent_share": round(counts["consistent"] / judged, 3) if judged else None,
            "wall_seconds": round(time.perf_counter() - t0, 1), "rows": rows}


def census_arguments(ap: argparse.ArgumentParser) -> None:
    """The split options every census over the CUAD preset's splits takes (also :mod:`benchmarks.typed_census`)."""
    ap.add_argument("--split", choices=("tune", "report"), default="tune")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--summary-only", action="store_true", help="held-out agreements: counts only, no rows")
    ap.add_argument("--tag", default="")


def write_census(out: dict[str, Any], stem: str, module: str, args: argparse.Namespace, argv: list[str] | None) -> Path:
    """Write one census result of ``python -m <module>`` (rows dropped for ``--summary-only``) as
    ``results/<stem>_<split>_<skip>_<limit>[_tag].json``."""
    if args.summary_only:
        out.pop("rows", None)
    out["command"] = " ".join([f"python -m {module}", *(argv if argv is not None else sys.argv[1:])])
    path = RESULTS / f"{stem}_{args.split}_{args.skip}_{args.limit or 'all'}{'_' + args.tag if args.tag else ''}.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    return path


def main(argv: list[str] | None = None) -> None:
    from benchmarks.grid_user_questions import wilson

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    census_arguments(ap)
    args = ap.parse_args(argv)
    out = census(args.split, args.skip, args.limit)
    out["consistent_ci95"] = wilson(out["counts"]["consistent"], out["judged"])
    path = write_census(out, "term_period_census", "benchmarks.term_period_census", args, argv)
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))
    print("wrote", path)


if __name__ == "__main__":
    main()
