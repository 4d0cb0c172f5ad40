"""Agreement resolution from a party's name, on generated questions over the whole 462-contract library (issue #39).

The clause-QA sets name their agreement the way their writers chose; this generator asks the question every
agreement invites, in the register a client uses: one party's name and an everyday worry ("Can Equidata walk away
from the deal early?"). For each agreement of the library whose record holds parties (:class:`AgreementRecord`),
for each of its first two parties, the party's most distinctive word -- the one the fewest agreements' resolution
profiles hold, at least three letters, not a company-form word ("Inc", "Ltd") -- is put in one of
:data:`TEMPLATES` (the choice seeded by the agreement and party, so the set is the same on every run). A party
printed with initials joined by "&" ("B & C General Warehouse") is also asked as a user writes it ("B&C"), and
the other way round. Every question is asked twice: as written, and with the name typed in lower case ("can equidata
walk away ...?"), as users type in a chat box.

Measured with :meth:`Library.resolve` alone (no ranking, no model): the right agreement chosen alone, among those
searched, and a wrong agreement chosen alone (the failure that hides the right clause). The gold is the agreement
the question was generated from; a name two agreements share (an agreement and its amendment) can only be
"among", which both sides of a comparison share. File names are not read.

    .venv/bin/python -m benchmarks.resolution_party_names [--tag NAME]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import re
import time
from collections import Counter

from benchmarks.clause_qa import library_for, write_result
from clauselens.provenance import run_provenance

#: Everyday questions a client asks about one party (the name goes in ``{}``).
TEMPLATES = (
    "Can {} walk away from the deal early, and how much warning does it have to give?",
    "If {}'s products have to be pulled off the shelves, who pays for it?",
    "How much notice does {} need to give before it puts its prices up?",
    "Is {} allowed to hire away the other side's staff?",
    "What happens to the confidential stuff {} shared once the arrangement ends?",
    "Who is on the hook if {} gets sued over something the other side did?",
    "Can {} hand the contract over to another company without asking first?",
    "Does {} have to buy a minimum amount each year?",
)
#: Company-form and filler words, never a party's distinctive name.
FORM_WORDS = frozenset({"inc", "ltd", "llc", "corp", "corporation", "company", "limited", "plc", "co", "lp", "llp", "sa",
                        "ag", "gmbh", "pty", "the", "and", "of", "for", "holdings", "group", "international", "incorporated"})
_AMP = re.compile(r"(?<![\w&])([A-Za-z]{1,3})\s*&\s*([A-Za-z]{1,3})(?![\w&])")


def _seed(*parts: str) -> int:
    return int(hashlib.sha256("|".join(parts).encode()).hexdigest()[:8], 16)


def party_name(lib, party: str) -> str | None:
    """The party's most distinctive word as printed (fewest profiles hold it), or None."""
    amp = _AMP.search(party)
    if amp:
        return f"{amp.group(1)}&{amp.group(2)}"
    best: tuple[int, str] | None = None
    for w in re.findall(r"[A-Za-z][A-Za-z'.-]*[A-Za-z]", party):
        if len(w) < 3 or w.lower() in FORM_WORDS:
            continue
        toks = lib.analyzer.tokenize(w)
        if not toks:
            continue
        df = len([d for d, s in lib.lexical.profile_scores(toks[:1]).items() if s > 0])
        if df and (best is None or df < best[0]):
            best = (df, w[0].upper() + w[1:] if w.isupper() and len(w) > 4 else w)
    return best[1] if best else None


def questions(lib) -> list[dict]:
    """The generated questions (see the module docstring)."""
    out = []
    for rec in lib.agreements():
        for party in rec.parties[:2]:
            name = party_name(lib, party)
            if not name:
                continue
            t = TEMPLATES[_seed(rec.doc_id, party) % len(TEMPLATES)]
            out.append({"doc_id": rec.doc_id, "party": party, "name": name, "question": t.format(name)})
            if "&" in name:  # as the agreement prints it
                spaced = name.replace("&", " & ")
                out.append({"doc_id": rec.doc_id, "party": party, "name": spaced, "question": t.format(spaced)})
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tag", default="", help="a name for this run's result file")
    args = ap.parse_args(argv)
    prov = run_provenance(["bm25s", "numpy"])
    lib = library_for("cuad462", "minilm", [])
    qs = questions(lib)
    n = len(qs)
    variants = {}
    t0 = time.perf_counter()
    for variant in ("as_written", "name_in_lower_case"):
        counts: Counter = Counter()
        status: Counter = Counter()
        for q in qs:
            text = q["question"] if variant == "as_written" else q["question"].replace(q["name"], q["name"].lower())
            res = lib.resolve(text)
            counts["right_alone"] += res.chosen == [q["doc_id"]]
            counts["right_among_searched"] += q["doc_id"] in res.chosen
            counts["wrong_alone"] += len(res.chosen) == 1 and res.chosen != [q["doc_id"]]
            status[res.status] += 1
        variants[variant] = {**dict(counts), "status": dict(status), "rates": {k: round(v / n, 4) for k, v in counts.items()}}
    secs = time.perf_counter() - t0
    result = {"benchmark": "resolution_party_names", "library": f"cuad462-minilm ({len(lib)} agreements)", "file_names_read": False,
              "questions": n, "agreements_asked": len({q["doc_id"] for q in qs}), **variants,
              "ms_per_question": round(1000 * secs / max(2 * n, 1), 2),
              "examples": [q["question"] for q in qs[:: max(1, n // 8)]][:8],
              "command": "python -m benchmarks.resolution_party_names" + (f" --tag {args.tag}" if args.tag else ""),
              "provenance": prov, "date": dt.date.today().isoformat()}
    write_result("resolution_party_names", args.tag, result, ("questions", "as_written", "name_in_lower_case", "ms_per_question"))


if __name__ == "__main__":
    main()
