"""The heading-topic head's absent mass (issue #39) on the clause-QA dev sets, swept: for every
answerable and unanswerable question of dev, lay, blind2 and blind3 (all dev sets now), the installed
heading-topic head (:mod:`clauselens.heads.heading_topic`) reads the question (naming words removed, as
the library does) against its gold agreement in the 462-contract library, and for each threshold the
sweep counts the unanswerable questions it would newly decline (those the stored run without it,
``--no-heading-absence``, answered) and the answerable ones it would newly abstain on.

Against the gold agreement, not the resolved ones (the library checks the resolved agreements; a
search that resolves several declines less). No search is run; nothing is trained. Usage::

    .venv/bin/python -m benchmarks.heading_absence_sweep   # writes benchmarks/results/heading_absence_sweep.json
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from benchmarks.clause_qa import CORPUS, DEV, REPO, library_for, load_questions, wilson
from clauselens.heads.heading_topic import load
from clauselens.library.catalogue import naming_words, strip_naming_words

RESULTS = REPO / "benchmarks" / "results"
SETS = {"dev": (DEV / "questions.jsonl", "clause_qa_cuad462_minilm-no-heading-absence"),
        "lay": (REPO.parent / "shared" / "data" / "clause-qa-lay" / "questions.jsonl",
                "clause_qa_cuad462_minilm-no-heading-absence-lay"),
        "blind2": (REPO / "benchmarks" / "data" / "clause_qa_lay_blind2" / "questions.jsonl",
                   "clause_qa_cuad462_minilm-no-heading-absence-blind2"),
        "blind3": (REPO / "benchmarks" / "data" / "clause_qa_lay_blind3" / "questions.jsonl",
                   "clause_qa_cuad462_minilm-no-heading-absence-blind3")}
THRESHOLDS = [round(t, 2) for t in np.arange(0.30, 0.96, 0.05)]


def main() -> None:
    head = load()
    lib = library_for("cuad462", "minilm", [])
    by_path = {Path(r.path).resolve(): r for r in lib.agreements()}
    out: dict = {"head": {"sha256": head.meta["sha256"], "absent_mass": head.absent_mass}, "sets": {}}
    rows_out = []
    for name, (qfile, stem) in SETS.items():
        rows = {json.loads(s)["id"]: json.loads(s) for s in (RESULTS / f"{stem}.results.jsonl").read_text().splitlines()}
        masses = []
        for q in load_questions(qfile):
            if q["type"] in ("exact", "defined_term"):
                continue
            rec = by_path.get((CORPUS / q["agreement_file"]).resolve())
            if rec is None or q["id"] not in rows:
                continue
            vec = lib._question_vector(strip_naming_words(q["question"], naming_words(rec)))
            reading = head.read(vec, [lib.heading_topic_state(rec.doc_id)])
            top = reading.categories[0] if reading.categories else None
            masses.append((q["type"], bool(rows[q["id"]]["abstained"]), reading.mass))
            rows_out.append({"set": name, "id": q["id"], "type": q["type"], "abstained_before": rows[q["id"]]["abstained"],
                             "mass": round(reading.mass, 4), "top_absent": top and [top[0], round(top[1], 4)]})
        curve = {}
        for t in THRESHOLDS:
            un = [m for k, a, m in masses if k == "unanswerable" and not a]
            ans = [m for k, a, m in masses if k != "unanswerable" and not a]
            x_un, x_ans = int(sum(m >= t for m in un)), int(sum(m >= t for m in ans))
            n_ans = sum(k != "unanswerable" for k, _, _ in masses)
            curve[f"{t:.2f}"] = {"unanswerable_newly_declined": x_un, "of_answered_before": len(un),
                                 "answerable_newly_abstained": x_ans, "answerable": n_ans,
                                 "answerable_abstained_wilson95": [round(v, 4) for v in wilson(x_ans, n_ans)]}
        out["sets"][name] = curve
        print(name, json.dumps({k: (v["unanswerable_newly_declined"], v["answerable_newly_abstained"])
                                for k, v in curve.items()}))
    (RESULTS / "heading_absence_sweep.json").write_text(json.dumps(out, indent=1) + "\n")
    (RESULTS / "heading_absence_sweep.rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows_out))


if __name__ == "__main__":
    main()
