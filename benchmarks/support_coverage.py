"""How :func:`clauselens.reports.support.check_coverage`'s threshold was chosen (issue #19): every
hand-labelled claim of ``benchmarks/answers_e2e.py``'s runs that had a verified quote -- each key
finding against its own quotes, each answer against the quotes of all its findings, as on the
label sheet -- with its coverage (the share of the claim's own words the quotes use,
:func:`~clauselens.reports.support.coverage`) and its label. Per candidate share: how many claims
with at least ``COVERAGE_MIN_WORDS`` own words fall under it, and how many of those were labelled
supported (the cost). No model; reads the committed result and label files::

    .venv/bin/python -m benchmarks.support_coverage   # -> benchmarks/results/support_coverage.json

In-sample by construction: the threshold was read off these labels (the rest run prompted the check).
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.answers_e2e import LABELS, OUT, _label
from clauselens.reports.build import strip_mark
from clauselens.reports.support import COVERAGE_MIN_WORDS, COVERAGE_SHARE, coverage

REPO = Path(__file__).resolve().parents[1]
TAGS = ("", "run2", "run3", "holdout1-fix", "rest1")
SHARES = (0.5, 0.6, 0.75, 0.9)


def claims() -> list[dict]:
    """Every labelled claim with a verified quote: ``{run, key, part, supports, own, have}``."""
    out = []
    for tag in TAGS:
        rows = json.loads((OUT.with_name(f"answers_e2e_{tag}.json") if tag else OUT).read_text())["rows"]
        labels = json.loads((LABELS.with_name(f"answers_e2e_labels_{tag}.json") if tag else LABELS).read_text())
        for r in rows:
            grounded = [(i, f) for i, f in enumerate(r["findings"]) if f["grounded"] and f["citations"]]
            items = [(f"{r['id']}#{i}", "finding", f["statement"], [c["quote"] for c in f["citations"]])
                     for i, f in grounded]
            if grounded and not r["documents_silent"]:
                items.append((f"{r['id']}#answer", "answer", strip_mark(r["answer"]),
                              [c["quote"] for _, f in grounded for c in f["citations"]]))
            for key, part, claim, quotes in items:
                lab = _label(labels, key, claim)
                if lab is None:
                    continue
                own, have = coverage(claim, " ".join(quotes), r["question"])
                out.append({"run": tag or "run1", "key": key, "part": part, "supports": lab,
                            "own": len(own), "have": len(have)})
    return out


def main() -> None:
    cs = claims()
    judged = [c for c in cs if c["own"] >= COVERAGE_MIN_WORDS]
    sweep = {}
    for share in SHARES:
        under = [c for c in judged if c["have"] < share * c["own"]]
        sweep[str(share)] = {part: {"under": sum(c["part"] == part for c in under),
                                    "labelled_supported": [f"{c['run']}:{c['key']}" for c in under
                                                           if c["part"] == part and c["supports"]]}
                             for part in ("finding", "answer")}
    result = {"benchmark": "support_coverage", "issue": 19, "runs": list(TAGS), "min_words": COVERAGE_MIN_WORDS,
              "chosen_share": COVERAGE_SHARE,
              "claims": {part: {"n": sum(c["part"] == part for c in cs),
                                "labelled_supported": sum(c["part"] == part and c["supports"] for c in cs)}
                         for part in ("finding", "answer")},
              "sweep": sweep}
    out = REPO / "benchmarks" / "results" / "support_coverage.json"
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
