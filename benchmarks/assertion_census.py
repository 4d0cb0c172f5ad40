"""How many real contract sentences does a rule of ``reports.support_claims.assertions`` change? A census.

The support checks (reports, the grid's evidence and yes/no checks, the playbook's party reading) all read a
sentence's ``(party, action, negated)`` assertions. A rule added there changes every caller at once, so before
keeping one we count the sentences of the 462 CUAD texts of LegalBench-RAG whose assertions differ with the rule
on and off, and print them for reading. Rules that can be switched off here:

* ``described``: a money noun's reduced relative clause ("any amounts Company is required to pay by any court")
  is a description, not that party's duty (``support_claims._DESCRIBED``, commit f7c27af).
* ``covenant``: a pronoun in what a party covenants or agrees ("The Consultant covenants ... with the Company that
  ... it shall not solicit") is that party, not the party last named (``support_claims._COVENANT``).
* ``neg_opening``: "Neither ..." / "No ..." opening a clause after a multi-level number ("15.1 Neither this Agreement
  nor ... shall be assigned") negates its modal (``support_claims._NEG_OPENING``; compared with the pattern before,
  which read only one-level numbers, instead of with the rule off).

No model, no question file. Run::

    .venv/bin/python -m benchmarks.assertion_census --rule described [--show 40]
      # -> results/assertion_census_described.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
RESULTS = Path(__file__).resolve().parent / "results"
_SENT = re.compile(r"(?<=[.;:])\s+(?=[A-Z(])")


#: ``support_claims._NEG_OPENING`` before 2026-12-06 (third session): one-level clause numbers only.
_NEG_OPENING_BEFORE = r"^\s*(?:\(?[0-9a-z]{1,4}[.)]\s*)*(?:neither|no|nothing|none)\b"


class Never:
    """A stand-in pattern that never matches (a rule switched off; the parse census uses it too)."""

    def search(self, _text: str) -> None:
        return None

    def finditer(self, _text: str) -> list:
        return []

    def findall(self, _text: str) -> list:
        return []


def sentences(text: str) -> list[str]:
    """Sentence-like pieces of a contract text (whitespace collapsed)."""
    flat = re.sub(r"\s+", " ", text)
    return [s for s in _SENT.split(flat) if 20 <= len(s) <= 2000]


def main() -> None:
    from clauselens.reports import support_claims

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rule", choices=["described", "covenant", "neg_opening"], default="described")
    ap.add_argument("--show", type=int, default=40, help="changed sentences kept in the JSON for reading")
    args = ap.parse_args()
    attr = {"described": "_DESCRIBED", "covenant": "_COVENANT", "neg_opening": "_NEG_OPENING"}[args.rule]
    rule = getattr(support_claims, attr)
    off_rule = re.compile(_NEG_OPENING_BEFORE, re.IGNORECASE) if args.rule == "neg_opening" else Never()
    t0 = time.time()
    files = sorted(CORPUS.glob("*.txt"))
    n_sent = n_with = 0
    changed: list[dict] = []
    docs_changed = set()
    for f in files:
        for s in sentences(f.read_text(errors="replace")):
            setattr(support_claims, attr, rule)
            on = [(a.party, a.action, a.negated) for a in support_claims.assertions(s)]
            setattr(support_claims, attr, off_rule)
            off = [(a.party, a.action, a.negated) for a in support_claims.assertions(s)]
            setattr(support_claims, attr, rule)
            n_sent += 1
            n_with += bool(off)
            if on != off:
                docs_changed.add(f.name)
                changed.append({"file": f.name, "sentence": s[:600], "off": off, "on": on})
    out = RESULTS / f"assertion_census_{args.rule}.json"
    out.write_text(json.dumps({
        "what": f"sentences of the CUAD texts whose assertions change with support_claims.{attr} on vs off",
        "command": f".venv/bin/python -m benchmarks.assertion_census --rule {args.rule} --show {args.show}",
        "data": f"{len(files)} LegalBench-RAG CUAD texts", "sentences": n_sent, "sentences_with_assertions": n_with,
        "sentences_changed": len(changed), "agreements_changed": len(docs_changed),
        "seconds": round(time.time() - t0, 1), "examples": changed[: args.show]}, indent=1, default=list) + "\n")
    print(f"{len(changed)} of {n_sent} sentences ({n_with} with assertions) change in {len(docs_changed)} agreements; "
          f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
