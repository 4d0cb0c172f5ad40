"""How many tokens the quick-depth reading (issue #38) makes the model read and write, before and after the
reading prompt changed (one system message for named-clause and lead readings, replies of at most 40 words, a
named clause shown as its window around the asked sentences): a load-independent view of the reading's time
beside ``benchmarks/answers_e2e.py``'s wall times, which on 2 shared cores move with the machine's load.

For each row of two ``answers_e2e`` result files (``--before``, ``--after``) that got a model reading, it rebuilds
the reading prompt of that revision from the row's own quotes and question
(:func:`clauselens.agents.delivery.write_reading`'s layout; the prompt texts of the ``before`` revision read
from git) and counts, with the bundled 1.5B GGUF's own tokenizer (vocabulary only, no model weights run):

* ``prompt``: the whole prompt (chat template included), what a cold model (a fresh ``clauselens ask``) reads;
* ``new``: the tokens after the longest prefix it shares with the *previous* question's reading prompt, in the
  benchmark's asking order -- what an in-process model that keeps its evaluated prefix (llama.cpp keeps the
  longest common prefix of the last prompt: the benchmark, chat, the web UI, MCP) reads;
* ``reply``: the tokens of the reply the row keeps (its reading as JSON; a reading set aside as too short
  counts its replacement's length as unknown and is left out).

Time per token on this machine (``benchmarks/results/llm_threads.json``): prompt tokens are read ~4-8x faster
than reply tokens are written, so ``new + 5 * reply`` is a rough cost in reply-token units.

    .venv/bin/python -m benchmarks.reading_tokens --before s5 --after s6
    flock /tmp/clauselens-llm.lock .venv/bin/python -m benchmarks.reading_tokens --before s5 --after s6 --time 2

``--time BLOCKS`` also asks the model both revisions' prompts, alternating blocks in one process (:func:`timed`):
the same quotes and questions, the same load, so the seconds compare the prompts alone.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
#: The commit whose reading prompts the ``before`` rows were asked with (answers_e2e s5's code).
BEFORE_COMMIT = "e70a539"
PROMPTS = "clauselens/agents/prompts_interrogator.py"


def prompts_at(commit: str | None) -> SimpleNamespace:
    """The reading prompt texts of ``commit`` (``None``: the working tree's module)."""
    if commit is None:
        from clauselens.agents import prompts_interrogator as P

        return SimpleNamespace(**{k: getattr(P, k) for k in dir(P) if k.isupper()})
    src = subprocess.run(["git", "show", f"{commit}:{PROMPTS}"], cwd=REPO, check=True, capture_output=True,
                         text=True).stdout
    ns: dict[str, Any] = {}
    exec(compile(src, f"{commit}:{PROMPTS}", "exec"), ns)  # the module's own constants, as they were
    return SimpleNamespace(**{k: v for k, v in ns.items() if k.isupper()})


def reading_rows(tag: str) -> list[dict]:
    """The rows of ``answers_e2e_<tag>.json`` in their asking order (the benchmark's interleaved order)."""
    from benchmarks.answers_e2e import interleaved

    rows = json.loads((RESULTS / f"answers_e2e_{tag}.json").read_text())["rows"]
    return interleaved(rows)


def _answer(row: dict) -> str | None:
    from clauselens.agents.delivery import SET_ASIDE_READING
    from clauselens.reports.build import strip_mark

    text = strip_mark(row["answer"])
    if text.startswith(SET_ASIDE_READING[:40]) or re.match(r"(?:Clause|Section|Annex|Schedule) \S+: \u201c", text):
        return None  # set aside (too short, or contradicting its clause): the reply is not what the report shows
    return text.split(" Left out by this reading, ", 1)[0]  # the model's words, without the rule's label


def prompt_of(row: dict, P: SimpleNamespace, windowed: bool) -> tuple[str, str] | None:
    """``(system, user)`` of the row's reading, or ``None`` when it had none (a definition, a decline)."""
    from clauselens.agents.delivery import quote_window

    rules = [f for f in row["findings"] if f.get("rule") in ("named_clause", "lead")]
    if not rules or row["llm_calls"] == 0:
        return None
    lead = rules[0]["rule"] == "lead"
    budget = 2400 if lead or not windowed else 1500
    lines, used = [], 0
    for f in rules:
        for c in f["citations"]:
            text = " ".join(c["quote"].split())
            if windowed and not lead and len(text) > 900:
                text = text[slice(*quote_window(text, row["question"], 900))]
            text = text[: max(0, budget - used)]
            if not text:
                break
            used += len(text)
            where = f"{Path(c['file_path']).stem[:40]}, clause {c.get('clause_ref') or '-'}"
            lines.append(f"[{where}] \"{text}\"")
    system, user = (P.READING_LEAD_SYSTEM, P.READING_LEAD_USER) if lead else (P.READING_SYSTEM, P.READING_USER)
    scope = ""  # the word limit in the user message (a revision whose user message has no {scope} ignores it)
    if "READING_SCOPE" in vars(P):
        from clauselens.agents.reading_check import reading_scope

        ref = rules[0]["citations"][0].get("clause_ref") if rules[0]["citations"] else None
        label = f"Clause {ref}" if ref else "The first quoted clause"
        shown = [ln.split('] "', 1)[1][:-1] for ln in lines]
        scope = reading_scope(row["question"], shown, label, lead)
    return system, user.format(context_block="", question=row["question"], quotes="\n".join(lines), scope=scope)


def count(rows: list[dict], P: SimpleNamespace, windowed: bool, tok: Any) -> list[dict]:
    """Per row with a reading: ``prompt``, ``new`` (after the previous reading's shared prefix) and ``reply`` tokens."""
    out: list[dict] = []
    last: list[int] = []
    for row in rows:
        pr = prompt_of(row, P, windowed)
        if pr is None:
            continue
        text = f"<|im_start|>system\n{pr[0]}<|im_end|>\n<|im_start|>user\n{pr[1]}<|im_end|>\n<|im_start|>assistant\n"
        ids = tok.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        shared = next((i for i, (a, b) in enumerate(zip(ids, last)) if a != b), min(len(ids), len(last)))
        last = ids
        answer = _answer(row)
        lead = any(f.get("rule") == "lead" for f in row["findings"])
        reply = None if answer is None else len(tok.tokenize(json.dumps(
            {"answer": answer, **({"answered": True} if lead else {})}).encode("utf-8"), add_bos=False))
        out.append({"id": row["id"], "type": row["type"], "prompt": len(ids), "new": len(ids) - shared, "reply": reply,
                    "wall_seconds": row["wall_seconds"], "load_1min": row.get("load_1min")})
    return out


def timed(rows_before: list[dict], rows_after: list[dict], blocks: int, kinds: tuple[str, ...],
          before_commit: str = BEFORE_COMMIT) -> list[dict]:
    """Both revisions' reading prompts (:func:`prompt_of`) asked of the bundled model in one process, in blocks
    (before, after, before, after, ...: each block asks every row of ``kinds`` in the benchmark's order, so the
    after block's shared system message stays evaluated between its questions as in a long-lived front end, and
    load drift falls on both): per call its seconds, prompt and reply tokens and the 1-minute load average."""
    import os

    from clauselens.agents.common import call_structured
    from clauselens.agents.delivery import READING_MAX_TOKENS, LeadReading, Reading
    from clauselens.agents.resources import ModelPool
    from clauselens.config import Settings

    s = Settings()
    model, ms = ModelPool(s).model("interrogator"), s.model_for("interrogator")
    revs = {"before": (rows_before, prompts_at(before_commit), before_commit != BEFORE_COMMIT),
            "after": (rows_after, prompts_at(None), True)}
    out = []
    for block in range(blocks):
        for rev, (rows, P, windowed) in revs.items():
            for row in rows:
                pr = prompt_of(row, P, windowed)
                if pr is None or row["type"] not in kinds:
                    continue
                lead = any(f.get("rule") == "lead" for f in row["findings"])
                _, rec = call_structured(model, pr[0], pr[1], LeadReading if lead else Reading, agent="interrogator",
                                         step="reading", model_settings=ms, max_tokens=READING_MAX_TOKENS)
                out.append({"block": block, "rev": rev, "id": row["id"], "type": row["type"], "seconds": round(rec.seconds, 2),
                            "prompt": rec.usage.get("input_tokens"), "reply": rec.usage.get("output_tokens"),
                            "load_1min": round(os.getloadavg()[0], 2)})
                print(json.dumps(out[-1]), file=sys.stderr, flush=True)
    return out


def summary(items: list[dict]) -> dict:
    """Medians per question kind."""
    def med(xs: list[float]) -> float | None:
        xs = sorted(x for x in xs if x is not None)
        return xs[len(xs) // 2] if xs else None

    out = {}
    for kind in sorted({i["type"] for i in items}):
        xs = [i for i in items if i["type"] == kind]
        out[kind] = {"n": len(xs), **{f"median_{k}": med([i[k] for i in xs])
                                      for k in ("prompt", "new", "reply", "wall_seconds", "load_1min")}}
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="s5", help="answers_e2e tag asked with the old reading prompt")
    ap.add_argument("--after", default="s6", help="answers_e2e tag asked with this revision's prompt")
    ap.add_argument("--before-commit", default=BEFORE_COMMIT,
                    help="commit whose reading prompts the before rows are asked with (e70a539: s5's, unwindowed)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--time", type=int, default=0, metavar="BLOCKS",
                    help="also ask both revisions' prompts of the model in this many alternating blocks (LLM slot)")
    ap.add_argument("--kinds", nargs="*", default=["exact"], help="question kinds timed with --time")
    args = ap.parse_args(argv)
    import llama_cpp

    from clauselens.config import Settings
    from clauselens.provenance import run_provenance

    s = Settings()
    gguf = s.models_dir / f"{s.model_for('interrogator').model}.gguf"
    tok = llama_cpp.Llama(model_path=str(gguf), vocab_only=True, verbose=False)
    before = count(reading_rows(args.before), prompts_at(args.before_commit), args.before_commit != BEFORE_COMMIT, tok)
    after = count(reading_rows(args.after), prompts_at(None), True, tok)
    result: dict[str, Any] = {"benchmark": "reading_tokens", "issue": 38,
              "command": "python -m benchmarks.reading_tokens " + " ".join(argv if argv is not None else sys.argv[1:]),
              "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
              "versions": run_provenance(["llama-cpp-python"]), "tokenizer": str(gguf.name),
              "before": {"tag": args.before, "prompts_of": args.before_commit, "summary": summary(before), "rows": before},
              "after": {"tag": args.after, "prompts_of": "this revision", "summary": summary(after), "rows": after}}
    if args.time:
        calls = timed(reading_rows(args.before), reading_rows(args.after), args.time, tuple(args.kinds), args.before_commit)
        result["timed"] = {"blocks": args.time, "kinds": args.kinds, "calls": calls, "median_seconds": {
            rev: sorted(c["seconds"] for c in calls if c["rev"] == rev)[len([c for c in calls if c["rev"] == rev]) // 2]
            for rev in ("before", "after") if any(c["rev"] == rev for c in calls)}}
    suffix = "" if args.before_commit == BEFORE_COMMIT else f"_{args.before_commit}"
    out = args.out or RESULTS / f"reading_tokens_{args.before}_{args.after}{suffix}.json"
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps({k: result[k]["summary"] for k in ("before", "after")}, indent=1))


if __name__ == "__main__":
    main()
