"""Train the query adapter (:mod:`clauselens.heads.query_adapter`, issue #39) on ``train_allowed`` data only.

The adapter is a residual linear map on the question's all-MiniLM-L6-v2 vector, ``q' = norm(q + A q)``
with ``A`` initialised to zero, trained so that a question in everyday words lands near the passage
that answers it *within its agreement* -- the ranking the library's dense channel does. Passage
vectors are not touched, so a stored library needs no re-embedding (a query-side adapter, as in
"asymmetric" dual encoders; the loss is the softmax over a positive and its hard negatives of DPR,
Karpukhin et al. 2020, with the multiple-positive form of Khattab & Zaharia's ColBERT training).

Data (no question file of any evaluation or development set is read):

* the CUAD clause groups of :mod:`clauselens.library.head_pairs` (``train_allowed`` agreements;
  positives = passages overlapping an annotated clause of the category, hard negatives = the
  agreement's BM25 near misses and one random passage), each asked by its category phrasing and by
  :data:`TOPIC_QUESTIONS_PER_GROUP` of the 1.5B's everyday questions for that category
  (:mod:`clauselens.heads.topic_questions`);
* the 1.5B's questions for sampled ``train_allowed`` passages (:mod:`clauselens.heads.synthetic`):
  positive = the passage, negatives = the agreement's BM25 near misses for the question.

Agreements are split as the head pairs are (``split_keys``, 10 % validation); the validation
agreements choose the number of epochs (best validation MRR of the positive among its group) and
are reported; the adapter written is the best checkpoint. Training runs with the transformers
``Trainer`` on precomputed vectors (seconds per epoch), resumable from its checkpoints; vectors
are cached by the library's embedder cache. Run::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m clauselens.library.train_query_adapter

It writes the adapter under ``~/.cache/clauselens/heads/query_adapter/head/query_adapter/`` (``--head-root``);
``benchmarks/clause_qa.py --query-adapter <head-root>`` measures it. None is committed: the one trained
so far did not hold across the development sets (docs/BENCHMARKS.md, issue #39).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.base import head_dir, sha256_file
from clauselens.heads.query_adapter import META_FILE, NAME, WEIGHT_FILE

CACHE = Path.home() / ".cache" / "clauselens"
GROUPS = CACHE / "heads" / "reranker" / "pairs" / "groups.jsonl"
OUT = CACHE / "heads" / NAME
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.library.train_query_adapter")
TOPIC_QUESTIONS_PER_GROUP = 4
PASSAGE_NEGATIVES = 5
MAX_CANDIDATES = 8


def _topic_questions() -> dict[str, list[str]]:
    from clauselens.heads.topic_questions import OUT as TOPIC_FILE
    from clauselens.heads.topic_questions import read

    out: dict[str, list[str]] = {}
    for f in sorted(TOPIC_FILE.parent.glob(TOPIC_FILE.stem + "*.jsonl")):
        for it in read(f):
            out.setdefault(it["label"], []).extend(it["questions"])
    return out


def group_examples(groups: Path = GROUPS) -> list[dict[str, Any]]:
    """One example per (question, group): ``{"query", "texts", "labels", "split", "source"}``."""
    topic = _topic_questions()
    rows: list[dict[str, Any]] = []
    for line in groups.read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        pairs = g["pairs"][:MAX_CANDIDATES]
        if g.get("absent") or not any(p["label"] > 0 for p in pairs):
            continue
        texts, labels = [p["text"] for p in pairs], [float(p["label"]) for p in pairs]
        pool = topic.get(g["category"], [])
        rng = random.Random(zlib.crc32(f"{g['contract']}|{g['category']}".encode()))
        qs = [g["query"]] + (rng.sample(pool, min(TOPIC_QUESTIONS_PER_GROUP, len(pool))) if pool else [])
        rows += [{"query": q, "texts": texts, "labels": labels, "split": g["split"], "source": "cuad_groups"} for q in qs]
    return rows


def passage_examples(val_keys: set[str]) -> list[dict[str, Any]]:
    """The 1.5B's passage questions, each with its passage and the agreement's BM25 near misses."""
    from clauselens.heads.synthetic import CACHE as SYNTH
    from clauselens.library.head_pairs import DATA, bm25_order, name_key, overlaps, passages_or_skip
    from clauselens.retrieval.analyzer import LegalAnalyzer

    questions = SYNTH / "questions.jsonl"
    if not questions.is_file():
        return []
    analyzer, rows = LegalAnalyzer(), []
    corpus = DATA / "legalbench-rag" / "corpus" / "cuad"
    for line in questions.read_text(encoding="utf-8").splitlines():
        try:
            it = json.loads(line)
        except json.JSONDecodeError:
            continue
        cp = passages_or_skip(corpus / it["file"], NAME) if it.get("kept") else None
        if cp is None:
            continue
        span = (int(it["span"][0]), int(it["span"][1]))
        pos = [i for i, s in enumerate(cp.spans) if overlaps(s, [span])][:2]
        if not pos:
            continue
        for q in it["kept"]:
            neg = [i for i in bm25_order(cp.texts, q, analyzer) if i not in pos][:PASSAGE_NEGATIVES]
            rows.append({"query": q, "texts": [cp.texts[i] for i in pos + neg],
                         "labels": [1.0] * len(pos) + [0.0] * len(neg),
                         "split": "val" if name_key(it["file"]) in val_keys else "train", "source": "passage_questions"})
    return rows


def val_keys() -> set[str]:
    from clauselens.library.head_pairs import allowed_rows, name_key, split_keys

    return split_keys([name_key(r["Filename"]) for r, _ in allowed_rows()], 0.1, 39)


def vectorise(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Query vectors (n, d), candidate vectors (n, C, d), labels (n, C) and a candidate mask (n, C)."""
    from clauselens.retrieval.embedders import get_embedder

    emb = get_embedder("minilm", CACHE)
    qv = emb.embed_queries([r["query"] for r in rows])
    texts = list(dict.fromkeys(t for r in rows for t in r["texts"]))
    tv = dict(zip(texts, emb.embed_passages(texts)))
    n, c, d = len(rows), max(len(r["texts"]) for r in rows), qv.shape[1]
    cand, lab, mask = np.zeros((n, c, d), np.float32), np.zeros((n, c), np.float32), np.zeros((n, c), np.float32)
    for i, r in enumerate(rows):
        k = len(r["texts"])
        cand[i, :k] = np.stack([tv[t] for t in r["texts"]])
        lab[i, :k], mask[i, :k] = r["labels"], 1.0
    return qv.astype(np.float32), cand, lab, mask


def _model(dim: int, scale: float) -> Any:
    import torch
    from torch import nn

    class Adapter(nn.Module):
        """``norm(q + A q)`` scored against each candidate; loss = -log of the softmax mass on the positives."""

        def __init__(self) -> None:
            super().__init__()
            self.linear = nn.Linear(dim, dim, bias=False)
            nn.init.zeros_(self.linear.weight)

        def forward(self, q: Any, cand: Any, labels: Any, mask: Any) -> dict[str, Any]:
            qa = nn.functional.normalize(q + self.linear(q), dim=-1)
            s = scale * torch.einsum("bd,bcd->bc", qa, cand)
            s = s.masked_fill(mask == 0, -1e4)
            pos = s.masked_fill(labels == 0, -1e4)
            loss = (torch.logsumexp(s, -1) - torch.logsumexp(pos, -1)).mean()
            return {"loss": loss, "logits": s}

    return Adapter()


def mrr(qv: np.ndarray, cand: np.ndarray, lab: np.ndarray, mask: np.ndarray, a: np.ndarray | None) -> float:
    """Mean reciprocal rank of the best-ranked positive among each example's candidates."""
    q = qv if a is None else qv + qv @ a.T
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    s = np.einsum("bd,bcd->bc", q, cand)
    s[mask == 0] = -np.inf
    best_pos = np.where(lab > 0, s, -np.inf).max(1)
    rank = 1 + ((s > best_pos[:, None]) & (lab == 0) & (mask > 0)).sum(1)
    return float(np.mean(1.0 / rank))


def train(rows: list[dict[str, Any]], out: Path, *, epochs: int, lr: float, weight_decay: float, scale: float,
          batch: int = 64, seed: int = 39) -> dict[str, Any]:
    """Fit with the transformers ``Trainer`` (resumable from ``out/checkpoints``); returns metrics per epoch."""
    import torch
    from transformers import Trainer, TrainingArguments, set_seed
    from transformers.trainer_utils import get_last_checkpoint

    set_seed(seed)
    arrays = {s: vectorise([r for r in rows if r["split"] == s]) for s in ("train", "val")}

    class Data(torch.utils.data.Dataset):
        def __init__(self, qv: np.ndarray, cand: np.ndarray, lab: np.ndarray, mask: np.ndarray) -> None:
            self.t = [torch.from_numpy(x) for x in (qv, cand, lab, mask)]

        def __len__(self) -> int:
            return len(self.t[0])

        def __getitem__(self, i: int) -> dict[str, Any]:
            return dict(zip(("q", "cand", "labels", "mask"), (x[i] for x in self.t)))

    tr, va = Data(*arrays["train"]), Data(*arrays["val"])
    model = _model(arrays["train"][0].shape[1], scale)
    ckpt = out / f"checkpoints-e{epochs}-lr{lr}-wd{weight_decay}-s{scale}"  # one run per setting, resumable
    args = TrainingArguments(output_dir=str(ckpt), num_train_epochs=epochs, per_device_train_batch_size=batch,
                             per_device_eval_batch_size=256, learning_rate=lr, weight_decay=weight_decay,
                             eval_strategy="epoch", save_strategy="epoch", logging_strategy="epoch",
                             save_total_limit=epochs, report_to=[], use_cpu=True, seed=seed,
                             dataloader_num_workers=0, label_names=["labels"])
    trainer = Trainer(model=model, args=args, train_dataset=tr, eval_dataset=va)
    last = get_last_checkpoint(str(ckpt)) if ckpt.is_dir() else None
    trainer.train(resume_from_checkpoint=last)
    history = [h for h in trainer.state.log_history if "epoch" in h]
    curve: list[dict[str, Any]] = []
    best: tuple[float, np.ndarray | None, float] = (mrr(*arrays["val"], None), None, 0.0)
    from safetensors.torch import load_file

    for c in sorted(ckpt.glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1])):
        a = load_file(str(c / "model.safetensors"))["linear.weight"].numpy()
        state = json.loads((c / "trainer_state.json").read_text())
        m = mrr(*arrays["val"], a)
        curve.append({"epoch": state["epoch"], "val_mrr": round(m, 4), "train_mrr": round(mrr(*arrays["train"], a), 4)})
        if m > best[0]:
            best = (m, a, float(state["epoch"]))
    return {"identity_val_mrr": round(mrr(*arrays["val"], None), 4),
            "identity_train_mrr": round(mrr(*arrays["train"], None), 4),
            "best_val_mrr": round(best[0], 4), "best_epoch": best[2], "curve": curve,
            "loss_history": [{k: h[k] for k in ("epoch", "loss", "eval_loss") if k in h} for h in history],
            "examples": {s: int(len(arrays[s][0])) for s in arrays}, "weight": best[1]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="work directory (examples, checkpoints)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=0.0)
    ap.add_argument("--scale", type=float, default=20.0, help="similarity scale of the softmax (MNRL's 20)")
    ap.add_argument("--head-root", type=Path, default=OUT / "head", help="where to write query_adapter/ (head.json, weights)")
    ap.add_argument("--no-install", action="store_true", help="measure only; do not write the adapter")
    a = ap.parse_args(argv)
    t0 = time.process_time()
    keys = val_keys()
    rows = group_examples() + passage_examples(keys)
    counts: dict[str, Any] = {}
    for r in rows:
        k = f"{r['source']}/{r['split']}"
        counts[k] = counts.get(k, 0) + 1
    print(f"[{NAME}] examples {counts}", file=sys.stderr)
    res = train(rows, a.out, epochs=a.epochs, lr=a.lr, weight_decay=a.weight_decay, scale=a.scale)
    weight = res.pop("weight")
    res["cpu_seconds"] = round(time.process_time() - t0, 1)
    print(json.dumps(res, indent=1))
    if weight is None or a.no_install:
        print(f"[{NAME}] not installed ({'no epoch beat the identity' if weight is None else '--no-install'})", file=sys.stderr)
        return
    install(weight, res, counts, a)


def install(weight: np.ndarray, res: dict[str, Any], counts: dict[str, Any], a: argparse.Namespace) -> None:
    from safetensors.numpy import save_file

    d = head_dir(NAME, a.head_root)
    d.mkdir(parents=True, exist_ok=True)
    save_file({"weight": np.ascontiguousarray(weight.astype(np.float16))}, str(d / WEIGHT_FILE))
    meta = {"name": NAME, "kind": "residual linear query adapter over all-MiniLM-L6-v2 question vectors",
            "sha256": sha256_file(d / WEIGHT_FILE), "size": (d / WEIGHT_FILE).stat().st_size,
            "command": COMMAND + (f" --epochs {a.epochs} --lr {a.lr} --weight-decay {a.weight_decay} --scale {a.scale}"),
            "data": {"examples": counts, "groups": "library.head_pairs groups.jsonl (cuad/train_allowed.txt agreements)",
                     "topic_questions": "heads.topic_questions cache", "passage_questions": "heads.synthetic cache",
                     "question_files_read": "none"},
            "metrics": res}
    (d / META_FILE).write_text(json.dumps(meta, indent=1) + "\n")
    print(f"[{NAME}] installed {d / WEIGHT_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
