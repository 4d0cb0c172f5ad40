"""Issue #38, "unanswerable declined >= 90 %": replay the quick-depth reading on the clauses stored end-to-end runs
quoted, and count how its "answered" verdict separates unanswerable questions from answerable ones.

The stored rows of ``benchmarks/answers_e2e.py`` keep, per lead clause (``rule == "lead"``), the quote shown, its
clause number and where it is (the statement's "<agreement>, clause 7.2" part), which is all the reading prompt
(:func:`clauselens.agents.delivery.write_reading` with ``lead=True``) is made of: so the reading is asked again of the
same quotes with the code of this commit, one model call per row, without the library or retrieval. Before the
change, the rows' own verdict is read from their draft note ("the model's reading judged that none of them answers
the question"). Per set and kind it counts the verdict "none answers" on

* unanswerable questions (a decline there is right),
* answerable questions whose gold clause the run showed as a fact (``gold``: a decline there loses it),
* other answerable questions (``other``: a decline there abstains on an answerable question).

Data: the dev sets' runs (all dev: clause-qa-dev's 40-question sample, clause-qa-lay's 60, blind3's 60); no held-out
set is read. Heavy (LLM slot): ~5-10 s per row on 2 shared cores::

    flock /tmp/clauselens-llm.lock nice -n 5 .venv/bin/python -m benchmarks.reading_replay --tag flag_first
    .venv/bin/python -m benchmarks.reading_replay --tag flag_first --score-only

Resumable: one JSON per row under ``~/.cache/clauselens/bench/reading_replay/<tag>/<run>/``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.answers_e2e import _overlaps
from benchmarks.clause_qa import rate
from benchmarks.delivery_gap import SETS
from clauselens.provenance import run_provenance

ROOT = Path(__file__).resolve().parents[1]
RES = ROOT / "benchmarks" / "results"
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "reading_replay"
#: The stored runs replayed, one per dev set (delivery_gap.SETS order: dev sample, lay, blind3).
RUNS = ("s10", "s10_lay", "s8_blind3")
#: The draft note of a run whose reading judged that no quoted clause answers (``delivery.rule_step``).
NONE_NOTE = "judged that none of them answers"


def lead_rows(run: str) -> list[dict[str, Any]]:
    """The rows of stored run ``run`` whose report led with retrieval's clauses (a lead-clause reading was asked)."""
    data = json.loads((RES / f"answers_e2e_{run}.json").read_text())
    return [r for r in data["rows"] if not r["documents_silent"] and any(f.get("rule") == "lead" for f in r["findings"])]


def rebuilt(row: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """The lead quotes of ``row`` and their passages, as :func:`write_reading` is given them: each passage is the
    quoted text alone, with the agreement's name and clause number the statement printed (checked: the rebuilt
    label is the stored one)."""
    from clauselens.agents.delivery import _where
    from clauselens.parsing.numbering import clause_label
    from clauselens.reports.model import RuleQuote
    from clauselens.retrieval.types import Passage

    quotes, passages = [], {}
    for i, f in enumerate(x for x in row["findings"] if x.get("rule") == "lead"):
        c = f["citations"][0]
        where = f["statement"].split(": retrieval's")[0]
        ref = c.get("clause_ref")
        tail = f", {clause_label(ref)}" if ref else ""
        named = bool(tail) and where.endswith(tail)
        doc, ref = (where[: -len(tail)], ref) if named else (where, None)
        pid = f"P{i + 1}"
        p = Passage(chunk_id=pid, doc_id=c["file_path"], node_id=pid, spans=[], text=c["quote"], clause_ref=ref,
                    doc_title=doc)
        if _where(p, {}) != where:
            raise ValueError(f"{row['id']}: label {where!r} not rebuilt ({_where(p, {})!r})")
        passages[pid] = p
        quotes.append(RuleQuote(passage_id=pid, start=0, end=len(c["quote"]), kind="lead", statement=f["statement"]))
    return quotes, passages


def replay(row: dict[str, Any], model: Any, settings: Any) -> dict[str, Any]:
    from clauselens.agents.delivery import bare_reading, write_reading

    quotes, passages = rebuilt(row)
    t0 = time.perf_counter()
    got, rec, _ = write_reading(row["question"], quotes, passages, model=model, lead=True,
                                model_settings=settings.model_for("interrogator"))
    return {"id": row["id"], "answer": got.answer, "answered": bool(getattr(got, "answered", True)),
            "bare": bare_reading(got.answer), "seconds": round(time.perf_counter() - t0, 1),
            "input_tokens": rec.usage.get("input_tokens"), "load_1min": round(os.getloadavg()[0], 2)}


def _gold_shown(row: dict[str, Any], gold: list[dict]) -> bool:
    return any(_overlaps(c, gold) for f in row["findings"] if f["cited_fact"] for c in f["citations"])


def score(run: str, questions: Path, replayed: dict[str, dict]) -> dict[str, Any]:
    """Per kind (``unanswerable``, ``gold``, ``other``): rows, the stored verdict "none answers" (``before``) and the
    replayed one (``after``), with the row ids where it fires."""
    qs = {json.loads(x)["id"]: json.loads(x) for x in questions.read_text().splitlines() if x.strip()}
    out: dict[str, Any] = {}
    for r in lead_rows(run):
        gold = qs[r["id"]].get("gold") or []
        kind = "unanswerable" if r["type"] == "unanswerable" else ("gold" if _gold_shown(r, gold) else "other")
        k = out.setdefault(kind, {"n": 0, "before": [], "after": [], "replayed": 0})
        k["n"] += 1
        if any(NONE_NOTE in (n or "") for n in r["draft_notes"]):
            k["before"].append(r["id"])
        if r["id"] in replayed:
            k["replayed"] += 1
            if not replayed[r["id"]]["answered"]:
                k["after"].append(r["id"])
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tag", required=True, help="name of this replay (the code's reading prompt at this commit)")
    ap.add_argument("--runs", nargs="*", default=list(RUNS), help="stored answers_e2e runs (dev sets only)")
    ap.add_argument("--only", nargs="*", default=[], help="row ids to replay (default: every lead-clause row)")
    ap.add_argument("--score-only", action="store_true", help="no model: score the cached replays")
    args = ap.parse_args(argv)
    from clauselens.config import Settings

    settings = Settings()
    chat = None
    result: dict[str, Any] = {"benchmark": "reading_replay", "issue": 38, "tag": args.tag,
                              "command": "python -m benchmarks.reading_replay " + " ".join(argv if argv is not None else sys.argv[1:]),
                              "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                              "versions": run_provenance(["llama-cpp-python"]), "runs": {}}
    for (_, questions, _, _), run in zip(SETS, args.runs):
        cache = CACHE / args.tag / run
        cache.mkdir(parents=True, exist_ok=True)
        for r in lead_rows(run):
            if args.score_only or (args.only and r["id"] not in args.only) or (cache / f"{r['id']}.json").exists():
                continue
            if chat is None:
                from clauselens.agents.resources import ModelPool

                chat = ModelPool(settings).model("interrogator")
            got = replay(r, chat, settings)
            (cache / f"{r['id']}.json").write_text(json.dumps(got, indent=1))
            print(f"[reading_replay] {run} {r['id']}: answered={got['answered']} {got['seconds']} s "
                  f"{got['answer'][:80]!r}", file=sys.stderr, flush=True)
        replayed = {p.stem: json.loads(p.read_text()) for p in cache.glob("*.json")}
        s = score(run, questions, replayed)
        for k in s.values():
            k["before_rate"] = rate(len(k["before"]), k["n"])
            k["after_rate"] = rate(len(k["after"]), k["replayed"]) if k["replayed"] else None
        result["runs"][run] = {"questions": str(questions.relative_to(ROOT.parent)), "kinds": s,
                               "rows": [replayed[k] for k in sorted(replayed)]}
        print(run, {kind: (k["n"], len(k["before"]), k["replayed"], len(k["after"])) for kind, k in s.items()})
    (RES / f"reading_replay_{args.tag}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
