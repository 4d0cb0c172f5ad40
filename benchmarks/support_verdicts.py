"""The model's support verdict on the hand-labelled findings (issue #19): how often each way of
asking (:data:`clauselens.agents.interrogator.SupportStyle`) calls a claim "supports" that two
reviewers labelled unsupported (a false fact shown) and rejects one they labelled supported.

Items: every key finding of ``benchmarks/answers_e2e.py``'s labelled runs that has a verified quote
and a hand label for its text, and that the committed deterministic checks pass
(``reports.support.check_heading`` and ``check_statement`` on the finding and its own quotes, as the
replay does) -- the
findings on which the model's verdict decides. Each is put to the default model
(:func:`~clauselens.agents.interrogator.judge_support`, location = the cited clause numbers; the run's
clause headings are not stored) once per style. Answers are left out (their verdict is asked over
the quotes of several findings). Verdicts are cached per model, style and item under
``~/.cache/clauselens/bench/support_verdicts/`` (resumable)::

    nice -n 10 .venv/bin/python -m benchmarks.support_verdicts                 # both styles, ~6 s per call
    .venv/bin/python -m benchmarks.support_verdicts --score-only               # from the cache

-> ``benchmarks/results/support_verdicts.json``. The labels were written before either style was
asked; choosing the style by this table is a choice between two fixed prompts on these items, not a
held-out test of the one chosen.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.answers_e2e import LABELS, OUT, _finding_issue, _label
from benchmarks.clause_qa import rate
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "support_verdicts"
RESULT = REPO / "benchmarks" / "results" / "support_verdicts.json"
#: The labelled runs (answers_e2e tags; "" is run 1), in the order they were run.
TAGS = ("", "run2", "run3", "holdout1", "rest1", "new1", "new2", "new3")
STYLES = ("reason", "evidence")


def items() -> list[dict[str, Any]]:
    """The findings the model's verdict decides on: ``{run, key, claim, quote, location, supports}``."""
    out = []
    for tag in TAGS:
        rows = json.loads((OUT.with_name(f"answers_e2e_{tag}.json") if tag else OUT).read_text())["rows"]
        labels = json.loads((LABELS.with_name(f"answers_e2e_labels_{tag}.json") if tag else LABELS).read_text())
        for r in rows:
            for i, f in enumerate(r["findings"]):
                key = f"{r['id']}#{i}"
                lab = _label(labels, key, f["statement"])
                if lab is None or not f["citations"] or f["statement"].rstrip().endswith("?"):
                    continue
                if _finding_issue(f, r) is not None:
                    continue
                out.append({"run": tag or "run1", "key": key, "claim": f["statement"],
                            "quote": " ".join(c["quote"] for c in f["citations"]),
                            "location": "; ".join(dict.fromkeys(c["clause_ref"] or "?" for c in f["citations"])),
                            "supports": lab})
    return out


def _cache_file(model_tag: str, style: str, item: dict[str, Any]) -> Path:
    h = hashlib.sha256(f"{item['claim']}\x00{item['quote']}".encode()).hexdigest()[:16]
    return CACHE / f"{model_tag}-{style}" / f"{item['run']}__{item['key'].replace('#', '_')}__{h}.json"


def score(its: list[dict[str, Any]], verdicts: dict[str, dict[str, str]]) -> dict[str, Any]:
    """Per style: false supports among the labelled-unsupported, rejections among the labelled-supported."""
    out: dict[str, Any] = {}
    for style in STYLES:
        got = [(it, verdicts[style].get(f"{it['run']}:{it['key']}")) for it in its]
        got = [(it, v) for it, v in got if v is not None]
        false = [(it, v) for it, v in got if not it["supports"]]
        true = [(it, v) for it, v in got if it["supports"]]
        out[style] = {
            "asked": len(got), "failed": sum(v == "error" for _, v in got),
            "false_supports": rate(sum(v == "supports" for _, v in false), len(false)),
            "true_rejected": rate(sum(v != "supports" for _, v in true), len(true)),
            "false_supported_keys": [f"{it['run']}:{it['key']}" for it, v in false if v == "supports"],
            "by_run": {run: {"false_supports": f"{sum(v == 'supports' for it, v in false if it['run'] == run)}"
                                               f"/{sum(it['run'] == run for it, _ in false)}",
                             "true_rejected": f"{sum(v != 'supports' for it, v in true if it['run'] == run)}"
                                              f"/{sum(it['run'] == run for it, _ in true)}"}
                       for run in dict.fromkeys(it["run"] for it, _ in got)},
        }
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--score-only", action="store_true", help="no model: score the cached verdicts")
    ap.add_argument("--styles", nargs="+", choices=STYLES, default=list(STYLES))
    args = ap.parse_args(argv)
    from clauselens.config import Settings

    settings = Settings()
    ms = settings.model_for("interrogator")
    model_tag = str(ms.model).replace("/", "_")
    its = items()
    print(f"[support_verdicts] {len(its)} findings ({sum(i['supports'] for i in its)} labelled supported)",
          file=sys.stderr, flush=True)
    chat = None
    verdicts: dict[str, dict[str, str]] = {s: {} for s in STYLES}
    seconds: dict[str, list[float]] = {s: [] for s in STYLES}
    for style in STYLES:
        for n, it in enumerate(its, 1):
            f = _cache_file(model_tag, style, it)
            if f.exists():
                rec = json.loads(f.read_text())
            elif args.score_only or style not in args.styles:
                continue
            else:
                from clauselens.agents.interrogator import judge_support
                from clauselens.errors import ModelResponseError

                if chat is None:
                    from clauselens.agents.resources import ModelPool

                    chat = ModelPool(settings).model("interrogator")
                t0 = time.perf_counter()
                try:
                    v, _ = judge_support(it["claim"], it["quote"], it["location"], model=chat, model_settings=ms,
                                         style=style)
                    rec = {"verdict": v.verdict, "reason": v.reason}
                except ModelResponseError as e:
                    rec = {"verdict": "error", "reason": str(e)[:200]}
                rec["seconds"] = round(time.perf_counter() - t0, 1)
                f.parent.mkdir(parents=True, exist_ok=True)
                f.write_text(json.dumps(rec, indent=1))
                print(f"[support_verdicts] {style} {n}/{len(its)} {it['run']}:{it['key']} label={it['supports']} "
                      f"-> {rec['verdict']} ({rec['seconds']} s)", file=sys.stderr, flush=True)
            verdicts[style][f"{it['run']}:{it['key']}"] = rec["verdict"]
            seconds[style].append(rec.get("seconds", 0.0))
    result = {
        "benchmark": "support_verdicts", "issue": 19,
        "command": "python -m benchmarks.support_verdicts" + (" --score-only" if args.score_only else ""),
        "versions": run_provenance(["llama-cpp-python", "langgraph"]), "model": model_tag, "runs": [t or "run1" for t in TAGS],
        "items": {"n": len(its), "labelled_supported": sum(i["supports"] for i in its),
                  "labelled_unsupported": sum(not i["supports"] for i in its)},
        "styles": score(its, verdicts),
        "seconds_per_call": {s: (sorted(v)[len(v) // 2] if v else None) for s, v in seconds.items()},
        "verdicts": verdicts,
    }
    RESULT.write_text(json.dumps(result, indent=1))
    print(json.dumps({k: result[k] for k in ("items", "styles", "seconds_per_call")}, indent=1))


if __name__ == "__main__":
    main()
