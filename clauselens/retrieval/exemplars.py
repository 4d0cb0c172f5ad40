"""Cross-document exemplar bank: labelled precedents for recurring questions.

ContractNLI (Koreeda & Manning, Findings of EMNLP 2021) asks the same 17 hypotheses of
every NDA, so a labelled split gives, per hypothesis, the passages other contracts used to
entail or contradict it. PAKTON (Raptopoulos et al., 2025, "PAKTON: A Multi-Agent
Framework for Question Answering in Long Legal Agreements") found same-hypothesis span
exemplars the strongest prompting baseline. This module turns a ContractNLI-format file
(``dev.json`` only -- never the split you evaluate on) into a searchable bank:

* ``evidence`` exemplars: every annotated evidence span of an Entailment / Contradiction
  pair, labelled with that pair's label;
* ``near_miss`` exemplars: for every NotMentioned pair, the span of that contract that
  looks most like the hypothesis's evidence (what a retriever would bring back when the
  contract is silent), labelled NotMentioned.

The bank serves three uses, all keyed by hypothesis id:

1. :meth:`ExemplarBank.relevance` -- query-by-example retrieval: score a new contract's
   passages by their similarity to the hypothesis's evidence exemplars;
2. :meth:`ExemplarBank.search` -- the nearest labelled precedents of a passage (few-shot
   exemplars for the LLM);
3. :meth:`ExemplarBank.vote` -- a similarity-weighted k-nearest-neighbour vote over those
   precedents (Cover & Hart, 1967; distance-weighted variant of Dudani, 1976).

Embeddings come from a caller-supplied ``encode`` function (``Sequence[str] ->
(n, dim) float array with L2-normalised rows``), so cosine similarity is a dot product.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Literal, Sequence, cast, get_args

import numpy as np
from pydantic import BaseModel

from clauselens.errors import ConfigError
from clauselens.parsing.types import Span

#: ContractNLI's labels, as the dataset spells them (the bank's, the NLI step's, the benchmark's
#: gold). A report spells them its own way (:data:`clauselens.reports.model.NLILabel`, with the
#: one converter beside it).
ContractNLILabel = Literal["Entailment", "Contradiction", "NotMentioned"]
LABELS: tuple[ContractNLILabel, ...] = get_args(ContractNLILabel)
Encoder = Callable[[Sequence[str]], np.ndarray]


class Exemplar(BaseModel):
    """One labelled precedent.

    ``doc_id`` is the source contract's id in its split; ``span`` the ``[start, end)``
    character range of ``text`` in that contract; ``kind`` is ``evidence`` (annotated
    evidence of an E/C pair) or ``near_miss`` (best-matching span of a NotMentioned pair).
    """

    hypothesis_id: str
    doc_id: str
    label: ContractNLILabel
    kind: Literal["evidence", "near_miss"]
    text: str
    span: Span


@dataclass
class ContractNLIDoc:
    """A ContractNLI document reduced to what the bank and the benchmark need.

    ``spans`` are ``[start, end)`` char offsets into ``text`` (the dataset's own
    segmentation); ``labels`` maps hypothesis id to label; ``evidence`` maps hypothesis id
    to indices into ``spans``.
    """

    id: str
    text: str
    spans: list[tuple[int, int]]
    labels: dict[str, str]
    evidence: dict[str, list[int]]
    file_name: str = ""

    def span_texts(self) -> list[str]:
        """The text of every span, in order."""
        return [self.text[s:e] for s, e in self.spans]


@dataclass
class ContractNLISplit:
    """A loaded ContractNLI split: documents plus hypothesis texts (id -> sentence)."""

    path: Path
    documents: list[ContractNLIDoc]
    hypotheses: dict[str, str]
    short_descriptions: dict[str, str] = field(default_factory=dict)

    @property
    def doc_ids(self) -> set[str]:
        """Ids of all documents in the split."""
        return {d.id for d in self.documents}


def load_contractnli(path: str | Path) -> ContractNLISplit:
    """Read a ContractNLI JSON file (official schema; see ``data/contractnli/SOURCE.md``).

    Uses ``annotation_sets[0]``. Raises :class:`ConfigError` if the file is missing or
    not in that schema.
    """
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"ContractNLI file not found: {p}")
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
        docs = []
        for d in raw["documents"]:
            ann = d["annotation_sets"][0]["annotations"]
            docs.append(ContractNLIDoc(
                id=str(d["id"]), text=d["text"], spans=[(int(s), int(e)) for s, e in d["spans"]],
                labels={h: a["choice"] for h, a in ann.items()},
                evidence={h: list(a["spans"]) for h, a in ann.items()},
                file_name=d.get("file_name", ""),
            ))
        hyps = {h: v["hypothesis"] for h, v in raw["labels"].items()}
        short = {h: v.get("short_description", "") for h, v in raw["labels"].items()}
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ConfigError(f"{p} is not a ContractNLI JSON file ({exc!r})") from exc
    return ContractNLISplit(path=p, documents=docs, hypotheses=hyps, short_descriptions=short)


@dataclass
class _HypIndex:
    exemplars: list[Exemplar]
    vectors: np.ndarray  # (n, dim), L2-normalised
    doc_ids: np.ndarray  # (n,) str
    labels: np.ndarray  # (n,) str
    is_evidence: np.ndarray  # (n,) bool


class ExemplarBank:
    """Labelled same-hypothesis precedents with their embeddings.

    Build with :meth:`from_split`. ``doc_ids`` lists every source contract (used to prove
    that no evaluated document is in the bank). All query vectors passed in must come
    from the same ``encode`` the bank was built with.
    """

    def __init__(self, exemplars: list[Exemplar], vectors: np.ndarray, source: str, encoder_name: str) -> None:
        if len(exemplars) != len(vectors):
            raise ValueError("one vector per exemplar")
        self.exemplars = exemplars
        self.source = source
        self.encoder_name = encoder_name
        self._by_h: dict[str, _HypIndex] = {}
        for h in sorted({e.hypothesis_id for e in exemplars}):
            idx = [i for i, e in enumerate(exemplars) if e.hypothesis_id == h]
            ex = [exemplars[i] for i in idx]
            self._by_h[h] = _HypIndex(
                exemplars=ex, vectors=np.asarray(vectors[idx], dtype=np.float32),
                doc_ids=np.array([e.doc_id for e in ex]), labels=np.array([e.label for e in ex]),
                is_evidence=np.array([e.kind == "evidence" for e in ex]),
            )

    # ------------------------------------------------------------------ building
    @classmethod
    def from_split(
        cls,
        split: ContractNLISplit,
        encode: Encoder,
        *,
        encoder_name: str = "",
        span_vectors: dict[str, np.ndarray] | None = None,
        forbidden_doc_ids: Iterable[str] = (),
    ) -> "ExemplarBank":
        """Build the bank from a labelled split (use ``dev.json``; never the test split).

        ``span_vectors`` (doc id -> (n_spans, dim)) may be given to reuse cached span
        embeddings; otherwise every span is encoded. Near-miss exemplars are chosen with
        :meth:`relevance` over the evidence exemplars of *other* documents.
        Raises :class:`ConfigError` if any document id is in ``forbidden_doc_ids`` (pass
        the evaluated split's ids) -- the bank must never see the documents it is scored on.
        """
        overlap = split.doc_ids & {str(d) for d in forbidden_doc_ids}
        if overlap:
            raise ConfigError(
                f"exemplar bank source {split.path.name} shares {len(overlap)} documents with the evaluated split; "
                "build the bank from dev.json only")
        vecs = span_vectors if span_vectors is not None else encode_split_spans(split, encode)
        evid: list[Exemplar] = []
        evid_vecs: list[np.ndarray] = []
        for d in split.documents:
            for h, lab in sorted(d.labels.items()):
                if lab == "NotMentioned":
                    continue
                for si in d.evidence.get(h, []):
                    s, e = d.spans[si]
                    evid.append(Exemplar(hypothesis_id=h, doc_id=d.id, label=cast(ContractNLILabel, lab), kind="evidence",
                                         text=d.text[s:e], span=Span(start=s, end=e)))
                    evid_vecs.append(vecs[d.id][si])
        dim = vecs[split.documents[0].id].shape[1] if split.documents else 0
        evidence_bank = cls(evid, np.asarray(evid_vecs, dtype=np.float32).reshape(-1, dim), str(split.path), encoder_name)
        near: list[Exemplar] = []
        near_vecs: list[np.ndarray] = []
        for d in split.documents:
            for h, lab in sorted(d.labels.items()):
                if lab != "NotMentioned" or h not in evidence_bank._by_h:
                    continue
                rel = evidence_bank.relevance(h, vecs[d.id], exclude_doc=d.id)
                if rel.size == 0:
                    continue
                si = int(np.argmax(rel))
                s, e = d.spans[si]
                near.append(Exemplar(hypothesis_id=h, doc_id=d.id, label="NotMentioned", kind="near_miss",
                                     text=d.text[s:e], span=Span(start=s, end=e)))
                near_vecs.append(vecs[d.id][si])
        all_vecs = np.concatenate([np.asarray(evid_vecs, np.float32).reshape(-1, dim),
                                   np.asarray(near_vecs, np.float32).reshape(-1, dim)])
        return cls(evid + near, all_vecs, str(split.path), encoder_name)

    # ------------------------------------------------------------------ queries
    @property
    def doc_ids(self) -> set[str]:
        """Ids of every contract an exemplar comes from."""
        return {e.doc_id for e in self.exemplars}

    @property
    def hypothesis_ids(self) -> list[str]:
        """Hypotheses that have at least one exemplar."""
        return list(self._by_h)

    def _mask(self, hi: _HypIndex, exclude_doc: str | None, evidence_only: bool) -> np.ndarray:
        m = np.ones(len(hi.exemplars), dtype=bool)
        if exclude_doc is not None:
            m &= hi.doc_ids != exclude_doc
        if evidence_only:
            m &= hi.is_evidence
        return m

    def relevance(self, hypothesis_id: str, vectors: np.ndarray, *, top_m: int = 3,
                  exclude_doc: str | None = None) -> np.ndarray:
        """Query-by-example relevance of passages to a hypothesis.

        ``vectors``: (n, dim) L2-normalised passage embeddings. Returns (n,) scores in
        [-1, 1]: the mean cosine similarity of each passage to its ``top_m`` most similar
        *evidence* exemplars of ``hypothesis_id`` (near misses excluded). Empty array if
        the hypothesis has no evidence exemplars.
        """
        hi = self._by_h.get(hypothesis_id)
        if hi is None or len(vectors) == 0:
            return np.zeros(0, dtype=np.float32)
        m = self._mask(hi, exclude_doc, evidence_only=True)
        if not m.any():
            return np.zeros(0, dtype=np.float32)
        sims = np.asarray(vectors, np.float32) @ hi.vectors[m].T  # (n, n_ex)
        t = min(top_m, sims.shape[1])
        top = -np.sort(-sims, axis=1)[:, :t]
        return top.mean(axis=1)

    def search(self, hypothesis_id: str, vector: np.ndarray, k: int = 4, *,
               exclude_doc: str | None = None, per_label: bool = False) -> list[tuple[Exemplar, float]]:
        """Nearest exemplars of one hypothesis to one passage embedding ``vector`` (dim,).

        Returns up to ``k`` ``(exemplar, cosine)`` pairs, most similar first; with
        ``per_label`` up to ``k`` of *each* label (balanced few-shot exemplars).
        """
        hi = self._by_h.get(hypothesis_id)
        if hi is None:
            return []
        m = self._mask(hi, exclude_doc, evidence_only=False)
        idx = np.flatnonzero(m)
        sims = hi.vectors[idx] @ np.asarray(vector, np.float32)
        order = idx[np.argsort(-sims, kind="stable")]
        simmap = dict(zip(idx.tolist(), sims.tolist()))
        if not per_label:
            return [(hi.exemplars[i], float(simmap[i])) for i in order[:k]]
        out: list[tuple[Exemplar, float]] = []
        for lab in LABELS:
            out += [(hi.exemplars[i], float(simmap[i])) for i in order if hi.labels[i] == lab][:k]
        return sorted(out, key=lambda t: -t[1])

    def vote(self, hypothesis_id: str, vectors: np.ndarray, weights: np.ndarray | None = None, *,
             n_neighbours: int = 10, power: float = 1.0, exclude_doc: str | None = None) -> dict[str, float]:
        """Similarity-weighted kNN vote over this hypothesis's exemplars.

        ``vectors``: (k, dim) embeddings of the passages retrieved as evidence; ``weights``
        (k,) their retrieval weights (default 1). Each passage's ``n_neighbours`` nearest
        exemplars vote for their label with weight ``weight * max(cos, 0) ** power``.
        Returns the normalised label distribution ``{label: share}`` (sums to 1; all zeros
        if there is nothing to vote with).
        """
        tally: dict[str, float] = {lab: 0.0 for lab in LABELS}
        hi = self._by_h.get(hypothesis_id)
        if hi is None or len(vectors) == 0:
            return tally
        m = self._mask(hi, exclude_doc, evidence_only=False)
        if not m.any():
            return tally
        ex_vecs, ex_labels = hi.vectors[m], hi.labels[m]
        sims = np.asarray(vectors, np.float32) @ ex_vecs.T
        w = np.ones(len(vectors)) if weights is None else np.asarray(weights, dtype=float)
        n = min(n_neighbours, sims.shape[1])
        for row, wi in zip(sims, w):
            nn = np.argsort(-row, kind="stable")[:n]
            for j in nn:
                tally[str(ex_labels[j])] += float(wi) * max(float(row[j]), 0.0) ** power
        total = sum(tally.values())
        return {k: (v / total if total > 0 else 0.0) for k, v in tally.items()}


# ---------------------------------------------------------------------- embeddings
def encode_split_spans(split: ContractNLISplit, encode: Encoder, *,
                       progress: Callable[[int, int], None] | None = None) -> dict[str, np.ndarray]:
    """Embed every span of every document: doc id -> (n_spans, dim) float32 array.

    ``encode`` should be a cached embedder's ``embed_passages``
    (:class:`clauselens.retrieval.embedders.CachedEmbedder`) so reruns cost nothing.
    """
    out: dict[str, np.ndarray] = {}
    for i, d in enumerate(split.documents):
        out[d.id] = np.asarray(encode(d.span_texts()), dtype=np.float32)
        if progress:
            progress(i + 1, len(split.documents))
    return out
