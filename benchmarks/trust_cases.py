"""Issue #19's failure cases, re-created: how many unsupported claims are presented as facts?

Usage::

    .venv/bin/python -m benchmarks.trust_cases                 # replay: no model, a few seconds
    .venv/bin/python -m benchmarks.trust_cases --verdicts      # + the default model's support verdicts on the replay
    .venv/bin/python -m benchmarks.trust_cases --live          # + end-to-end runs with the default model
        [--cases two_contracts_assign,...] [--max-turns 2] [--out benchmarks/results/trust_cases.json]

Three cases on the bundled contract (``examples/contracts/driven_deliveries_consulting_agreement.pdf``)
and a second CUAD contract (the NEON Systems distributor agreement, PDF from ``../shared/data/cuad/``):

* ``two_contracts_assign`` — both contracts, ``--context "I am the consultant"``: the issue's
  "either party can assign without consent", citing 12.2 with the quote "Consultant may not sell,
  assign or deleg"; the second contract was not addressed.
* ``non_compete_duration`` — chat's "the non-compete lasts five years" (five years is the
  non-solicit, 4.3; the non-compete, 4.2, runs during the term).
* ``demo_termination`` — the demo question, whose correct quote of 7.2 was removed as "not found
  verbatim" because the model wrote "Either party" for "Either Party".

**Replay** (always): each case's recorded findings — what the model wrote in the issue, plus
correct findings — are built into a report against the real parsed contracts (every passage
whose text contains the quoted clause), exactly as the graph's report node does, without the
model's verdict (``support_check`` needs a model). Every finding carries a hand label
(``true`` / ``false``), so the counts do not depend on the check under test:

* ``unsupported_as_fact``: findings labelled false that the report shows as cited facts
  (target 0);
* ``supported_as_fact``: findings labelled true shown as cited facts;
* ``before_unsupported_as_fact``: findings labelled false that had a verified quote (the rule before
  this issue: a verified quote made a finding a cited fact);
* ``unaddressed_listed``: documents with no cited fact, listed under knowledge gaps.

A finding marked ``needs_model`` would be one the deterministic checks cannot judge, left to the
model's verdict (``--verdicts``); none is left. The last one ("neither party may assign ... without
consent" citing "This Agreement will be binding upon Consultant's assigns", a quote with no
assertion of its own) has been caught since the echo check (``reports.support.check_echo``: it
answers the question in the question's words, and the quote never speaks of consent); "immediately,
without any notice" for a clause on thirty days' notice, since the notice-period rule of
``reports.support.check_period`` learnt the converse case.

**Live** (``--live``): ``pipeline.ask`` end to end with the default model (in-process 1.5B
GGUF; run with ``nice`` and ``CLAUSELENS_INTERROGATOR_MODEL__N_THREADS=1`` etc. on a shared
machine). Every finding is written out with its support status, and cited facts are matched
against each case's hand-written patterns of the known false claims (``false_claim_patterns``)
and key facts (``key_fact_patterns``); ``cited_facts_for_review`` lists every cited fact for a
hand check (the README reports that check). The draft fields' lengths are recorded against
their caps (``budget``; ``near_cap``: at least 90% of the cap, since a field the grammar cut is
trimmed to its last full sentence before it is recorded) to size the output budgets.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from clauselens import events as ET
from clauselens.agents.archivist import document_summary, load_one
from clauselens.config import Settings
from clauselens.parsing.chunks import build_chunks
from clauselens.provenance import run_provenance
from clauselens.reports import build_report
from clauselens.reports.model import DraftFinding, Report, ReportDraft
from clauselens.reports.verify import normalize
from clauselens.retrieval.types import Passage

REPO = Path(__file__).resolve().parents[1]

BUNDLED = REPO / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"
NEON = (REPO.parent / "shared" / "data" / "cuad" / "full_contract_pdf" / "Part_III" / "Distributor"
        / "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.pdf")

CASES: list[dict[str, Any]] = [
    {
        "id": "two_contracts_assign", "files": [BUNDLED, NEON], "context": "I am the consultant.",
        "question": "Can either party assign these agreements without the other party's consent?",
        "findings": [
            {"statement": "Either party can assign the agreement without the other party's consent.",
             "quote": "Consultant may not sell, assign or deleg", "true": False},  # the finding
            {"statement": "Either party may assign the distributor agreement without consent.",
             "quote": "Licensor may assign this Agreement to a subsidiary", "true": False},
            {"statement": "The Consultant may not sell, assign or delegate its rights or obligations under the agreement.",
             "quote": "Consultant may not sell, assign or delegate any rights or obligations under this Agreement", "true": True},
            {"statement": "The Company may assign the consulting agreement without the Consultant's consent.",
             "quote": "Company may assign this Agreement without Consultant’s consent", "true": True},
            {"statement": "The Consultant may assign the consulting agreement without the Company's consent.",
             "quote": "Company may assign this Agreement without Consultant’s consent", "true": False},
            {"statement": "Under the distributor agreement the Licensor may assign it to a subsidiary.",
             "quote": "Licensor may assign this Agreement to a subsidiary", "true": True},
            # the 1.5B model's two findings in the live run of this case (both judged "supports" by it)
            {"statement": "The distributor agreement provides that the distributor may assign the agreement to a subsidiary "
                          "or entity controlling, controlled by, or under common control with the distributor.",
             "quote": "This Agreement will be binding upon Consultant’s assigns, administrators, and other legal representatives",
             "true": False},
            {"statement": "The consulting agreement provides that neither party may assign the agreement without the other "
                          "party's consent.",
             "quote": "This Agreement will be binding upon Consultant’s assigns, administrators, and other legal representatives",
             "true": False},
        ],
        "false_claim_patterns": [r"\beither party\b[^.]*\b(?:can|may)\b(?![^.]*\bnot\b)[^.]*\bassign", r"\bconsultant\b[^.]*\b(?:can|may)\s+assign"],
        "key_fact_patterns": {"consultant may not assign": r"consultant[^.]*\b(?:may not|cannot|can ?not)\b[^.]*assign",
                              "company may assign without consent": r"company[^.]*\bmay\b[^.]*assign",
                              "distributor agreement: consent needed": r"(?:neither|no party|consent)[^.]*assign|assign[^.]*consent"},
    },
    {
        "id": "non_compete_duration", "files": [BUNDLED], "context": "I am the consultant.",
        "question": "How long does the non-compete last, and does it survive termination?",
        "findings": [
            {"statement": "The non-compete lasts five years.", "quote": "for a period of five (5) years", "true": False},
            {"statement": "The Consultant may solicit Company employees once the agreement ends.",
             "quote": "Consultant expressly agrees that he will not, without the prior written consent of the Company", "true": False},
            {"statement": "The Consultant will not solicit or hire away Company employees for five years.",
             "quote": "solicit, divert or hire away any person employed by the Company for a period of five (5) years", "true": True},
            {"statement": "The covenant not to compete (Section 4.2) survives termination.",
             "quote": "Section 4.2 (Covenant Not to Compete)", "true": True},
            {"statement": "During the term the Consultant does not perform services for the Company's competitors.",
             "quote": "Consultant does not presently perform or intend to perform, during the term of this Agreement", "true": True},
        ],
        "false_claim_patterns": [r"non-?compet[^.]*\b(?:five|5)\b", r"\b(?:five|5)\b[^.]*non-?compet"],
        "key_fact_patterns": {"non-compete during the term": r"non-?compet[^.]*term|term[^.]*non-?compet",
                              "survives termination (7.3(b))": r"surviv"},
    },
    {
        "id": "demo_termination", "files": [BUNDLED], "context": None,
        "question": "How can either party terminate this agreement, and how much notice is required?",
        "findings": [
            {"statement": "Either party may terminate this agreement, with or without cause, upon giving the other party "
                          "thirty (30) days prior written notice.",
             "quote": "Either party may terminate this Agreement, with or without cause, upon giving the other party thirty "
                      "(30) days prior written notice of such termination pursuant to Section 12.7 of this Agreement",
             "true": True},  # docs/examples/demo: removed as "not found verbatim" (capital P)
            {"statement": "The Company may terminate immediately if the Consultant is in breach of a material provision.",
             "quote": "The Company may terminate this Agreement immediately and without prior notice if Consultant refuses to",
             "true": True},
            {"statement": "The Consultant may terminate the agreement immediately and without prior notice.",
             "quote": "The Company may terminate this Agreement immediately and without prior notice", "true": False},
            # same party, action and polarity as the quote: only a reader of the condition sees it is wrong
            {"statement": "Either party may terminate the agreement immediately, without any notice.",
             "quote": "Either Party may terminate this Agreement, with or without cause", "true": False},
        ],
        "false_claim_patterns": [r"consultant may terminate[^.]*immediately"],
        "key_fact_patterns": {"30 days' notice, either party": r"(?:thirty|30)[^.]*notice|notice[^.]*(?:thirty|30)",
                              "company: immediately on breach": r"immediately"},
    },
]

CAPPED_FIELDS = ("title", "topic_summary", "legal_reasoning", "answer", "conclusion")


def _passages(docs) -> dict[str, Passage]:
    """Every chunk of ``docs`` as a passage (the replay has no retrieval step)."""
    out: dict[str, Passage] = {}
    for d in docs:
        for c in build_chunks(d):
            out[f"P{len(out) + 1}"] = Passage.from_chunk(c, 0.0, "replay")
    return out


def _containing(passages: dict[str, Passage], quote: str) -> list[str]:
    q = normalize(quote)[:60]
    return [pid for pid, p in passages.items() if q in normalize(p.text)]


def replay(case: dict[str, Any], settings: Settings, model: Any = None) -> dict[str, Any]:
    docs = [load_one(f, settings) for f in case["files"]]
    passages = _passages(docs)
    findings = []
    for f in case["findings"]:
        pids = _containing(passages, f["quote"])
        findings.append(DraftFinding(statement=f["statement"], passage_ids=pids[:1], quote=f["quote"]))
    # model_construct: the replay keeps every recorded finding (a model's draft is capped at 3)
    draft = ReportDraft.model_construct(title=case["id"], answer="(replayed findings)", findings=findings)
    summaries = [document_summary(d) for d in docs]
    r = build_report(draft, passages, question=case["question"], context=case["context"], documents=summaries)
    calls = 0
    if model is not None:  # the graph's report node: the model's verdict on what the rules passed
        from clauselens.agents.interrogator import check_support

        r, recs, _ = check_support(r, passages, model=model, context=case["context"],
                                   model_settings=settings.model_for("interrogator"), documents=summaries)
        calls = len(recs)
    rows = []
    for spec, f in zip(case["findings"], r.key_findings):
        rows.append({"statement": f.statement, "hand_label_true": spec["true"], "needs_model": bool(spec.get("needs_model")),
                     "support": f.support,
                     "note": f.support_note, "cited_fact": f.cited_fact, "had_verified_quote": f.grounded,
                     "cited_text": [r.citation(c).quote for c in f.citation_ids]})
    return {
        "findings": rows,
        "unsupported_as_fact": sum(1 for x in rows if x["cited_fact"] and not x["hand_label_true"]),
        "supported_as_fact": sum(1 for x in rows if x["cited_fact"] and x["hand_label_true"]),
        "true_findings": sum(1 for x in rows if x["hand_label_true"]),
        "false_findings": sum(1 for x in rows if not x["hand_label_true"]),
        "before_unsupported_as_fact": sum(1 for x in rows if x["had_verified_quote"] and not x["hand_label_true"]),
        "verification": r.verification, "unaddressed_listed": r.unaddressed_documents, "model_calls": calls,
    }


def _match(patterns: list[str], text: str) -> bool:
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def live(case: dict[str, Any], settings: Settings, max_turns: int) -> dict[str, Any]:
    from clauselens.pipeline import ask
    from clauselens.reports.model import ReportDraft as RD

    t0 = time.perf_counter()
    res = ask([str(f) for f in case["files"]], case["question"], settings, context=case["context"], max_turns=max_turns)
    wall = time.perf_counter() - t0
    r: Report = res.report
    rows = []
    for f in r.key_findings:
        rows.append({"statement": f.statement, "support": f.support, "note": f.support_note, "cited_fact": f.cited_fact,
                     "matches_false_claim": _match(case["false_claim_patterns"], f.statement),
                     "cited": [{"id": c, "clause": r.citation(c).clause_ref, "doc": r.citation(c).doc_title,
                                "text": r.citation(c).quote} for c in f.citation_ids]})
    facts_text = " ".join(x["statement"] for x in rows if x["cited_fact"])
    events = res.transcript["events"]
    budget = []
    for e in events:
        if e.get("type") == ET.DRAFT and e.get("draft"):
            d = e["draft"]
            for k in CAPPED_FIELDS:
                cap = RD.str_caps.get(k)
                n = len(d.get(k) or "")
                budget.append({"field": k, "chars": n, "cap": cap, "near_cap": bool(cap and n >= 0.9 * cap)})
            for fd in d.get("findings") or []:
                for k, cap in DraftFinding.str_caps.items():
                    n = len(fd.get(k) or "")
                    budget.append({"field": f"findings.{k}", "chars": n, "cap": cap, "near_cap": n >= 0.9 * cap})
    drafts = [e for e in ET.of_type(events, ET.LLM_CALL) if e.get("step") == "draft"]
    return {
        "wall_seconds": round(wall, 1), "verification": r.verification, "verification_note": r.verification_note,
        "answer": r.answer, "findings": rows,
        "cited_facts": sum(1 for x in rows if x["cited_fact"]),
        "unsupported_by_check": sum(1 for x in rows if not x["cited_fact"]),
        "false_claims_as_fact_by_pattern": sum(1 for x in rows if x["cited_fact"] and x["matches_false_claim"]),
        "false_claims_caught": sum(1 for x in rows if not x["cited_fact"] and x["matches_false_claim"]),
        "key_facts_stated": {k: bool(re.search(p, facts_text, re.IGNORECASE)) for k, p in case["key_fact_patterns"].items()},
        "unaddressed_documents": r.unaddressed_documents, "knowledge_gaps": r.knowledge_gaps,
        "cited_facts_for_review": [x["statement"] for x in rows if x["cited_fact"]],
        "support_events": next((e.get("support") for e in ET.of_type(events, ET.REPORT)), None),
        "budget": budget,
        "draft_output_tokens": [int(e.get("usage", {}).get("output_tokens", 0)) for e in drafts],
        "draft_max_tokens": settings.model_for("interrogator").max_tokens,
        "llm_calls": res.transcript["token_usage"]["llm_calls"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--live", action="store_true", help="also run each case end to end with the configured model")
    ap.add_argument("--verdicts", action="store_true",
                    help="also replay with the configured model's support verdicts")
    ap.add_argument("--cases", default="", help="comma-separated case ids (default: all)")
    ap.add_argument("--max-turns", type=int, default=2)
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "trust_cases.json")
    a = ap.parse_args(argv)
    settings = Settings()
    cases = [c for c in CASES if not a.cases or c["id"] in a.cases.split(",")]
    out: dict[str, Any] = {
        "command": " ".join(["python -m benchmarks.trust_cases", *(argv if argv is not None else sys.argv[1:])]),
        "date_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "versions": run_provenance(["pdfplumber", "llama-cpp-python", "langgraph"]),
        "model": settings.model_for("interrogator").model if (a.live or a.verdicts) else None,
        "replay": {}, "replay_verdicts": {}, "live": {},
    }
    verdicts = a.verdicts
    run = {k: out[k] for k in ("command", "date_utc", "versions")}  # stored with every case result
    if a.out.exists():  # model results of other cases (or earlier runs) are kept; each carries its own run
        prev = json.loads(a.out.read_text())
        for k in ("live", "replay_verdicts"):
            out[k] = dict(prev.get(k) or {})
        out["model"] = out["model"] or prev.get("model")
    model = None
    if verdicts:
        from clauselens.llm import get_chat_model

        model = get_chat_model(settings.model_for("interrogator"), settings.models_dir)
        out["model"] = settings.model_for("interrogator").model
    for key, m in (("replay", None), ("replay_verdicts", model)):
        if key == "replay_verdicts" and m is None:
            continue
        for c in cases:
            t0 = time.perf_counter()
            out[key][c["id"]] = rep = replay(c, settings, m)
            rep["seconds"] = round(time.perf_counter() - t0, 1)
            if m is not None:
                rep["run"] = run
            print(f"{key} {c['id']}: unsupported as fact {rep['unsupported_as_fact']}/{rep['false_findings']} "
                  f"(before: {rep['before_unsupported_as_fact']}); supported as fact {rep['supported_as_fact']}/"
                  f"{rep['true_findings']}; verification {rep['verification']}; unaddressed {rep['unaddressed_listed']}")
    for c in cases if a.live else []:
        out["live"][c["id"]] = lv = live(c, settings, a.max_turns)
        lv["run"] = run
        print(f"live {c['id']}: {lv['wall_seconds']}s, {lv['cited_facts']} cited facts, "
              f"{lv['unsupported_by_check']} shown as unsupported, false claims as fact (patterns) "
              f"{lv['false_claims_as_fact_by_pattern']}, verification {lv['verification']}")
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(out, indent=2, ensure_ascii=False))  # after every case: a long run keeps its results
    keys = ("unsupported_as_fact", "false_findings", "before_unsupported_as_fact", "supported_as_fact", "true_findings")
    tot = out["replay_totals"] = {k: sum(v[k] for v in out["replay"].values()) for k in keys}
    if out["replay_verdicts"]:
        out["replay_verdicts_totals"] = {k: sum(v[k] for v in out["replay_verdicts"].values()) for k in keys}
        print("replay with verdicts totals:", out["replay_verdicts_totals"])
    if out["live"]:
        out["live_totals"] = {k: sum(v[k] for v in out["live"].values()) for k in
                              ("cited_facts", "unsupported_by_check", "false_claims_as_fact_by_pattern", "false_claims_caught")}
    print("replay totals:", tot)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=2, ensure_ascii=False))
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
