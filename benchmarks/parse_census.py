"""Which clause trees does a parsing rule change? A census over the 462 CUAD texts of LegalBench-RAG.

A rule of :mod:`clauselens.parsing.tree` that opens clauses mid-line changes every tree it matches, so before keeping
one each text is parsed with the rule on and off and the clause references of the two trees are compared: references
gained and lost per agreement, listed for reading. Rules that can be switched off here:

* ``inline_headed``: a clause number with a short title-case heading and its full stop mid-line after a word
  (``tree._INLINE_HEADED``: "... ATTN: Tim Orr 5. Entire Agreement. A. ...");
* ``inline_item``: a capital letter item with a short title-case heading and its full stop mid-line after a sentence
  end (``tree._INLINE_ITEM``: "... Entire Agreement. A. Amendment, Waiver, Assignment. This ... B. Governing Law. ...");
* ``toc_run``: a page of contents run into one line ("19.3 Review of Agreement 38 19.4 Attorneys' Fees 38 ...") is no clause
  (``tree._TOC_RUN``, the run that keeps a contents line one segment).

No model, no question file. Run::

    .venv/bin/python -m benchmarks.parse_census --rule inline_headed   # -> results/parse_census_inline_headed.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from benchmarks.assertion_census import Never

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
RESULTS = Path(__file__).resolve().parent / "results"
RULES = {"inline_headed": "_INLINE_HEADED", "inline_item": "_INLINE_ITEM", "toc_run": "_TOC_RUN"}


def refs(path: Path) -> list[str]:
    """The clause references of the file's tree, in document order."""
    from clauselens.parsing import load_document

    return [n.label for n in load_document(path, ocr=False).nodes if n.label]


def main() -> None:
    from clauselens.parsing import tree

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rule", choices=sorted(RULES), default="inline_headed")
    args = ap.parse_args()
    attr = RULES[args.rule]
    rule = getattr(tree, attr)
    t0 = time.time()
    files = sorted(CORPUS.glob("*.txt"))
    changed = []
    gained = lost = 0
    for f in files:
        on = refs(f)
        setattr(tree, attr, Never())
        try:
            off = refs(f)
        finally:
            setattr(tree, attr, rule)
        if on != off:
            plus = sorted(set(on) - set(off))
            minus = sorted(set(off) - set(on))
            gained += len(plus)
            lost += len(minus)
            changed.append({"file": f.name, "refs_off": len(off), "refs_on": len(on), "gained": plus, "lost": minus})
    out = RESULTS / f"parse_census_{args.rule}.json"
    out.write_text(json.dumps({
        "what": f"clause trees of the CUAD texts that change with parsing.tree.{attr} on vs off",
        "command": f".venv/bin/python -m benchmarks.parse_census --rule {args.rule}",
        "data": f"{len(files)} LegalBench-RAG CUAD texts", "trees_changed": len(changed),
        "refs_gained": gained, "refs_lost": lost, "seconds": round(time.time() - t0, 1), "changed": changed}, indent=1) + "\n")
    print(f"{len(changed)} of {len(files)} trees change: +{gained} / -{lost} references; wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
