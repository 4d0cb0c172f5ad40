"""Probe (issues #38, #39): can the bundled 1.5B name the contract wording of a question's subject, so that a rule
declines a question whose agreement uses none of it?

The library's absence checks know CUAD's 41 categories, 17 heading topics and the 90 concepts of the lay-term
thesaurus; a lay question about anything else ("who pays the demurrage if the tanker waits?") gets the nearest
clause. Here the model is asked only for vocabulary -- the 3-6 words or short terms a clause on the question's
subject would contain -- and the decision is lexical: the question counts as *absent* from an agreement whose text
holds none of them (content-word stems, :class:`clauselens.retrieval.lay_terms.PhraseMatcher`), the query-side
no-answer evidence of Cronen-Townsend et al. 2002 with the model's expansion in place of the query's own words.

For every paraphrase and unanswerable question of the four clause-QA **dev** sets (the agreement's naming words
removed, as the library does), against its gold agreement: how many unanswerable questions the stored run (``--base``
tag) answered would now be declined, and how many answerable ones would be. The model's replies are cached under
``~/.cache/clauselens/bench/absence_terms/`` (a rerun asks only what is missing). Refuses the held-out files.

    .venv/bin/python -m benchmarks.absence_terms_probe [--base s18q]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from benchmarks.clause_qa import CORPUS, DEV, REPO, library_for, load_questions
from clauselens.library.catalogue import naming_words, strip_naming_words
from clauselens.retrieval.lay_terms import content_stems, phrase_matcher

RESULTS = REPO / "benchmarks" / "results"
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "absence_terms"
SETS = {"dev": DEV / "questions.jsonl", "lay": REPO.parent / "shared" / "data" / "clause-qa-lay" / "questions.jsonl",
        "blind2": REPO / "benchmarks" / "data" / "clause_qa_lay_blind2" / "questions.jsonl",
        "blind3": REPO / "benchmarks" / "data" / "clause_qa_lay_blind3" / "questions.jsonl"}
SYSTEM = """You help a contract search engine. Someone asks a question about a contract in everyday words. List 3 to 6
words or short terms (one or two words each) that a contract clause dealing with the subject of the question would
almost certainly contain, in the usual legal wording of contracts. No company or person names. No words that every
contract uses, such as agreement, party, shall, term, section.
Example, for "Who pays if a shipment is damaged on the way?": ["risk of loss", "damage", "carrier", "insurance"]
Reply in JSON: {"terms": ["...", "..."]}"""
SCHEMA = {"type": "object", "properties": {"terms": {"type": "array", "items": {"type": "string", "maxLength": 40},
                                                     "minItems": 3, "maxItems": 6}}, "required": ["terms"]}


def cache_file() -> Path:
    return CACHE / f"terms-{hashlib.sha256(SYSTEM.encode()).hexdigest()[:12]}.jsonl"


def ask_terms(questions: list[tuple[str, str]], threads: int) -> dict[str, list[str]]:
    """``{question text: terms}`` for every ``(id, text)``, from the cache or the model."""
    path = cache_file()
    done: dict[str, list[str]] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            d = json.loads(line)
            done[d["question"]] = d["terms"]
    todo = [t for _, t in questions if t not in done]
    if todo:
        from clauselens.heads.synthetic import llama_complete

        complete = llama_complete(n_threads=threads, temperature=0.0, max_tokens=80, schema=SCHEMA)
        CACHE.mkdir(parents=True, exist_ok=True)
        with path.open("a") as f:
            for i, text in enumerate(todo):
                t0 = time.perf_counter()
                try:
                    terms = [str(x) for x in json.loads(complete([{"role": "system", "content": SYSTEM},
                                                                   {"role": "user", "content": text}], 0))["terms"]]
                except (json.JSONDecodeError, KeyError, TypeError):
                    terms = []
                done[text] = terms
                f.write(json.dumps({"question": text, "terms": terms, "seconds": round(time.perf_counter() - t0, 2)}) + "\n")
                f.flush()
                print(f"[absence_terms] {i + 1}/{len(todo)} {time.perf_counter() - t0:.1f}s {terms}", file=sys.stderr)
    return done


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="s18q", help="tag of the stored clause_qa runs the new declines are counted against")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    lib = library_for("cuad462", "minilm", [])
    by_path = {Path(r.path).resolve(): r for r in lib.agreements()}
    items = []
    for name, qfile in SETS.items():
        stored = {json.loads(s)["id"]: json.loads(s) for s in
                  (RESULTS / f"clause_qa_cuad462_minilm-{name}-{args.base}.results.jsonl").read_text().splitlines()}
        for q in load_questions(qfile):
            if q["type"] not in ("paraphrase", "unanswerable"):
                continue
            rec = by_path[(CORPUS / q["agreement_file"]).resolve()]
            items.append((name, q, rec, strip_naming_words(q["question"], naming_words(rec)), stored[q["id"]]["abstained"]))
    terms = ask_terms([(q["id"], text) for _, q, _, text, _ in items], args.threads)
    texts: dict[str, tuple[str, str]] = {}
    rows, sets = [], {}
    for name, q, rec, text, abstained in items:
        if rec.doc_id not in texts:
            body = Path(rec.path).read_text(errors="replace")
            texts[rec.doc_id] = (body, " ".join(content_stems(body)))
        ts = [t for t in terms.get(text, []) if content_stems(t)]
        absent = bool(ts) and not phrase_matcher(*ts).search(*texts[rec.doc_id])
        rows.append({"set": name, "id": q["id"], "type": q["type"], "abstained_before": abstained, "terms": ts, "absent": absent})
        s = sets.setdefault(name, {"unanswerable": 0, "unanswerable_answered_before": 0, "newly_declined": 0,
                                   "answerable": 0, "answerable_declined": 0, "answerable_newly_declined": 0})
        if q["type"] == "unanswerable":
            s["unanswerable"] += 1
            s["unanswerable_answered_before"] += not abstained
            s["newly_declined"] += absent and not abstained
        else:
            s["answerable"] += 1
            s["answerable_declined"] += absent
            s["answerable_newly_declined"] += absent and not abstained
    out = {"benchmark": "absence_terms_probe", "issues": [38, 39], "base": args.base, "prompt_sha": cache_file().stem,
           "data": "the four clause-QA dev sets (paraphrase and unanswerable questions) against their gold agreements",
           "sets": sets, "command": " ".join(["python -m benchmarks.absence_terms_probe", *(argv or sys.argv[1:])])}
    (RESULTS / "absence_terms_probe.json").write_text(json.dumps(out, indent=1) + "\n")
    (RESULTS / "absence_terms_probe.rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(json.dumps(sets, indent=1))


if __name__ == "__main__":
    main()
