"""ContractNLI benchmark (Koreeda & Manning, Findings of EMNLP 2021): hypothesis -> label.

Usage (from the repo root; data read in place from ``../shared/data/contractnli``)::

    .venv/bin/python -m benchmarks.contractnli run --mode knn                     # full test set
    .venv/bin/python -m benchmarks.contractnli run --mode head                    # the committed NLI probe (#40)
    .venv/bin/python -m benchmarks.contractnli run --mode single-pass --sample 300 --seed 0 \
        --exemplars 1 --vote-weight 0.5
    .venv/bin/python -m benchmarks.contractnli run --mode gold-evidence --sample 90
    .venv/bin/python -m benchmarks.contractnli run --mode whole-contract --sample 90
    .venv/bin/python -m benchmarks.contractnli run --mode interrogator --sample 90
    .venv/bin/python -m benchmarks.contractnli tune-knn                            # dev only
    .venv/bin/python -m benchmarks.contractnli table                               # Markdown table

The pieces: :mod:`benchmarks.contractnli_store` (pairs, sampling, the resumable per-pair store),
:mod:`benchmarks.contractnli_modes` (the classifiers: ``knn``, ``single-pass``,
``gold-evidence``, ``whole-contract``, ``precedents``, ``prior``, ``interrogator``; offline levers)
and :mod:`benchmarks.contractnli_metrics` (scoring, failures counted as wrong).

Every (document, hypothesis) result is appended to
``benchmarks/results/contractnli_pairs/<variant>/<split>.jsonl`` as soon as it is known; a rerun
skips pairs already there (resumable). Each finished run writes
``benchmarks/results/contractnli_<variant>_<split>_<sample>.json`` with the command, versions
(:func:`clauselens.provenance.run_provenance`), sample and date.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Optional

import numpy as np
import typer

from benchmarks.contractnli_metrics import LABELS, SHORT, score
from benchmarks.contractnli_modes import (
    BenchContext,
    ExcludingBank,
    ask_fn,
    derive_levers,
    derive_turn_levers,
    make_gold_classifier,
    make_interrogator_classifier,
    make_precedents_classifier,
    make_prior_classifier,
    make_retrieval_classifier,
    make_whole_contract_classifier,
    variant_name,
)
from benchmarks.contractnli_store import DATA_DIR, REPO, RESULTS_DIR, all_pairs, pair_store, run_pairs, stratified_sample
from clauselens.agents.nli import NLIConfig, classify
from clauselens.config import Settings
from clauselens.provenance import run_provenance
from clauselens.retrieval.exemplars import encode_split_spans, load_contractnli

#: Distributions whose versions each result records (:func:`clauselens.provenance.run_provenance`).
PACKAGES = ("numpy", "scipy", "sentence-transformers", "torch", "llama-cpp-python", "langchain-core")

#: Published test-set numbers to compare against (PAKTON, Raptopoulos et al. 2025, ContractNLI
#: table; MODELS.md probe of the 1.5B model on this machine, 90 pairs, 30 per class).
REFERENCE_ROWS = [
    {"system": "PAKTON, Gemma-3-27B", "n": 2091, "accuracy": 0.8287},
    {"system": "PAKTON, Llama-3.3-70B", "n": 2091, "accuracy": 0.8217},
    {"system": "PAKTON, Mistral-7B", "n": 2091, "accuracy": 0.7032, "f1_weighted": 0.6789, "f1_C": 0.2469},
    {"system": "Saul-54B (fine-tuned)", "n": 2091, "accuracy": 0.7020},
    {"system": "MODELS.md probe, Qwen2.5-Coder-1.5B, gold evidence", "n": 90, "accuracy": 0.411},
    {"system": "MODELS.md probe, Qwen2.5-Coder-1.5B, whole contract", "n": 90, "accuracy": 0.273},
]

app = typer.Typer(add_completion=False, help="ContractNLI benchmark (failures counted as wrong).")


# ------------------------------------------------------------------------------ CLI
@app.command()
def run(
    mode: str = typer.Option("knn", help="knn | head | precedents | single-pass | gold-evidence | whole-contract | interrogator "
                             "| prior (head: the NLI head of issue #40 over the bank-ranked spans, when installed)"),
    split: str = typer.Option("test", help="test (evaluation) or dev (tuning; bank is leave-one-document-out)"),
    sample: Optional[int] = typer.Option(None, help="stratified sample size (default: all pairs)"),
    seed: int = typer.Option(0, help="sampling seed"),
    balanced: bool = typer.Option(False, help="equal pairs per label instead of proportional"),
    depth: int = typer.Option(3, help="retrieved spans shown / voting"),
    exemplars: int = typer.Option(0, help="few-shot precedents per label (single-pass)"),
    vote_weight: float = typer.Option(0.0, help="weight of the kNN vote vs the LLM label (knn forces 1)"),
    evidence_first: bool = typer.Option(True, "--evidence-first/--label-only"),
    question_last: bool = typer.Option(False, "--question-last", help="whole-contract: hypothesis after the contract "
                                       "(variant suffix -ql)"),
    abstain: Optional[float] = typer.Option(None, help="answer NotMentioned if best relevance is below this"),
    n_neighbours: int = typer.Option(10, help="kNN vote: neighbours per evidence span"),
    top_m: int = typer.Option(3, help="relevance: mean cosine to this many nearest evidence exemplars"),
    model: Optional[str] = typer.Option(None, help="chat model (default: settings; qwen2.5-coder-1.5b)"),
    embedder: Optional[str] = typer.Option(None, help="embedder name (default: settings; minilm)"),
    timeout: float = typer.Option(300.0, help="seconds per pair; a later answer counts as a timeout failure"),
    budget: Optional[float] = typer.Option(None, help="stop starting new pairs after this many seconds (resume later)"),
    write_result: bool = typer.Option(True, help="write benchmarks/results/contractnli_*.json (``*_partial.json`` until every pair is done)"),
    precedents: bool = typer.Option(False, "--precedents", help="interrogator: add the Researcher's precedents tool "
                                    "(bank = dev.json; evaluating on test only) with its vote in the label"),
) -> None:
    """Run (or resume) one mode on a split or a stratified sample of it; print the scores."""
    settings = Settings()
    if question_last and mode != "whole-contract":
        raise typer.BadParameter("--question-last is for --mode whole-contract")
    if precedents:
        if mode != "interrogator" or split == "dev":
            raise typer.BadParameter("--precedents is for --mode interrogator on the test split (the bank is dev.json)")
        settings = settings.with_precedent_bank(DATA_DIR / "dev.json")
    if model:
        settings = settings.with_model(model=model)
    if embedder:
        settings = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"embedder": embedder})})
    model_name = settings.interrogator_model.model
    ctx = BenchContext(settings, split)
    pairs = stratified_sample(all_pairs(ctx.split), sample, seed, balanced=balanced)
    cfg: NLIConfig | None = None
    if mode == "head":  # issue #40: the NLI head over the spans the bank ranks (no model call)
        cfg = NLIConfig(depth=depth, head=True, vote_weight=1.0)
        clf = make_retrieval_classifier(ctx, cfg, None, top_m=top_m)
        model_name = None
    elif mode == "knn":
        cfg = NLIConfig(depth=depth, vote_weight=1.0, abstain_below=abstain, n_neighbours=n_neighbours)
        clf = make_retrieval_classifier(ctx, cfg, None, top_m=top_m)
        model_name = None
    elif mode in ("single-pass", "gold-evidence", "whole-contract"):
        from clauselens.llm import get_chat_model

        chat = get_chat_model(settings.interrogator_model, settings.models_dir)
        ask = ask_fn(chat, settings)
        if mode == "single-pass":
            cfg = NLIConfig(depth=depth, exemplars=exemplars, vote_weight=vote_weight, evidence_first=evidence_first,
                            abstain_below=abstain, n_neighbours=n_neighbours)
            clf = make_retrieval_classifier(ctx, cfg, ask, top_m=top_m)
        elif mode == "gold-evidence":
            clf = make_gold_classifier(ctx, ask, evidence_first)
        else:
            clf = make_whole_contract_classifier(ctx, chat, ask, evidence_first, question_last)
    elif mode == "prior":
        clf = make_prior_classifier(ctx)
        model_name = None
    elif mode == "interrogator":
        clf = make_interrogator_classifier(ctx)
    elif mode == "precedents":
        if split == "dev":
            raise typer.BadParameter("precedents mode uses dev.json as its bank: evaluate on test")
        clf = make_precedents_classifier(ctx)
        model_name = None
    else:
        raise typer.BadParameter(f"unknown mode {mode!r}")
    emb = settings.retrieval.embedder if mode in ("knn", "single-pass", "head") else None
    # one-time loads (model file, dev bank) happen here, not inside the first pair's timed call
    if mode in ("knn", "single-pass", "head"):
        _ = ctx.bank
    if mode in ("single-pass", "gold-evidence", "whole-contract"):
        from clauselens.llm.structured import count_tokens

        count_tokens(chat, "warm up")
    variant = variant_name(mode if mode != "gold-evidence" and mode != "whole-contract" else
                           f"{mode}-{'ef' if evidence_first else 'lo'}{'-ql' if question_last else ''}",
                           cfg, model_name, emb, top_m)
    if precedents:
        variant += f"_prec-w{settings.retrieval.precedent_vote_weight:g}"
    if mode == "head" or (mode == "interrogator" and not precedents):
        # which probe labels (issue #40: ``ask --mode nli`` uses it too, unless precedents vote): its weights' checksum
        from clauselens.heads.nli_probe import load_or_none

        probe = load_or_none()
        variant += f"_nli-probe-{probe.meta['sha256'][:8]}" if probe is not None else ("_no-probe" if mode == "head" else "")
    if mode == "precedents":
        r_ = settings.retrieval
        emb = r_.embedder
        variant = (f"precedents_{emb}_d{r_.precedent_depth}-m{r_.precedent_top_m}-nn{r_.precedent_neighbours}"
                   f"-ab{r_.precedent_abstain}")
    store = pair_store(variant, split)
    t0 = time.time()

    def prog(i: int, n: int, rec: dict) -> None:
        if i % 25 == 0 or i == n or mode not in ("knn",):
            el = time.time() - t0
            print(f"[{variant}] {i}/{n} {rec['key']} gold={SHORT[rec['gold']]} pred={rec.get('pred')} "
                  f"status={rec['status']} {rec['seconds']:.1f}s (elapsed {el:.0f}s)", flush=True)

    recs = run_pairs(pairs, clf, store, timeout_s=timeout, budget_s=budget, progress=prog)
    complete = len(recs) == len(pairs)
    m = score(recs.values())
    print(json.dumps({k: m[k] for k in ("n", "accuracy", "accuracy_ci95", "f1_weighted", "f1", "failures")}, indent=1))
    print("confusion (rows gold, cols pred):", json.dumps(m["confusion"]))
    if not complete:
        print(f"incomplete: {len(recs)}/{len(pairs)} pairs done; rerun the same command to resume")
    if write_result and recs:
        secs = [r["seconds"] for r in recs.values()]
        out = {
            "benchmark": "contractnli", "variant": variant, "mode": mode, "split": split,
            "config": asdict(cfg) if cfg else {"evidence_first": evidence_first,
                                               **({"question_last": True} if question_last else {})},
            "model": model_name, "embedder": emb, "top_m": top_m if emb else None,
            "sample": {"size": len(pairs), "seed": seed if sample else None, "balanced": balanced,
                       "stratified": bool(sample), "of": len(all_pairs(ctx.split)),
                       "gold_counts": {SHORT[lab]: sum(p.gold == lab for p in pairs) for lab in LABELS}},
            "metrics": m, "seconds_per_pair_mean": float(np.mean(secs)) if secs else None,
            "seconds_per_pair_median": float(np.median(secs)) if secs else None,
            "command": "python -m benchmarks.contractnli " + " ".join(sys.argv[1:]),
            "versions": run_provenance(PACKAGES), "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "store": str(store.path.relative_to(REPO)),
            # an incomplete run scores the pairs done so far (in sample order: whole documents
            # first), which is not itself a stratified sample; the table marks such rows
            "partial": None if complete else {"done": len(recs), "of": len(pairs)},
        }
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        tag = f"{split}_{'all' if not sample else f'n{len(pairs)}s{seed}' + ('b' if balanced else '')}"
        f = RESULTS_DIR / f"contractnli_{variant}_{tag}.json"
        f_partial = f.with_name(f.stem + "_partial.json")
        if complete:
            f_partial.unlink(missing_ok=True)
        else:
            f = f_partial
        f.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {f.relative_to(REPO)}")


@app.command("tune-knn")
def tune_knn(
    depths: str = typer.Option("1,2,3,5"), neighbours: str = typer.Option("5,10,20"), top_ms: str = typer.Option("1,3,5"),
    abstains: str = typer.Option("none,0.3,0.35,0.4,0.45,0.5"), embedder: Optional[str] = typer.Option(None),
) -> None:
    """Grid-search the kNN mode on **dev** only, leave-one-document-out (a document's own
    exemplars are hidden from it). Writes ``benchmarks/results/contractnli_knn_dev_tuning.json``."""
    settings = Settings()
    if embedder:
        settings = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"embedder": embedder})})
    ctx = BenchContext(settings, "dev")
    pairs = all_pairs(ctx.split)
    vecs = encode_split_spans(ctx.split, ctx.encode)
    ctx._vecs = vecs
    grid = []
    for m in (int(x) for x in top_ms.split(",")):
        rels = {(p.doc_id, p.hypothesis_id): ctx.bank.relevance(p.hypothesis_id, vecs[p.doc_id], top_m=m,
                                                                 exclude_doc=p.doc_id) for p in pairs}
        for k in (int(x) for x in depths.split(",")):
            for nn in (int(x) for x in neighbours.split(",")):
                for ab in abstains.split(","):
                    cfg = NLIConfig(depth=k, vote_weight=1.0, n_neighbours=nn,
                                    abstain_below=None if ab == "none" else float(ab))
                    recs = []
                    for p in pairs:
                        d = ctx.docs[p.doc_id]
                        dec = classify("", d.span_texts(), rels[(p.doc_id, p.hypothesis_id)], cfg,
                                       bank=ExcludingBank(ctx.bank, p.doc_id), hypothesis_id=p.hypothesis_id,
                                       passage_vectors=vecs[p.doc_id])
                        recs.append({"gold": p.gold, "pred": dec.label, "status": "ok"})
                    sc = score(recs, n_boot=0)
                    grid.append({"top_m": m, "depth": k, "n_neighbours": nn, "abstain": cfg.abstain_below,
                                 "accuracy": sc["accuracy"], "f1_weighted": sc["f1_weighted"], "f1": sc["f1"]})
                    print(json.dumps(grid[-1]), flush=True)
    best = max(grid, key=lambda g: (g["accuracy"], g["f1_weighted"]))
    out = {"benchmark": "contractnli", "what": "kNN-vote grid on dev, leave-one-document-out", "split": "dev",
           "n": len(pairs), "embedder": ctx.encoder_name, "best": best, "grid": grid,
           "command": "python -m benchmarks.contractnli " + " ".join(sys.argv[1:]), "versions": run_provenance(PACKAGES),
           "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / f"contractnli_knn_dev_tuning_{ctx.encoder_name}.json").write_text(json.dumps(out, indent=1) + "\n")
    print("best:", json.dumps(best))


@app.command()
def levers(
    variant: str = typer.Option(..., help="store directory name of a single-pass or interrogator run"),
    sample: Optional[int] = typer.Option(None), seed: int = typer.Option(0), balanced: bool = typer.Option(False),
    split: str = typer.Option("test"),
    exclude_sample: Optional[int] = typer.Option(
        None, help="drop the pairs of the stratified sample of this size (same seed): score a lever chosen "
                   "on that smaller sample on held-out pairs only"),
    partial: bool = typer.Option(False, help="score the pairs done so far of an incomplete run (file *_partial.json)"),
) -> None:
    """Vote-weight and abstention levers, derived offline from one single-pass or interrogator
    run on its exact sample (no new model calls); for an interrogator run also ``max_turns``
    1..3 (:func:`derive_turn_levers`). Lever values are fixed in advance (abstain 0.7 comes
    from the dev kNN tuning), not picked on test. Writes ``contractnli_levers_*.json``."""
    split_obj = load_contractnli(DATA_DIR / f"{split}.json")
    pairs = stratified_sample(all_pairs(split_obj), sample, seed, balanced=balanced)
    if exclude_sample:
        seen = {p.key for p in stratified_sample(all_pairs(split_obj), exclude_sample, seed, balanced=balanced)}
        pairs = [p for p in pairs if p.key not in seen]
    done = pair_store(variant, split).load()
    recs = [done[p.key] for p in pairs if p.key in done]
    if len(recs) < len(pairs) and not partial:
        raise typer.BadParameter(f"{variant}: only {len(recs)}/{len(pairs)} pairs of this sample are done "
                                 "(--partial scores those)")
    rows = derive_levers(recs)
    turn_rows = derive_turn_levers(recs) if any((r.get("detail") or {}).get("turn_labels") for r in recs) else []
    for r in turn_rows:
        m = r["metrics"]
        print(f"max_turns={r['max_turns']}: acc {m['accuracy']:.3f} [{m['accuracy_ci95'][0]:.3f}, "
              f"{m['accuracy_ci95'][1]:.3f}] on {m['n']} (underivable {r['underivable']}) F1w {m['f1_weighted']:.3f} "
              f"calls {r['mean_llm_calls']:.1f} s {r['mean_seconds']:.0f} cm {json.dumps(m['confusion'])}")
    for r in rows:
        m = r["metrics"]
        print(f"w={r['vote_weight']:.1f} abstain={r['abstain']}: acc {m['accuracy']:.3f} "
              f"[{m['accuracy_ci95'][0]:.3f}, {m['accuracy_ci95'][1]:.3f}] F1w {m['f1_weighted']:.3f} "
              f"F1 {m['f1']} fails {m['failures']['total']} cm {json.dumps(m['confusion'])}")
    tag = f"{split}_{'all' if not sample else f'n{sample}s{seed}' + ('b' if balanced else '')}"
    if exclude_sample:
        tag += f"_minus_n{exclude_sample}"
    if len(recs) < len(pairs):
        tag += "_partial"
    out = {"benchmark": "contractnli", "what": "levers derived offline from one stored run", "variant": variant,
           "split": split, "sample": {"size": len(pairs), "seed": seed, "balanced": balanced,
                                      "drawn": sample, "excluded_sample": exclude_sample, "done": len(recs)}, "rows": rows,
           "turn_rows": turn_rows,
           "command": "python -m benchmarks.contractnli " + " ".join(sys.argv[1:]), "versions": run_provenance(PACKAGES),
           "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    f = RESULTS_DIR / f"contractnli_levers_{variant}_{tag}.json"
    f.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {f.relative_to(REPO)}")


def _fmt_ci(ci: list[float] | None) -> str:
    return f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""


@app.command()
def table(results_dir: Path = typer.Option(RESULTS_DIR)) -> None:
    """Print the Markdown table of every ``contractnli_*.json`` result next to the reference rows."""
    rows = []
    for f in sorted(Path(results_dir).glob("contractnli_*.json")):
        r = json.loads(f.read_text())
        if "metrics" not in r or r.get("split") != "test":
            continue
        m = r["metrics"]
        fails = m["failures"]["total"]
        part = r.get("partial")
        name = r["variant"] + (f" (partial: {part['done']} of {part['of']})" if part else "")
        rows.append(f"| {name} | {m['n']} | {m['accuracy']:.3f}{_fmt_ci(m['accuracy_ci95'])} | "
                    f"{m['f1_weighted']:.3f}{_fmt_ci(m.get('f1_weighted_ci95'))} | {m['f1']['E']:.3f} | "
                    f"{m['f1']['C']:.3f} | {m['f1']['N']:.3f} | {fails} |")
    print("| system | pairs | accuracy [95% CI] | F1 weighted [95% CI] | F1 E | F1 C | F1 N | failures |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    for ref in REFERENCE_ROWS:
        fw = f"{ref['f1_weighted']:.4f}" if "f1_weighted" in ref else "–"
        fc = f"{ref['f1_C']:.4f}" if "f1_C" in ref else "–"
        fails = "dropped, not counted" if ref["system"].startswith(("PAKTON", "Saul")) else "–"
        print(f"| {ref['system']} (reported) | {ref['n']} | {ref['accuracy']:.4f} | {fw} | – | {fc} | – | {fails} |")


if __name__ == "__main__":
    app()
