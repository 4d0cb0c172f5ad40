"""How often a thesaurus concept's usual wording is missing from agreements that **do** have a clause of it
(issue #39's concept-absence check), measured on the CUAD agreements of ``../shared/data/cuad/train_allowed.txt``
only. Measured, not adopted: declining only on "trusted" concepts was tried on the dev sets (a temporary
switch, no figures claimed) and dropped -- it removed none of their false declines.

The check (:mod:`clauselens.retrieval.concept_absence`) declines a question when the agreement uses none
of the wording of the concept it asks about. That is only as good as the wording's coverage: CUAD's
annotators marked a revenue-sharing clause in 107 ``train_allowed`` agreements, and 65 of them use none
of the thesaurus's revenue-sharing terms ("revenue share", "profit sharing", "net profits", ...). So each
concept gets the evidence there is for it:

* a **CUAD category** of the same name (41; ``master_clauses.csv``): the ``train_allowed`` agreements whose
  annotation for the category is not empty;
* else a **heading topic** of the heading-topic head (:mod:`clauselens.heads.heading_topic`: "Force
  Majeure", "Confidentiality", "Royalties", ...): the ``train_allowed`` agreements of the clause-QA CUAD
  library with a clause under one of the topic's headings;

and its **miss rate** = the share of those agreements whose text uses none of its contract terms (as the
check matches them). A concept whose miss rate exceeds :data:`MAX_MISS` (the 3 % the trained heads'
``absent_below`` allows, :mod:`clauselens.heads.presence`) or that has fewer than :data:`MIN_POSITIVES`
such agreements is marked **not trusted**. A concept with no evidence at all (a car allowance, paid holidays:
employment terms CUAD does not annotate) is marked trusted. Heading evidence is lenient: a clause headed
"Force Majeure" holds the words "force majeure" in its heading. Writes
``benchmarks/results/concept_coverage.json``::

    nice -n 5 .venv/bin/python -m benchmarks.concept_coverage
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

#: The largest share of agreements with a clause of the concept that may lack all of its wording.
MAX_MISS = 0.03
#: Fewer agreements with such a clause than this say nothing: the concept is not trusted.
MIN_POSITIVES = 10
OUT = Path(__file__).resolve().parent / "results" / "concept_coverage.json"
COMMAND = "nice -n 5 .venv/bin/python -m benchmarks.concept_coverage"
#: CUAD categories whose thesaurus concept has another name (the other 36 share theirs).
CUAD_NAMES = {"Expiration Date": "expiration date and term length", "Affiliate License-Licensor": "affiliate license",
              "Affiliate License-Licensee": "affiliate license", "Audit Rights": "audit rights and records",
              "Covenant Not To Sue": "covenant not to sue and release"}
#: Heading topics of the heading-topic head and the thesaurus concept each is (topics without one are left out).
HEADING_NAMES = {"Confidentiality": "confidentiality", "Force Majeure": "force majeure", "Insurance": "insurance",
                 "Publicity": "publicity", "Taxes": "taxes", "Audits": "audit rights and records",
                 "Trademarks": "trademarks and branding", "Royalties": "royalties",
                 "Late Payments": "late payment and interest", "Training": "support, maintenance and training",
                 "Recalls": "product recall", "No Third Party Beneficiaries": "third party beneficiary"}


def _norm(name: str) -> str:
    return name.lower().replace("-", " ").replace("/", " ").replace(",", "")


def concept_of_category(category: str, names: list[str]) -> str | None:
    """The thesaurus concept of a CUAD category (same name, or :data:`CUAD_NAMES`)."""
    if category in CUAD_NAMES:
        return CUAD_NAMES[category]
    by_norm = {_norm(n): n for n in names}
    return by_norm.get(_norm(category))


def _uses(texts: dict[str, tuple[str, str]], keys: set[str], matcher) -> tuple[int, int]:
    """(agreements among ``keys`` whose text uses a term, agreements among ``keys``)."""
    have = [k for k in keys if k in texts]
    return sum(1 for k in have if matcher.search(*texts[k])), len(have)


def heading_positives(library_root: Path, allowed: set[str]) -> dict[str, set[str]]:
    """Heading topic -> the ``train_allowed`` agreements (match keys) of a library with a clause under one
    of the topic's headings (the heading-topic head's ``keys``)."""
    from clauselens.heads.heading_topic import heading_keys
    from clauselens.heads.heading_topic import load as load_heading
    from clauselens.heads.train_presence import key
    from clauselens.library import Library

    head = load_heading()
    lib = Library.open(library_root, embedder_name="none")
    out: dict[str, set[str]] = {t: set() for t in HEADING_NAMES}
    for rec in lib.agreements():
        k = key(Path(rec.path).name)
        if k not in allowed:
            continue
        chunks = lib.catalogue.passages(lib.catalogue.rows_of([rec.doc_id]))
        keys = heading_keys({h for c in chunks for h in c.heading_path}, lib.analyzer.tokenize)
        for topic in HEADING_NAMES:
            if keys & set(head.keys.get(topic, ())):
                out[topic].add(k)
    return out


def build(library_root: Path) -> dict:
    """The coverage file's content (see the module docstring)."""
    from clauselens.heads.train_presence import allowed_keys, corpus_files, load_rows
    from clauselens.retrieval.lay_terms import concepts, content_stems, phrase_matcher

    t0 = time.perf_counter()
    cats, ann = load_rows()
    allowed = allowed_keys()
    files = corpus_files()
    texts = {}
    for k in allowed:
        if k in files:
            t = files[k].read_text(encoding="utf-8", errors="replace")
            texts[k] = (t, " ".join(content_stems(t)))
    names = [c.name for c in concepts()]
    matchers = {c.name: phrase_matcher(*c.contract_terms) for c in concepts()}
    evidence: dict[str, dict] = {}
    for cat in cats:
        name = concept_of_category(cat, names)
        if name is None:
            continue
        pos = {k for k in texts if ann.get(k, {}).get(cat)}
        used, n = _uses(texts, pos, matchers[name])
        prev = evidence.get(name)
        if prev is None or n > prev["agreements_with_clause"]:  # affiliate licence: the larger of its two categories
            evidence[name] = {"source": f"CUAD category {cat}", "agreements_with_clause": n, "wording_missing": n - used}
    for topic, pos in heading_positives(library_root, set(texts)).items():
        name = HEADING_NAMES[topic]
        if name in evidence:
            continue
        used, n = _uses(texts, pos, matchers[name])
        evidence[name] = {"source": f"heading topic {topic}", "agreements_with_clause": n, "wording_missing": n - used}
    out = {}
    for name in names:
        e = evidence.get(name)
        if e is None:
            out[name] = {"source": None, "trusted": True}
            continue
        miss = e["wording_missing"] / e["agreements_with_clause"] if e["agreements_with_clause"] else None
        out[name] = {**e, "miss_rate": None if miss is None else round(miss, 4),
                     "trusted": bool(miss is not None and e["agreements_with_clause"] >= MIN_POSITIVES and miss <= MAX_MISS)}
    return {"what": "per thesaurus concept: how many train_allowed agreements have a clause of it (CUAD annotation, else "
                    "a heading of the heading-topic head's topic) and how many of those use none of its contract terms "
                    "(measured, not adopted as a filter of the concept-absence check)",
            "max_miss": MAX_MISS, "min_positives": MIN_POSITIVES, "command": COMMAND,
            "data": {"agreements": len(texts), "from": "../shared/data/cuad/train_allowed.txt (with a corpus text), "
                                                       "master_clauses.csv annotations, the clause-QA CUAD library's headings"},
            "seconds": round(time.perf_counter() - t0, 1), "concepts": out}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--library", type=Path, default=Path.home() / ".cache/clauselens/bench/clause_qa/cuad462-minilm",
                    help="a library holding the CUAD texts (its headings; benchmarks/clause_qa.py --setting cuad462 builds it)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    data = build(args.library)
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    untrusted = sorted(n for n, v in data["concepts"].items() if not v["trusted"])
    print(f"wrote {args.out}: {len(data['concepts'])} concepts, {len(untrusted)} not trusted: {', '.join(untrusted)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
