"""Would a clause heading that names the category decide "no exclusivity" / "no non-compete"? (issue #44, a probe).

The two presence-head positions below 90 % on the playbook benchmark (``benchmarks/playbook_cuad.py``)
miss mostly clauses the head scores below its band (exclusivity: deviation read as compliant). A
general lever that needs no training: a heading in the agreement that names the category
("2.3 Exclusivity.", "(e) Exclusive Dealing.", "NON-COMPETITION.") read as the clause being there.
This probe runs the benchmark's review on the presence head's **tune split** (65 ``train_allowed``
agreements, ``playbook_cuad.py --split dev``; no report-split agreement is read) and compares the
decided accuracy of the two positions with and without the heading rule. No model call. Run::

    .venv/bin/python benchmarks/playbook_heading_probe.py      # ~20 s; writes results/playbook_heading_probe.json

Result (2026-12-04): exclusivity 49/57 -> 52/60 decided correct, non-compete 51/57 -> 50/57: not a
general fix; not adopted.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import playbook_cuad as pc  # noqa: E402  (the benchmark's own review run and labels)

from clauselens.config import Settings  # noqa: E402
from clauselens.heads.presence import PresenceHead  # noqa: E402
from clauselens.playbook.review import Reviewer  # noqa: E402

_NUM = r"(?:^|(?<=[\s.:;]))(?:\d+(?:\.\d+)*\.?\s+|\([a-z0-9]+\)\s+|[A-Z]\.\s+)?"
#: A heading naming the category, ended by "." or ":".
HEADINGS = {
    "no_exclusivity": re.compile(_NUM + r"(?:EXCLUSIVITY|Exclusivity|EXCLUSIVE\s+[A-Z]+|Exclusive\s+(?:Dealing|Cooperation|Relationship|"
                                        r"Arrangement|Supply|Supplier|Purchas\w*|Distribut\w*|Rights?|Appointment|License|Licence|"
                                        r"Period|Territory))\b(?:\s*(?:Period|Rights?))?\s*[.:]\s", re.M),
    "no_non_compete": re.compile(_NUM + r"(?:NON-?\s?COMPET\w*|Non-?\s?[Cc]ompet\w*|NONCOMPET\w*|Noncompet\w*|COVENANT\s+NOT\s+TO\s+COMPETE|"
                                        r"Covenant\s+[Nn]ot\s+to\s+[Cc]ompete|Agreement\s+[Nn]ot\s+to\s+[Cc]ompete|Competing\s+"
                                        r"(?:Products?|Business|Activities))\b[\w\s,;]{0,40}?\s*[.:]\s", re.M),
}


def main() -> None:
    head = PresenceHead()
    labels = pc.load_labels()
    corpus = pc.corpus_files()
    keys = [k for k in head.meta["manifest"]["tune_agreements"] if k in labels]
    recs = pc.run([(k, corpus[k]) for k in keys], labels, {"main": Reviewer(pc.playbook(None), head=head)}, Settings())["main"]
    text = {corpus[k].name: " ".join(corpus[k].read_text(errors="ignore").split()) for k in keys}
    out: dict[str, dict[str, object]] = {}
    for pid, rx in HEADINGS.items():
        n = {"before": [0, 0], "after": [0, 0]}
        flips = []
        for r in recs:
            g, p = r["gold"].get(pid), r["pred"].get(pid)
            if g is None:
                continue
            hits = [m.group(0).strip() for m in rx.finditer(text[r["agreement"]])]
            p1 = "deviation" if hits else p
            for tag, pred in (("before", p), ("after", p1)):
                if pred != "unclear":
                    n[tag][0] += pred == g
                    n[tag][1] += 1
            if p1 != p:
                flips.append({"agreement": r["agreement"], "gold": g, "before": p, "after": p1, "heading": hits[0]})
        out[pid] = {"decided_correct_before": n["before"], "decided_correct_after": n["after"], "changed": flips}
        print(pid, "decided correct", f"{n['before'][0]}/{n['before'][1]} -> {n['after'][0]}/{n['after'][1]}")
    res = {"data": f"presence head's tune split: {len(keys)} train_allowed agreements (playbook_cuad.py --split dev)", "positions": out,
           "command": "python benchmarks/playbook_heading_probe.py"}
    (pc.RESULTS / "playbook_heading_probe.json").write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
