"""Why category absence (issue #39) misses: for each question of the clause-QA sets, what the
question-topic head (:mod:`clauselens.heads.topic`, a softmax over CUAD's 41 categories plus
``Other``) reads and how the gold agreement's presence scores (:mod:`clauselens.heads.presence`)
compare with each category's ``absent_below``.

Each unanswerable question that the stored ``clause_qa`` run answered is put in one failure kind:

* ``other``: the head's top reading is ``Other`` (a topic outside CUAD's 41 kinds: the head has no
  label for it, so no presence score can decline it);
* ``ineligible``: the top reading is a CUAD category without an ``absent_below`` (too few
  ``train_allowed`` agreements with the clause, or too little coverage, to trust its absence:
  ``clauselens.heads.train_topic.MIN_POSITIVES`` / ``MIN_COVERAGE``);
* ``present``: the top reading is an eligible category whose presence score in the agreement is at
  or above ``absent_below`` (the presence probe says the clause is there);
* ``resolution``: against the gold agreement alone the absent mass reaches ``absent_mass`` (the
  check would decline), so the miss is the resolver's: the search resolved several agreements
  (ambiguous/uncertain) and one of them has the clause, or more than ``MAX_AGREEMENTS``;
* ``mass``: the top reading is absent but the absent mass stays below ``absent_mass``.

The same fields are written for answerable questions; there ``resolution`` means the check declines
the question against its own gold agreement (the presence probe scores its clause below
``absent_below``), not a resolver fault.
Each row also gives the heading-topic head's reading (:mod:`clauselens.heads.heading_topic`, when
installed): its top topic, whether the gold agreement lacks it, and the absent mass.
Only the stored result rows and the heads are read; no search is run, nothing is trained.

Usage::

    .venv/bin/python -m benchmarks.absence_diagnosis   # dev, lay, blind2, blind3
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from benchmarks.clause_qa import CORPUS, DEV, REPO, library_for, load_questions
from clauselens.heads.topic import OTHER, load
from clauselens.library.catalogue import naming_words, strip_naming_words

RESULTS = REPO / "benchmarks" / "results"
SETS = {"dev": (DEV / "questions.jsonl", "clause_qa_cuad462_minilm"),
        "lay": (REPO.parent / "shared" / "data" / "clause-qa-lay" / "questions.jsonl", "clause_qa_cuad462_minilm-lay"),
        "blind2": (REPO / "benchmarks" / "data" / "clause_qa_lay_blind2" / "questions.jsonl", "clause_qa_cuad462_minilm-blind2"),
        "blind3": (REPO / "benchmarks" / "data" / "clause_qa_lay_blind3" / "questions.jsonl", "clause_qa_cuad462_minilm-blind3")}


def diagnose(lib, head, q: dict, row: dict) -> dict:
    """The head's reading of one question against its gold agreement, and the failure kind."""
    path = (CORPUS / q["agreement_file"]).resolve()
    recs = [r for r in lib.agreements() if Path(r.path).resolve() == path]
    text = strip_naming_words(q["question"], naming_words(recs[0])) if recs else q["question"]
    vec = lib._question_vector(text)
    p = head.probabilities(vec)[0]
    order = p.argsort()[::-1][:3]
    presence = lib.presence_scores(recs[0].doc_id) if recs else {}
    top = [{"category": head.labels[j], "p": round(float(p[j]), 3),
            "presence": round(float(presence.get(head.labels[j], -1.0)), 4),
            "absent_below": head.absent_below.get(head.labels[j])} for j in order]
    reading = head.read(vec, [presence]) if presence else None
    mass = round(reading.mass, 3) if reading else None
    first = top[0]
    if first["category"] == OTHER:
        kind = "other"
    elif first["absent_below"] is None:
        kind = "ineligible"
    elif first["presence"] >= first["absent_below"]:
        kind = "present"
    elif mass is not None and mass >= head.absent_mass:
        kind = "resolution"
    else:
        kind = "mass"
    heading = None
    hh = lib._heading_judge()
    if hh is not None and recs:
        state = lib.heading_topic_state(recs[0].doc_id)
        ph = hh.probabilities(vec)[0]
        j = int(ph.argmax())
        t = hh.labels[j]
        hread = hh.read(vec, [state])
        heading = {"topic": t, "p": round(float(ph[j]), 3), "eligible": t in hh.absent_below,
                   "lacks": hh.lacks(t, state), "score": round(float(state[1].get(t, -1.0)), 4),
                   "absent_below": hh.absent_below.get(t), "absent_mass": round(hread.mass, 3)}
    return {"id": q["id"], "type": q["type"], "abstained": row.get("abstained"), "question": q["question"],
            "top": top, "absent_mass": mass, "threshold": head.absent_mass, "kind": kind,
            "agreement_found": bool(recs), "heading_topic": heading}


def main() -> None:
    head = load()
    lib = library_for("cuad462", "minilm", [])
    out: dict[str, dict] = {}
    lines = []
    for name, (qfile, stem) in SETS.items():
        qs = load_questions(qfile)
        rows = {json.loads(s)["id"]: json.loads(s) for s in (RESULTS / f"{stem}.results.jsonl").read_text().splitlines()}
        diags = [diagnose(lib, head, q, rows.get(q["id"], {})) for q in qs if q["type"] in ("unanswerable", "paraphrase")]
        missed = [d for d in diags if d["type"] == "unanswerable" and not d["abstained"]]
        out[name] = {"unanswerable": sum(d["type"] == "unanswerable" for d in diags),
                     "unanswerable_answered": len(missed),
                     "answered_by_kind": dict(Counter(d["kind"] for d in missed)),
                     "top_reading_other_all_unanswerable": sum(d["type"] == "unanswerable" and d["kind"] == "other" for d in diags),
                     "top_reading_other_paraphrase": sum(d["type"] == "paraphrase" and d["kind"] == "other" for d in diags),
                     "paraphrase": sum(d["type"] == "paraphrase" for d in diags)}
        lines += [json.dumps({"set": name, **d}) for d in diags]
        print(name, json.dumps(out[name]))
    (RESULTS / "absence_diagnosis.json").write_text(json.dumps({"data": {k: str(v[0]) for k, v in SETS.items()},
                                                               "results_read": {k: v[1] for k, v in SETS.items()},
                                                               "sets": out}, indent=2) + "\n")
    (RESULTS / "absence_diagnosis.rows.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
