"""Issue #38, "Done when": paraphrase gold shown as a fact >= retrieval's top-3 rate. This lists, per question
set, each answerable question whose gold clause retrieval ranked in its top 3 (``benchmarks/clause_qa.py``'s
per-question ``*.results.jsonl``: the library search the product runs, 462 CUAD agreements) while the
end-to-end report (``benchmarks/answers_e2e.py``'s committed result JSON) did not show it as a fact, with the
report's state that explains it:

* ``unconfirmed``: the library resolved the question "uncertain" and the gold quote is an ``unconfirmed``
  finding (``reports.build.UNCONFIRMED_RESOLUTIONS``);
* ``declined``: the report said the documents are silent;
* ``not_led``: the report's facts quote other clauses (lead-clause choice);
* ``withheld``: the gold clause is quoted but no fact for another reason.

No model runs: it reads stored rows. ``shown_named`` replays :func:`clauselens.reports.candidates.named_candidates`
(committed 0b41473; ``answers_e2e.candidate_facts``) on those rows: under an "uncertain" resolution a finding whose quotes all come from the
one candidate whose party the question names counts as a fact; gold shown and declined are given before and
after. Gold shown = some fact's citation overlaps a gold span (``answers_e2e``'s ``grounded_on_gold``).

    python -m benchmarks.delivery_gap                       # s6, s6_lay, s7_blind3 -> delivery_gap.json
    python -m benchmarks.delivery_gap --tags s8 s8_lay s8_blind3 --out delivery_gap_s8.json
    python -m benchmarks.delivery_gap --held-out benchmarks/data/clause_qa_lay_blind4/questions.jsonl \
        clause_qa_cuad462_minilm-blind4-end.results.jsonl s9_blind4 --out delivery_gap_s9_blind4.json

``--held-out QUESTIONS RETRIEVAL TAG`` scores one held-out set and keeps counts only (per kind, and gaps per
cause): no question id or text is printed or written, so the set stays unread.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from benchmarks.answers_e2e import _overlaps, candidate_facts

ROOT = Path(__file__).resolve().parents[1]
RES = ROOT / "benchmarks" / "results"
SHARED = ROOT.parent / "shared" / "data"
#: (name, questions, retrieval per-question results, default end-to-end run tag): the dev sets and blind3 (dev now).
SETS = (
    ("dev_sample", SHARED / "clause-qa-dev" / "questions.jsonl", RES / "clause_qa_cuad462_minilm.results.jsonl", "s6"),
    ("lay", SHARED / "clause-qa-lay" / "questions.jsonl", RES / "clause_qa_cuad462_minilm-lay.results.jsonl", "s6_lay"),
    ("blind3", ROOT / "benchmarks" / "data" / "clause_qa_lay_blind3" / "questions.jsonl",
     RES / "clause_qa_cuad462_minilm-blind3.results.jsonl", "s7_blind3"),
)


def _passage_in(p: dict, gold: list[dict]) -> bool:
    return _overlaps({"file_path": p["file_path"], "spans": [p["span"]]}, gold)


def _gold_in(f: dict, gold: list[dict]) -> bool:
    return any(_overlaps(c, gold) for c in f["citations"])


def _facts(r: dict, named: bool) -> list[dict]:
    """The row's findings shown as facts; with ``named``, the named-candidate rule replayed
    (``answers_e2e.candidate_facts``)."""
    ok = candidate_facts(r) if named else [bool(f["cited_fact"]) for f in r["findings"]]
    return [f for f, k in zip(r["findings"], ok) if k]


def _cause(r: dict, gold: list[dict]) -> str:
    if r["documents_silent"]:
        return "declined"
    quoted = [f for f in r["findings"] if _gold_in(f, gold)]
    if any(f["support"] == "unconfirmed" for f in quoted):
        return "unconfirmed"
    return "withheld" if quoted else "not_led"


def one_set(questions: Path, retrieval: Path, e2e: Path) -> dict[str, Any]:
    qs = {json.loads(x)["id"]: json.loads(x) for x in questions.read_text().splitlines() if x.strip()}
    ret = {json.loads(x)["id"]: json.loads(x) for x in retrieval.read_text().splitlines() if x.strip()}
    data = json.loads(e2e.read_text())
    kinds: dict[str, dict[str, Any]] = {}
    for r in data["rows"]:
        q = qs[r["id"]]
        gold = q.get("gold") or []
        k = kinds.setdefault(q["type"], {"n": 0, "top3": 0, "shown": 0, "shown_named": 0, "declined": 0,
                                         "declined_named": 0, "gaps": [], "gaps_named": []})
        k["n"] += 1
        top3 = any(_passage_in(p, gold) for p in (ret.get(r["id"]) or {}).get("passages", [])[:3])
        before, after = _facts(r, False), _facts(r, True)
        shown, shown_named = any(_gold_in(f, gold) for f in before), any(_gold_in(f, gold) for f in after)
        k["top3"] += top3
        k["shown"] += shown
        k["shown_named"] += shown_named
        k["declined"] += bool(r["documents_silent"] or not before)
        k["declined_named"] += bool(r["documents_silent"] or not after)
        if gold and top3 and not shown:
            k["gaps"].append({"id": r["id"], "question": r["question"], "cause": _cause(r, gold),
                              "resolution": r["resolution"], "shown_with_named_candidate": shown_named})
        if gold and top3 and not shown_named:
            k["gaps_named"].append(r["id"])
    return {"questions": str(questions.relative_to(ROOT.parent)), "retrieval": retrieval.name, "e2e": e2e.name,
            "e2e_commit": data.get("versions", {}).get("clauselens_commit"), "kinds": kinds}


def held_out(questions: Path, retrieval: Path, e2e: Path, out: str) -> None:
    """:func:`one_set` with every question id and text left out (``--held-out``)."""
    s = one_set(questions.resolve(), retrieval, e2e)
    for k in s["kinds"].values():
        causes = [g["cause"] for g in k.pop("gaps")]
        k["gaps"] = {c: causes.count(c) for c in sorted(set(causes))}
        k["gaps_named"] = len(k["gaps_named"])
    path = RES / out
    path.write_text(json.dumps({"benchmark": "delivery_gap", "issue": 38, "held_out": True, **s}, indent=1) + "\n")
    for kind, k in s["kinds"].items():
        print(f"{kind:13s} n={k['n']:2d} top3={k['top3']:2d} shown={k['shown']:2d} shown_named={k['shown_named']:2d} "
              f"declined={k['declined']:2d} gaps={k['gaps']}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tags", nargs=3, default=[t for *_, t in SETS], metavar=("DEV", "LAY", "BLIND3"),
                    help="answers_e2e run tags of the three sets (default: s6 s6_lay s7_blind3)")
    ap.add_argument("--out", default="delivery_gap.json", help="file name under benchmarks/results/")
    ap.add_argument("--held-out", nargs=3, metavar=("QUESTIONS", "RETRIEVAL", "TAG"),
                    help="one held-out set instead: counts only (module docstring)")
    args = ap.parse_args(argv)
    if args.held_out:
        held_out(Path(args.held_out[0]), RES / args.held_out[1], RES / f"answers_e2e_{args.held_out[2]}.json", args.out)
        return
    runs = [(name, q, r, RES / f"answers_e2e_{tag}.json") for (name, q, r, _), tag in zip(SETS, args.tags)]
    command = " ".join(["python -m benchmarks.delivery_gap", *(argv if argv is not None else sys.argv[1:])])
    out = {"benchmark": "delivery_gap", "issue": 38, "command": command,
           "sets": {name: one_set(q, r, e) for name, q, r, e in runs if q.exists() and r.exists() and e.exists()}}
    path = RES / args.out
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    for name, s in out["sets"].items():
        for kind, k in s["kinds"].items():
            print(f"{name:10s} {kind:13s} n={k['n']:2d} top3={k['top3']:2d} shown={k['shown']:2d} "
                  f"shown_named={k['shown_named']:2d} declined={k['declined']:2d}->{k['declined_named']:2d} "
                  f"gaps={[(g['id'], g['cause']) for g in k['gaps']]} left={k['gaps_named']}")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
