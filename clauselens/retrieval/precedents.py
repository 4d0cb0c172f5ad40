"""The ``precedents`` tool: cross-document retrieval of labelled precedents (PAKTON-style).

For a question that is one of a precedent bank's recurring hypotheses (ContractNLI asks the
same 17 of every NDA), the Researcher can do better than keyword search: it knows, from
*other* contracts, which passages entailed or contradicted that hypothesis. This tool

1. matches the question to a bank hypothesis (normalised text equal, else cosine of the
   embedded question and hypothesis texts >= ``match_threshold``);
2. ranks every sentence of the indexed contracts (:func:`clauselens.parsing.sentences.sentence_spans`,
   ContractNLI-sized units) by query-by-example relevance to that hypothesis's evidence
   exemplars (:meth:`ExemplarBank.relevance`, mean cosine to the ``top_m`` nearest);
3. returns the top sentences as passages, and in :attr:`SearchResult.trace` the labelled
   precedents nearest to the best passage (one per label: few-shot exemplars for the
   Interrogator) and the similarity-weighted kNN vote of the top ``depth`` passages'
   ``n_neighbours`` nearest precedents (:meth:`ExemplarBank.vote`; Cover & Hart 1967,
   Dudani 1976).

PAKTON (Raptopoulos et al., 2025) found same-hypothesis span exemplars its strongest prompting
baseline. The defaults (``depth`` 5, ``top_m`` 1, ``n_neighbours`` 5, abstain below 0.7) are the
kNN settings chosen on ContractNLI dev (``benchmarks/results/contractnli_knn_dev_tuning_*.json``).
A question that matches no hypothesis gets an abstained result (``reason`` says so), never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.errors import ConfigError
from clauselens.parsing.sentences import sentence_spans
from clauselens.parsing.types import Document, Span
from clauselens.retrieval.exemplars import ExemplarBank, load_contractnli
from clauselens.retrieval.types import Passage, SearchResult

#: ``Passage.method`` / score key of this tool.
METHOD = "precedents"
#: A unit must hold a word of 3+ letters (drops "2.1.", "________", page numbers).
_WORDY = re.compile(r"[A-Za-z]{3}")


def _norm(q: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", " ".join(q.lower().split())).strip()


@dataclass
class _Unit:
    doc: Document
    span: Span
    node_idx: int


class PrecedentRetriever:
    """Researcher tool ``precedents`` (implements :class:`~clauselens.retrieval.types.RetrievalMethod`).

    Args:
        bank: labelled precedents (:class:`ExemplarBank`, built from a labelled split that
            shares no document with what is searched).
        hypotheses: bank hypothesis id -> its text (what questions are matched against).
        embedder: object with ``embed_passages`` / ``embed_queries`` (``Sequence[str] ->
            (n, dim)`` L2-normalised float array), the one the bank was built with.
        depth: passages whose precedents vote; ``top_m``: relevance = mean cosine to this
            many nearest evidence exemplars; ``n_neighbours``: precedents per passage in
            the vote; ``match_threshold``: least cosine for a paraphrased question to match
            a hypothesis; ``abstain_below``: best relevance under this means the contract
            has nothing like the precedents' evidence (``trace["abstain"]`` is True).
    """

    name = METHOD

    def __init__(self, bank: ExemplarBank, hypotheses: dict[str, str], embedder: Any, *, depth: int = 5,
                 top_m: int = 1, n_neighbours: int = 5, match_threshold: float = 0.85,
                 abstain_below: float | None = 0.7) -> None:
        self.bank, self.embedder = bank, embedder
        self.hypotheses = {h: t for h, t in hypotheses.items() if h in set(bank.hypothesis_ids)}
        self.depth, self.top_m, self.n_neighbours = depth, top_m, n_neighbours
        self.match_threshold, self.abstain_below = match_threshold, abstain_below
        self._units: list[_Unit] = []
        self._vecs = np.zeros((0, 0), dtype=np.float32)
        self._hyp_vecs: np.ndarray | None = None

    # ------------------------------------------------------------------ indexing
    def index(self, documents: Sequence[Document]) -> None:
        """Split every document into sentence units (those with a word of 3+ letters) and embed them (cached embedder: an
        unchanged contract costs nothing the second time). Replaces the previous index."""
        units: list[_Unit] = []
        for d in documents:
            leaves = [(i, n) for i, n in enumerate(d.nodes) if i > 0]
            for s in sentence_spans(d.text):
                if not _WORDY.search(d.text, s.start, s.end):  # bare numbers, signature lines
                    continue
                # deepest node holding the sentence start (nodes are in document order)
                idx = max((i for i, n in leaves if n.span.start <= s.start < n.span.end), default=0)
                units.append(_Unit(d, s, idx))
        self._units = units
        texts = [u.doc.text[u.span.start:u.span.end] for u in units]
        self._vecs = np.asarray(self.embedder.embed_passages(texts), dtype=np.float32) if texts else np.zeros((0, 0), np.float32)

    # ------------------------------------------------------------------ matching
    def match(self, question: str) -> tuple[str | None, float]:
        """``(hypothesis id, similarity)`` of the bank hypothesis ``question`` asks, or
        ``(None, best similarity)``. Equal normalised text scores 1.0."""
        q = _norm(question)
        for h, t in self.hypotheses.items():
            if _norm(t) == q:
                return h, 1.0
        if not self.hypotheses:
            return None, 0.0
        ids = list(self.hypotheses)
        if self._hyp_vecs is None:
            self._hyp_vecs = np.asarray(self.embedder.embed_passages([self.hypotheses[h] for h in ids]), np.float32)
        sims = self._hyp_vecs @ np.asarray(self.embedder.embed_passages([question]), np.float32)[0]
        best = int(np.argmax(sims))
        return (ids[best] if sims[best] >= self.match_threshold else None), float(sims[best])

    # ------------------------------------------------------------------ search
    def _passage(self, u: _Unit, score: float) -> Passage:
        d, n = u.doc, u.doc.nodes[u.node_idx]
        return Passage(
            chunk_id=f"{d.id}:sentence:{u.span.start}-{u.span.end}", doc_id=d.id, node_id=n.id,
            text=d.text[u.span.start:u.span.end], spans=[u.span], clause_ref=n.ref,
            heading_path=[*n.path, n.label] if u.node_idx > 0 else [], page_start=d.page_of(u.span.start),
            page_end=d.page_of(max(u.span.end - 1, u.span.start)), doc_title=d.title, source_path=d.source_path,
            score=score, scores={METHOD: score}, method=METHOD,
        )

    def search(self, query: str, k: int = 8) -> SearchResult:
        """Top ``min(k, depth)`` sentences by relevance to the matched hypothesis's evidence precedents.

        ``trace``: ``hypothesis_id``, ``hypothesis``, ``match`` (similarity), ``max_relevance``,
        ``abstain`` (bool), ``vote`` ({Entailment, Contradiction, NotMentioned: share}, sums to 1
        or all 0), ``precedents`` (list of {label, doc_id, text, similarity}: nearest precedent
        of each label to the best passage). Abstains (no passages) when the question matches
        no hypothesis or nothing is indexed.
        """
        hid, sim = self.match(query)
        if hid is None:
            return SearchResult(query=query, abstained=True, trace={"match": round(sim, 4)},
                                reason=f"no labelled precedents for this question (closest hypothesis similarity {sim:.2f})")
        if not self._units:
            return SearchResult(query=query, abstained=True, reason="no documents indexed", trace={"hypothesis_id": hid})
        rel = self.bank.relevance(hid, self._vecs, top_m=self.top_m)
        order = np.argsort(-rel, kind="stable")
        top = order[:max(self.depth, 1)]
        vote = self.bank.vote(hid, self._vecs[top], weights=rel[top].clip(min=0), n_neighbours=self.n_neighbours)
        best = float(rel[order[0]])
        shots = self.bank.search(hid, self._vecs[order[0]], k=1, per_label=True)
        trace = {
            "hypothesis_id": hid, "hypothesis": self.hypotheses[hid], "match": round(sim, 4),
            "max_relevance": round(best, 4),
            "abstain": self.abstain_below is not None and best < self.abstain_below,
            "vote": {lab: round(v, 4) for lab, v in vote.items()},
            "precedents": [{"label": e.label, "doc_id": e.doc_id, "kind": e.kind, "text": e.text,
                            "similarity": round(s, 4)} for e, s in shots],
            "bank": self.bank.source,
        }
        passages = [self._passage(self._units[i], float(rel[i])) for i in order[:min(k, max(self.depth, 1))]]
        return SearchResult(query=query, passages=passages, trace=trace)


def build_precedent_tool(settings: Any) -> PrecedentRetriever:
    """The ``precedents`` tool from :class:`clauselens.config.Settings`.

    Reads ``settings.retrieval.precedent_bank`` (a ContractNLI-format JSON file of labelled
    contracts, e.g. ``../shared/data/contractnli/dev.json``) and embeds it with the
    configured embedder (cached under ``<cache_dir>/embeddings``). Raises
    :class:`~clauselens.errors.ConfigError` when no bank is configured or the file is not
    ContractNLI JSON.
    """
    r = settings.retrieval
    path = r.precedent_bank
    if not path:
        raise ConfigError("the 'precedents' tool needs a labelled precedent bank: set CLAUSELENS_RETRIEVAL__PRECEDENT_BANK "
                          "(or --precedents) to a ContractNLI-format JSON file, e.g. ../shared/data/contractnli/dev.json")
    p = Path(path).expanduser().resolve()
    if not p.is_file():
        raise ConfigError(f"precedent bank not found: {p}")
    bank, hypotheses, emb = _load_bank(str(p), p.stat().st_mtime_ns, r.embedder, str(settings.cache_dir))
    return PrecedentRetriever(bank, hypotheses, emb, depth=r.precedent_depth, top_m=r.precedent_top_m,
                              n_neighbours=r.precedent_neighbours, match_threshold=r.precedent_match,
                              abstain_below=r.precedent_abstain)


@lru_cache(maxsize=4)
def _load_bank(path: str, mtime_ns: int, embedder: str, cache_dir: str) -> tuple[ExemplarBank, dict[str, str], Any]:
    """Build (once per process and file version) the bank of one precedent file and the embedder
    it was built with (reused for the contracts, so the model loads once); ~20 s for ContractNLI
    dev with cached span embeddings, minutes the first time."""
    from clauselens.retrieval.embedders import get_embedder

    split = load_contractnli(Path(path))
    emb = get_embedder(embedder, Path(cache_dir))
    return ExemplarBank.from_split(split, emb.embed_passages, encoder_name=emb.name), dict(split.hypotheses), emb
