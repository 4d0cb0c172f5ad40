"""The near-copy party check (:func:`clauselens.reports.near_copy.swapped_party`) on every hand-labelled key finding
(issue #40): how many labelled-unsupported findings it flags, and how many labelled-supported ones it would wrongly set
aside. No model; the findings, their quotes and labels are the committed ``answers_e2e`` runs and label files of
:data:`benchmarks.support_verdicts.HEAD_TAGS`. The rule was written from a new user's tryout (not from these labels) and is
scored here once::

    .venv/bin/python -m benchmarks.near_copy_labels      # -> benchmarks/results/near_copy_labels.json
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.clause_qa import rate
from benchmarks.support_verdicts import HEAD_TAGS, labelled_findings
from clauselens.provenance import run_provenance
from clauselens.reports.near_copy import MIN_COPY, swapped_party

RESULT = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "near_copy_labels.json"


def main() -> None:
    rows = []
    for tag, _r, key, f, label in labelled_findings(HEAD_TAGS):
        issue = swapped_party(f["statement"], [c["quote"] for c in f["citations"]])
        rows.append({"run": tag or "run1", "key": key, "supported": label, "flagged": issue is not None,
                     "detail": issue.detail if issue else ""})
    uns = [r for r in rows if not r["supported"]]
    sup = [r for r in rows if r["supported"]]
    out = {"benchmark": "near_copy_labels", "issue": 40, "min_copy": MIN_COPY, "findings": len(rows),
           "unsupported_flagged": rate(sum(r["flagged"] for r in uns), len(uns)),
           "supported_flagged": rate(sum(r["flagged"] for r in sup), len(sup)),
           "flagged": [r for r in rows if r["flagged"]], "command": "python -m benchmarks.near_copy_labels",
           "provenance": run_provenance([])}
    RESULT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(rows)} findings: unsupported flagged {out['unsupported_flagged']['x']}/{len(uns)}, "
          f"supported flagged {out['supported_flagged']['x']}/{len(sup)}")


if __name__ == "__main__":
    main()
