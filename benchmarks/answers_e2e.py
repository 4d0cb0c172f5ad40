"""End-to-end answers on the clause-QA dev set (issue #19, "Measured"): the whole pipeline —
library resolution, the Researcher's retrieval, the Interrogator's draft, quote verification
and the support check — with the default CPU model, on a fixed sample of
``../shared/data/clause-qa-dev/questions.jsonl`` asked of the 462-contract CUAD library
(``benchmarks/clause_qa.py``'s ``cuad462`` library; file names are not read).

Sample (fixed, seed 19): 10 questions of each answerable kind (exact clause number, defined
term, paraphrase) and 10 unanswerable ones (5 absent topics, ids ``*-un-1``; 5 clause numbers
that do not exist, ids ``*-un-2``).

Per question it records the report's answer, every key finding with its support status and
citations, whether a citation overlaps the gold span, wall time and model calls. Scored by
documented rules (no model in the scoring):

* **shown as fact**: a finding the report shows as a cited fact (``Finding.cited_fact``: a
  verified quote whose support check passed). The rule *before* issue #19 showed every finding
  with a verified quote as a fact; ``before_shown_as_fact`` replays that rule on the same
  findings.
* **grounded on gold** (answerable): some finding shown as fact cites a passage of the gold file
  whose span overlaps a gold span.
* **key facts**: the numbers in the reference answer (digits, amounts, percentages, and number
  words one–twenty, thirty … ninety, hundred, written as digits; a dotted number such as
  "11.03" that is neither an amount nor a percentage is a clause reference and not counted),
  compared after the same
  normalisation against the report's answer, conclusion and shown-as-fact statements. A
  reference without numbers has no key facts.
* **correct** (answerable): grounded on gold and every key fact stated.
* **abstained**: the report says the documents are silent (``documents_silent``: "no matching
  clause found") or shows no finding as a fact. Correct for the unanswerable ones.
* **hand check**: ``benchmarks/data/answers_e2e_labels.json`` holds a person's label for each
  shown-as-fact finding ("qid#i": ``true`` when the quote supports the claim, ``false`` when
  not), written after reading claim and quote; ``unsupported_shown_as_fact`` counts the
  ``false`` ones (issue target 0) and ``unlabelled`` says how many were not checked. The same
  labels judge the before-rule's facts (``before_unsupported_shown_as_fact``) when labelled.

Resumable: one JSON per question under ``~/.cache/clauselens/bench/answers_e2e/<config>/``;
a rerun asks only the missing questions (``--fresh`` re-asks). Heavy: ~2–6 min per question on
2 shared cores; run at low priority::

    nice -n 10 .venv/bin/python -m benchmarks.answers_e2e [--max-turns 1] [--limit N]
    .venv/bin/python -m benchmarks.answers_e2e --score-only      # rescore the cached rows
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.clause_qa import CORPUS, DEV, load_questions, rate, rel
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "answers_e2e"
OUT = REPO / "benchmarks" / "results" / "answers_e2e.json"
LABELS = REPO / "benchmarks" / "data" / "answers_e2e_labels.json"
SEED = 19
PER_KIND = 10
ANSWERABLE = ("exact", "defined_term", "paraphrase")

_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}
_WORDS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80",
               "ninety": "90", "hundred": "100"})
_NUM = re.compile(r"\d+(?:[.,]\d+)*")


def sample(questions: list[dict]) -> list[dict]:
    """The fixed sample: 10 per answerable kind, 5 absent-topic + 5 missing-clause unanswerable."""
    rng = random.Random(SEED)
    out: list[dict] = []
    for kind in ANSWERABLE:
        pool = sorted((q for q in questions if q["type"] == kind), key=lambda q: q["id"])
        out += rng.sample(pool, PER_KIND)
    for suffix in ("-un-1", "-un-2"):
        pool = sorted((q for q in questions if q["id"].endswith(suffix)), key=lambda q: q["id"])
        out += rng.sample(pool, PER_KIND // 2)
    return out


def normalise_numbers(text: str) -> str:
    """Lower case, number words as digits, thousands separators and trailing zeros dropped."""
    t = re.sub(r"[a-z]+", lambda m: _WORDS.get(m.group(0), m.group(0)), text.lower())
    return re.sub(r"(\d),(\d{3})", r"\1\2", re.sub(r"(\d),(\d{3})", r"\1\2", t))


def key_facts(reference: str) -> list[str]:
    """The numbers of a reference answer (see the module docstring), deduplicated, in order."""
    seen: list[str] = []
    text = normalise_numbers(reference)
    for m in _NUM.finditer(text):
        v = m.group(0).rstrip(".,")
        money_or_share = text[max(0, m.start() - 1):m.start()] == "$" or text[m.end():m.end() + 1] == "%"
        if re.fullmatch(r"\d+\.\d+", v) and not money_or_share:
            continue  # "11.03", "6.1": a clause reference, not a fact to state
        v = re.sub(r"\.0+$", "", v)
        if v and v not in seen:
            seen.append(v)
    return seen


def states(fact: str, text: str) -> bool:
    """``fact`` (digits) appears in ``text`` as a whole number after normalisation."""
    return re.search(rf"(?<![\d.]){re.escape(fact)}(?:\.0+)?(?![\d])", normalise_numbers(text)) is not None


def ask_one(q: dict, lib: Any, settings: Any, max_turns: int, commit: str | None) -> dict:
    """Ask ``q`` of the library through the same calls ``clauselens ask --library`` makes."""
    from clauselens.interfaces.library_commands import library_documents, library_tools
    from clauselens.pipeline import ask

    t0 = time.perf_counter()
    tools, resolution = library_tools(lib, q["question"])
    docs = library_documents(lib, resolution["chosen"])
    res = ask([], q["question"], settings, tools=tools, documents=docs, max_turns=max_turns)
    wall = time.perf_counter() - t0
    r = res.report
    paths = {d["doc_id"]: rel(d["source_path"] or "") for d in docs}
    findings = []
    for f in r.key_findings:
        cites = []
        for cid in f.citation_ids:
            c = r.citation(cid)
            cites.append({"id": cid, "file_path": paths.get(c.doc_id, rel(c.source_path or "")),
                          "clause_ref": c.clause_ref, "quote": c.quote,
                          "spans": [[s.start, s.end] for s in c.spans]})
        findings.append({"statement": f.statement, "support": f.support, "support_note": f.support_note,
                         "grounded": f.grounded, "cited_fact": f.cited_fact, "citations": cites})
    return {"id": q["id"], "type": q["type"], "question": q["question"], "resolution": resolution["status"],
            "resolved_files": [paths.get(d, d) for d in resolution["chosen"]],
            "answer": r.answer, "conclusion": r.conclusion, "documents_silent": r.documents_silent,
            "verification": r.verification, "findings": findings,
            "dropped_quotes": [d.reason for d in r.dropped_quotes],
            "wall_seconds": round(wall, 1), "llm_calls": res.transcript["token_usage"]["llm_calls"],
            "turns": r.turns, "commit": commit}


def _overlaps(cite: dict, gold: list[dict]) -> bool:
    return any(cite["file_path"] == g["file_path"] and s < g["span"][1] and g["span"][0] < e
               for g in gold for s, e in cite["spans"])


def score(rows: list[dict], by_id: dict[str, dict], labels: dict[str, bool]) -> dict:
    """The module docstring's rules over ``rows``; per-question verdicts under ``"questions"``."""
    per_q = []
    for r in rows:
        q = by_id[r["id"]]
        facts = [f for f in r["findings"] if f["cited_fact"]]
        before = [f for f in r["findings"] if f["grounded"] and f["citations"]]
        abstained = r["documents_silent"] or not facts
        said = " ".join([r["answer"], r["conclusion"], *(f["statement"] for f in facts)])
        kf = key_facts(q["reference_answer"]) if q["type"] in ANSWERABLE else []
        grounded = any(_overlaps(c, q["gold"]) for f in facts for c in f["citations"])
        stated = [k for k in kf if states(k, said)]
        lab = [labels.get(f"{r['id']}#{i}") for i, f in enumerate(r["findings"])]
        per_q.append({
            "id": r["id"], "type": r["type"], "abstained": abstained, "grounded_on_gold": grounded,
            "key_facts": kf, "key_facts_stated": stated,
            "correct": (grounded and len(stated) == len(kf)) if q["type"] in ANSWERABLE else abstained,
            "findings": len(r["findings"]), "shown_as_fact": len(facts), "before_shown_as_fact": len(before),
            "unsupported_shown_as_fact": sum(1 for i, f in enumerate(r["findings"]) if f["cited_fact"] and lab[i] is False),
            "before_unsupported_shown_as_fact": sum(1 for i, f in enumerate(r["findings"])
                                                    if f["grounded"] and f["citations"] and lab[i] is False),
            "unlabelled_facts": sum(1 for i, f in enumerate(r["findings"]) if f["cited_fact"] and lab[i] is None),
            "wall_seconds": r["wall_seconds"], "llm_calls": r["llm_calls"]})
    out: dict[str, Any] = {}
    for kind in (*ANSWERABLE, "unanswerable"):
        qs = [p for p in per_q if p["type"] == kind]
        if qs:
            out[kind] = {"correct": rate(sum(p["correct"] for p in qs), len(qs)),
                         "grounded_on_gold": rate(sum(p["grounded_on_gold"] for p in qs), len(qs)),
                         "abstained": rate(sum(p["abstained"] for p in qs), len(qs))}
    ans = [p for p in per_q if p["type"] in ANSWERABLE]
    if ans:
        out["answerable"] = {"correct": rate(sum(p["correct"] for p in ans), len(ans)),
                             "grounded_on_gold": rate(sum(p["grounded_on_gold"] for p in ans), len(ans)),
                             "abstained": rate(sum(p["abstained"] for p in ans), len(ans))}
    n_find = sum(p["findings"] for p in per_q)
    shown = sum(p["shown_as_fact"] for p in per_q)
    labelled = shown - sum(p["unlabelled_facts"] for p in per_q)
    unsup = sum(p["unsupported_shown_as_fact"] for p in per_q)
    all_lab = [(k, v) for k, v in labels.items() if k.split("#")[0] in by_id]
    out["findings"] = {
        "total": n_find, "shown_as_fact": shown, "before_rule_shown_as_fact": sum(p["before_shown_as_fact"] for p in per_q),
        "hand_labelled_facts": labelled, "unlabelled_facts": shown - labelled,
        "unsupported_shown_as_fact": unsup,
        "supporting_share_of_labelled_facts": rate(labelled - unsup, labelled) if labelled else None,
        "before_rule_unsupported_shown_as_fact": sum(p["before_unsupported_shown_as_fact"] for p in per_q),
        "hand_labels_total": len(all_lab)}
    walls = sorted(p["wall_seconds"] for p in per_q)
    out["wall_seconds"] = {"n": len(walls), "median": walls[len(walls) // 2] if walls else None,
                           "max": walls[-1] if walls else None, "total": round(sum(walls), 1)}
    out["questions"] = per_q
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-turns", type=int, default=1, help="research rounds per question (default 1: CPU time)")
    ap.add_argument("--limit", type=int, default=0, help="ask at most N missing questions this run")
    ap.add_argument("--only", nargs="*", default=[], help="question ids to ask (default: the whole sample)")
    ap.add_argument("--fresh", action="store_true", help="re-ask questions already cached")
    ap.add_argument("--score-only", action="store_true", help="no model: rescore the cached rows")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)

    from clauselens.config import Settings

    settings = Settings()
    model = settings.model_for("interrogator")
    config = f"{Path(str(model.model)).stem}-t{args.max_turns}"
    cache = CACHE / config
    cache.mkdir(parents=True, exist_ok=True)
    questions = load_questions()
    chosen = sample(questions)
    by_id = {q["id"]: q for q in questions}
    if not args.score_only:
        from benchmarks.clause_qa import library_for

        started = run_provenance([])  # the code this process runs: HEAD when it started
        commit = (started.get("clauselens_commit") or "?") + ("+dirty" if started.get("dirty") else "")
        lib = library_for("cuad462", "minilm", questions)
        todo = [q for q in chosen if (args.fresh or not (cache / f"{q['id']}.json").exists())
                and (not args.only or q["id"] in args.only)]
        if args.limit:
            todo = todo[:args.limit]
        for i, q in enumerate(todo, 1):
            print(f"[answers_e2e] {i}/{len(todo)} {q['id']}: {q['question'][:70]}", file=sys.stderr, flush=True)
            row = ask_one(q, lib, settings, args.max_turns, commit)
            (cache / f"{q['id']}.json").write_text(json.dumps(row, indent=1))
            print(f"[answers_e2e]   {row['wall_seconds']} s, {row['llm_calls']} calls, "
                  f"{sum(f['cited_fact'] for f in row['findings'])}/{len(row['findings'])} facts", file=sys.stderr, flush=True)
    rows = [json.loads((cache / f"{q['id']}.json").read_text()) for q in chosen if (cache / f"{q['id']}.json").exists()]
    labels = json.loads(LABELS.read_text()) if LABELS.exists() else {}
    result = {
        "benchmark": "answers_e2e", "issue": 19,
        "command": "python -m benchmarks.answers_e2e " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "versions": run_provenance(["llama-cpp-python", "langgraph"]),
        "data": str(DEV / "questions.jsonl"), "corpus": str(CORPUS / "cuad"), "library": "cuad462-minilm (file names not read)",
        "model": config, "max_turns": args.max_turns,
        "sample": {"seed": SEED, "ids": [q["id"] for q in chosen]}, "asked": len(rows),
        "rules": "see benchmarks/answers_e2e.py's docstring",
        "summary": score(rows, by_id, labels), "rows": rows}
    args.out.write_text(json.dumps(result, indent=1))
    s = result["summary"]
    print(json.dumps({k: v for k, v in s.items() if k != "questions"}, indent=1))


if __name__ == "__main__":
    main()
