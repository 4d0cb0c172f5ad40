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
* **the answer is a claim too**: it is shown as fact when the report is not silent, has a cited
  fact and its answer is not marked unverified. Before issue #19 every answer with a verified
  quote read as settled.
* **hand check**: ``benchmarks/data/answers_e2e_labels.json`` holds a person's label for each
  finding ("qid#i": ``true`` when its quoted text supports its statement) and each answer
  ("qid#answer": ``true`` when the quotes of the cited findings support it), written after
  reading claim and quote; ``unsupported_shown_as_fact`` counts the ``false`` ones among claims
  shown as fact (issue target 0) and ``unlabelled_facts`` those not checked.
* **three rules on the same reports**: ``before_19`` (a verified quote made a finding a fact;
  every answer with one read as settled), ``run`` (the code that ran: the commit in each row) and
  ``replayed`` (the run's reports under the checks added after it, applied by the committed
  code: no finding of a question the library resolved as "uncertain" over several candidates is
  a fact (``reports.build.UNCONFIRMED_RESOLUTIONS``) unless its quotes all come from the one candidate
  whose party the question names (``reports.candidates.named_candidates``, from the row's parties; such an
  ``unconfirmed`` finding of the run counts then); a finding that restates the question is no fact;
  the deterministic checks of ``reports.support.check_statement`` -- restated question, negation,
  party role, notice period, numbers (counts in words too), absence -- on each finding's statement
  and quotes, and on the answer against the quotes of the findings that pass and against their
  statements (an answer contradicting them is not shown); an answer beside a
  finding that is no fact is not shown (``reports.build.PARTLY_UNVERIFIED_PREFIX``); the
  clause-heading and document checks need data the rows do not keep (they ran in the run);
  ``agents.interrogator.check_answer`` on the answer -- one model call per report,
  ``--replay-answer-check``, stored in the row as ``answer_check``). The replay judges the same
  answer text; it does not re-run the question. On a run at code that has these checks, the
  replay repeats them (idempotent).
* **quotes** (``Settings.facts = "quotes"``, the default since it was added): the same reports
  shown with their quotes as their only facts (``reports.build.quoted_facts``): the quotes of the
  findings the run showed as cited facts are the facts -- each checked against the corpus file's
  text at its character spans and against the clause number it prints (:func:`quote_issue`;
  ``quote_issues`` lists every failure) -- and each such finding's statement and the answer are
  the model's *reading* (``readings_shown``, hand-labelled like the claims: ``readings_unsupported``).
  A key fact counts as stated when a quote shown as a fact states it. It is a replay of the
  presentation only: the draft, the checks and the verdicts are those of the run (``quoted_facts``
  runs after them). A run made with ``facts = "quotes"`` keeps ``"facts": "quotes"`` in its rows and
  is scored so under ``run`` too.
* **runs**: ``--tag`` names a run (its own cache folder, result file
  ``benchmarks/results/answers_e2e_<tag>.json`` and hand-label file
  ``benchmarks/data/answers_e2e_labels_<tag>.json``); the untagged run is the first (89adcf9). A
  label may be ``true``/``false`` or ``{"supports": bool, "claim": text}``; with ``claim`` it counts
  only while the row's statement (or answer) is that text, so a re-asked question is never scored
  with an old label. ``--restore`` writes a committed result file's rows back into an empty cache
  (a fresh machine can rescore without re-asking). ``--holdout`` asks a second sample of the same
  shape drawn from the 60 questions the fixed sample leaves out (:func:`sample`): the support checks
  were written from the fixed sample's runs, so a held-out run tests them on questions none of them
  was read from (use it with its own ``--tag``). ``--rest`` asks the questions in neither sample
  (:func:`sample`). ``--questions FILE`` asks every question of a JSONL in the dev set's format
  instead: ``benchmarks/data/answers_e2e_questions_new1.jsonl`` holds 20 questions (10 clause-number,
  10 paraphrase) over 10 CUAD agreements of the library that no dev question is about, written by a
  session that saw neither the code nor any run, after every support check was written -- out of
  sample for all of them.

Asked kinds in turn (:func:`interleaved`), so a part-run is stratified. Resumable: one JSON per
question under ``~/.cache/clauselens/bench/answers_e2e/<config>/``;
a rerun asks only the missing questions (``--fresh`` re-asks). Heavy: ~2–6 min per question on
2 shared cores; run at low priority::

    nice -n 10 .venv/bin/python -m benchmarks.answers_e2e [--max-turns 1] [--limit N]
    nice -n 10 .venv/bin/python -m benchmarks.answers_e2e --replay-answer-check   # + the answer check
    .venv/bin/python -m benchmarks.answers_e2e --score-only      # rescore the cached rows
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from benchmarks.clause_qa import CORPUS, DEV, load_questions, rate, rel
from clauselens import events as ET
from clauselens.agents.delivery import bare_reading
from clauselens.provenance import run_provenance
from clauselens.reports.build import UNCONFIRMED_RESOLUTIONS, is_marked, strip_mark
from clauselens.reports.candidates import named_candidates

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


def _draw(questions: list[dict], seed: int) -> list[dict]:
    """10 per answerable kind, 5 absent-topic + 5 missing-clause unanswerable (fewer if ``questions`` lack them)."""
    rng = random.Random(seed)
    out: list[dict] = []
    for kind in ANSWERABLE:
        pool = sorted((q for q in questions if q["type"] == kind), key=lambda q: q["id"])
        out += rng.sample(pool, min(PER_KIND, len(pool)))
    for suffix in ("-un-1", "-un-2"):
        pool = sorted((q for q in questions if q["id"].endswith(suffix)), key=lambda q: q["id"])
        out += rng.sample(pool, min(PER_KIND // 2, len(pool)))
    return out


def sample(questions: list[dict], *, holdout: bool = False, rest: bool = False) -> list[dict]:
    """The fixed sample: 10 per answerable kind, 5 absent-topic + 5 missing-clause unanswerable.
    ``holdout``: the same shape drawn (seed ``SEED + 1``) from the questions the fixed sample leaves
    out -- questions no support check was written from (runs 1-3 asked only the fixed sample).
    ``rest``: every question in neither sample (on the 100 dev questions: 10 clause-number and 10
    paraphrase ones), in id order -- the questions no run had asked when the checks of the
    held-out run's follow-up were written."""
    fixed = _draw(questions, SEED)
    if not holdout and not rest:
        return fixed
    taken = {q["id"] for q in fixed}
    held = _draw([q for q in questions if q["id"] not in taken], SEED + 1)
    if holdout:
        return held
    taken |= {q["id"] for q in held}
    return sorted((q for q in questions if q["id"] not in taken), key=lambda q: q["id"])


def interleaved(chosen: list[dict]) -> list[dict]:
    """The sample in the order it is asked: one question of each kind in turn (clause number,
    defined term, paraphrase, unanswerable), so a run stopped early (``--limit``, a shared
    machine's time) has asked a stratified part of it."""
    kinds = [[q for q in chosen if q["type"] == k] for k in (*ANSWERABLE, "unanswerable")]
    return [q for row in zip(*kinds) for q in row] + [q for k in kinds for q in k[len(min(kinds, key=len)):]]


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
    """``fact`` (digits) appears in ``text`` as a whole number after normalisation (not as a part
    of a dotted number: "Section 3.3" does not state 3)."""
    return re.search(rf"(?<![\d.]){re.escape(fact)}(?:\.0+)?(?!\d|\.\d)", normalise_numbers(text)) is not None


def commit_now() -> str:
    """The commit of the code this process runs (``+dirty`` with uncommitted changes)."""
    v = run_provenance([])
    return (v.get("clauselens_commit") or "?") + ("+dirty" if v.get("dirty") else "")


def ask_one(q: dict, lib: Any, settings: Any, max_turns: int, commit: str | None) -> dict:
    """Ask ``q`` of the library through the same calls ``clauselens ask --library`` makes."""
    from clauselens.library.opening import for_question
    from clauselens.pipeline import ask

    t0 = time.perf_counter()
    asked = for_question(lib, q["question"])
    tools, docs = asked.tools(), [dict(d) for d in asked.documents()]
    t1 = time.perf_counter()
    res = ask([], q["question"], settings, tools=tools, documents=docs, max_turns=max_turns)
    wall = time.perf_counter() - t0
    calls = [e for e in res.transcript["events"] if e.get("type") == ET.LLM_CALL]
    # issue #38: where a question's wall time goes -- resolving the agreement, the model's calls (prompt reading and
    # decoding, with their tokens), and the rest of the run (retrieval, the rules, the checks, the report)
    split = {"resolve": round(t1 - t0, 2), "model": round(sum(float(e.get("seconds") or 0) for e in calls), 2),
             "input_tokens": sum(int((e.get("usage") or {}).get("input_tokens") or 0) for e in calls),
             "output_tokens": sum(int((e.get("usage") or {}).get("output_tokens") or 0) for e in calls)}
    split["rest"] = round(wall - split["resolve"] - split["model"], 2)
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
                         "grounded": f.grounded, "cited_fact": f.cited_fact, "citations": cites, "rule": f.rule})
    parties = {paths.get(d["doc_id"], rel(d["source_path"] or "")): list(d.get("parties") or []) for d in docs}
    aliases = {paths.get(d["doc_id"], rel(d["source_path"] or "")): dict(d.get("party_aliases") or {}) for d in docs}
    return {"id": q["id"], "type": q["type"], "question": q["question"], "resolution": asked.status,
            "parties": parties, "party_aliases": aliases,
            "resolved_files": [paths.get(d, d) for d in asked.doc_ids],
            "answer": r.answer, "conclusion": r.conclusion, "documents_silent": r.documents_silent,
            "verification": r.verification, "facts": r.facts, "readings": r.readings, "findings": findings,
            "dropped_quotes": [d.reason for d in r.dropped_quotes],
            "wall_seconds": round(wall, 1), "llm_calls": res.transcript["token_usage"]["llm_calls"], "wall_split": split,
            # the machine's 1-minute load average when the question finished (2 shared cores: wall time depends on it)
            "load_1min": round(os.getloadavg()[0], 2),
            "turns": r.turns, "commit": commit, "depth": settings.depth,
            "draft_notes": [e.get("note") for e in res.transcript["events"] if e.get("type") == ET.DRAFT],
            "nearest": [{"file_path": paths.get(n["doc_id"], n["doc_id"]), "spans": n["spans"]}
                        for e in res.transcript["events"] if e.get("type") == ET.DRAFT for n in e.get("nearest") or []]}


def _overlaps(cite: dict, gold: list[dict]) -> bool:
    return any(cite["file_path"] == g["file_path"] and s < g["span"][1] and g["span"][0] < e
               for g in gold for s, e in cite["spans"])




@lru_cache(maxsize=None)
def _file_parties(fp: str) -> dict[str, list[str]]:
    """The Archivist's parties and aliases of corpus file ``fp`` (read once per scoring run)."""
    from clauselens.parsing.parties import guess_parties, guess_party_aliases

    path = CORPUS / fp
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8", errors="replace")
    return guess_party_aliases(text, guess_parties(text[:5000]))


def _parties(r: dict, findings: list[dict]) -> dict[str, list[str]]:
    """The parties of the files ``findings`` cite, each with its defined aliases: the row's own
    (``parties`` / ``party_aliases``, kept since the second run) where it has aliases, else the
    Archivist's functions on each file (``parsing.parties.guess_parties`` on its first 5,000
    characters and ``guess_party_aliases`` on its text, as ``parsing.loader`` does) -- a library
    built before aliases were read has none."""
    out: dict[str, list[str]] = {}
    for fp in sorted({c["file_path"] for f in findings for c in f["citations"]}):
        kept = (r.get("party_aliases") or {}).get(fp) or {}
        if any(kept.values()):
            names: dict[str, list[str]] = {n: list(kept.get(n) or []) for n in (r.get("parties") or {}).get(fp, [])}
        else:
            names = _file_parties(fp)
        for n, aliases in names.items():
            out.setdefault(n, [])
            out[n] += [a for a in aliases if a not in out[n]]
    return out


def _rule_issue(claim: str, findings: list[dict], r: dict) -> Any:
    """``reports.support.check_statement`` on a stored claim and the quotes of ``findings`` (no
    clause headings or titles kept; the cited files' parties from :func:`_parties`, the citations'
    clause numbers)."""
    from clauselens.reports.support import check_statement

    quotes = " ".join(c["quote"] for f in findings for c in f["citations"])
    return check_statement(claim, quotes, question=r["question"], parties=_parties(r, findings),
                           cited_refs=[c.get("clause_ref") for f in findings for c in f["citations"]])


def _finding_issue(f: dict, r: dict) -> Any:
    """What ``reports.build.build_report`` checks of a key finding before the model's verdict: a
    heading or label (``check_heading``), then :func:`_rule_issue` on its own quotes."""
    from clauselens.reports.support import check_heading

    return check_heading(f["statement"]) or _rule_issue(f["statement"], [f], r)


@lru_cache(maxsize=None)
def _corpus_text(fp: str) -> str | None:
    path = CORPUS / fp
    return path.read_text(encoding="utf-8") if path.is_file() else None


def quote_issue(cite: dict) -> str | None:
    """Why a quote shown as a fact (the ``quotes`` rule) would not hold, or ``None``: its text is not
    the corpus file's text at its character spans (white space compared as one space), or its
    clause number contradicts the number the quote prints (``reports.support.quote_clause_ref``)."""
    from clauselens.reports.support import quote_clause_ref

    text = _corpus_text(cite["file_path"])
    if text is None:
        return "source file not found"
    source = "".join(text[a:b] for a, b in cite["spans"])
    if not cite["spans"] or " ".join(source.split()) != " ".join(cite["quote"].split()):
        return "not the source text at its spans"
    printed = quote_clause_ref(cite["quote"], cite.get("clause_ref"))
    if cite.get("clause_ref") and printed != cite["clause_ref"]:
        return f"cited as clause {cite['clause_ref']}, prints {printed}"
    return None


def _quotes_rule(r: dict, rule: str) -> bool:
    """Whether row ``r`` is scored with its quotes as its facts: the ``quotes`` rule, or the ``run``
    rule of a run whose reports showed them so (``Settings.facts = "quotes"``, kept in the row)."""
    return rule == "quotes" or (rule == "run" and r.get("facts") == "quotes")


def _facts(r: dict, rule: str) -> list[bool]:
    """Per finding of row ``r``: shown as a cited fact under ``rule`` (module docstring)."""
    if rule == "quotes":
        rule = "run"  # the same findings; what is shown of them differs (score)
    if rule == "before_19":
        return [bool(f["grounded"] and f["citations"]) for f in r["findings"]]
    run = [bool(f["cited_fact"]) for f in r["findings"]]
    if rule == "run":
        return run
    run = candidate_facts(r)
    return [ok and not f["statement"].rstrip().endswith("?") and _finding_issue(f, r) is None
            for ok, f in zip(run, r["findings"])]


def candidate_facts(r: dict) -> list[bool]:
    """Per finding of row ``r``: a cited fact of the run, and under an "uncertain" resolution over several
    candidates only when all its quotes come from the one candidate whose party the question names -- an
    ``unconfirmed`` finding of such a run counts then (``reports.build.finalize_support``, ``named_candidates``)."""
    run = [bool(f["cited_fact"]) for f in r["findings"]]
    if r["resolution"] not in UNCONFIRMED_RESOLUTIONS or len(r["resolved_files"]) < 2:
        return run
    docs = [{"doc_id": fp, "parties": (r.get("parties") or {}).get(fp, []),
             "party_aliases": (r.get("party_aliases") or {}).get(fp, {})} for fp in r["resolved_files"]]
    named = named_candidates(r["question"], docs)
    return [(ok or f["support"] == "unconfirmed") and bool(named) and bool(f["citations"])
            and all(c["file_path"] in named for c in f["citations"]) for ok, f in zip(run, r["findings"])]


def _answer_shown(r: dict, facts: list[bool], rule: str) -> bool:
    """Whether row ``r``'s answer reads as a settled fact under ``rule``."""
    if r["documents_silent"] or not any(facts) or _quotes_rule(r, rule):
        return False  # with quotes as the facts, the answer is the model's reading (reports.build.READING_PREFIX)
    if rule == "before_19":
        return True
    if is_marked(r["answer"]):
        return False
    if rule == "replayed":
        if not all(facts):
            return False  # some finding is no cited fact: the answer is marked (reports.build.PARTLY_UNVERIFIED_PREFIX)
        passing = [f for f, ok in zip(r["findings"], facts) if ok]
        if _rule_issue(r["answer"], passing, r) is not None:
            return False
        from clauselens.reports.support import check_claim

        if check_claim(r["answer"], " ".join(f["statement"] for f in passing), _parties(r, passing)) is not None:
            return False  # the answer contradicts the report's own cited facts (reports.build)
        return (r.get("answer_check") or {}).get("support") not in ("contradicted", "unrelated")
    return True


def _label(labels: dict, key: str, claim: str) -> bool | None:
    """The hand label of ``key`` (module docstring: a label with ``claim`` counts only for that text)."""
    v = labels.get(key)
    if isinstance(v, dict):
        return bool(v["supports"]) if v.get("claim", claim).strip() == claim.strip() else None
    return v


def score(rows: list[dict], by_id: dict[str, dict], labels: dict[str, bool]) -> dict:
    """The module docstring's rules over ``rows``; per-question verdicts under ``"questions"``."""
    rules = ("before_19", "run", "replayed", "quotes")
    per_q = []
    for r in rows:
        q = by_id[r["id"]]
        p: dict[str, Any] = {"id": r["id"], "type": r["type"], "findings": len(r["findings"]),
                             "wall_seconds": r["wall_seconds"], "llm_calls": r["llm_calls"],
                             # issue #38: the gold clause quoted at all (a fact, or "unconfirmed" under an uncertain
                             # resolution), and a declined report (the documents said silent)
                             "gold_quoted": any(_overlaps(c, q.get("gold") or []) for f in r["findings"]
                                                for c in f["citations"]),
                             "declined": bool(r["documents_silent"])}
        for rule in rules:
            facts = _facts(r, rule)
            shown_answer = _answer_shown(r, facts, rule)
            claims = [(f"{r['id']}#{i}", ok, f["statement"]) for i, (ok, f) in enumerate(zip(facts, r["findings"]))]
            claims.append((f"{r['id']}#answer", shown_answer, strip_mark(r["answer"])))
            quoted = _quotes_rule(r, rule)
            if quoted:  # the facts are the quotes; the statements and the answer are the model's reading
                by_rule = {f"{r['id']}#{i}" for i, f in enumerate(r["findings"]) if f.get("rule")}  # issue #38: not the model's
                readings = [(k, c) for k, ok, c in claims if ok and k not in by_rule] + \
                    ([(f"{r['id']}#answer", strip_mark(r["answer"]))] if any(facts) and not r["documents_silent"] else [])
                cites = [c for f, ok in zip(r["findings"], facts) if ok for c in f["citations"]]
                quote_issues = [f"{r['id']}: {why}" for c in cites if (why := quote_issue(c))]
                shown = []
                said = " ".join(c["quote"] for c in cites)
            else:
                shown = [(k, c) for k, ok, c in claims if ok]
                said = " ".join([r["answer"] if shown_answer else "", r["conclusion"] if shown_answer else "",
                                 *(f["statement"] for f, ok in zip(r["findings"], facts) if ok)])
            kf = key_facts(q["reference_answer"]) if q["type"] in ANSWERABLE else []
            grounded = any(_overlaps(c, q["gold"]) for f, ok in zip(r["findings"], facts) if ok for c in f["citations"])
            stated = [k for k in kf if states(k, said)]
            abstained = r["documents_silent"] or not any(facts)
            p[rule] = {
                "abstained": abstained, "grounded_on_gold": grounded, "key_facts": kf, "key_facts_stated": stated,
                "correct": (grounded and len(stated) == len(kf)) if q["type"] in ANSWERABLE else abstained,
                "claims_shown_as_fact": len(shown),
                "unsupported_shown_as_fact": [k for k, c in shown if _label(labels, k, c) is False],
                "unlabelled": [k for k, c in shown if _label(labels, k, c) is None]}
            if quoted:
                p[rule].update({
                    "quotes_shown_as_fact": len(cites), "quote_issues": quote_issues,
                    "readings_shown": len(readings),
                    "readings_unsupported": [k for k, c in readings if _label(labels, k, c) is False],
                    "readings_unlabelled": [k for k, c in readings if _label(labels, k, c) is None],
                    # issue #38: the readings a bare-reading rule (agents.delivery.bare_reading) sets aside
                    "readings_bare": [k for k, c in readings if bare_reading(c)]})
        per_q.append(p)
    out: dict[str, Any] = {}
    for rule in rules:
        o: dict[str, Any] = {}
        for kind in (*ANSWERABLE, "unanswerable", "answerable"):
            qs = [p[rule] for p in per_q if p["type"] == kind or (kind == "answerable" and p["type"] in ANSWERABLE)]
            if qs:
                o[kind] = {"correct": rate(sum(x["correct"] for x in qs), len(qs)),
                           "grounded_on_gold": rate(sum(x["grounded_on_gold"] for x in qs), len(qs)),
                           "abstained": rate(sum(x["abstained"] for x in qs), len(qs))}
        shown = sum(p[rule]["claims_shown_as_fact"] for p in per_q)
        unlab = sum(len(p[rule]["unlabelled"]) for p in per_q)
        unsup = sum(len(p[rule]["unsupported_shown_as_fact"]) for p in per_q)
        o["claims"] = {"shown_as_fact": shown, "hand_labelled": shown - unlab, "unlabelled": unlab,
                       "unsupported_shown_as_fact": unsup,
                       "supporting_share_of_labelled": rate(shown - unlab - unsup, shown - unlab) if shown > unlab else None}
        qs = [p[rule] for p in per_q if "quotes_shown_as_fact" in p[rule]]
        if qs:  # the questions scored with their quotes as their facts (_quotes_rule)
            n_read = sum(x["readings_shown"] for x in qs)
            read_unlab = sum(len(x["readings_unlabelled"]) for x in qs)
            read_unsup = sum(len(x["readings_unsupported"]) for x in qs)
            o["quoted_facts"] = {
                "questions": len(qs), "quotes_shown_as_fact": sum(x["quotes_shown_as_fact"] for x in qs),
                "quote_issues": [i for x in qs for i in x["quote_issues"]],
                "readings_shown": n_read, "readings_hand_labelled": n_read - read_unlab,
                "readings_unsupported": read_unsup,
                "readings_supporting_share_of_labelled":
                    rate(n_read - read_unlab - read_unsup, n_read - read_unlab) if n_read > read_unlab else None}
            bare = {k for x in qs for k in x.get("readings_bare", [])}
            kept_lab = n_read - read_unlab - len(bare - {k for x in qs for k in x["readings_unlabelled"]})
            kept_unsup = len({k for x in qs for k in x["readings_unsupported"]} - bare)
            o["quoted_facts"]["after_bare_reading_rule"] = {
                "readings_set_aside": len(bare), "readings_labelled_kept": kept_lab,
                "readings_unsupported_kept": kept_unsup,
                "supporting_share": rate(kept_lab - kept_unsup, kept_lab) if kept_lab else None}
        out[rule] = o
    n_claims = sum(p["findings"] + 1 for p in per_q)
    lab = [_label(labels, f"{r['id']}#{i}", c) for r in rows
           for i, c in [*enumerate(f["statement"] for f in r["findings"]),
                        ("answer", strip_mark(r["answer"]))]]
    out["hand_labels"] = {"claims": n_claims, "labelled": sum(v is not None for v in lab),
                          "supported": sum(v is True for v in lab), "not_supported": sum(v is False for v in lab)}
    walls = sorted(p["wall_seconds"] for p in per_q)
    out["wall_seconds"] = {"n": len(walls), "median": walls[len(walls) // 2] if walls else None,
                           "max": walls[-1] if walls else None, "total": round(sum(walls), 1)}
    by_kind = {}  # issue #38: wall time per kind (median, p95 by nearest rank) and model calls
    for kind in sorted({p["type"] for p in per_q}):
        ws = sorted(p["wall_seconds"] for p in per_q if p["type"] == kind)
        calls = sorted(p["llm_calls"] for p in per_q if p["type"] == kind)
        loads = sorted(r["load_1min"] for r in rows if r["type"] == kind and "load_1min" in r)
        by_kind[kind] = {"n": len(ws), "median": ws[len(ws) // 2], "p95": ws[min(len(ws) - 1, int(0.95 * len(ws)))],
                         "median_llm_calls": calls[len(calls) // 2],
                         "median_load_1min": loads[len(loads) // 2] if loads else None}
        splits = [r["wall_split"] for r in rows if r["type"] == kind and "wall_split" in r]
        if splits:  # where the wall time goes (ask_one's wall_split), each part's median over the kind's questions
            by_kind[kind]["median_split"] = {k: sorted(x[k] for x in splits)[len(splits) // 2]
                                             for k in ("resolve", "model", "rest", "input_tokens", "output_tokens")}
    out["wall_seconds"]["by_kind"] = by_kind
    out["delivery"] = {kind: {"gold_quoted": rate(sum(p["gold_quoted"] for p in per_q if p["type"] == kind),
                                                  sum(p["type"] == kind for p in per_q)),
                              "declined": rate(sum(p["declined"] for p in per_q if p["type"] == kind),
                                               sum(p["type"] == kind for p in per_q))}
                       for kind in sorted({p["type"] for p in per_q})}
    out["questions"] = per_q
    return out


def label_sheet(rows: list[dict], labels: dict) -> list[dict]:
    """The claims of ``rows`` a hand label is missing for -- every finding with a verified quote and
    every answer of a report with one -- as ``{"key", "question", "claim", "quotes", "sources"}``
    (``sources``: the corpus file of each quote, so a quote of another agreement than the one asked
    about can be seen); no support verdict or check note, so the labeller reads only claim and source text."""
    out = []
    for r in rows:
        grounded = [f for f in r["findings"] if f["grounded"] and f["citations"]]
        items = [(f"{r['id']}#{i}", f["statement"], f["citations"])
                 for i, f in enumerate(r["findings"]) if f["grounded"] and f["citations"]]
        if grounded and not r["documents_silent"]:
            items.append((f"{r['id']}#answer", strip_mark(r["answer"]), [c for f in grounded for c in f["citations"]]))
        out += [{"key": k, "question": r["question"], "claim": c, "quotes": [x["quote"] for x in cs],
                 "sources": [x["file_path"] for x in cs]} for k, c, cs in items if _label(labels, k, c) is None]
    return out


def replay_answer_check(row: dict, settings: Any, model: Any) -> dict:
    """``agents.interrogator.check_answer`` on a stored report (its answer, cited findings and
    their quotes rebuilt as a :class:`~clauselens.reports.model.Report`; the run's "Unverified"
    mark taken off the answer first). Returns ``{"support", "note", "calls"}``."""
    from clauselens.agents.interrogator import check_answer
    from clauselens.reports.model import Citation, Finding, Report

    cites, findings = [], []
    for f in row["findings"]:
        ids = []
        for c in f["citations"]:
            cid = f"C{len(cites) + 1}"
            cites.append(Citation(id=cid, passage_id=c["id"], chunk_id=c["id"], doc_id=c["file_path"],
                                  source_path=c["file_path"], clause_ref=c["clause_ref"], quote=c["quote"]))
            ids.append(cid)
        findings.append(Finding(statement=f["statement"], citation_ids=ids, grounded=f["grounded"],
                                support="unrelated" if f["statement"].rstrip().endswith("?") else f["support"]))
    answer = strip_mark(row["answer"])
    rep = Report(title="", question=row["question"], key_findings=findings, citations=cites, answer=answer,
                 documents_silent=row["documents_silent"])
    out, calls, rec = check_answer(rep, {}, model=model, model_settings=settings.model_for("interrogator"))
    return {"support": out.answer_support, "note": out.answer_support_note, "calls": len(calls),
            "asked": rec is not None}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-turns", type=int, default=1, help="research rounds per question (default 1: CPU time)")
    ap.add_argument("--limit", type=int, default=0, help="ask at most N missing questions this run")
    ap.add_argument("--only", nargs="*", default=[], help="question ids to ask (default: the whole sample)")
    ap.add_argument("--fresh", action="store_true", help="re-ask questions already cached")
    ap.add_argument("--score-only", action="store_true", help="no model: rescore the cached rows")
    ap.add_argument("--replay-answer-check", action="store_true",
                    help="run check_answer on cached rows that lack it (one model call each; see the docstring)")
    ap.add_argument("--tag", default="", help="name of this run: own cache folder, result and label files")
    ap.add_argument("--holdout", action="store_true",
                    help="ask the held-out sample (same shape, questions the fixed sample leaves out) instead")
    ap.add_argument("--rest", action="store_true",
                    help="ask the questions in neither sample instead (use it with its own --tag)")
    ap.add_argument("--questions", type=Path, default=None,
                    help="ask every question of this JSONL (the dev set's fields) instead of a dev sample "
                         "(questions over other agreements; use it with its own --tag)")
    ap.add_argument("--restore", action="store_true",
                    help="write the result file's rows into an empty cache first (rescore on a fresh machine)")
    ap.add_argument("--label-sheet", type=Path, default=None,
                    help="write the claims that lack a hand label (question, claim, quotes; no verdicts) to this JSON")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--no-reading", action="store_true",
                    help="no model reading under a named clause (Settings.reading off; issue #38: no model call where "
                         "rules decide); use it with its own --tag")
    ap.add_argument("--depth", choices=("quick", "full"), default=None,
                    help="Settings.depth (default: the product's, quick): quick quotes retrieval's best clauses and "
                         "writes one reading; full runs the agent loop (issue #38)")
    ap.add_argument("--kinds", nargs="*", default=[], help="ask only these question kinds (e.g. exact defined_term)")
    ap.add_argument("--setting", choices=("cuad462", "agreements10"), default="cuad462",
                    help="the library asked: all 462 CUAD contracts (default), or only the question file's own "
                         "agreements (benchmarks/clause_qa.py's settings; the row says which)")
    args = ap.parse_args(argv)
    out_path = args.out or (OUT.with_name(f"answers_e2e_{args.tag}.json") if args.tag else OUT)
    labels_path = LABELS.with_name(f"answers_e2e_labels_{args.tag}.json") if args.tag else LABELS

    from clauselens.config import Settings

    settings = Settings()
    if args.no_reading:
        settings = settings.model_copy(update={"reading": False})
    if args.depth:
        settings = settings.model_copy(update={"depth": args.depth})
    model = settings.model_for("interrogator")
    name = str(model.model)
    config = f"{Path(name).stem if name.endswith('.gguf') else Path(name).name}-t{args.max_turns}" + \
        ("" if args.setting == "cuad462" else f"-{args.setting}")
    cache = CACHE / (f"{config}-{args.tag}" if args.tag else config)
    cache.mkdir(parents=True, exist_ok=True)
    if args.restore and not any(cache.glob("*.json")) and out_path.exists():
        for row in json.loads(out_path.read_text())["rows"]:
            (cache / f"{row['id']}.json").write_text(json.dumps(row, indent=1))
    if sum(map(bool, (args.holdout, args.rest, args.questions))) > 1:
        ap.error("--holdout, --rest and --questions name different samples; give one")
    questions = load_questions(args.questions) if args.questions else load_questions()
    chosen = questions if args.questions else sample(questions, holdout=args.holdout, rest=args.rest)
    if args.kinds:
        chosen = [q for q in chosen if q["type"] in args.kinds]
    by_id = {q["id"]: q for q in questions}
    if not args.score_only:
        from benchmarks.clause_qa import library_for

        commit = commit_now()  # the code this process runs: HEAD when it started
        lib = library_for(args.setting, "minilm", questions, tag=args.tag if args.questions else "")
        from clauselens.library.opening import configure_ranking

        configure_ranking(lib, settings)  # the product's ranking options (e.g. CLAUSELENS_RETRIEVAL__CATEGORY_ABSENCE)
        todo = [q for q in interleaved(chosen) if (args.fresh or not (cache / f"{q['id']}.json").exists())
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
    if args.replay_answer_check:
        from clauselens.agents.resources import ModelPool

        chat = ModelPool(settings).model("interrogator")
        for row in rows:
            if "answer_check" not in row:
                t0 = time.perf_counter()
                row["answer_check"] = {**replay_answer_check(row, settings, chat), "commit": commit_now(),
                                       "seconds": round(time.perf_counter() - t0, 1)}
                (cache / f"{row['id']}.json").write_text(json.dumps(row, indent=1))
                print(f"[answers_e2e] answer check {row['id']}: {row['answer_check']['support']}", file=sys.stderr, flush=True)
    labels = {k: v for k, v in (json.loads(labels_path.read_text()) if labels_path.exists() else {}).items()
              if not k.startswith("_")}
    if args.label_sheet:
        sheet = label_sheet(rows, labels)
        args.label_sheet.write_text(json.dumps(sheet, indent=1))
        print(f"[answers_e2e] {len(sheet)} claims to label -> {args.label_sheet}", file=sys.stderr)
    result = {
        "benchmark": "answers_e2e", "issue": 19,
        "command": "python -m benchmarks.answers_e2e " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "versions": run_provenance(["llama-cpp-python", "langgraph"]),
        "data": str(args.questions) if args.questions else str(DEV / "questions.jsonl"), "corpus": str(CORPUS / "cuad"),
        "library": f"{args.setting}-minilm (file names not read)",
        "model": config, "max_turns": args.max_turns, "tag": args.tag or None, "reading": settings.reading,
        "depth": settings.depth,
        "kinds": args.kinds or None,
        "labels": str(labels_path.relative_to(REPO)),
        "sample": {"seed": None if args.rest or args.questions else SEED + 1 if args.holdout else SEED,
                   "holdout": args.holdout, "rest": args.rest,
                   "ids": [q["id"] for q in chosen]}, "asked": len(rows),
        "rules": "see benchmarks/answers_e2e.py's docstring",
        "summary": score(rows, by_id, labels), "rows": rows}
    out_path.write_text(json.dumps(result, indent=1))
    s = result["summary"]
    print(json.dumps({k: v for k, v in s.items() if k != "questions"}, indent=1))


if __name__ == "__main__":
    main()
