"""Every clause number an agreement holds, asked for by number: does the library find it?

For each agreement of the clause-QA library (``benchmarks/clause_qa.py``'s ``cuad462`` setting:
the 462 CUAD contracts of the LegalBench-RAG corpus, built once and cached), every top-level
clause number its clause tree or printed markers hold -- a node's own number, or the first
component of a sub-clause's ("9" of "9.1", "8" of "8(a)") -- is asked for as "What does Section N
of the agreement say?", with the agreement given (resolution is not measured here; the clause-QA
benchmark measures it). Counted: how many numbers the library holds only through their
sub-clauses (no passage and no printed marker of their own: an "ARTICLE IX" or "9. INTELLECTUAL
PROPERTY" heading with no text of its own before 9.1), and, of all numbers, how many searches
answer "no matching clause found" and how many put a passage of that clause (its own or a
sub-clause's) first. Before 600cd5f a number held only through its sub-clauses was answered "no
matching clause found" ("clause 9 is not in ..."); ``--without-sub-clauses`` replays that (the
library's sub-clause lookup switched off) into a second result file. LLM-free; minutes on 2 cores.

    .venv/bin/python -m benchmarks.clause_numbers [--limit N] [--without-sub-clauses]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time

from benchmarks.clause_qa import RESULTS, library_for, load_questions, rate
from clauselens.provenance import run_provenance

OUT = RESULTS / "clause_numbers_cuad462.json"


def top_numbers(lib, doc_id: str) -> tuple[set[str], set[str]]:
    """(every top-level clause number of ``doc_id``, those held only through sub-clauses)."""
    db = lib.catalogue.db
    own = {k for (k,) in db.execute("SELECT DISTINCT ref_key FROM passages WHERE doc_id=? AND ref_key IS NOT NULL",
                                    (doc_id,))}
    own |= {k for (k,) in db.execute("SELECT DISTINCT ref_key FROM markers WHERE doc_id=?", (doc_id,))}
    tops = {k.split(".")[0].split("(")[0] for k in own if k[:1].isdigit()}
    return tops, tops - own


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N agreements (0: all)")
    ap.add_argument("--without-sub-clauses", action="store_true",
                    help="the lookup before 600cd5f: a clause's sub-clauses are not its rows")
    args = ap.parse_args(argv)
    lib = library_for("cuad462", "minilm", load_questions())
    out = OUT
    if args.without_sub_clauses:
        lib._sub_clause_rows = lambda docs, ref: []  # type: ignore[method-assign]
        out = OUT.with_name(OUT.stem + "_without-sub-clauses.json")
    recs = sorted(lib.agreements(), key=lambda r: r.path)
    recs = recs[: args.limit] if args.limit else recs
    t0 = time.perf_counter()
    n = only_sub = abstained = first_ok = 0
    abstained_only_sub = 0
    examples: list[dict] = []
    for rec in recs:
        tops, via_sub = top_numbers(lib, rec.doc_id)
        for t in sorted(tops, key=lambda x: (len(x), x)):
            res = lib.search(f"What does Section {t} of the agreement say?", 3, doc_ids=[rec.doc_id])
            n += 1
            only_sub += t in via_sub
            if res.abstained:
                abstained += 1
                abstained_only_sub += t in via_sub
                if len(examples) < 10:
                    examples.append({"agreement": rec.label, "number": t, "reason": res.reason})
                continue
            ref = (res.passages[0].clause_ref or "") if res.passages else ""
            key = ref.lower().replace(" ", "")
            first_ok += res.passages[0].method == "exact" and (key == t or key.startswith((t + ".", t + "(")))
    result = {
        "benchmark": "clause_numbers", "date": dt.date.today().isoformat(), **run_provenance(["bm25s", "sentence-transformers"]),
        "sub_clause_lookup": not args.without_sub_clauses,
        "library": "cuad462 (462 CUAD contracts, MiniLM); the agreement given, so resolution is not measured",
        "question": "What does Section N of the agreement say?",
        "agreements": len(recs), "numbers": n,
        "numbers_held_only_through_sub_clauses": only_sub,
        "agreements_with_such_numbers": sum(bool(top_numbers(lib, r.doc_id)[1]) for r in recs),
        "no_matching_clause_found": rate(abstained, n),
        "no_matching_clause_found_among_those_held_only_through_sub_clauses": rate(abstained_only_sub, only_sub),
        "first_passage_is_that_clause_or_a_sub_clause": rate(first_ok, n),
        "abstention_examples": examples,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "abstention_examples"}, indent=1, ensure_ascii=False))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
