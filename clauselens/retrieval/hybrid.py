"""The Researcher's hybrid retriever: route to documents, then BM25 + dense -> RRF ->
optional reranker -> abstention.

Pipeline of :meth:`HybridRetriever.search` (every step is recorded in ``trace``):

1. **Split the query.** ``"Consider <description>; <question>"`` (LegalBench-RAG's form,
   or a Researcher that knows which agreement is meant) gives a *description*, which
   chooses documents, and a *question*, which ranks passages. Without a description the
   whole query is the question.
2. **Route** (multi-document stores only, when there is a description or ``route="always"``):
   BM25 and dense over one *profile* per document (title, parties, file name, opening
   text) fused by RRF; the best ``route_top`` documents are searched. Measured on
   LegalBench-RAG: over look-alike NDAs most wrong passages come from the wrong document
   (``../shared/data/legalbench-rag/BASELINES.md``).
3. **Rank passages** inside those documents (by the question alone; with no routing, by
   the whole query) with BM25 (:mod:`.lexical`) and dense cosine
   (:mod:`.dense`), ``candidates`` each; an empty/all-zero list is dropped; fuse with RRF
   (:mod:`.fusion`, k = ``rrf_k``).
4. **Exact-match field**: if the question names clause references (``clause 3.2``,
   ``§3.2``, ``14.3(b)``), chunks whose ``clause_ref`` equals one of them come first. If a
   named reference exists in none of the searched documents, the retriever abstains
   ("clause 14.3(b) not found ...") instead of returning look-alikes (3.12, 12.3).
   4b. **Absent clause kind** (``category_absence``, issue #39): a question the trained topic head
   reads as a CUAD clause kind that the presence probe finds clearly absent from every searched
   document (at most 3) gets "no matching clause found" and why.
   4c. **Absent concept** (``concept_absence``, issue #39): so does a question every one of whose
   lay-term thesaurus concepts those documents use none of the wording of
   (:mod:`clauselens.retrieval.concept_absence`).
5. **Rerank** the first ``rerank_top`` with the configured reranker.
6. **Abstain** when nothing matched, or when the best passage scores below
   ``abstain_threshold`` (compared with the reranker's probability if a reranker is set,
   otherwise with the best dense cosine; ``0.0`` disables it).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Sequence

from clauselens.config import RetrievalSettings
from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.analyzer import LegalAnalyzer, clause_key, clause_refs_in
from clauselens.retrieval.dense import DenseIndex
from clauselens.retrieval.embedders import Embedder
from clauselens.retrieval.fusion import reciprocal_rank_fusion
from clauselens.retrieval.lexical import NO_MATCH, BM25Index
from clauselens.retrieval.rerank import NoReranker, Reranker
from clauselens.retrieval.types import Passage, SearchResult

PROFILE_CHARS = 2000
#: Default of ``RetrievalSettings.dedupe``: drop passages less than half new (node/ancestor/
#: descendant chunks overlap). On LegalBench-RAG mini (gold documents, BM25) it raised
#: merged R@8 from 67.19 to 72.01 and cut the benchmark's as-defined R@64 from an inflated
#: 131.29 to 96.05 (benchmarks/results/legalbench_rag_mini_gold.json).
DEFAULT_DEDUPE: float | None = RetrievalSettings.model_fields["dedupe"].default
_CONSIDER_RE = re.compile(r"^\s*consider\s+(?P<desc>.+?);\s*(?P<q>.+)$", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class QueryParts:
    """A query split into the document ``description`` (or ``None``), the ``question``
    and the clause references the question names (normalised)."""

    description: str | None
    question: str
    refs: tuple[str, ...]


def split_query(query: str) -> QueryParts:
    """Split ``"Consider <description>; <question>"``; other queries are all question."""
    m = _CONSIDER_RE.match(query)
    desc, q = (m.group("desc").strip(), m.group("q").strip()) if m else (None, query.strip())
    return QueryParts(desc, q, tuple(clause_refs_in(q)))


def document_profile(doc: Document, chars: int = PROFILE_CHARS) -> str:
    """The text that represents ``doc`` for routing: title, parties, file name (``_``
    and ``-`` as spaces) and the first ``chars`` characters."""
    stem = Path(doc.source_path).stem.replace("_", " ").replace("-", " ") if doc.source_path else ""
    return "\n".join(x for x in (doc.title or "", " ; ".join(doc.parties), stem, doc.text[:chars]) if x)


def _chunk_profiles(chunks: Sequence[Chunk], chars: int = PROFILE_CHARS) -> dict[str, str]:
    prof: dict[str, list[str]] = {}
    for c in chunks:
        parts = prof.setdefault(c.doc_id, [c.doc_title or "", Path(c.source_path or "").stem.replace("_", " ")])
        if sum(len(p) for p in parts) < chars:
            parts.append(c.text)
    return {d: "\n".join(p)[: chars + 200] for d, p in prof.items()}


def _profile_chunks(profiles: dict[str, str]) -> list[Chunk]:
    from clauselens.parsing.types import Span

    return [Chunk(id=f"profile:{d}", doc_id=d, node_id="root", kind="window", text=t, spans=[Span(start=0, end=len(t))])
            for d, t in profiles.items()]


class HybridRetriever:
    """BM25 + dense + RRF + reranker + abstention, with document routing.

    Args:
        embedder: an :class:`~clauselens.retrieval.embedders.Embedder`, or ``None`` for
            lexical-only (fast on large corpora).
        reranker: a :class:`~clauselens.retrieval.rerank.Reranker` (default none).
        rrf_k: RRF constant (60, Cormack et al. 2009).
        candidates: passages taken from each first-stage ranker.
        rerank_top: how many fused passages the reranker re-scores (default 20).
        abstain_threshold: see step 6 of the module docstring.
        route: ``"auto"`` routes when the query has a description; ``"always"`` routes
            every query on the whole query; ``"never"`` searches all documents.
        route_top: documents kept by routing.
        weights: optional RRF weights per ranker name (``"bm25"``, ``"dense"``).
        lexical: rank passages with BM25 too (``False`` with an embedder: dense only).
        dedupe: if set (e.g. 0.5), drop a passage when less than this share of its
            characters is new, i.e. not already in a better-ranked passage of the same
            document (node / ancestor / descendant chunks overlap). ``None`` keeps all.

    ``name`` is ``"hybrid"``. Implements :class:`~clauselens.retrieval.types.RetrievalMethod`.
    """

    name = "hybrid"

    def __init__(self, embedder: Embedder | None = None, reranker: Reranker | None = None, *, rrf_k: int = 60,
                 candidates: int = 40, rerank_top: int = 20, abstain_threshold: float = 0.0,
                 route: Literal["auto", "always", "never"] = "auto", route_top: int = 1,
                 weights: dict[str, float] | None = None, lexical: bool = True,
                 dedupe: float | None = None, category_absence: bool = False, concept_absence: bool = False) -> None:
        if embedder is None and not lexical:
            raise ValueError("HybridRetriever needs BM25 (lexical=True), an embedder, or both")
        self.embedder = embedder
        self.lexical = lexical
        self.dedupe = dedupe
        self.reranker = reranker or NoReranker()
        self.rrf_k, self.candidates, self.rerank_top = rrf_k, candidates, rerank_top
        self.abstain_threshold, self.route, self.route_top = abstain_threshold, route, route_top
        self.weights = weights
        #: Abstain on a question about a CUAD clause kind the searched documents clearly lack (step 4b).
        self.category_absence = category_absence
        self.concept_absence = concept_absence
        self._presence: dict[str, dict[str, float]] = {}
        self._words: dict[str, tuple[str, str]] = {}  # document -> (text, content stems): the concept check
        self.chunks: list[Chunk] = []
        self._bm25: BM25Index | None = None
        self._dense: DenseIndex | None = None
        self._doc_bm25: BM25Index | None = None
        self._doc_dense: DenseIndex | None = None
        self._refs_by_doc: dict[str, set[str]] = {}
        self._doc_ids: list[str] = []

    # ----------------------------------------------------------------- indexing
    def index(self, documents: Sequence[Document]) -> None:
        """Chunk (``clauselens.parsing.build_chunks``) and index ``documents``;
        replaces the previous index. Unchanged texts reuse cached embeddings."""
        from clauselens.parsing import build_chunks

        chunks = [c for d in documents for c in build_chunks(d)]
        self.index_chunks(chunks, {d.id: document_profile(d) for d in documents},
                          defined_terms={t for d in documents for t in d.defined_terms})

    def index_chunks(self, chunks: Sequence[Chunk], profiles: dict[str, str] | None = None,
                     defined_terms: set[str] | None = None) -> None:
        """Index ``chunks``; ``profiles`` (doc id -> routing text) default to each
        document's title, file name and first chunks."""
        self.chunks = list(chunks)
        analyzer = LegalAnalyzer(defined_terms=sorted(defined_terms or ())[:5000])
        self._bm25 = BM25Index(self.chunks if self.lexical else [], analyzer)
        self._dense = DenseIndex(self.chunks, self.embedder) if self.embedder is not None and self.chunks else None
        profiles = profiles or _chunk_profiles(self.chunks)
        self._doc_ids = list(profiles)
        if len(profiles) > 1:
            pchunks = _profile_chunks(profiles)
            self._doc_bm25 = BM25Index(pchunks)
            self._doc_dense = DenseIndex(pchunks, self.embedder) if self.embedder is not None else None
        else:
            self._doc_bm25 = self._doc_dense = None
        self._refs_by_doc = {}
        self._presence = {}
        self._words = {}
        for c in self.chunks:
            if c.clause_ref:
                self._refs_by_doc.setdefault(c.doc_id, set()).add(clause_key(c.clause_ref))

    # ----------------------------------------------------------------- routing
    def route_documents(self, text: str, top: int | None = None) -> list[tuple[str, float]]:
        """Documents best matching ``text`` (a description of the agreement), as
        ``(doc_id, rrf score)`` best first, at most ``top`` (default ``route_top``)."""
        top = top or self.route_top
        if self._doc_bm25 is None:
            return [(d, 1.0) for d in self._doc_ids[:top]]
        n = len(self._doc_bm25)
        lists = {"bm25": self._doc_bm25.search(text, n)}
        if self._doc_dense is not None:
            lists["dense"] = self._doc_dense.search(text, n)
        fused = reciprocal_rank_fusion({k: v for k, v in lists.items() if v}, k=self.rrf_k)
        return [(p.doc_id, p.score) for p in fused[:top]]

    # ----------------------------------------------------------------- search
    def search(self, query: str, k: int = 8, doc_ids: Sequence[str] | None = None) -> SearchResult:
        """Top ``k`` passages for ``query`` (see the module docstring).

        ``doc_ids`` restricts the search to those documents and skips routing (the
        Researcher passes them when it already knows the agreement). Never raises for
        an empty store: it returns an abstaining result ("no matching clause found").
        """
        t0 = time.perf_counter()
        parts = split_query(query)
        trace: dict[str, Any] = {"question": parts.question, "description": parts.description,
                                 "clause_refs": list(parts.refs)}
        if not self.chunks:
            return SearchResult(query=query, abstained=True, reason=NO_MATCH, trace=trace)
        docs: list[str] | None = list(doc_ids) if doc_ids is not None else None
        if docs is None and self._doc_bm25 is not None:
            if self.route == "always" or (self.route == "auto" and parts.description):
                routed = self.route_documents(parts.description or query)
                docs = [d for d, _ in routed]
                trace["routed_documents"] = routed
        # clause references named but absent from the searched documents -> abstain
        if parts.refs:
            have = set().union(*(self._refs_by_doc.get(d, set()) for d in (docs or self._refs_by_doc)))
            missing = [r for r in parts.refs if clause_key(r) not in have]
            # only structured documents (with clause refs) can prove a clause absent
            if have and missing and len(missing) == len(parts.refs):
                trace["missing_refs"] = missing
                return SearchResult(query=query, abstained=True, trace=trace,
                                    reason=f"no matching clause found: clause {', '.join(missing)} is not in the searched documents")
        named = self._named_here(parts.question, docs or self._doc_ids) if not parts.refs else None
        if named is not None:  # the agreement holds the very thing asked about: no reading of meaning declines
            trace["named_in_agreement"] = named
        if not parts.refs and named is None and self.category_absence:
            absent = self._absent_category(parts.question, docs or self._doc_ids, trace)
            if absent is not None:
                return SearchResult(query=query, abstained=True, trace=trace, reason=f"{NO_MATCH}: {absent}")
        if not parts.refs and named is None and self.category_absence and len(docs or self._doc_ids) <= 3:
            from clauselens.heads.category_words import asked_unworded

            word = asked_unworded(parts.question, self._texts_of(docs or self._doc_ids))
            if word:  # "Is Maimon's liability capped?" over an agreement that never says "liab...": no such clause
                trace["absent_topic"] = {"word": word, "never_worded": True}
                return SearchResult(query=query, abstained=True, trace=trace,
                                    reason=f"{NO_MATCH}: the searched documents never use the word '{word}…', and clauses of that "
                                           "kind are (almost) never written without it")
        if not parts.refs and named is None and self.concept_absence:
            absent = self._absent_concept(parts.question, docs or self._doc_ids, trace)
            if absent is not None:
                return SearchResult(query=query, abstained=True, trace=trace, reason=f"{NO_MATCH}: {absent}")
        # Without a chosen document the description is all that tells look-alike
        # contracts apart, so it stays in the ranking query; once documents are chosen
        # (routing or doc_ids) only the question ranks passages.
        rank_q = parts.question if docs is not None or not parts.description else query
        trace["ranking_query"] = rank_q
        lists: dict[str, list[Passage]] = {}
        n_cand = max(self.candidates, 2 * k) if self.dedupe else self.candidates
        if self.lexical and self._bm25 is not None:  # indexed: self.chunks is not empty
            lists["bm25"] = self._bm25.search(rank_q, n_cand, docs)
        if self._dense is not None:
            lists["dense"] = self._dense.search(rank_q, n_cand, docs)
        trace["stage_hits"] = {n: len(v) for n, v in lists.items()}
        fused = reciprocal_rank_fusion({n: v for n, v in lists.items() if v}, k=self.rrf_k, weights=self.weights)
        if parts.refs:
            fused = self._exact_first(fused, parts.refs, docs)
        if not fused:
            return SearchResult(query=query, abstained=True, reason=NO_MATCH, trace=trace)
        if not isinstance(self.reranker, NoReranker):
            fused = self.reranker.rerank(parts.question, fused, self.rerank_top)
            best: float | None = fused[0].score
        else:
            best = max((p.scores.get("dense", 0.0) for p in fused), default=0.0) if self._dense is not None else None
        if self.abstain_threshold > 0 and best is not None and best < self.abstain_threshold:
            trace["best_score"] = best
            return SearchResult(query=query, abstained=True, trace=trace,
                                reason=f"{NO_MATCH} (best score {best:.3f} < threshold {self.abstain_threshold})")
        if self.dedupe:
            before = len(fused)
            fused = drop_overlapping(fused, self.dedupe)
            trace["deduped"] = before - len(fused)
        trace["latency_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        return SearchResult(query=query, passages=fused[:k], trace=trace)

    def _absent_category(self, question: str, docs: Sequence[str], trace: dict[str, Any]) -> str | None:
        """The reason to abstain when the trained topic head reads ``question`` as a CUAD clause kind that
        the presence probe finds clearly absent from every one of ``docs`` (at most 3; issue #39, as
        :mod:`clauselens.library.category_absence` for a library); ``None`` otherwise, and always without
        the heads or the MiniLM embedder (off, said once)."""
        if not docs or len(docs) > 3 or self.embedder is None or getattr(self.embedder, "name", "") != "minilm":
            return None
        from clauselens.heads.base import HeadMissingError, notice_missing
        from clauselens.heads.presence import contract_scores
        from clauselens.heads.topic import absence_reason
        from clauselens.heads.topic import load as load_topic

        try:
            head = load_topic()
        except HeadMissingError as e:
            notice_missing("topic", "category-absence abstention", e)
            self.category_absence = False
            return None
        for d in docs:
            if d not in self._presence:
                self._presence[d] = contract_scores("\n".join(c.text for c in self.chunks if c.doc_id == d))
        presence = [self._presence[d] for d in docs]
        vec = self.embedder.embed_queries([question])[0]
        reading = head.read(vec, presence)
        if not reading.absent:
            from clauselens.heads.category_words import unworded_candidate, unworded_reading, unworded_reason

            ranked = head.ranked(vec)
            got = unworded_reading(ranked, self._texts_of(docs)) if unworded_candidate(ranked) else None
            if got is not None:  # a kind almost never written without its own word, which the document never uses
                trace["absent_category"] = {"category": got[0], "mass": round(got[2], 3), "never_worded": got[1]}
                return unworded_reason(*got, self._names_of(docs), len(docs))
            return self._absent_heading_topic(vec, docs, trace)
        cat = reading.categories[0][0]
        best = max(sc.get(cat, 0.0) for sc in presence)
        trace["absent_category"] = {"category": cat, "mass": round(reading.mass, 3), "presence": round(best, 4)}
        return absence_reason(reading, self._names_of(docs), len(docs), best, head.absent_below[cat])

    def _names_of(self, docs: Sequence[str]) -> str:
        """The documents' titles for a reason ("the document" when one has none)."""
        titles = {c.doc_id: c.doc_title for c in self.chunks if c.doc_title}
        return " / ".join(titles.get(d) or "the document" for d in docs)

    def _texts_of(self, docs: Sequence[str]) -> list[str]:
        """Each document's text (joined chunks), once per index (:func:`agreement_words`, as the concept check reads it)."""
        from clauselens.retrieval.concept_absence import agreement_words

        for d in docs:
            if d not in self._words:
                self._words[d] = agreement_words("\n".join(c.text for c in self.chunks if c.doc_id == d))
        return [self._words[d][0] for d in docs]

    def _named_here(self, question: str, docs: Sequence[str]) -> str | None:
        """A thing ``question`` names that one of ``docs`` (at most 3) holds verbatim
        (:func:`clauselens.retrieval.concept_absence.named_in`), else ``None``."""
        from clauselens.retrieval.concept_absence import MAX_AGREEMENTS, named_in, named_terms

        if not docs or len(docs) > MAX_AGREEMENTS or not named_terms(question):
            return None
        return named_in(question, self._texts_of(docs))

    def _absent_concept(self, question: str, docs: Sequence[str], trace: dict[str, Any]) -> str | None:
        """The reason to abstain when none of ``docs`` (at most 3) uses the wording of any thesaurus concept
        ``question`` reads as (:mod:`clauselens.retrieval.concept_absence`); ``None`` otherwise."""
        from clauselens.retrieval.concept_absence import MAX_AGREEMENTS, question_concepts, unused_concepts

        asked = question_concepts(question) if docs and len(docs) <= MAX_AGREEMENTS else []
        if not asked:
            return None
        self._texts_of(docs)  # each document's text and stems once per index (as the presence scores)
        got = unused_concepts(asked, [self._words[d] for d in docs])
        if got is None:
            return None
        titles = {c.doc_id: c.doc_title for c in self.chunks if c.doc_title}
        trace["absent_concepts"] = list(got.concepts)
        return got.reason(" / ".join(titles.get(d) or "the document" for d in docs), len(docs))

    def _absent_heading_topic(self, vec: Any, docs: Sequence[str], trace: dict[str, Any]) -> str | None:
        """After the CUAD reading: the heading-topic head's (a topic of the agreements' own headings that
        every one of ``docs`` neither heads nor words; :mod:`clauselens.library.heading_topics` for a
        library); ``None`` otherwise, and without the head (off, said once)."""
        from clauselens.heads.base import HeadMissingError, notice_missing
        from clauselens.heads.heading_topic import heading_keys
        from clauselens.heads.heading_topic import load as load_heading

        try:
            head = load_heading()
        except HeadMissingError as e:
            notice_missing("heading_topic", "heading-topic absence abstention", e)
            return None
        tok = LegalAnalyzer().tokenize
        states = []
        for d in docs:
            own = [c for c in self.chunks if c.doc_id == d]
            states.append((heading_keys({h for c in own for h in c.heading_path}, tok),
                           head.contract_scores("\n".join(c.text for c in own))))
        reading = head.read(vec, states)
        if not reading.absent:
            return None
        titles = {c.doc_id: c.doc_title for c in self.chunks if c.doc_title}
        trace["absent_category"] = {"heading_topic": reading.categories[0][0], "mass": round(reading.mass, 3)}
        return head.reason(reading, " / ".join(titles.get(d) or "the document" for d in docs), len(docs))

    def _exact_first(self, fused: list[Passage], refs: Sequence[str], docs: Sequence[str] | None) -> list[Passage]:
        """Chunks whose ``clause_ref`` is one of ``refs`` first (fused order among them,
        then document order for exact hits the rankers missed), then the rest."""
        wanted = {clause_key(r) for r in refs}
        allowed = set(docs) if docs is not None else None
        hits = [p for p in fused if p.clause_ref and clause_key(p.clause_ref) in wanted]
        seen = {p.chunk_id for p in hits}
        for c in self.chunks:
            if c.id not in seen and c.clause_ref and clause_key(c.clause_ref) in wanted and \
                    (allowed is None or c.doc_id in allowed):
                hits.append(Passage.from_chunk(c, 0.0, "exact"))
                seen.add(c.id)
        for r, p in enumerate(hits, start=1):
            p.ranks["exact"] = r
            p.scores["exact"] = 1.0
        return hits + [p for p in fused if p.chunk_id not in seen]


def drop_overlapping(passages: Sequence[Passage], min_new: float) -> list[Passage]:
    """Keep passages (in order) that add at least ``min_new`` (0..1) of new characters
    to the better-ranked kept passages of the same document."""
    covered: dict[str, list[tuple[int, int]]] = {}
    out = []
    for p in passages:
        cov = covered.setdefault(p.doc_id, [])
        total = sum(sp.end - sp.start for sp in p.spans)
        seen = 0
        for sp in p.spans:
            seen += sum(max(0, min(sp.end, e) - max(sp.start, s)) for s, e in cov)
        if total and (total - min(seen, total)) / total < min_new:
            continue
        cov.extend((sp.start, sp.end) for sp in p.spans)
        out.append(p)
    return out


def build_retriever(settings: RetrievalSettings, *, cache_dir: Path | None = None, chat_model: Any | None = None,
                    embedder: Embedder | None = None) -> HybridRetriever:
    """The Researcher's retriever from :class:`clauselens.config.RetrievalSettings`.

    ``embedder`` overrides ``settings.embedder`` (``"none"`` there means lexical only);
    ``route``, ``route_top`` and ``dedupe`` come from the settings;
    ``chat_model`` is needed for ``reranker="llm"``. Raises
    :class:`~clauselens.errors.ConfigError` / :class:`~clauselens.errors.ModelUnavailableError`
    for an unknown or missing embedder/reranker.
    """
    from clauselens.retrieval.embedders import get_embedder
    from clauselens.retrieval.rerank import build_reranker

    if embedder is None and settings.embedder not in ("none", ""):
        embedder = get_embedder(settings.embedder, cache_dir)
    return HybridRetriever(
        embedder, build_reranker(settings.reranker, chat_model), rrf_k=settings.rrf_k,
        candidates=settings.candidates, rerank_top=settings.rerank_top,
        abstain_threshold=settings.abstain_threshold,
        route=settings.route, route_top=settings.route_top, dedupe=settings.dedupe,
        category_absence=settings.category_absence, concept_absence=settings.concept_absence,
    )


__all__ = ["HybridRetriever", "QueryParts", "build_retriever", "document_profile", "split_query"]
