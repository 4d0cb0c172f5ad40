"""Questions that name a thing the agreement cites -- a statute, a standard, a programme -- over the 462-contract
library (issue #39; a new user's tryout: "Sarbanes-Oxley", cited only in a recital, was declined by the topic head).

A generator, not a question file: for each agreement of the library, the named things of its text
(:func:`clauselens.retrieval.concept_absence.named_terms`: hyphenated capitalised compounds, acronyms of three or more
capitals) that at most :data:`MAX_HOLDERS` agreements' texts hold and that are no word of its own record (parties,
title, short names), the rarest first; one per agreement, asked in one of :data:`TEMPLATES` (seeded by the agreement),
searched in that agreement alone (``doc_ids``), as a user who picked it asks. Scored: abstained (a wrong "no
matching clause": the agreement holds the name), and a passage holding the name in the top 3. The negative side: the
same question about a term of *another* agreement (one this agreement does not hold) -- how often it is answered
anyway is reported, not scored (a question about a name the agreement lacks may still meet a clause). No model, no
question file, file names not read::

    .venv/bin/python -m benchmarks.named_terms_probe [--limit N] [--tag NAME]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import re
import time
from collections import Counter
from pathlib import Path

from benchmarks.clause_qa import library_for, write_result
from clauselens.library.catalogue import naming_words
from clauselens.provenance import run_provenance
from clauselens.retrieval.concept_absence import holds

#: How a user asks about a named thing (the name goes in ``{}``).
TEMPLATES = ("{}", "What does the agreement say about {}?", "Is there anything in here about {}?", "Does it mention {}?")
#: A name at most this many agreements' texts hold is the agreement's own citation, not boilerplate.
MAX_HOLDERS = 5
#: A hyphenated capitalised compound, or an acronym of three or more capitals (the forms named_terms reads as names).
_CANDIDATE = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\b|\b[A-Z]{3,}\b")


def _seed(*parts: str) -> int:
    return int(hashlib.sha256("|".join(parts).encode()).hexdigest()[:8], 16)


def generate(lib, limit: int = 0) -> list[dict]:
    """One question per agreement that cites a rare named thing, and one about another agreement's (module docstring)."""
    texts = {r.doc_id: Path(r.path).read_text(errors="replace") for r in lib.agreements()}
    found = {d: set(_CANDIDATE.findall(t)) for d, t in texts.items()}
    holders = Counter(w for ws in found.values() for w in ws)
    recs = {r.doc_id: r for r in lib.agreements()}
    picked: list[tuple[str, str]] = []
    for d in sorted(texts):
        own = naming_words(recs[d])
        cands = sorted((holders[w], w) for w in found[d] if holders[w] <= MAX_HOLDERS and w.lower() not in own
                       and not any(p in own for p in w.lower().split("-")))
        if cands:
            picked.append((d, cands[0][1]))
    if limit:
        picked = picked[:limit]
    out = []
    for i, (d, term) in enumerate(picked):
        t = TEMPLATES[_seed(d, term) % len(TEMPLATES)]
        out.append({"doc_id": d, "term": term, "question": t.format(term), "side": "held"})
        other = next((o for _, o in picked[i + 1:] + picked[:i] if not holds(o, [texts[d]])), None)
        if other:
            out.append({"doc_id": d, "term": other, "question": t.format(other), "side": "not held"})
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=0, help="first N agreements that cite a rare name (0 = all)")
    ap.add_argument("--tag", default="", help="a name for this run's result file")
    args = ap.parse_args(argv)
    prov = run_provenance(["bm25s", "numpy"])
    lib = library_for("cuad462", "minilm", [])
    qs = generate(lib, args.limit)
    t0 = time.perf_counter()
    counts: dict[str, Counter] = {"held": Counter(), "not held": Counter()}
    for q in qs:
        res = lib.search(q["question"], doc_ids=[q["doc_id"]], k=3)
        c = counts[q["side"]]
        c["asked"] += 1
        c["abstained"] += bool(res.abstained)
        c["name_in_top3"] += any(holds(q["term"], [p.text]) for p in res.passages[:3])
        c["named_veto"] += "named_in_agreement" in res.trace
    secs = time.perf_counter() - t0
    result = {"benchmark": "named_terms_probe", "library": f"cuad462-minilm ({len(lib)} agreements)", "file_names_read": False,
              "max_holders": MAX_HOLDERS, "questions": len(qs), "held": dict(counts["held"]), "not_held": dict(counts["not held"]),
              "ms_per_question": round(1000 * secs / max(len(qs), 1), 1),
              "examples": [q["question"] for q in qs[:: max(1, len(qs) // 8)]][:8],
              "command": "python -m benchmarks.named_terms_probe" + (f" --limit {args.limit}" if args.limit else "")
                         + (f" --tag {args.tag}" if args.tag else ""),
              "provenance": prov, "date": dt.date.today().isoformat()}
    write_result("named_terms_probe", args.tag, result, ("questions", "held", "not_held", "ms_per_question"))


if __name__ == "__main__":
    main()
