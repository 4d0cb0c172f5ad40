"""ContractNLI benchmark (Koreeda & Manning, Findings of EMNLP 2021): hypothesis -> label.

Usage (from the repo root; data read in place from ``../shared/data/contractnli``)::

    .venv/bin/python -m benchmarks.contractnli run --mode knn                     # full test set
    .venv/bin/python -m benchmarks.contractnli run --mode single-pass --sample 300 --seed 0 \
        --exemplars 1 --vote-weight 0.5
    .venv/bin/python -m benchmarks.contractnli run --mode gold-evidence --sample 90
    .venv/bin/python -m benchmarks.contractnli run --mode whole-contract --sample 90
    .venv/bin/python -m benchmarks.contractnli run --mode interrogator --sample 90
    .venv/bin/python -m benchmarks.contractnli tune-knn                            # dev only
    .venv/bin/python -m benchmarks.contractnli table                               # Markdown table

Modes:

* ``knn`` -- no LLM: the contract's spans are ranked by similarity to the same-hypothesis
  evidence exemplars of the dev-built :class:`~clauselens.retrieval.exemplars.ExemplarBank`,
  and the top ``depth`` spans' nearest labelled precedents vote (``vote_weight = 1``);
* ``single-pass`` -- the same retrieval, then the LLM classifies
  (:func:`clauselens.agents.nli.classify`), with the levers exemplars / vote / evidence-first /
  depth / abstention;
* ``gold-evidence`` -- the LLM sees only the annotated evidence spans (upper bound for retrieval);
* ``whole-contract`` -- zero-shot, whole contract in the prompt; a contract that does not fit the
  context window is a failure of kind ``no_fit``; ``--question-last`` puts the hypothesis after
  the contract instead of before it (variant ``whole-contract-ef-ql``): pairs run grouped by
  document, so the in-process model reuses the contract's KV cache for each further hypothesis
  on it (on this CPU, the 172 sample pairs run both ways: mean 13.6 s against 26.6 s a pair);
* ``precedents`` -- no LLM: the Researcher's ``precedents`` tool on the Archivist's own sentence
  units of each contract (the product's path to the kNN vote), label = its vote;
* ``prior`` -- baseline: each hypothesis's most frequent dev label (no retrieval, no model);
* ``interrogator`` -- the full agent loop via ``clauselens.pipeline.ask``; the label is read from
  the report's structured ``label`` field.

Retrieval units are the dataset's own spans (``spans`` in the JSON: sentences / list items),
so every retrieved passage maps to a ``[start, end)`` range of the contract text.

Every (document, hypothesis) result is appended to
``benchmarks/results/contractnli_pairs/<variant>/<split>.jsonl`` as soon as it is known; a rerun
skips pairs already there (resumable). The per-pair stores are committed with the code: they are
small (well under 1 KB a pair), let anyone re-score or re-derive the levers without a model, and
let a long LLM run be resumed on another machine or in a later session (a cache directory does not
survive that). Failures (no parsable label, timeout, error, prompt too
long) are written too: they count as wrong and are tallied separately
(:mod:`benchmarks.contractnli_metrics`). Each finished run writes
``benchmarks/results/contractnli_<variant>_<split>_<sample>.json`` with the command, versions,
sample and date.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

import numpy as np
import typer

from benchmarks.contractnli_metrics import LABELS, SHORT, score
from clauselens import events as ET
from clauselens.agents import prompts_nli
from clauselens.agents.nli import NLIConfig, build_messages, classify
from clauselens.config import Settings
from clauselens.errors import ContextOverflowError, ModelResponseError
from clauselens.reports.model import to_contractnli
from clauselens.retrieval.exemplars import (
    ContractNLIDoc,
    ContractNLISplit,
    ExemplarBank,
    encode_split_spans,
    load_contractnli,
)

REPO = Path(__file__).resolve().parents[1]

DATA_DIR = REPO.parent / "shared" / "data" / "contractnli"
RESULTS_DIR = REPO / "benchmarks" / "results"
#: committed per-pair JSONL stores, one directory per variant (see the module docstring)
PAIRS_DIR = RESULTS_DIR / "contractnli_pairs"


def pair_store(variant: str, split: str) -> "ResultStore":
    """The resumable per-pair store of one configuration: ``PAIRS_DIR/<variant>/<split>.jsonl``."""
    return ResultStore(PAIRS_DIR / variant / f"{split}.jsonl")

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


# ------------------------------------------------------------------------------ context
class BenchContext:
    """Loaded splits, the dev exemplar bank and span embeddings (created on first use)."""

    def __init__(self, settings: Settings, split: str = "test", data_dir: Path = DATA_DIR,
                 encoder: Callable | None = None, encoder_name: str | None = None) -> None:
        self.settings = settings
        self.split_name = split
        self.data_dir = Path(data_dir)
        self.split = load_contractnli(self.data_dir / f"{split}.json")
        self.docs = {d.id: d for d in self.split.documents}
        self._encoder = encoder
        self.encoder_name = encoder_name or settings.retrieval.embedder
        self._bank: ExemplarBank | None = None
        self._vecs: dict[str, np.ndarray] = {}

    @property
    def encode(self) -> Callable:
        """``embed_passages`` of the configured embedder (cached vectors)."""
        if self._encoder is None:
            from clauselens.retrieval.embedders import get_embedder

            emb = get_embedder(self.settings.retrieval.embedder, self.settings.cache_dir)
            self._encoder = emb.embed_passages
            self.encoder_name = emb.name
        return self._encoder

    @property
    def bank(self) -> ExemplarBank:
        """Exemplar bank from ``dev.json`` (refuses to build if it shares a doc with the split)."""
        if self._bank is None:
            dev = load_contractnli(self.data_dir / "dev.json")
            forbidden = self.split.doc_ids if self.split_name != "dev" else set()
            self._bank = ExemplarBank.from_split(dev, self.encode, encoder_name=self.encoder_name,
                                                 forbidden_doc_ids=forbidden)
        return self._bank

    def span_vectors(self, doc_id: str) -> np.ndarray:
        """(n_spans, dim) embeddings of a document's spans."""
        if doc_id not in self._vecs:
            d = self.docs[doc_id]
            self._vecs[doc_id] = np.asarray(self.encode(d.span_texts()), dtype=np.float32)
        return self._vecs[doc_id]


# ------------------------------------------------------------------------------ classifiers
def _ask_fn(chat, settings: Settings):
    from clauselens.llm import invoke_structured

    ms = settings.interrogator_model

    def ask(messages, schema):
        return invoke_structured(chat, messages, schema, method=ms.structured_method, max_retries=ms.max_retries)
    return ask


def make_retrieval_classifier(ctx: BenchContext, cfg: NLIConfig, ask=None, *, top_m: int = 3) -> Classifier:
    """``knn`` (``cfg.vote_weight == 1``, ``ask=None``) and ``single-pass`` modes.

    Retrieval: spans ranked by :meth:`ExemplarBank.relevance` (mean cosine to the ``top_m``
    nearest same-hypothesis evidence exemplars from dev). Excludes the pair's own document
    from the bank when the evaluated split is dev (leave-one-document-out).
    """
    def run(p: Pair) -> tuple[str | None, dict]:
        d: ContractNLIDoc = ctx.docs[p.doc_id]
        vecs = ctx.span_vectors(p.doc_id)
        excl = p.doc_id if ctx.split_name == "dev" else None
        rel = ctx.bank.relevance(p.hypothesis_id, vecs, top_m=top_m, exclude_doc=excl)
        bank = ctx.bank if excl is None else _ExcludingBank(ctx.bank, excl)
        dec = classify(ctx.split.hypotheses[p.hypothesis_id], d.span_texts(), rel, cfg, ask=ask, bank=bank,
                       hypothesis_id=p.hypothesis_id, passage_vectors=vecs)
        gold_idx = set(d.evidence.get(p.hypothesis_id, []))
        detail = {"source": dec.source, "llm_label": dec.llm_label, "vote": dec.vote,
                  "max_relevance": dec.max_relevance, "evidence_idx": [e.index for e in dec.evidence],
                  "evidence_hit": bool(gold_idx & {e.index for e in dec.evidence}) if gold_idx else None,
                  "quote": dec.quote, "exemplars": dec.exemplar_ids}
        return dec.label, detail
    return run


class _ExcludingBank:
    """An :class:`ExemplarBank` view that hides one document (dev leave-one-out)."""

    def __init__(self, bank: ExemplarBank, doc_id: str) -> None:
        self.bank, self.doc_id = bank, doc_id

    def vote(self, *a, **kw):
        return self.bank.vote(*a, exclude_doc=self.doc_id, **kw)

    def search(self, *a, **kw):
        return self.bank.search(*a, exclude_doc=self.doc_id, **kw)


def make_prior_classifier(ctx: BenchContext) -> Classifier:
    """``prior`` baseline (no retrieval, no model): the hypothesis's most frequent label in
    dev.json (ties: E > C > N). Shows what the per-hypothesis label prior alone is worth."""
    dev = load_contractnli(ctx.data_dir / "dev.json")
    counts: dict[str, dict[str, int]] = {}
    for d in dev.documents:
        for h, lab in d.labels.items():
            counts.setdefault(h, {lab_: 0 for lab_ in LABELS})[lab] += 1

    def run(p: Pair) -> tuple[str | None, dict]:
        c = counts.get(p.hypothesis_id)
        if not c:
            return None, {"reason": "hypothesis not in dev"}
        return max(LABELS, key=lambda lab: c[lab]), {"dev_counts": c}
    return run


def make_gold_classifier(ctx: BenchContext, ask, evidence_first: bool = True) -> Classifier:
    """``gold-evidence`` mode: only the annotated evidence spans (none for NotMentioned pairs)."""
    from clauselens.agents.nli import EvidenceFirstVerdict, LabelOnlyVerdict

    def run(p: Pair) -> tuple[str | None, dict]:
        d = ctx.docs[p.doc_id]
        texts = [d.text[slice(*d.spans[i])] for i in d.evidence.get(p.hypothesis_id, [])]
        msgs = build_messages(ctx.split.hypotheses[p.hypothesis_id], texts, [], evidence_first)
        v = ask(msgs, EvidenceFirstVerdict if evidence_first else LabelOnlyVerdict)
        return v.label, {"quote": getattr(v, "quote", None), "n_spans": len(texts)}
    return run


def make_whole_contract_classifier(ctx: BenchContext, chat, ask, evidence_first: bool = True,
                                   question_last: bool = False) -> Classifier:
    """``whole-contract`` mode: the contract text as one passage; ``NoFit`` if the prompt plus the
    generation budget exceeds the model's ``n_ctx``. ``question_last``: the hypothesis follows the
    contract (the in-process model then reuses the contract's KV cache for the next hypothesis on
    the same contract: pairs are run grouped by document)."""
    from clauselens.agents.nli import EvidenceFirstVerdict, LabelOnlyVerdict
    from clauselens.llm.structured import count_tokens

    ms = ctx.settings.interrogator_model

    def run(p: Pair) -> tuple[str | None, dict]:
        d = ctx.docs[p.doc_id]
        msgs = build_messages(ctx.split.hypotheses[p.hypothesis_id], [d.text], [], evidence_first,
                              passages_header=prompts_nli.WHOLE_CONTRACT_HEADER, question_last=question_last)
        n_tok = count_tokens(chat, "\n".join(m.content for m in msgs)) + 16
        budget = ms.n_ctx - min(ms.max_tokens, 256)
        if n_tok > budget:
            raise NoFit(f"prompt has {n_tok} tokens; window {ms.n_ctx} minus 256 for the answer")
        v = ask(msgs, EvidenceFirstVerdict if evidence_first else LabelOnlyVerdict)
        return v.label, {"quote": getattr(v, "quote", None), "prompt_tokens": n_tok}
    return run


def make_precedents_classifier(ctx: BenchContext) -> Classifier:
    """``precedents`` mode (no LLM): the product's path for the kNN vote. Each contract is read
    by the Archivist's loader from plain text, split into sentences and indexed by the
    Researcher's ``precedents`` tool (:mod:`clauselens.retrieval.precedents`, bank = dev.json);
    the label is the tool's vote (NotMentioned when it abstains). Unlike ``knn`` it does not use
    the dataset's own span segmentation."""
    from clauselens.parsing import load_document
    from clauselens.retrieval.precedents import build_precedent_tool

    tool = build_precedent_tool(ctx.settings.with_precedent_bank(ctx.data_dir / "dev.json"))
    tmp = ctx.settings.cache_dir / "bench" / "contractnli" / "contracts"
    current: dict[str, str] = {}

    def run(p: Pair) -> tuple[str | None, dict]:
        d = ctx.docs[p.doc_id]
        if current.get("doc") != d.id:
            tmp.mkdir(parents=True, exist_ok=True)
            f = tmp / f"contractnli-{ctx.split_name}-{d.id}.txt"
            if not f.is_file():
                f.write_text(d.text, encoding="utf-8")
            tool.index([load_document(f)])
            current["doc"] = d.id
        r = tool.search(ctx.split.hypotheses[p.hypothesis_id], ctx.settings.retrieval.precedent_depth)
        if r.abstained and not r.trace.get("hypothesis_id"):
            return None, {"reason": r.reason}
        vote = r.trace["vote"]
        label = "NotMentioned" if r.trace["abstain"] or not any(vote.values()) else max(LABELS, key=lambda lab: vote[lab])
        ev = [d.spans[i] for i in d.evidence.get(p.hypothesis_id, [])]
        hit = any(q.spans[0].start < e and s < q.spans[0].end for q in r.passages for s, e in ev) if ev else None
        return label, {"source": "abstain" if r.trace["abstain"] else "vote", "llm_label": None, "vote": vote,
                       "max_relevance": r.trace["max_relevance"], "evidence_hit": hit}
    return run


def make_interrogator_classifier(ctx: BenchContext) -> Classifier:
    """``interrogator`` mode: ``clauselens.pipeline.ask(..., mode="nli")`` on the contract (written
    once to a text file under the cache); the label is the report's structured ``label`` field."""
    from clauselens import pipeline  # noqa: F401 - fails clearly if the pipeline is not there

    tmp = ctx.settings.cache_dir / "bench" / "contractnli" / "contracts"

    def run(p: Pair) -> tuple[str | None, dict]:
        d = ctx.docs[p.doc_id]
        tmp.mkdir(parents=True, exist_ok=True)
        f = tmp / f"contractnli-{ctx.split_name}-{d.id}.txt"
        if not f.is_file():
            f.write_text(d.text, encoding="utf-8")
        res = pipeline.ask([f], ctx.split.hypotheses[p.hypothesis_id], ctx.settings, mode="nli")
        rep = res.report
        detail = {"conclusion": str(getattr(rep, "conclusion", ""))[:300],
                  "turns": res.transcript.get("turns"), "stop_reason": res.transcript.get("stop_reason")}
        b = rep.label_basis
        if b is not None:  # the fields derive_levers reads, so vote weight / abstention can be re-derived offline
            detail.update(llm_label=to_contractnli(b.llm_label), vote=b.vote, max_relevance=b.max_relevance,
                          source=b.source, precedent_hypothesis=b.hypothesis_id)
        if res.ledger is not None:
            t = res.ledger.totals()
            detail.update(llm_calls=t.get("llm_calls"), input_tokens=t.get("input_tokens"), output_tokens=t.get("output_tokens"))
        # per turn: the label as it stood after that turn's draft, and every model call in order
        # (step, seconds, tokens), so what a run stopped after k turns would have answered, and at
        # what cost, can be read off offline (the loop is deterministic: greedy decoding, seed 0)
        events = res.transcript.get("events") or []
        detail["turn_labels"] = [{"turn": e.get("turn"), "llm_label": to_contractnli(e.get("llm_label")),
                                  "decided": to_contractnli(e.get("decided")), "source": e.get("source")}
                                 for e in ET.of_type(events, ET.LABEL)]
        detail["calls"] = [{"step": e.get("step"), "s": e.get("seconds"), "in": (e.get("usage") or {}).get("input_tokens"),
                            "out": (e.get("usage") or {}).get("output_tokens")}
                           for e in ET.of_type(events, ET.LLM_CALL)]
        return to_contractnli(rep.label), detail
    return run


# ------------------------------------------------------------------------------ provenance
def _versions() -> dict:
    out = {"python": platform.python_version()}
    for mod in ("numpy", "scipy", "sentence_transformers", "torch", "llama_cpp", "langchain_core"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - optional dependency
            pass
    try:
        out["git_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                                           timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return out


def variant_name(mode: str, cfg: NLIConfig | None, model: str | None, embedder: str | None, top_m: int = 3) -> str:
    """Directory name of a configuration's store, e.g. ``single-pass_qwen2.5-coder-1.5b_minilm_k3-ex1-v0.5-ef``."""
    parts = [mode]
    if model:
        parts.append(model)
    if embedder and mode in ("knn", "single-pass"):
        parts.append(embedder + ("" if top_m == 3 else f"-m{top_m}"))
    if cfg is not None:
        parts.append(cfg.tag())
    return "_".join(parts)


# ------------------------------------------------------------------------------ CLI
@app.command()
def run(
    mode: str = typer.Option("knn", help="knn | precedents | single-pass | gold-evidence | whole-contract | interrogator | prior"),
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
    if mode == "knn":
        cfg = NLIConfig(depth=depth, vote_weight=1.0, abstain_below=abstain, n_neighbours=n_neighbours)
        clf = make_retrieval_classifier(ctx, cfg, None, top_m=top_m)
        model_name = None
    elif mode in ("single-pass", "gold-evidence", "whole-contract"):
        from clauselens.llm import get_chat_model

        chat = get_chat_model(settings.interrogator_model, settings.models_dir)
        ask = _ask_fn(chat, settings)
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
    emb = settings.retrieval.embedder if mode in ("knn", "single-pass") else None
    # one-time loads (model file, dev bank) happen here, not inside the first pair's timed call
    if mode in ("knn", "single-pass"):
        _ = ctx.bank
    if mode in ("single-pass", "gold-evidence", "whole-contract"):
        from clauselens.llm.structured import count_tokens

        count_tokens(chat, "warm up")
    variant = variant_name(mode if mode != "gold-evidence" and mode != "whole-contract" else
                           f"{mode}-{'ef' if evidence_first else 'lo'}{'-ql' if question_last else ''}",
                           cfg, model_name, emb, top_m)
    if precedents:
        variant += f"_prec-w{settings.retrieval.precedent_vote_weight:g}"
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
            "versions": _versions(), "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
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
                                       bank=_ExcludingBank(ctx.bank, p.doc_id), hypothesis_id=p.hypothesis_id,
                                       passage_vectors=vecs[p.doc_id])
                        recs.append({"gold": p.gold, "pred": dec.label, "status": "ok"})
                    sc = score(recs, n_boot=0)
                    grid.append({"top_m": m, "depth": k, "n_neighbours": nn, "abstain": cfg.abstain_below,
                                 "accuracy": sc["accuracy"], "f1_weighted": sc["f1_weighted"], "f1": sc["f1"]})
                    print(json.dumps(grid[-1]), flush=True)
    best = max(grid, key=lambda g: (g["accuracy"], g["f1_weighted"]))
    out = {"benchmark": "contractnli", "what": "kNN-vote grid on dev, leave-one-document-out", "split": "dev",
           "n": len(pairs), "embedder": ctx.encoder_name, "best": best, "grid": grid,
           "command": "python -m benchmarks.contractnli " + " ".join(sys.argv[1:]), "versions": _versions(),
           "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / f"contractnli_knn_dev_tuning_{ctx.encoder_name}.json").write_text(json.dumps(out, indent=1) + "\n")
    print("best:", json.dumps(best))


def derive_levers(records: Iterable[dict], vote_weights: Iterable[float] = (0.0, 0.6, 0.7, 0.8, 1.0),
                  abstains: Iterable[float | None] = (None, 0.7)) -> list[dict]:
    """Re-decide stored single-pass records offline for other vote weights / abstention
    thresholds (the LLM's label, the kNN vote and the best relevance are all recorded, and
    neither lever changes the prompt). Records that failed stay failures. Returns one
    ``{"vote_weight", "abstain", "metrics"}`` per combination."""
    from clauselens.agents.nli import combine

    recs = list(records)
    out = []
    for ab in abstains:
        for w in vote_weights:
            derived = []
            for r in recs:
                d = dict(r)
                det = r.get("detail") or {}
                if r.get("status") == "ok":
                    mr = det.get("max_relevance")
                    if ab is not None and (mr is None or mr < ab):
                        d["pred"] = "NotMentioned"
                    elif det.get("vote") and any(det["vote"].values()) and w > 0:
                        d["pred"] = combine(det.get("llm_label"), det["vote"], w)
                    else:
                        d["pred"] = det.get("llm_label") or r.get("pred")
                derived.append(d)
            out.append({"vote_weight": w, "abstain": ab, "metrics": score(derived, n_boot=500)})
    return out


def turns_record(record: dict, max_turns: int) -> dict | None:
    """What an Interrogator run stopped after ``max_turns`` turns would have recorded, read off a
    stored interrogator record (``detail.turn_labels`` / ``detail.calls``): the label after the
    last turn <= ``max_turns`` and the cost of the calls up to that turn's ``decide`` call
    (the loop always asks for a decision, then stops at the turn limit). Returns ``None`` when the
    record ran more turns but has no per-turn labels (stored before they were recorded).
    Failures stay failures; a record that stopped earlier is unchanged."""
    det = record.get("detail") or {}
    if record.get("status") != "ok" or (det.get("turns") or 0) <= max_turns:
        return dict(record)
    labels = [t for t in det.get("turn_labels") or [] if (t.get("turn") or 0) <= max_turns]
    if not labels or not det.get("calls"):
        return None
    out = dict(record, pred=labels[-1]["decided"])
    calls, decides = [], 0
    for c in det["calls"]:
        calls.append(c)
        if c.get("step") == "decide":
            decides += 1
            if decides == max_turns:
                break
    out["seconds"] = round(sum(c.get("s") or 0.0 for c in calls), 3)  # model time only
    out["detail"] = dict(det, turns=max_turns, llm_calls=len(calls), llm_label=labels[-1]["llm_label"],
                         input_tokens=sum(c.get("in") or 0 for c in calls),
                         output_tokens=sum(c.get("out") or 0 for c in calls))
    return out


def derive_turn_levers(records: Iterable[dict], max_turns: Iterable[int] = (1, 2, 3)) -> list[dict]:
    """The ``max_turns`` lever of the interrogator mode, offline (:func:`turns_record`): per value,
    metrics, mean model calls and mean seconds over the records that can be derived, and how
    many could not (``underivable``)."""
    recs = list(records)
    out = []
    for k in max_turns:
        derived = [turns_record(r, k) for r in recs]
        ok = [d for d in derived if d is not None]
        dets = [d.get("detail") or {} for d in ok]
        out.append({"max_turns": k, "underivable": len(derived) - len(ok), "metrics": score(ok, n_boot=500),
                    "mean_llm_calls": float(np.mean([d.get("llm_calls") or 0 for d in dets])) if dets else None,
                    "mean_seconds": float(np.mean([d.get("seconds") or 0.0 for d in ok])) if ok else None})
    return out


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
           "command": "python -m benchmarks.contractnli " + " ".join(sys.argv[1:]), "versions": _versions(),
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
