"""ContractNLI benchmark, store: the (document, hypothesis) pairs of a split, the stratified
sample of them, and the resumable per-pair JSONL store a run appends to (Koreeda & Manning,
Findings of EMNLP 2021). The CLI is :mod:`benchmarks.contractnli`, the modes
:mod:`benchmarks.contractnli_modes`, the scoring :mod:`benchmarks.contractnli_metrics`.

Every (document, hypothesis) result is appended to
``benchmarks/results/contractnli_pairs/<variant>/<split>.jsonl`` as soon as it is known; a rerun
skips pairs already there (resumable). The per-pair stores are committed with the code: they are
small (well under 1 KB a pair), let anyone re-score or re-derive the levers without a model, and
let a long LLM run be resumed on another machine or in a later session (a cache directory does not
survive that). Failures (no parsable label, timeout, error, prompt too
long) are written too: they count as wrong and are tallied separately
(:mod:`benchmarks.contractnli_metrics`).
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from benchmarks.contractnli_metrics import LABELS
from clauselens.errors import ContextOverflowError, ModelResponseError
from clauselens.retrieval.exemplars import ContractNLISplit

REPO = Path(__file__).resolve().parents[1]

DATA_DIR = REPO.parent / "shared" / "data" / "contractnli"
RESULTS_DIR = REPO / "benchmarks" / "results"
#: committed per-pair JSONL stores, one directory per variant (see this module's docstring)
PAIRS_DIR = RESULTS_DIR / "contractnli_pairs"


def pair_store(variant: str, split: str) -> "ResultStore":
    """The resumable per-pair store of one configuration: ``PAIRS_DIR/<variant>/<split>.jsonl``."""
    return ResultStore(PAIRS_DIR / variant / f"{split}.jsonl")


# ------------------------------------------------------------------------------ pairs & sampling
@dataclass(frozen=True)
class Pair:
    """One (document, hypothesis) pair with its gold label."""

    doc_id: str
    hypothesis_id: str
    gold: str

    @property
    def key(self) -> str:
        """Stable key ``"<doc id>|<hypothesis id>"`` used by the JSONL store."""
        return f"{self.doc_id}|{self.hypothesis_id}"


def _hyp_num(h: str) -> int:
    return int(h.split("-")[-1]) if h.split("-")[-1].isdigit() else 0


def all_pairs(split: ContractNLISplit) -> list[Pair]:
    """Every (document, hypothesis) pair, ordered by numeric doc id then hypothesis number."""
    out = [Pair(d.id, h, lab) for d in split.documents for h, lab in d.labels.items()]
    return sorted(out, key=lambda p: (int(p.doc_id) if p.doc_id.isdigit() else p.doc_id, _hyp_num(p.hypothesis_id)))


def stratified_sample(pairs: list[Pair], n: int | None, seed: int, *, balanced: bool = False) -> list[Pair]:
    """Deterministic sample stratified by gold label.

    ``n=None`` or ``n >= len(pairs)``: all pairs. Otherwise each label gets a quota
    proportional to its share (largest-remainder rounding; Hamilton's method), or ``n // 3``
    each (rest to the largest classes) with ``balanced``; within a label, pairs are shuffled
    with ``random.Random(f"{seed}:{label}")`` and the first ``quota`` taken, so a smaller
    sample is (almost always) a subset of a larger one with the same seed. Returned in
    :func:`all_pairs` order.
    """
    if n is None or n >= len(pairs):
        return list(pairs)
    by: dict[str, list[Pair]] = {lab: [p for p in pairs if p.gold == lab] for lab in LABELS}
    total = len(pairs)
    if balanced:
        quota = {lab: min(n // 3, len(by[lab])) for lab in LABELS}
    else:
        exact = {lab: n * len(by[lab]) / total for lab in LABELS}
        quota = {lab: int(exact[lab]) for lab in LABELS}
    rest = n - sum(quota.values())
    order = sorted(LABELS, key=lambda lab: (-(n * len(by[lab]) / total - quota[lab]), LABELS.index(lab)))
    i = 0
    while rest > 0 and any(quota[lab] < len(by[lab]) for lab in LABELS):
        lab = order[i % 3]
        if quota[lab] < len(by[lab]):
            quota[lab] += 1
            rest -= 1
        i += 1
    chosen: set[Pair] = set()
    for lab in LABELS:
        items = list(by[lab])
        random.Random(f"{seed}:{lab}").shuffle(items)
        chosen.update(items[:quota[lab]])
    return [p for p in pairs if p in chosen]


# ------------------------------------------------------------------------------ resumable store
class ResultStore:
    """Append-only JSONL of per-pair results, keyed by :attr:`Pair.key`.

    A line is written (and flushed to disk) as soon as a pair is done, so an interrupted run
    loses at most the pair in flight. If a key appears twice, the last line wins.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def load(self) -> dict[str, dict]:
        """All records so far, by key (a truncated last line from a crash is ignored)."""
        out: dict[str, dict] = {}
        if not self.path.is_file():
            return out
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            out[r["key"]] = r
        return out

    def append(self, record: dict) -> None:
        """Write one record as a JSON line and fsync."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())


#: ``classifier(pair) -> (label or None, detail dict)``; raises on failure.
Classifier = Callable[[Pair], tuple[Optional[str], dict]]


class NoFit(Exception):
    """The input does not fit the model's context window (counted as failure ``no_fit``)."""


def run_pairs(pairs: Iterable[Pair], classifier: Classifier, store: ResultStore, *, timeout_s: float | None = None,
              budget_s: float | None = None, progress: Callable[[int, int, dict], None] | None = None) -> dict[str, dict]:
    """Classify every pair not already in ``store``; return all records for ``pairs``.

    Status per pair: ``ok`` (a label in E/C/N), ``no_label`` (the model's output never
    parsed: :class:`ModelResponseError`, or a label outside the three), ``timeout`` (answered
    after ``timeout_s`` seconds: the answer is discarded), ``no_fit`` (prompt too long),
    ``error`` (any other exception; its repr is kept). ``budget_s`` stops starting new pairs
    after that many seconds (the run can be resumed).
    """
    pairs = list(pairs)
    done = store.load()
    todo = [p for p in pairs if p.key not in done]
    t_start = time.monotonic()
    for i, p in enumerate(todo):
        if budget_s is not None and time.monotonic() - t_start > budget_s:
            break
        t0 = time.monotonic()
        rec: dict = {"key": p.key, "doc_id": p.doc_id, "hypothesis_id": p.hypothesis_id, "gold": p.gold}
        try:
            label, detail = classifier(p)
            status = "ok" if label in LABELS else "no_label"
            rec.update(pred=label if status == "ok" else None, detail=detail)
        except ModelResponseError as e:
            status, rec["pred"], rec["error"] = "no_label", None, str(e)[:500]
        except (NoFit, ContextOverflowError) as e:
            status, rec["pred"], rec["error"] = "no_fit", None, str(e)[:500]
        except Exception as e:  # noqa: BLE001 - any failure of the system under test is recorded and counted
            status, rec["pred"], rec["error"] = "error", None, repr(e)[:500]
        rec["seconds"] = round(time.monotonic() - t0, 3)
        if timeout_s is not None and rec["seconds"] > timeout_s and status == "ok":
            status, rec["late_pred"], rec["pred"] = "timeout", rec["pred"], None
        rec["status"] = status
        store.append(rec)
        done[p.key] = rec
        if progress:
            progress(i + 1, len(todo), rec)
    return {p.key: done[p.key] for p in pairs if p.key in done}
