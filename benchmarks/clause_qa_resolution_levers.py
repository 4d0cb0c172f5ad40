"""Agreement-resolution levers (issue #17, item 2) on ``../shared/data/clause-qa-dev/``: the
100 questions against the 462-contract library that ``benchmarks/clause_qa.py`` builds.

Resolution decides which agreement(s) a question is searched in; on this set it is right alone
for 83 questions and among the searched ones for 98, and the questions it leaves "uncertain"
(five agreements searched together) lose paraphrase hits. Two levers, measured here and not
adopted unless they lift "right alone" without choosing a wrong agreement alone:

* ``names xW`` -- the query tokens of capitalised words inside the question (proper names:
  "E.piphany", "Consensi"; not quoted terms nor "Section"/"Agreement") counted W times in the
  BM25 profile query (:func:`clauselens.library.resolver.resolution_tokens`), the resolver's
  thresholds unchanged; "rare names only" weights only names used by at most 1 % of the
  library's agreements (:data:`clauselens.library.library.NAME_RARE_SHARE`; the default, x3);
* ``dense`` -- each agreement's title, parties, short names and first three passages (cut to
  1,000 characters, MiniLM's window) embedded once; the gold agreement's rank by cosine with
  the question (question words removed), reported as a rank histogram beside the BM25
  resolver's outcome.

    .venv/bin/python -m benchmarks.clause_qa_resolution_levers
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

import numpy as np

from benchmarks.clause_qa import RESULTS, library_for, load_questions
from clauselens.library.resolver import _QUESTION_WORDS
from clauselens.provenance import run_provenance


def profile_text(lib, rec) -> str:
    """What the dense lever embeds for one agreement (see the module docstring)."""
    rows = lib.catalogue.rows_of([rec.doc_id])[:3]
    head = " ; ".join([rec.title or "", ", ".join(rec.parties), ", ".join(rec.short_names)])
    return (head + "\n" + " ".join(c.text for c in lib.catalogue.passages(rows)))[:1000]


def main() -> None:
    questions = load_questions()
    lib = library_for("cuad462", "minilm", questions)
    recs = lib.agreements()
    ids = [r.doc_id for r in recs]
    gold_of = {q["id"]: next(r.doc_id for r in recs if Path(r.path).name == Path(q["agreement_file"]).name)
               for q in questions}
    n_docs = len(recs)
    table = {}
    for weight, rare_only in ((1, False), (2, False), (3, False), (2, True), (3, True)):
        alone = among = wrong_alone = 0
        status: Counter = Counter()
        for q in questions:
            toks = lib.resolution_query(q["question"], name_weight=weight, rare_only=rare_only)
            res = lib.resolver.decide(lib.lexical.profile_scores(toks), None, n_docs=n_docs)
            g = gold_of[q["id"]]
            alone += res.chosen == [g]
            wrong_alone += len(res.chosen) == 1 and res.chosen != [g]
            among += g in res.chosen
            status[res.status] += 1
        name = f"bm25 profile, names x{weight}" + (" (rare names only)" if rare_only and weight > 1 else "")
        table[name] = {"right_alone": alone, "right_among_searched": among, "wrong_alone": wrong_alone,
                       "status": dict(status)}
    vectors = np.asarray(lib.embedder.embed_passages([profile_text(lib, r) for r in recs]))
    ranks = []
    for q in questions:
        qv = lib.embedder.embed_queries([_QUESTION_WORDS.sub(" ", q["question"])])[0]
        order = np.argsort(-(vectors @ qv), kind="stable")
        ranks.append(int(np.flatnonzero(np.asarray(ids)[order] == gold_of[q["id"]])[0]) + 1)
    table["dense profile (gold agreement's rank)"] = {
        "rank1": sum(r == 1 for r in ranks), "rank2_3": sum(2 <= r <= 3 for r in ranks),
        "rank4_10": sum(4 <= r <= 10 for r in ranks), "rank_over_10": sum(r > 10 for r in ranks),
        "per_question": dict(zip((q["id"] for q in questions), ranks))}
    out = RESULTS / "clause_qa_resolution_levers.json"
    out.write_text(json.dumps({
        "benchmark": "clause_qa_resolution_levers", "questions": len(questions), "library": "cuad462-minilm (462 agreements)",
        "file_names_read": False, "table": table, "command": "python -m benchmarks.clause_qa_resolution_levers",
        "provenance": run_provenance(["bm25s", "numpy", "sentence-transformers"]), "date": dt.date.today().isoformat(),
    }, indent=2) + "\n")
    for k, v in table.items():
        print(k, {a: b for a, b in v.items() if a != "per_question"})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
