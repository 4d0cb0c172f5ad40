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

-> ``benchmarks/results/support_verdicts.json``. ``--head`` scores the support head instead (issue #40;
no model; at its shipped threshold and at one chosen by leave-one-label-file-out) ->
``benchmarks/results/support_verdicts_head.json``. The labels were written before either style was
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
from typing import Any, Iterator

from benchmarks.answers_e2e import LABELS, OUT, _finding_issue, _label
from benchmarks.clause_qa import rate
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "support_verdicts"
RESULT = REPO / "benchmarks" / "results" / "support_verdicts.json"
#: The labelled runs (answers_e2e tags; "" is run 1), in the order they were run.
TAGS = ("", "run2", "run3", "holdout1", "rest1", "new1", "new2", "new3")
STYLES = ("reason", "evidence")
#: The label files the support head is cross-validated over (every labelled run with its result file).
HEAD_TAGS = TAGS + ("holdout1-fix", "new1-fix", "new4")
HEAD_RESULT = REPO / "benchmarks" / "results" / "support_verdicts_head.json"
#: The share of labelled-supported claims a threshold may reject (issue #40's target).
MAX_TRUE_REJECTED = 0.15


def labelled_findings(tags: tuple[str, ...]) -> Iterator[tuple[str, dict[str, Any], str, dict[str, Any], bool]]:
    """``(tag, row, key, finding, label)`` of every hand-labelled key finding with a citation (a finding that is
    only a question is left out), over the ``answers_e2e`` runs ``tags``."""
    for tag in tags:
        rows = json.loads((OUT.with_name(f"answers_e2e_{tag}.json") if tag else OUT).read_text())["rows"]
        labels = json.loads((LABELS.with_name(f"answers_e2e_labels_{tag}.json") if tag else LABELS).read_text())
        for r in rows:
            for i, f in enumerate(r["findings"]):
                key = f"{r['id']}#{i}"
                lab = _label(labels, key, f["statement"])
                if lab is None or not f["citations"] or f["statement"].rstrip().endswith("?"):
                    continue
                yield tag, r, key, f, lab


def items(tags: tuple[str, ...] = TAGS) -> list[dict[str, Any]]:
    """The findings the model's verdict decides on: ``{run, key, claim, quote, location, supports}``."""
    return [{"run": tag or "run1", "key": key, "claim": f["statement"], "quote": " ".join(c["quote"] for c in f["citations"]),
             "location": "; ".join(dict.fromkeys(c["clause_ref"] or "?" for c in f["citations"])), "supports": lab}
            for tag, r, key, f, lab in labelled_findings(tags) if _finding_issue(f, r) is None]


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


def head_threshold(scored: list[tuple[dict[str, Any], float]]) -> float:
    """The highest threshold on P(supports) that rejects at most :data:`MAX_TRUE_REJECTED` of the
    labelled-supported items in ``scored`` (fewest unsupported claims passed under that bound)."""
    true = sorted(p for it, p in scored if it["supports"])
    if not true:
        return 0.5
    allowed = int(MAX_TRUE_REJECTED * len(true))  # this many may fall below the threshold
    return float(true[allowed]) if allowed < len(true) else 1.0


def _lofo(scored: list[tuple[dict[str, Any], float]]) -> tuple[list[tuple[dict[str, Any], float, bool]], dict[str, Any]]:
    """Leave-one-label-file-out: each file's items judged at :func:`head_threshold` of the other files (items whose
    claim text also occurs in the held-out file are left out of its training side)."""
    held: list[tuple[dict[str, Any], float, bool]] = []
    by_file: dict[str, Any] = {}
    for run in dict.fromkeys(it["run"] for it, _ in scored):
        test = [(it, p) for it, p in scored if it["run"] == run]
        claims = {it["claim"].strip() for it, _ in test}
        t = head_threshold([(it, p) for it, p in scored if it["run"] != run and it["claim"].strip() not in claims])
        res = [(it, p, p >= t) for it, p in test]
        held += res
        by_file[run] = {"threshold": round(t, 4), **_verdict_rates([(it, ok) for it, _, ok in res], brief=True)}
    return held, by_file


def _verdict_rates(judged: list[tuple[dict[str, Any], bool]], brief: bool = False) -> dict[str, Any]:
    """Accuracy, unsupported claims passed and supported claims rejected of ``(item, passed)`` (Wilson 95 %)."""
    from benchmarks.grid_user_questions import wilson

    false = [ok for it, ok in judged if not it["supports"]]
    true = [ok for it, ok in judged if it["supports"]]
    acc = sum(ok == it["supports"] for it, ok in judged)
    if brief:
        return {"items": len(judged), "accuracy": f"{acc}/{len(judged)}", "unsupported_passed": f"{sum(false)}/{len(false)}",
                "supported_rejected": f"{sum(not ok for ok in true)}/{len(true)}"}

    def r(x: int, n: int) -> dict[str, Any]:
        return {"x": x, "n": n, "rate": round(x / n, 4) if n else None, "wilson95": wilson(x, n)}
    return {"accuracy": r(acc, len(judged)), "unsupported_passed": r(sum(false), len(false)),
            "supported_rejected": r(sum(not ok for ok in true), len(true))}


#: Fixed thresholds on P(supports) of the operating curve (the same grid for every head).
CURVE_THRESHOLDS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98)


def operating_curve(scored: list[tuple[dict[str, Any], float]]) -> list[dict[str, Any]]:
    """Unsupported claims passed and supported claims rejected at each of :data:`CURVE_THRESHOLDS` (Wilson 95 %):
    how the head trades the two errors, not a threshold choice."""
    return [{"threshold": t, **{k: v for k, v in _verdict_rates([(it, p >= t) for it, p in scored]).items()
                                if k != "accuracy"}} for t in CURVE_THRESHOLDS]


def load_verdict_head(name: str, root: Path | None) -> Any:
    """Head ``name`` (``support``: the logistic head; ``support_ce``: the cross-encoder) from weights ``root``."""
    if name == "support_ce":
        from clauselens.heads.support_ce import SupportCrossEncoder

        return SupportCrossEncoder(root).load()
    from clauselens.heads.support import load_head

    return load_head(root)


def nli_auc(its: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    """Diagnostic: AUC on the labelled items of a 3-way ContractNLI cross-encoder's P(Entailment) of (quote, claim)
    (``heads.train_nli``'s model, trained on ContractNLI dev; labels in its config's order, Entailment first)."""
    from sentence_transformers.cross_encoder import CrossEncoder
    from sklearn.metrics import roc_auc_score

    m = CrossEncoder(str(path), device="cpu", local_files_only=True)
    p = m.predict([(it["quote"], it["claim"]) for it in its], batch_size=16, apply_softmax=True, show_progress_bar=False)
    return {"model": str(path), "p_entailment_auc": round(float(roc_auc_score([int(it["supports"]) for it in its], p[:, 0])), 4)}


def head_main(name: str = "support", root: Path | None = None, nli: Path | None = None) -> dict[str, Any]:
    """The support head (issue #40, ``clauselens.heads.support`` or ``support_ce``: trained on ContractNLI dev and
    CUAD train_allowed data only, threshold chosen on held-out training documents) on every labelled finding the
    deterministic checks pass: at its shipped threshold (every label file is held out), and at a threshold chosen by
    leave-one-label-file-out (:func:`_lofo`); the operating curve; beside the 1.5B's recorded verdicts on the same
    items and "always supports"."""
    from sklearn.metrics import roc_auc_score

    head = load_verdict_head(name, root)
    its = items(HEAD_TAGS)
    t0 = time.process_time()
    scores = [head.support(it["claim"], it["quote"]) for it in its]
    cpu = time.process_time() - t0
    scored = list(zip(its, scores))
    shipped = [(it, p >= head.threshold) for it, p in scored]
    held, by_file = _lofo(scored)
    runs = list(dict.fromkeys(it["run"] for it in its))
    diagnostic = {}
    if name == "support_ce" and head.meta.get("stack"):  # the cross-encoder's logit alone (not the chosen verdict)
        z = head.logits([it["claim"] for it in its], [it["quote"] for it in its])
        diagnostic = {"logit_alone_auc": round(float(roc_auc_score([int(it["supports"]) for it in its], z)), 4)}
    if nli is not None:
        diagnostic["contractnli_cross_encoder"] = nli_auc(its, nli)
    llm = json.loads(RESULT.read_text())["verdicts"]["reason"]
    llm_items = [(it, llm[f"{it['run']}:{it['key']}"] == "supports") for it in its if f"{it['run']}:{it['key']}" in llm]
    llm_keys = {f"{it['run']}:{it['key']}" for it, _ in llm_items}
    y = [int(it["supports"]) for it in its]
    return {
        "benchmark": "support_verdicts --head", "issue": 40,
        "head": {"support": "clauselens.heads.support (logistic regression over lexical + MiniLM-cosine pair features; "
                            "trained by clauselens.heads.train_support, no hand label used)",
                 "support_ce": "clauselens.heads.support_ce (MiniLM cross-encoder (claim, quote) -> P(supports); trained "
                               "by clauselens.heads.train_support_ce on train_support's pairs, no hand label used)"}[name],
        "head_root": str(root) if root else "clauselens/heads/weights",
        "head_sha256": head.meta.get("sha256"), "shipped_threshold": head.threshold,
        "runs": runs, "items": {"n": len(its), "labelled_supported": sum(y), "labelled_unsupported": len(y) - sum(y)},
        "auc": round(float(roc_auc_score(y, scores)), 4),
        "shipped_threshold_all_files_held_out": {**_verdict_rates(shipped),
                                                 "by_file": {r: _verdict_rates([(it, ok) for it, ok in shipped if it["run"] == r],
                                                                               brief=True) for r in runs}},
        "threshold_rule_lofo": f"highest threshold rejecting at most {MAX_TRUE_REJECTED:.0%} of the other files' supported items",
        "cross_validation_by_label_file": {**_verdict_rates([(it, ok) for it, _, ok in held]), "by_file": by_file},
        "same_items_as_the_1.5b": {
            "n": len(llm_items), "llm_1.5b_reason_style": _verdict_rates(llm_items),
            "head_shipped_threshold": _verdict_rates([(it, ok) for it, ok in shipped if f"{it['run']}:{it['key']}" in llm_keys]),
            "head_lofo": _verdict_rates([(it, ok) for it, _, ok in held if f"{it['run']}:{it['key']}" in llm_keys])},
        "always_supports": _verdict_rates([(it, True) for it in its]),
        "operating_curve": operating_curve(scored), **diagnostic,
        "cpu_ms_per_item": round(1000 * cpu / max(1, len(its)), 1),
        "scores": {f"{it['run']}:{it['key']}": {"p": round(p, 4), "supports": it["supports"]} for it, p in scored},
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--score-only", action="store_true", help="no model: score the cached verdicts")
    ap.add_argument("--styles", nargs="+", choices=STYLES, default=list(STYLES))
    ap.add_argument("--head", action="store_true", help="the support head instead of the model (issue #40)")
    ap.add_argument("--head-name", choices=("support", "support_ce"), default="support",
                    help="which head: the logistic one or the cross-encoder")
    ap.add_argument("--head-root", type=Path, default=None, help="weights root of the head (default: the installed)")
    ap.add_argument("--out", type=Path, default=None, help="result JSON (default: support_verdicts_head[_ce].json)")
    ap.add_argument("--nli-model", type=Path, default=None,
                    help="diagnostic: also the AUC of this 3-way ContractNLI CrossEncoder's P(Entailment)")
    args = ap.parse_args(argv)
    if args.head:
        res = head_main(args.head_name, args.head_root, args.nli_model)
        res["command"] = "python -m benchmarks.support_verdicts --head" + (
            f" --head-name {args.head_name}" if args.head_name != "support" else "") + (
            f" --head-root {args.head_root}" if args.head_root else "") + (
            f" --nli-model {args.nli_model}" if args.nli_model else "")
        res["versions"] = run_provenance(["torch", "transformers"])
        out = args.out or (HEAD_RESULT if args.head_name == "support" else HEAD_RESULT.with_name("support_verdicts_head_ce.json"))
        out.write_text(json.dumps(res, indent=1) + "\n")
        print(json.dumps({k: res[k] for k in ("items", "auc", "shipped_threshold_all_files_held_out",
                                             "cross_validation_by_label_file", "same_items_as_the_1.5b")}, indent=1))
        return
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
