"""ContractNLI benchmark, modes: the classifiers a run can use (each maps a pair to a label), the
context they share (splits, dev exemplar bank, span embeddings; created on first use), the name of
a configuration's store, and the levers re-derived offline from stored records (Koreeda &
Manning, Findings of EMNLP 2021). The CLI is :mod:`benchmarks.contractnli`.

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
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from benchmarks.contractnli_metrics import LABELS, score
from benchmarks.contractnli_store import DATA_DIR, Classifier, NoFit, Pair
from clauselens import events as ET
from clauselens.agents import prompts_nli
from clauselens.agents.nli import NLIConfig, build_messages, classify
from clauselens.config import Settings
from clauselens.reports.model import to_contractnli
from clauselens.retrieval.exemplars import ContractNLIDoc, ExemplarBank, load_contractnli


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
def ask_fn(chat, settings: Settings):
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
        bank = ctx.bank if excl is None else ExcludingBank(ctx.bank, excl)
        dec = classify(ctx.split.hypotheses[p.hypothesis_id], d.span_texts(), rel, cfg, ask=ask, bank=bank,
                       hypothesis_id=p.hypothesis_id, passage_vectors=vecs)
        gold_idx = set(d.evidence.get(p.hypothesis_id, []))
        detail = {"source": dec.source, "llm_label": dec.llm_label, "vote": dec.vote,
                  "max_relevance": dec.max_relevance, "evidence_idx": [e.index for e in dec.evidence],
                  "evidence_hit": bool(gold_idx & {e.index for e in dec.evidence}) if gold_idx else None,
                  "quote": dec.quote, "exemplars": dec.exemplar_ids}
        return dec.label, detail
    return run


class ExcludingBank:
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


# ------------------------------------------------------------------------------ levers, offline
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
