"""Definitions asked for in many phrasings: does the library put the definition first?

For agreements of the clause-QA library (``benchmarks/clause_qa.py``'s ``cuad462`` setting, 462
CUAD contracts, built once and cached), up to ``--per-agreement`` of the terms each defines with
"means" (a fixed random sample, seed 0) are asked for in each phrasing of :data:`PHRASINGS` --
question forms lawyers use, written for this benchmark, not taken from any question set -- with the
agreement given (resolution is measured by the clause-QA benchmark, not here). Counted per
phrasing: whether the question is read as a definition question (the exact defined-term field is
used) and whether the first passage / one of the top 5 holds the definition's offset. LLM-free.

    .venv/bin/python -m benchmarks.defined_terms [--per-agreement 2] [--tag NAME]

``--unquoted`` samples instead the definitions written without quotation marks at a line start
("1.10 INTELLECTUAL PROPERTY shall mean", "1.1.3 Effective Date: means";
:func:`clauselens.parsing.terms.unquoted_definitions`), read from each agreement's text rather than
from the library's definition field, so the same sample measures a library that does not record
them and one that does (``defined_terms_cuad462_unquoted[_TAG].json``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import time
from pathlib import Path

from benchmarks.clause_qa import RESULTS, library_for, load_questions, rate
from clauselens.parsing.terms import unquoted_definitions
from clauselens.provenance import run_provenance

#: ``{term}``: the defined term as the agreement writes it. Quoted and unquoted forms.
PHRASINGS = {
    "how_defined_quoted": 'How is "{term}" defined in the agreement?',
    "what_does_mean_quoted": 'What does "{term}" mean in the agreement?',
    "how_defined": "How is {term} defined in the agreement?",
    "meaning_of": "What is the meaning of {term} in the agreement?",
    "mean_by": "What does the agreement mean by {term}?",
    "counts_as": "What counts as {term} under the agreement?",
    "qualifies_as": "What qualifies as {term} under the agreement?",
    "refer_to": "What does {term} refer to in the agreement?",
    "what_is_under": "What is {term} under the agreement?",
    "what_is_end": "In the agreement, what is {term}?",
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-agreement", type=int, default=2, help="terms sampled per agreement")
    ap.add_argument("--tag", default="", help="suffix of the result file")
    ap.add_argument("--unquoted", action="store_true",
                    help="sample the unquoted line-start definitions of each agreement's text (see above)")
    args = ap.parse_args(argv)
    lib = library_for("cuad462", "minilm", load_questions())
    db = lib.catalogue.db
    rng = random.Random(0)
    cases = []
    for rec in sorted(lib.agreements(), key=lambda r: r.path):
        if args.unquoted:
            text = Path(rec.path).read_text(encoding="utf-8", errors="replace")
            terms = sorted({(d.term, d.start) for d in unquoted_definitions(text)})
        else:
            terms = sorted({(t, o) for (t, o) in db.execute(
                "SELECT term, offset FROM definitions WHERE doc_id=? AND means=1", (rec.doc_id,))})
        seen: set[str] = set()
        uniq = [(t, o) for t, o in terms if not (t.lower() in seen or seen.add(t.lower()))]
        for t, o in rng.sample(uniq, min(args.per_agreement, len(uniq))):
            cases.append((rec.doc_id, t, o))
    t0 = time.perf_counter()
    per: dict[str, dict[str, int]] = {k: {"read_as_definition": 0, "first": 0, "top5": 0} for k in PHRASINGS}
    for doc, term, off in cases:
        for name, form in PHRASINGS.items():
            res = lib.search(form.format(term=term), 5, doc_ids=[doc])
            holds = [p.doc_id == doc and any(s.start <= off < s.end for s in p.spans) for p in res.passages]
            per[name]["read_as_definition"] += bool(res.trace.get("defined_term"))
            per[name]["first"] += bool(holds[:1] and holds[0])
            per[name]["top5"] += any(holds)
    n = len(cases)
    result = {
        "benchmark": "defined_terms", "date": dt.date.today().isoformat(),
        **run_provenance(["bm25s", "sentence-transformers"]),
        "library": "cuad462 (462 CUAD contracts, MiniLM); the agreement given, so resolution is not measured",
        "terms": n, "agreements": len({c[0] for c in cases}), "per_agreement": args.per_agreement, "seed": 0,
        "sample": "unquoted line-start definitions read from the agreements' text" if args.unquoted
        else "the library's recorded 'means' definitions", "phrasings": PHRASINGS,
        "by_phrasing": {k: {m: rate(v[m], n) for m in v} for k, v in per.items()},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    out = RESULTS / f"defined_terms_cuad462{'_unquoted' if args.unquoted else ''}{f'_{args.tag}' if args.tag else ''}.json"
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    for k, v in per.items():
        print(f"{k:24s} read {v['read_as_definition']:4d}/{n}  first {v['first']:4d}/{n}  top5 {v['top5']:4d}/{n}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
