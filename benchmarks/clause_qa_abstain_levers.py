"""Abstention levers for absent topics (issue #17, item 5): does a *contrastive* dense score
separate the unanswerable dev questions from the paraphrases?

The idea (a lever tried, not adopted): a question about a topic the resolved agreement lacks
still finds that topic in *other* agreements of the library, so the best MiniLM cosine inside
the resolved agreement(s) should fall well below the best cosine in the rest of the library;
a paraphrase of a clause the agreement has should not. For every dev question that reaches the
ranking stage (no exact clause / definition hit, no abstention, agreement resolved to at most 3),
this records the best cosine inside, the best outside, their difference, and the rank of the
first inside passage in the whole-library ordering, then the best achievable threshold on the
difference (answerable abstained vs unanswerable answered at every cut).

Query: the same ranking query :meth:`clauselens.library.Library.search` uses (agreement names
removed). Library: the 462-contract benchmark library of ``benchmarks/clause_qa.py`` (built
there, opened here).

    .venv/bin/python -m benchmarks.clause_qa_abstain_levers
"""

from __future__ import annotations

import datetime as dt
import json

import numpy as np

from benchmarks.clause_qa import RESULTS, library_for, load_questions
from clauselens.provenance import run_provenance


def main() -> None:
    questions = load_questions()
    lib = library_for("cuad462", "minilm", questions)
    live = lib.catalogue.live_mask()
    rows = []
    for q in questions:
        res = lib.search(q["question"], 5)
        tr = res.trace
        docs = tr.get("resolution", {}).get("chosen") or []
        if res.abstained or tr.get("clause_refs") or tr.get("defined_term") or not docs or len(docs) > 3:
            continue
        qv = lib.embedder.embed_queries([tr.get("ranking_query") or q["question"]])[0]
        r_all, s_all = lib.vectors.scores(qv, None)
        keep = r_all < len(live)
        keep[keep] = live[r_all[keep]]
        r_all, s_all = r_all[keep], s_all[keep]
        inside = np.isin(r_all, lib.catalogue.rows_of(docs))
        best_in, best_out = float(s_all[inside].max()), float(s_all[~inside].max())
        order = np.argsort(-s_all)
        first_in = int(np.flatnonzero(inside[order])[0])
        rows.append({"id": q["id"], "type": q["type"], "resolution": tr["resolution"]["status"],
                     "best_inside": round(best_in, 4), "best_outside": round(best_out, 4),
                     "difference": round(best_in - best_out, 4), "first_inside_rank": first_in})
    para = [r["difference"] for r in rows if r["type"] == "paraphrase"]
    unans = [r["difference"] for r in rows if r["type"] == "unanswerable"]
    sweep = []
    for t in sorted({r["difference"] for r in rows}):  # abstain when difference < t
        sweep.append({"abstain_below": t, "paraphrase_abstained": sum(d < t for d in para),
                      "unanswerable_answered": sum(d >= t for d in unans)})
    result = {
        "benchmark": "clause_qa_abstain_levers", "library": "cuad462-minilm (benchmarks/clause_qa.py)",
        "questions_reaching_ranking": len(rows), "paraphrase": len(para), "unanswerable": len(unans),
        "difference_range": {"paraphrase": [min(para), max(para)], "unanswerable": [min(unans), max(unans)]},
        "sweep": sweep, "rows": rows,
        "conclusion": "not adopted: the ranges overlap; the best cut sits on a single question (see best_cut), "
                      "which a 29-question dev set cannot justify",
        "command": "python -m benchmarks.clause_qa_abstain_levers",
        "provenance": run_provenance(["numpy", "sentence-transformers"]), "date": dt.date.today().isoformat(),
    }
    best = min(sweep, key=lambda s: s["paraphrase_abstained"] + s["unanswerable_answered"])
    result["best_cut"] = best
    out = RESULTS / "clause_qa_abstain_levers.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in ("questions_reaching_ranking", "difference_range", "best_cut")}, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
