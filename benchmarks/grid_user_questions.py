"""The grid on questions a user writes (issue #45): are the *answered* cells right?

Data: ``benchmarks/data/grid_user_questions/questions.yaml`` -- 20 ordinary questions in plain
words (no ``search``, no ``terms``), typed date / duration / amount / party / jurisdiction /
yes-no -- over CUAD agreements from ``../shared/data/cuad/full_contract_txt/`` or, for a set over other
agreements, ``../shared/data/legalbench-rag/corpus/cuad/`` (CUAD v1, CC BY 4.0; see their SOURCE.md), with the hand-written answer key
``benchmarks/data/grid_user_questions/answer_key.json`` (how it was made is in the file: written
from the contract texts before any cell was read). Nothing here is tuned on it.

Run (one heavy process: the in-process default model, ~7 s per cell alone on 2 cores, much slower
when the cores are shared):

    .venv/bin/python -m benchmarks.grid_user_questions --run      # fill the grid (resumable), then score
    .venv/bin/python -m benchmarks.grid_user_questions             # score the stored cells (re-checked with the
                                                                    # current checks, no model call)

The agreements are copied to ``~/.cache/clauselens/bench/grid_user_q45/agreements`` and added to a
library ``grid_user_q45``; cells are stored in ``~/.cache/clauselens/bench/grid_user_q45.cells.sqlite``
(the grid's own resumable store). Scoring re-runs :func:`clauselens.grid.run_grid` without a
model: stored replies are re-checked by the current :data:`clauselens.grid.answer.CHECK_VERSION`.

Per answer type: cells, answerable (the key has a value / a Yes-No), answered-and-correct,
answered-but-wrong, unverified, not found, and the cells the key marks ambiguous; wrong share of
answered and answered-and-correct share of answerable with Wilson 95 % intervals; the model's own
answers with the checks ignored (``model_answered``, ``model_wrong``: every reply with found=true); cells per minute of the
model run (from the cells' own seconds). A typed value is correct when it is one the key accepts
under the same reader the grid uses (:mod:`clauselens.grid.values`: dates as dates, periods with
12 months = 1 year, amounts by value, parties by name words -- one name's words within the other's, scorer of 2026-12-07,
fourth session; before, one shared word was enough --, jurisdictions by name); an answered
value where the key says the contract states none is wrong. A yes/no cell shown "No" with the status
"not found" (nothing in the agreement is on the topic) counts as an answered "No" (right when the
key says No, wrong when it says Yes): the reviewer reads it as an answer (``shown_no_not_found``).
``by_rule``: cells decided by rule without the model (issue #45: typed values read from the
agreement's sentences, yes/no from the evidence; :mod:`clauselens.grid.rule`).

**The CUAD preset's typed columns** (``--cuad-preset``; no model): Parties, Agreement Date,
Effective Date, Expiration Date, Renewal Term, Notice Period To Terminate Renewal and Governing Law
read by rule over the 462 CUAD contracts of ``benchmarks/cuad_grid.py``'s library, scored against
``master_clauses.csv``'s ``-Answer`` values (:func:`cuad_value_ok`; Warranty Duration's column is
Yes/No there). ``answered_no_gold``: an answered cell where CUAD gives no value (often CUAD's
convention, e.g. no Effective Date when it is the agreement's date; counted apart and in the strict
share). Splits: ``--split tune`` (cuad_grid's tune contracts: development), report[0:120] (sorted;
inspected during development: ``--split report --limit 80 --skip 40 --tag dev2``), report[120:180]
(inspected from the session of 2026-12-05: ``--skip 120 --limit 60``), report[180:280] (held out until 2026-12-06,
inspected since: ``--skip 180 --limit 100``), and the held-out report[280:] (``--split report --skip 280``), never
inspected::

    .venv/bin/python -m benchmarks.grid_user_questions --cuad-preset --split report --skip 280
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "grid_user_questions"
CUAD_TXT = ROOT.parent / "shared" / "data" / "cuad" / "full_contract_txt"
#: The 462 CUAD texts of LegalBench-RAG: a question set over agreements outside the 21 above names them by file stem too.
CUAD_CORPUS = ROOT.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
CACHE = Path(os.environ.get("CLAUSELENS_BENCH_CACHE", Path.home() / ".cache" / "clauselens" / "bench"))
LIBRARY = "grid_user_q45"
#: The library the benchmark adds its copies to (same texts and chunking as any grid run over them).
RESULTS = ROOT / "benchmarks" / "results"


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    """Wilson score interval for k successes of n (Wilson 1927)."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(max(0.0, c - h), 3), round(min(1.0, c + h), 3)]


def _same_word(a: str, b: str) -> bool:
    """One name word for another, one slip aside ("Berkely" / "Berkeley", "Communication" / "Communications": CUAD's own
    spellings), by Levenshtein distance <= 1 (words of 3 letters or more)."""
    if a == b:
        return True
    if min(len(a), len(b)) < 3 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) <= 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def same_party(one: str, other: str) -> bool:
    """Do two names name the same party: every name word (:func:`clauselens.grid.values.name_tokens`, accents folded:
    "Laboratórios" / "Laboratorios") of one among the other's ("MEDICA, S.p.A." / "Medica S.p.A."; a name with its d/b/a /
    without), not one shared word ("Nanjing Tuniu Technology" is not "Beijing Tuniu Technology")?"""
    import unicodedata

    from clauselens.grid.values import name_tokens

    mine, gold = (name_tokens(unicodedata.normalize("NFKD", x).encode("ascii", "ignore").decode()) for x in (one, other))
    if not mine or not gold:
        return False

    def within(x: set[str], y: set[str]) -> bool:
        return all(any(_same_word(w, v) for v in y) for w in x)

    # a one-word label the key accepts ("Fund", "Distributor") is the answer only as itself, not inside a longer name ("Nuveen Fund
    # Advisors, LLC" is not "the Fund")
    return within(mine, gold) or (len(gold) > 1 and within(gold, mine))


def correct(qtype: str, answer: str, key: dict[str, Any]) -> bool:
    """Is an answered value one the key accepts (see the module docstring)?"""
    from clauselens.grid.values import amounts_in, dates_in, durations_in, jurisdictions_in, party_names, same_period

    if qtype == "yes_no":
        return answer == key.get("gold")
    if not key.get("answerable"):
        return False
    accept = [str(a) for a in key.get("accept", [])]
    if qtype == "date":
        ds = dates_in(answer) or [d for a in [answer] for d in dates_in(a)]
        if ds:
            return all(d.isoformat() in accept for d in ds)
    if qtype in ("date", "duration"):
        mine = durations_in(answer)
        want = [p for a in accept for p in durations_in(a)]
        return bool(mine) and all(any(same_period(m, w) for w in want) for m in mine)
    if qtype == "amount":
        mine_a = amounts_in(answer)
        # the key writes plain numbers, "N%", or a number with its currency ("300000 USD", "448903 GBP"): a sum shown in
        # another currency than the key's is wrong ("$448,903" for "448903 GBP"), read from the answer's own symbol
        want = [(float(m.group(0).replace(",", "")), (re.findall(r"\b[A-Z]{3}\b", a) or [""])[0])
                for a in accept for m in [re.match(r"\d[\d,]*(?:\.\d+)?", a.strip())] if m]
        shown = _shown_currency(answer)
        return bool(mine_a) and all(any(abs(m.value - v) < 1e-6 and (not cur or m.kind != "money" or shown in ("", cur))
                                        for v, cur in want) for m in mine_a)
    if qtype == "party":
        names = party_names(answer)
        # one name's words within the other's ("MEDICA, S.p.A." for "Medica S.p.A."; "Global Music International, Inc. d/b/a IMNTV"
        # for "Global Music International"), not a shared word alone ("Nanjing Tuniu Technology" is not "Beijing Tuniu Technology")
        return bool(names) and all(any(same_party(n, g) for g in accept) for n in names)
    if qtype == "jurisdiction":
        mine_j = jurisdictions_in(answer)
        if not mine_j:  # a seat named as the key names it ("Beijing", an arbitration's city)
            return " ".join(answer.split()).casefold() in {" ".join(a.split()).casefold() for a in accept}
        return mine_j <= set(accept)
    return False


def prepare(store: Path | None = None) -> tuple[Any, list[Any], list[Any], Any]:
    """The library (agreements added), grid rows, questions and cell store (``store``: another
    cell store than the default one, e.g. an empty one for a fresh run)."""
    from clauselens.config import Settings
    from clauselens.grid import CellStore, load_questions
    from clauselens.interfaces.grid_commands import grid_rows

    key = json.loads((DATA / "answer_key.json").read_text())
    folder = CACHE / LIBRARY / "agreements"
    folder.mkdir(parents=True, exist_ok=True)
    for stem in key["agreements"]:
        src = CUAD_TXT / f"{stem}.txt"
        if not src.exists():
            src = CUAD_CORPUS / f"{stem}.txt"
        if not src.exists():
            sys.exit(f"missing {stem}.txt in {CUAD_TXT} and {CUAD_CORPUS}: needs ../shared/data")
        if not (folder / src.name).exists():
            shutil.copy(src, folder / src.name)
    settings = Settings()
    lib, rows = grid_rows(settings, str(folder), LIBRARY + "_bench")
    questions = load_questions(DATA / "questions.yaml")
    return lib, rows, questions, CellStore(store or CACHE / f"{LIBRARY}.cells.sqlite")


def run_model(lib: Any, rows: list[Any], questions: list[Any], store: Any, limit: int, yes_no_model: bool = False) -> dict[str, Any]:
    from clauselens.config import Settings
    from clauselens.grid import run_grid
    from clauselens.interfaces.grid_commands import grid_model_settings
    from clauselens.llm import get_chat_model

    settings = Settings()
    ms = grid_model_settings(settings, model=None, base_url=None, api_key=None)
    chat = get_chat_model(ms, settings.models_dir)
    # the trained heads read a user's question as ``clauselens grid`` does by default (``Settings.grid_presence``); without
    # them a --run filled the rule cells the heads would decide, and the scoring pass after it reused those cells
    stats = run_grid(lib, rows[:limit] if limit else rows, questions, store, model=chat, model_id=f"{ms.backend}:{ms.model}",
                     presence=settings.grid_presence, yes_no_model=yes_no_model or settings.grid_yes_no_model,
                     on_cell=lambda c, d, t, r: print(f"{d}/{t} {c.status}: {c.question_id} · {c.agreement[:40]}", flush=True))
    print(f"computed {stats.computed} cells in {stats.seconds:.0f} s", flush=True)
    return {"computed": stats.computed, "reused": stats.reused, "wall_seconds": round(stats.seconds, 1),
            "model_seconds": round(stats.model_seconds, 1), "cells_per_minute_wall": round(stats.cells_per_minute, 2)}


def score(lib: Any, rows: list[Any], questions: list[Any], store: Any, model_id: str, heads: bool = True,
          yes_no_model: bool = False) -> dict[str, Any]:
    """Re-check the stored cells (no model) and score them against the key (``heads``: the grid's
    trained heads read a user's question, as ``clauselens grid`` does by default; :mod:`clauselens.grid.heads`)."""
    from clauselens.grid import run_grid

    run_grid(lib, rows, questions, store, model=None, model_id=model_id, compute=True, presence=heads, yes_no_model=yes_no_model,
             answer=lambda *a, **kw: (_ for _ in ()).throw(RuntimeError("no model calls while scoring")))
    key = json.loads((DATA / "answer_key.json").read_text())["agreements"]
    by_row = {r.row_key: Path(r.source_path).stem for r in rows}
    qtype = {q.id: q.type for q in questions}
    per: dict[str, dict[str, Any]] = {}
    details = []
    from clauselens.grid.runner import PRESENCE_MODEL

    qmap = {q.id: q for q in questions}
    for c in store.cells():
        stem = by_row.get(c.row_key)
        if stem not in key or c.question_id not in qtype or (c.status == "error" and "no model calls" in c.reason):
            continue
        t = qtype[c.question_id]
        k = key[stem][c.question_id]
        s = per.setdefault(t, {"cells": 0, "answerable": 0, "ambiguous": 0, "answered_correct": 0, "answered_wrong": 0,
                               "unverified": 0, "not_found": 0, "not_found_but_key_has_answer": 0, "error": 0, "seconds": 0.0})
        s["cells"] += 1
        s["seconds"] += c.seconds
        ambiguous = (k.get("gold") is None) if t == "yes_no" else (k.get("answerable") is None)
        answerable = (k.get("gold") in ("Yes", "No")) if t == "yes_no" else bool(k.get("answerable"))
        s["ambiguous"] += ambiguous
        s["answerable"] += answerable
        verdict = c.status
        # the model's own answer, checks ignored (what the grid showed before issue #45's checks, quote aside)
        if c.reply and c.reply.get("found") and str(c.reply.get("answer", "")).strip() and not ambiguous:
            from clauselens.grid.answer import normalise

            q = qmap[c.question_id]
            s["model_answered"] = s.get("model_answered", 0) + 1
            s["model_wrong"] = s.get("model_wrong", 0) + (not correct(t, normalise(q, str(c.reply["answer"])), k))
        s["by_rule"] = s.get("by_rule", 0) + (c.model == "rule")
        s["by_heads"] = s.get("by_heads", 0) + (c.model == PRESENCE_MODEL or c.reason.startswith("the question reads as one about"))
        # a yes/no cell shown "No" because nothing in the agreement is on topic is an answer the reviewer reads
        shown_no = t == "yes_no" and c.status == "not found" and c.answer == "No"
        if shown_no and not ambiguous:
            ok = correct(t, c.answer, k)
            s["answered_correct" if ok else "answered_wrong"] += 1
            s["shown_no_not_found"] = s.get("shown_no_not_found", 0) + 1
            verdict = "correct" if ok else "WRONG"
        elif c.status == "answered" and not ambiguous:
            ok = correct(t, c.answer, k)
            s["answered_correct" if ok else "answered_wrong"] += 1
            verdict = "correct" if ok else "WRONG"
        elif c.status == "unverified":
            s["unverified"] += 1
        elif c.status == "not found":
            s["not_found"] += 1
            if answerable and not (t == "yes_no" and k.get("gold") == "No"):
                s["not_found_but_key_has_answer"] += 1
        elif c.status == "error":
            s["error"] += 1
        details.append({"agreement": stem, "question": c.question_id, "type": t, "status": c.status, "answer": c.answer, "by": c.model,
                        "verdict": verdict, "key": k.get("gold", k.get("accept")), "reason": c.reason[:300],
                        "quote": (c.quote or c.model_quote)[:300]})
    for s in per.values():
        s.setdefault("by_rule", 0)
        s.setdefault("by_heads", 0)
        s.setdefault("shown_no_not_found", 0)
        s.setdefault("model_answered", 0)
        s.setdefault("model_wrong", 0)
    total = {f: sum(s[f] for s in per.values()) for f in next(iter(per.values()), {})}
    out: dict[str, Any] = {"per_type": per, "all": total}
    for s in [*per.values(), total]:
        answered = s["answered_correct"] + s["answered_wrong"]
        s["answered_wrong_share"] = round(s["answered_wrong"] / answered, 3) if answered else None
        s["answered_wrong_ci95"] = wilson(s["answered_wrong"], answered)
        s["answered_share_of_answerable"] = round(s["answered_correct"] / s["answerable"], 3) if s["answerable"] else None
        s["answered_share_ci95"] = wilson(s["answered_correct"], s["answerable"])
        s["model_wrong_share"] = round(s["model_wrong"] / s["model_answered"], 3) if s["model_answered"] else None
        s["cells_per_minute"] = round(60 * s["cells"] / s["seconds"], 2) if s["seconds"] else None
    out["details"] = sorted(details, key=lambda d: (d["agreement"], d["question"]))
    return out


def _shown_currency(answer: str) -> str:
    """The ISO code of the currency an answer shows ("£740,000" -> GBP), "" when it shows none; read here, not with the
    grid's own reader, so that the same scoring applies to answers of versions that showed every sum as dollars."""
    for pattern, code in ((r"£|\bGBP\b|pounds?", "GBP"), (r"€|\bEUR\b|euros?", "EUR"), (r"C\$|\bCAD\b", "CAD"),
                          (r"\$|\bUSD\b|dollars?", "USD")):
        if re.search(pattern, answer, re.IGNORECASE):
            return code
    return ""


def cuad_value_ok(qtype: str, gold: str, answer: str, starts: Sequence[str] = ()) -> bool:
    """Is a rule cell's ``answer`` CUAD's ``-Answer`` value ``gold``? Dates as dates (CUAD writes
    m/d/yy; any of its ";"-separated dates, scorer of 2026-12-06), periods by :func:`clauselens.grid.values.same_period`, parties by the name words of
    each answered name (one of CUAD's ";"-separated names), jurisdictions by name. A date question answered with
    the term's period ("5 years": the agreement writes no end date) is right when one of the agreement's preamble
    dates ``starts`` (ISO) plus the period is CUAD's date (:func:`benchmarks.term_period_census.matches`, scorer of
    2026-12-06, second session); with no start it is wrong. A date question answered that the term sets no end
    ("indefinitely", "until terminated": :data:`clauselens.grid.term.OPEN_ENDED`) is right where CUAD says "perpetual"."""
    from clauselens.grid.term import OPEN_ENDED
    from clauselens.grid.values import durations_in, jurisdictions_in, party_names, same_period

    if qtype == "date" and OPEN_ENDED.search(answer):  # "until terminated": right where CUAD says perpetual (scorer of 2026-12-06, 4th)
        return gold.strip().lower().startswith("perpetual")
    if qtype == "date" and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", answer) and durations_in(answer):
        import datetime as dt

        from benchmarks.term_period_census import matches
        from clauselens.grid.term import add_period

        ends = [add_period(dt.date.fromisoformat(s), answer) for s in starts]
        return any(e is not None and matches(e, gold) for e in ends)
    if qtype == "date":  # one of CUAD's ";"-separated dates ("07/31/2000; 07/[]/2000": the second left blank in the text)
        from dateutil import parser as dparser

        for one in gold.split(";"):
            try:
                if dparser.parse(one).date().isoformat() == answer:
                    return True
            except (ValueError, OverflowError):
                continue
        return False
    if qtype == "duration":
        want = durations_in(re.sub(r"(\d)\)\s", r"\1 ", gold))  # CUAD's "60) days": the span cut inside "sixty (60) days"
        return bool(want) and all(any(same_period(m, w) for w in want) for m in durations_in(answer))
    if qtype == "party":
        gold_names = [re.sub(r"\(\s*(?:the\s+)?[\"“][^)]*\)", " ", g) for g in gold.split(";")]
        names = party_names(answer)
        return bool(names) and all(any(same_party(n, g) for g in gold_names) for n in names)
    if qtype == "jurisdiction":
        mine = jurisdictions_in(answer)
        return bool(mine) and mine <= jurisdictions_in(gold) | {j for j in mine if j.lower() in gold.lower()}
    return False


#: The first report contracts (sorted by file stem) whose cells were read while the rule was developed
#: (report[0:40] early on, report[40:120] as a second dev set, tag dev2, report[120:180] from 2026-12-05, report[180:280]
#: from 2026-12-06); the held-out numbers skip them (``--skip``).
INSPECTED_REPORT = 280


def run_cuad_preset(limit: int, split: str = "report", skip: int = 0, only: set[str] | None = None) -> dict[str, Any]:
    """The CUAD preset's typed columns read by rule (no model) over the ``split`` contracts
    (``tune`` / ``report``, as ``benchmarks/cuad_grid.py`` splits them) of its 462-contract library,
    the first ``skip`` of them (sorted) left out, scored against master_clauses.csv's ``-Answer``
    values (Warranty Duration's column is Yes/No there, so it is left out)."""
    import time

    from benchmarks.cuad_grid import answer_column, load_master, open_library, split_of, value_match
    from clauselens.grid.questions import preset
    from clauselens.grid.rule import rule_cell, uses_rule
    from clauselens.library.library import chunks_of
    from clauselens.retrieval.types import Passage

    master = load_master()
    lib = open_library(False)
    recs = {Path(r.path).stem: r for r in lib.agreements()}
    stems = sorted(s for s in recs if s in master and (s in only if only is not None else split_of(s) == split))[skip:][: limit or None]
    qs = [q for q in preset("cuad") if uses_rule(q) and q.category != "Warranty Duration"]
    per: dict[str, dict[str, Any]] = {}
    rows = []
    t0 = time.perf_counter()
    for stem in stems:
        passages = [Passage.from_chunk(c, 0.0, "rule") for c in chunks_of(lib, recs[stem].doc_id)]
        for q in qs:
            t1 = time.perf_counter()
            cell = rule_cell({"row_key": stem, "question_id": q.id, "fingerprint": "", "model": "rule"}, q, passages)
            gold = answer_column(master[stem], q.category)
            s = per.setdefault(q.category, {"cells": 0, "gold_present": 0, "answered_correct": 0, "answered_wrong": 0,
                                            "answered_no_gold": 0, "unverified": 0, "not_found": 0, "seconds": 0.0})
            s["cells"] += 1
            s["seconds"] += time.perf_counter() - t1
            s["gold_present"] += bool(gold)
            verdict: str = cell.status
            if cell.status == "answered":
                if not gold:
                    s["answered_no_gold"] += 1
                    verdict = "answered, CUAD has none"
                else:
                    ok = cuad_value_ok(q.type, gold, cell.answer)
                    s["answered_correct" if ok else "answered_wrong"] += 1
                    # cuad_grid.py's lenient match (the 1.5B's committed run was scored with it)
                    s["answered_correct_cuad_grid_match"] = s.get("answered_correct_cuad_grid_match", 0) + bool(value_match(q, gold, cell.answer))
                    verdict = "correct" if ok else "WRONG"
            elif cell.status == "unverified":
                s["unverified"] += 1
            else:
                s["not_found"] += 1
            rows.append({"contract": stem, "category": q.category, "status": cell.status, "answer": cell.answer, "gold": gold,
                         "verdict": verdict, "quote": cell.quote[:240], "reason": cell.reason[:200]})
    for s in per.values():
        s.setdefault("answered_correct_cuad_grid_match", 0)
    total = {f: sum(s[f] for s in per.values()) for f in next(iter(per.values()), {})}
    for s in [*per.values(), total]:
        answered = s["answered_correct"] + s["answered_wrong"]
        s["answered_wrong_share_of_answered_with_gold"] = round(s["answered_wrong"] / answered, 3) if answered else None
        s["answered_wrong_ci95"] = wilson(s["answered_wrong"], answered)
        strict = answered + s["answered_no_gold"]
        s["answered_wrong_or_no_gold_share"] = round((s["answered_wrong"] + s["answered_no_gold"]) / strict, 3) if strict else None
        s["answered_wrong_or_no_gold_ci95"] = wilson(s["answered_wrong"] + s["answered_no_gold"], strict)
        s["answered_correct_share_of_gold"] = round(s["answered_correct"] / s["gold_present"], 3) if s["gold_present"] else None
        s["answered_correct_share_ci95"] = wilson(s["answered_correct"], s["gold_present"])
        s["cells_per_minute"] = round(60 * s["cells"] / s["seconds"], 1) if s["seconds"] else None
    return {"per_category": per, "all": total, "contracts": len(stems), "split": "as listed" if only is not None else split, "skipped_first": skip,
            "wall_seconds": round(time.perf_counter() - t0, 1),
            "rows": rows}


def print_categories(out: dict[str, Any], path: Path) -> None:
    """One line per CUAD category and one for all of them (``out``: ``per_category`` and ``all`` counts), then the file."""
    for c, s in [*out["per_category"].items(), ("ALL", out["all"])]:
        print(f"{c:36s} cells {s['cells']:5d} gold {s['gold_present']:5d} correct {s['answered_correct']:5d} wrong "
              f"{s['answered_wrong']:4d} answered-no-gold {s['answered_no_gold']:4d} unverified {s['unverified']:5d} "
              f"not-found {s['not_found']:5d} correct/gold {s['answered_correct_share_of_gold']}")
    print(f"wrote {path}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="store_true", help="fill missing cells with the default model first (slow)")
    ap.add_argument("--yes-no-model", action="store_true", help="the model answers the yes/no cells the rules and heads leave open "
                                                                 "(the product's default leaves them unverified; Settings.grid_yes_no_model)")
    ap.add_argument("--limit", type=int, default=0, help="--run: first N agreements only")
    ap.add_argument("--tag", default="", help="suffix of the result file name")
    ap.add_argument("--store", type=Path, default=None, help="cell store (default: the cached one; a new path: a fresh run)")
    ap.add_argument("--split", choices=("tune", "report"), default="report", help="--cuad-preset: which contracts")
    ap.add_argument("--skip", type=int, default=0, help=f"--cuad-preset: leave out the first N (report: {INSPECTED_REPORT} were inspected)")
    ap.add_argument("--contracts-of", type=Path, default=None,
                    help="--cuad-preset: only the contracts a committed cuad_grid result lists (its rows' 'contract'), e.g. the 1.5B's 21")
    ap.add_argument("--cuad-preset", action="store_true",
                    help="instead: the CUAD preset's typed columns by rule over the report split of the 462-contract library")
    ap.add_argument("--data", type=Path, default=None,
                    help="another question set: a folder with questions.yaml and answer_key.json (e.g. benchmarks/data/"
                         "grid_user_questions_blind, written blind over five other agreements); its own library and store")
    ap.add_argument("--no-heads", action="store_true",
                    help="yes/no and typed cells of a user's question without the topic and presence heads (before issue #45's step)")
    args = ap.parse_args(argv)
    global DATA, LIBRARY
    if args.data is not None:
        DATA, LIBRARY = args.data.resolve(), f"{LIBRARY}_{args.data.name}"
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if args.cuad_preset:
        import datetime as dt

        only = {r["contract"] for r in json.loads(args.contracts_of.read_text())["rows"]} if args.contracts_of else None
        out = run_cuad_preset(args.limit, args.split, args.skip, only)
        out.update(command="python -m benchmarks.grid_user_questions --cuad-preset" + (f" --limit {args.limit}" if args.limit else "")
                   + f" --split {args.split} --skip {args.skip}" + (f" --contracts-of {args.contracts_of}" if args.contracts_of else "")
                   + (f" --tag {args.tag}" if args.tag else ""),
                   date_utc=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"))
        path = RESULTS / f"grid_cuad_typed_rule{('_' + args.tag) if args.tag else ''}.json"
        path.write_text(json.dumps(out, indent=1))
        print_categories(out, path)
        return
    lib, rows, questions, store = prepare(args.store)
    from clauselens.config import Settings
    from clauselens.interfaces.grid_commands import grid_model_settings

    ms = grid_model_settings(Settings(), model=None, base_url=None, api_key=None)
    run_stats = run_model(lib, rows, questions, store, args.limit, args.yes_no_model) if args.run else None
    res = score(lib, rows, questions, store, f"{ms.backend}:{ms.model}", heads=not args.no_heads, yes_no_model=args.yes_no_model)
    import datetime as dt

    from clauselens.grid.answer import CHECK_VERSION

    res.update(command="python -m benchmarks.grid_user_questions" + (" --run" if args.run else "") + (f" --tag {args.tag}" if args.tag else "")
               + (f" --data {args.data}" if args.data else "")
               + (f" --store {args.store}" if args.store else "") + (" --no-heads" if args.no_heads else "")
               + (" --yes-no-model" if args.yes_no_model else ""),
               date_utc=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), run=run_stats,
               note="typed cells and decided yes/no cells are read by rule (model 'rule', no model call); the other yes/no "
                    + ("cells are left unverified for a reviewer (model 'rule-open', the product's default)" if not args.yes_no_model else
                       "cells asked the model in this run (a fresh cell store)" if args.store and args.run else
                       "cells are the 1.5B's stored replies (same prompt version), re-checked by the current checks"))
    res.update(model=f"{ms.backend}:{ms.model}", check_version=CHECK_VERSION, questions=str(DATA / "questions.yaml"),
               answer_key=str(DATA / "answer_key.json"), agreements=sorted({d["agreement"] for d in res["details"]}))
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"grid_user_questions{('_' + args.tag) if args.tag else ''}.json"
    path.write_text(json.dumps(res, indent=1))
    for t, s in [*res["per_type"].items(), ("ALL", res["all"])]:
        print(f"{t:13s} cells {s['cells']:3d} answerable {s['answerable']:3d} correct {s['answered_correct']:3d} "
              f"wrong {s['answered_wrong']:2d} unverified {s['unverified']:3d} not-found {s['not_found']:3d} "
              f"ambiguous {s['ambiguous']:2d} wrong/answered {s['answered_wrong_share']} answered/answerable "
              f"{s['answered_share_of_answerable']} cells/min {s['cells_per_minute']} by rule {s['by_rule']} "
              f"by heads {s['by_heads']} | model alone: answered "
              f"{s['model_answered']} wrong {s['model_wrong']}")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
