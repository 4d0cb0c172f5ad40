"""A persistent contract library: add files once, ask across all of them.

``Library.open(root)`` opens (or creates) a library directory; ``add`` parses, indexes and
persists agreements incrementally (unchanged files are skipped by sha256, changed ones
re-indexed, ``prune`` drops files that are gone); ``search`` answers one question:

1. **Filters** (agreement ids, party, type, year) fix the candidate agreements.
2. **Resolve** the agreement the question names (:mod:`clauselens.library.resolver`); a
   question that names none is searched across the library.
3. **Exact fields.** A clause number the question names (``Section 14.3(b)``) puts that
   clause's passages first; a number the resolved agreement does not have gives "no
   matching clause found". "How is 'X' defined" / "what does 'X' mean" puts the passage
   defining X first, followed by the sub-clauses its definition continues into when the
   passage stops where the definition's body begins (``c) "Force Majeure" means`` and the list
   ``i) An Act of God; ii) ...``: the list is the definition).
4. **Rank** the candidates' passages by BM25 (with the term statistics of the searched
   agreements when they are few) and dense cosine, fused by Reciprocal Rank Fusion
   (Cormack, Clarke & Buettcher 2009, k = 60; :mod:`clauselens.retrieval.fusion`). Once the
   agreements are chosen, the words that only name them (parties, short names, title) are
   left out of the ranking query, and an agreement's front matter (preamble, recitals) is
   ranked after its operative clauses unless the question asks about it.
5. **Abstain** ("no matching clause found") when the best passage's dense cosine is below
   ``abstain_threshold`` (calibrated on the development set by ``benchmarks/clause_qa.py``
   and reported with the abstain rate on answerable questions).

Every step is written to ``SearchResult.trace``.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clauselens.errors import ConfigError, IngestError, RetrievalError
from clauselens.library.backends import open_storages
from clauselens.library.catalogue import AgreementRecord, strip_naming_words
from clauselens.library.category_absence import CategoryChecks
from clauselens.library.concept_absence import ConceptChecks
from clauselens.library.exact_fields import ExactFields, show_ref
from clauselens.library.indexing import COMMIT_EVERY, SUFFIXES, AddReport, Indexing, ProgressFn, collect_files
from clauselens.library.naming import AgreementNames
from clauselens.library.ordering import FRONT_MATTER_QUESTION, RECITAL_START, ResultOrder
from clauselens.library.passages import ref_key_groups
from clauselens.library.query_vectors import QueryVectors
from clauselens.library.questions import defined_term_candidates, defined_term_in, term_variants
from clauselens.library.resolver import AgreementResolver, Resolution, resolution_tokens
from clauselens.library.storage import EngineRanking, top_scores
from clauselens.library.topics import FAMILY_MIN_STEM, TOPIC_MIN_AGREEMENTS, TOPIC_MIN_SHARE, TopicChecks
from clauselens.parsing.numbering import clause_label
from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.analyzer import LegalAnalyzer
from clauselens.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from clauselens.retrieval.lay_terms import expand as lay_expansion
from clauselens.retrieval.lexical import NO_MATCH
from clauselens.retrieval.types import Passage, SearchResult

#: Lexical engine of a new local library (``bm25s`` or ``tantivy``; an existing library keeps the
#: one it records, libraries from before issue #42 record none and use bm25s). tantivy since issue #42:
#: an add is a segment, not a rebuild (520k passages: add one agreement 33.7 s -> 4.4 s, remove 27.7 s ->
#: 0.9 s), with the same top 5 as bm25s on every clause-QA dev and lay question
#: (benchmarks/results/library_scale_replay.json, clause_qa_lexical.json).
DEFAULT_LEXICAL = "tantivy"
#: Vector format of a new local library (``f32`` or ``f16``; existing libraries keep theirs). f16 with a
#: usearch HNSW index above 50k rows since issue #42 (520k: whole-library p95 160 -> 47 ms, RSS 1615 ->
#: 1243 MB, recall@10 vs exact 0.914).
DEFAULT_VECTORS = "f16"
#: Candidates each first-stage ranker contributes to fusion.
CANDIDATES = 50
#: When proper names are weighted in resolution (:data:`~clauselens.library.resolver.NAME_WEIGHT`
#: > 1; off by default), only those at most this share of the library's agreements (and at least
#: NAME_RARE_MIN of them) use: a party's name, not a capitalised word many agreements share
#: ("Confidential Information" in every NDA). Unconditional weighting chose a wrong agreement
#: alone for 37 LegalBench-RAG queries, this check for 25 (README, "Proper names in resolution").
NAME_RARE_SHARE = 0.01
NAME_RARE_MIN = 2
#: Passages of the fused list a reranker scores (``retrieval.library_rerank_top``; the
#: dev benchmark ``benchmarks/clause_qa_rerank.py`` measured 10 and says what 20 costs).
RERANK_TOP = 10
#: Searches over at most this many passages (the resolved agreements) use BM25 statistics
#: of those passages alone (:func:`_local_bm25`); larger ones use the library-wide index.
LOCAL_BM25_MAX = 5000



class Library(Indexing, ExactFields, TopicChecks, CategoryChecks, ConceptChecks, QueryVectors, ResultOrder, AgreementNames):
    """A library directory (see the module docstring). Create with :meth:`open`.

    ``embedder``: an :class:`~clauselens.retrieval.embedders.Embedder` (created from the
    library's recorded embedder name on first use when not given); ``None`` name
    ``"none"`` means lexical only. ``use_file_names``: let file names count in resolution
    (off by default; a benchmark row says when it is on).
    """

    def __init__(self, root: Path, meta: dict[str, Any], *, embedder: Any = None, cache_dir: Path | None = None,
                 abstain_threshold: float | None = None) -> None:
        self.root = Path(root)
        self.meta = meta
        self.cache_dir = cache_dir
        self._embedder = embedder
        self.catalogue, self.lexical, self.vectors = open_storages(meta["backend"], self.root, int(meta["dim"]),
                                                                   uri=meta.get("uri"), name=meta.get("name"),
                                                                   lexical=meta.get("lexical", "bm25s"),
                                                                   vectors=meta.get("vectors", "f32"))
        self.analyzer = LegalAnalyzer()
        self.resolver = AgreementResolver()
        self.local_idf = True
        self.abstain_threshold = float(meta.get("abstain_threshold", 0.0) if abstain_threshold is None else abstain_threshold)
        #: Optional relevance scorer over the fused top :attr:`rerank_top` (anything with
        #: ``score(query, texts) -> [P(relevant)]``, e.g. :class:`~clauselens.retrieval.rerank.LLMRelevanceScorer`);
        #: set by the caller (``interfaces.library_commands.open_library`` from ``retrieval.library_rerank``).
        self.reranker: Any = None
        self.rerank_top = RERANK_TOP
        #: Abstain when no reranked passage reaches this P(relevant) (0 = off).
        self.rerank_abstain = 0.0
        #: Weight of the reranker's order against the fused order in :func:`rerank_order`
        #: (``retrieval.library_rerank_weight``; 1 = equal, 0 = the fused order kept).
        self.rerank_weight = 1.0
        #: Rank an agreement's front matter (preamble and recitals, before its first numbered
        #: clause) after its operative clauses (:meth:`_demote_front_matter`).
        self.demote_front_matter = True
        #: Append the contract terms of the question's lay phrases to the ranking query
        #: (:mod:`clauselens.retrieval.lay_terms`; "walk away" -> "terminate", "for convenience", ...).
        self.expand_lay_terms = True
        #: Fuse the topic channel (the topic head's category, the presence probe's best passages for
        #: it) into the ranking (:meth:`_with_topic_channel`); needs the topic head.
        self.topic_channel = False
        self._body_start: dict[str, int | None] = {}
        self._body_start_gen = -1
        stale = self.lexical.generation() != self.catalogue.generation()
        if self.catalogue.agreements() and (stale or any(r.topics is None or r.topic_pairs is None for r in self.agreements())):
            self.rebuild_lexical()

    # ------------------------------------------------------------- lifecycle
    @classmethod
    def open(cls, root: str | Path, *, embedder_name: str = "minilm", backend: str | None = None,
             embedder: Any = None, cache_dir: Path | None = None, create: bool = True,
             abstain_threshold: float | None = None, uri: str | None = None, lexical: str | None = None,
             vectors: str | None = None) -> "Library":
        """Open the library at ``root`` (created when ``create``; a new library records
        ``embedder_name``, ``backend`` (default ``local``), for ``milvus`` ``uri``, for ``local``
        the ``lexical`` engine (default :data:`DEFAULT_LEXICAL`) and ``vectors`` format (default
        :data:`DEFAULT_VECTORS`); an existing one keeps what it was built with).
        Raises :class:`ConfigError` when it does not exist and ``create`` is False, or when
        ``embedder``, ``backend`` or ``uri`` differ from the ones the library was built with."""
        root = Path(root).expanduser()
        mpath = root / "library.json"
        if uri is not None and backend is None:
            backend = "milvus"
        if uri is not None and "://" not in uri:
            uri = str(Path(uri).expanduser().resolve())  # a Milvus Lite file, wherever the next command runs
        if mpath.exists():
            meta = json.loads(mpath.read_text())
            for key, want in (("backend", backend), ("uri", uri)):
                if want is not None and meta.get(key) != want:
                    raise ConfigError(f"library {root} uses {key} {meta.get(key)!r}, not {want!r}; "
                                      "add to a new library to change it")
            if lexical is not None and meta.get("lexical", "bm25s") != lexical:
                raise ConfigError(f"library {root} uses lexical engine {meta.get('lexical', 'bm25s')!r}, not {lexical!r}; "
                                  "add to a new library to change it")
        elif not create:
            named = root.name if root.parent.name == "libraries" else str(root)  # a name under libraries/, else the path given
            raise ConfigError(f"no library at {root} (create it with: clauselens library add FILES --library {named})")
        else:
            if embedder is None and embedder_name not in ("none", ""):
                from clauselens.retrieval.embedders import get_embedder

                embedder = get_embedder(embedder_name, cache_dir)
            dim = int(embedder.dim) if embedder is not None else 1
            backend = backend or "local"
            if backend != "milvus" and uri is not None:
                raise ConfigError("--uri is for the milvus backend")
            meta = {"name": root.name, "backend": backend, "embedder": embedder.name if embedder is not None else "none",
                    "dim": dim, "created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    "passage_format": 1, "abstain_threshold": 0.0}
            if backend == "milvus":
                meta["uri"] = uri or str(root / "milvus.db")
            else:
                meta["lexical"] = lexical or DEFAULT_LEXICAL
                meta["vectors"] = vectors or DEFAULT_VECTORS
            root.mkdir(parents=True, exist_ok=True)
            mpath.write_text(json.dumps(meta, indent=2))
        if embedder is not None and meta["embedder"] != "none" and embedder.name != meta["embedder"]:
            raise ConfigError(f"library {root} was built with embedder {meta['embedder']!r}, not {embedder.name!r}; "
                              "add to a new library to change the embedder")
        return cls(root, meta, embedder=embedder, cache_dir=cache_dir, abstain_threshold=abstain_threshold)

    @property
    def embedder(self) -> Any:
        """The library's embedder (created on first use), or ``None`` for a lexical-only library."""
        if self._embedder is None and self.meta["embedder"] != "none":
            from clauselens.retrieval.embedders import get_embedder

            self._embedder = get_embedder(self.meta["embedder"], self.cache_dir)
        return self._embedder

    def agreements(self) -> list[AgreementRecord]:
        """Every agreement's catalogue record, in the order added."""
        return self.catalogue.agreements()

    def __len__(self) -> int:
        return len(self.agreements())

    # ------------------------------------------------------------- adding


    # ------------------------------------------------------------- search
    def candidates(self, *, doc_ids: Sequence[str] | None = None, party: str | None = None,
                   doc_type: str | None = None, year: int | None = None) -> list[str] | None:
        """Doc ids passing the filters (``None``: no filter given). ``party`` matches a party
        name or short name (case-insensitive substring); ``doc_type`` the coarse type
        (``agreement``, ``amendment``, ...) or words of the title ("supply", "joint venture",
        "licence" for "LICENSE AGREEMENT": compared as analysed tokens)."""
        if doc_ids is None and party is None and doc_type is None and year is None:
            return None
        out = []
        for r in self.agreements():
            if doc_ids is not None and r.doc_id not in doc_ids:
                continue
            if party and not any(party.lower() in n.lower() for n in [*r.parties, *r.short_names]):
                continue
            if doc_type and r.doc_type != doc_type.lower() and not self._title_has(r, doc_type):
                continue
            if year is not None and r.year != year:
                continue
            out.append(r.doc_id)
        return out

    def _title_has(self, record: AgreementRecord, words: str) -> bool:
        want = set(self.analyzer.tokenize(words.replace("licence", "license").replace("Licence", "License")))
        title = record.title or ""
        have = set(self.analyzer.tokenize(title.replace("licence", "license").replace("LICENCE", "LICENSE")))
        return bool(want) and want <= have

    def resolution_query(self, text: str, *, name_weight: int | None = None, rare_only: bool = True) -> list[str]:
        """The BM25 query the resolver scores agreement profiles with (see
        :func:`~clauselens.library.resolver.resolution_tokens`): proper names weighted when
        they are rare in this library (:data:`NAME_RARE_SHARE`), unless ``rare_only=False``."""
        limit = max(NAME_RARE_MIN, NAME_RARE_SHARE * len(self.agreements()))
        rare = (lambda t: len(self.lexical.profile_scores([t])) <= limit) if rare_only else None
        return resolution_tokens(text, self.analyzer, name_weight=name_weight, rare=rare)

    def resolve(self, question: str, allowed: Sequence[str] | None = None) -> Resolution:
        """Which agreements ``question`` names (see :mod:`clauselens.library.resolver`)."""
        if allowed is not None and len(allowed) <= 1:
            return Resolution(ranked=[(d, 1.0) for d in allowed], chosen=list(allowed), status="filtered")
        from clauselens.retrieval.hybrid import split_query

        # "Consider <agreement>; <question>" (LegalBench-RAG's form, and the Researcher's when it
        # knows the agreement): only the description names the agreement
        parts = split_query(question)
        scores = self.lexical.profile_scores(self.resolution_query(parts.description or question))
        copies = self.copies()
        scores = {d: s for d, s in scores.items() if d not in copies}  # a copy's original stands for it
        res = self.resolver.decide(scores, allowed, n_docs=len(self.agreements()))
        res = self._named_alone(parts.description or question, res, copies, allowed)
        if allowed is not None and not res.chosen:
            res.chosen, res.status = list(allowed), "filtered"
        return res

    def search(self, question: str, k: int = 5, *, doc_ids: Sequence[str] | None = None, party: str | None = None,
               doc_type: str | None = None, year: int | None = None, resolve: bool = True,
               absent_topics: bool = True, front_matter: bool | None = None,
               dense_query: str | None = None, lexical_only: bool = False, lay_terms: bool | None = None) -> SearchResult:
        """The top ``k`` passages for ``question`` (see the module docstring), or an
        abstaining result whose ``reason`` starts with "no matching clause found".
        ``absent_topics=False`` skips the absent-topic abstention (the clause grid searches with
        long texts in contract wording, any word of which may be a topic an agreement lacks,
        and lets its answer step decide "not found"). ``front_matter=True`` keeps the preamble and
        recitals in their ranked place (questions whose answer lives there: the parties, the
        agreement's date), ``False`` always demotes them, ``None`` decides from the question.
        ``dense_query`` embeds that text instead of ``question`` for the dense ranker (BM25 still
        ranks with ``question``: the grid gives BM25 contract wording and the embedder the question);
        ``lexical_only`` ranks by BM25 alone (and skips the dense abstention threshold). ``lay_terms``
        appends the contract terms of the question's lay phrases to the ranking query
        (:mod:`clauselens.retrieval.lay_terms`); ``None`` follows :attr:`expand_lay_terms` (the grid,
        whose search texts are contract wording already, passes ``False``)."""
        t0 = time.perf_counter()
        trace: dict[str, Any] = {}
        if not self.agreements():
            return SearchResult(query=question, abstained=True, reason=f"{NO_MATCH}: the library is empty", trace=trace)
        allowed = self.candidates(doc_ids=doc_ids, party=party, doc_type=doc_type, year=year)
        if allowed is not None and not allowed:
            return SearchResult(query=question, abstained=True, trace=trace,
                                reason=f"{NO_MATCH}: no agreement in the library matches the filters")
        res = self.resolve(question, allowed) if resolve else \
            Resolution(chosen=list(allowed or []), status="filtered" if allowed else "unnamed")
        trace["resolution"] = res.trace()
        docs = res.chosen or None
        groups = ref_key_groups(question)
        refs = [g[0] for g in groups]
        terms = defined_term_candidates(question)
        term = terms[0] if terms else None
        if terms and docs:  # the first candidate (or inflection) the agreements define
            term = next((v for t in terms for v in term_variants(t) if self._definition_rows(docs, v)), term)
        trace.update(clause_refs=refs, defined_term=term)
        first: list[int] = []
        by_ref: list[list[int]] = []
        if refs and docs:
            # each reference's rows under the first of its spellings the agreements have
            found = {g[0]: self._rows_of_spellings(docs, g) for g in groups}
            missing = [r for r, rows in found.items() if not rows]
            structured = any(self.catalogue.refs_of(d) for d in docs)
            if structured and len(missing) == len(refs):
                trace["missing_refs"] = missing
                names = ", ".join(self._label(d) for d in docs)
                return SearchResult(query=question, abstained=True, trace=trace,
                                    reason=f"{NO_MATCH}: {', '.join(clause_label(show_ref(r)) for r in missing)} is not in {names}")
            by_ref = [found[r] for r in refs]
            first += [r for rows in by_ref for r in rows]
        if term and docs:
            first += self._definition_rows(docs, term)
        if absent_topics and not first and docs is not None and res.status in ("resolved", "ambiguous", "filtered") \
                and len(docs) <= 3:
            absent = self._absence(question, docs, trace)
            if absent is not None:
                return absent
        rank_q = question
        if docs is not None and len(docs) <= 10:
            rank_q = strip_naming_words(question, self._naming_words(question, docs))
        rerank_q = rank_q  # the reranker reads the question without the agreement's names (as the head was trained)
        if self.expand_lay_terms if lay_terms is None else lay_terms:  # after resolution and abstention: they only rank
            expansion = lay_expansion(rank_q)  # without the words naming the agreement ("an Outsourcing Agreement")
            if expansion.terms:
                rank_q = f"{rank_q} {expansion.text()}"
                trace["lay_terms"] = list(expansion.concepts)
        trace["ranking_query"] = rank_q
        ranked = self._rank(rank_q, docs, trace, dense_query=dense_query, lexical_only=lexical_only)
        if self.topic_channel and docs and not first and not lexical_only:
            ranked = self._with_topic_channel(rerank_q, docs, ranked, trace)
        copies = self.copies()
        if copies:  # one result per clause: a copy's passages are its original's
            ranked = [p for p in ranked if p.doc_id not in copies or (docs is not None and p.doc_id in docs)]
        if res.status in ("uncertain", "ambiguous") and docs is not None and len(docs) > 1:
            ranked = self._weight_by_resolution(ranked, res, trace)
        keep_front = bool(FRONT_MATTER_QUESTION.search(question)) if front_matter is None else front_matter
        if self.demote_front_matter and not keep_front:
            ranked = self._demote_front_matter(ranked, trace, rerank_q)
        if not ranked and not first:
            return SearchResult(query=question, abstained=True, reason=NO_MATCH, trace=trace)
        if self.reranker is not None and ranked and not first:
            ranked, best_p = self._rerank(rerank_q, ranked, trace)
            if self.rerank_abstain > 0 and best_p < self.rerank_abstain:
                return SearchResult(query=question, abstained=True, trace=trace,
                                    reason=f"{NO_MATCH} (no passage judged relevant: best P(relevant) {best_p:.2f} "
                                           f"< {self.rerank_abstain:.2f})")
        best = max((p.scores.get("dense", 0.0) for p in ranked[:k]), default=0.0)
        trace["best_dense"] = round(float(best), 4)
        if not first and self.abstain_threshold > 0 and self.embedder is not None and not lexical_only \
                and best < self.abstain_threshold:
            return SearchResult(query=question, abstained=True, trace=trace,
                                reason=f"{NO_MATCH} (best passage similarity {best:.3f} < {self.abstain_threshold:.3f})")
        named = list({p.chunk_id: p for p in self._order_exact(
            [self._as_passages(list(dict.fromkeys(rows)), "exact") for rows in by_ref], ranked, k)}.values())
        named_rows = {r for rows in by_ref for r in rows}
        exact = named + self._as_passages(list(dict.fromkeys(r for r in first if r not in named_rows)), "exact")
        seen = {p.chunk_id for p in exact}
        out = (exact + [p for p in ranked if p.chunk_id not in seen])[:k]
        from clauselens.library.versions import apply_versions

        out = apply_versions(self, out, trace)[:k]  # an operative text is inserted before what it supersedes, so cutting keeps pairs
        trace["latency_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        return SearchResult(query=question, passages=out, trace=trace)


    def _absence(self, question: str, docs: Sequence[str], trace: dict[str, Any]) -> SearchResult | None:
        """An abstaining result when the question's clause topic is absent from ``docs``: by the
        topic word the agreements never use (:meth:`_absent_topic`), by the trained topic and
        presence heads (:meth:`_absent_category`), or by a thesaurus concept whose wording they never
        use (:meth:`_absent_concept`); else ``None``."""
        names = " / ".join(self._label(d) for d in docs)
        absent = self._absent_topic(question, docs)
        if absent is not None:
            word, share = absent
            trace["absent_topic"] = {"word": word, "library_share": round(share, 3)}
            return SearchResult(query=question, abstained=True, trace=trace,
                                reason=f"{NO_MATCH}: {names} never mention{'s' if len(docs) == 1 else ''} "
                                       f"'{word}' (a clause topic in {share:.0%} of the library's agreements)")
        named = self._named_here(question, docs)
        if named is not None:  # the agreement holds the very thing asked about: no reading of meaning declines
            trace["named_in_agreement"] = named
            return None
        cat = self._absent_category(question, docs, names)
        if cat is not None:
            trace["absent_category"] = cat
            return SearchResult(query=question, abstained=True, trace=trace, reason=f"{NO_MATCH}: {cat['reason']}")
        asked = self._asked_unworded(question, docs)
        if asked:
            trace["absent_topic"] = {"word": asked, "never_worded": True}
            return SearchResult(query=question, abstained=True, trace=trace,
                                reason=f"{NO_MATCH}: {names} never use{'s' if len(docs) == 1 else ''} the word '{asked}…', "
                                       "and clauses of that kind are (almost) never written without it")
        concept = self._absent_concept(question, docs)
        if concept is None:
            return None
        trace["absent_concepts"] = list(concept.concepts)
        return SearchResult(query=question, abstained=True, trace=trace,
                            reason=f"{NO_MATCH}: {concept.reason(names, len(docs))}")

    def _with_topic_channel(self, question: str, docs: Sequence[str], ranked: list[Passage],
                            trace: dict[str, Any]) -> list[Passage]:
        """``ranked`` fused (RRF) with the topic channel's passages (:meth:`_topic_rows`), when it has any."""
        got = self._topic_rows(question, docs)
        if got is None:
            return ranked
        cat, rows = got
        trace["topic_channel"] = {"category": cat, "passages": len(rows)}
        return reciprocal_rank_fusion({"fused": ranked, "topic": self._as_passages(rows, "")}, k=RRF_K)

    def _label(self, doc_id: str) -> str:
        rec = next((r for r in self.agreements() if r.doc_id == doc_id), None)
        return rec.label if rec else doc_id


    def _rank(self, question: str, docs: Sequence[str] | None, trace: dict[str, Any], *,
              dense_query: str | None = None, lexical_only: bool = False) -> list[Passage]:
        if isinstance(self.lexical, EngineRanking):
            return self._rank_in_engine(self.lexical, question, docs, trace, dense_query=dense_query, lexical_only=lexical_only)
        rows = self.catalogue.rows_of(docs) if docs is not None else None
        lists: dict[str, list[tuple[int, float]]] = {}
        q_tokens = self.analyzer.tokenize(question)
        if rows is not None and len(rows) <= LOCAL_BM25_MAX and self.local_idf:
            lists["bm25"] = top_scores(rows, _local_bm25(self.catalogue.tokens_of(rows), q_tokens), CANDIDATES, positive=True)
        else:
            lists["bm25"] = self.lexical.top_passages(q_tokens, rows, docs, CANDIDATES)
        if self.embedder is not None and not lexical_only:
            q = self._query_vector(dense_query or question)
            r_d, s_d = self.vectors.scores(q, rows)
            if rows is None:  # vectors of removed agreements stay on disk: keep live rows only
                mask = self.catalogue.live_mask()
                keep = r_d < len(mask)
                keep[keep] = mask[r_d[keep]]
                r_d, s_d = r_d[keep], s_d[keep]
            lists["dense"] = top_scores(r_d, s_d, CANDIDATES, positive=False)
        trace["stage_hits"] = {n: len(v) for n, v in lists.items()}
        wanted = list(dict.fromkeys(r for v in lists.values() for r, _ in v))
        by_row = dict(zip(wanted, self._as_passages(wanted, "")))
        rankings = {}
        for name, v in lists.items():
            ps = []
            for rank, (r, s) in enumerate(v, start=1):
                p = by_row[r].model_copy()
                p.scores = {name: float(s)}
                p.ranks = {name: rank}
                p.score = float(s)
                ps.append(p)
            if ps:
                rankings[name] = ps
        return reciprocal_rank_fusion(rankings, k=RRF_K)


    def _rerank(self, question: str, ranked: list[Passage], trace: dict[str, Any]) -> tuple[list[Passage], float]:
        """The fused list with its first :attr:`rerank_top` passages re-ordered by
        :func:`rerank_order` of the scorer's P(relevant), and the best P(relevant) -- for a scorer with
        ``judge`` (the trained head) its P(answerable) of the list instead."""
        head, tail = ranked[: self.rerank_top], ranked[self.rerank_top:]
        t0 = time.perf_counter()
        texts, judge = [rerank_text(p) for p in head], getattr(self.reranker, "judge", None)
        if judge is not None:  # the trained head (issue #39): calibrated P(relevant) and P(answerable) of the list
            probs, best = judge(question, texts, [p.scores.get("dense") for p in head], [p.scores.get("bm25") for p in head])
        else:
            probs = [float(x) for x in self.reranker.score(question, texts)]
            best = max(probs, default=0.0)
        for p, pr in zip(head, probs):
            p.scores["head" if judge is not None else "llm"] = pr
        order = rerank_order(probs, self.rerank_weight)
        trace["rerank"] = {"scored": len(head), "best": round(best, 4), "seconds": round(time.perf_counter() - t0, 2)}
        return [head[i] for i in order] + tail, best

    def _rank_in_engine(self, engine: EngineRanking, question: str, docs: Sequence[str] | None, trace: dict[str, Any], *,
                        dense_query: str | None = None, lexical_only: bool = False) -> list[Passage]:
        """:meth:`_rank` by the storage engine itself (Milvus ``hybrid_search``: BM25 + dense,
        ``RRFRanker(60)``); each passage keeps its RRF score and its dense cosine."""
        use_dense = self.embedder is not None and not lexical_only
        q = self._query_vector(dense_query or question) if use_dense else None
        hits = engine.hybrid(self.analyzer.tokenize(question), q, docs, CANDIDATES)
        trace["stage_hits"] = {"engine_rrf": len(hits)}
        by_id = {p.chunk_id: p for p in self._as_passages([h[0] for h in hits], "")}  # committed passages only
        out = []
        for _, cid, rrf, cos in hits:
            if cid in by_id:
                p = by_id[cid]
                p.score, p.method = rrf, "rrf"
                p.scores = {"rrf": rrf, **({"dense": cos} if cos is not None else {})}
                out.append(p)
        return out

    def _as_passages(self, rows: Sequence[int], method: str) -> list[Passage]:
        return [Passage.from_chunk(c, 1.0 if method == "exact" else 0.0, method or "library")
                for c in self.catalogue.passages(rows)]

    def retriever(self, doc_ids: Sequence[str] | None = None) -> "LibraryRetriever":
        """A :class:`~clauselens.retrieval.types.RetrievalMethod` over this library (for the
        graph's Researcher), optionally pinned to ``doc_ids``."""
        return LibraryRetriever(self, doc_ids)


def rerank_order(probs: Sequence[float], weight: float = 1.0) -> list[int]:
    """Positions ``0..n-1`` of a fused list re-ordered by weighted Reciprocal Rank Fusion (k = 60)
    of the fused order itself (weight 1) and the order by ``probs`` (P(relevant), ties kept in fused
    order; ``weight``): the reranker moves a passage without discarding what BM25 and dense agreed on."""
    n = len(probs)
    by_p = sorted(range(n), key=lambda i: (-probs[i], i))
    score = [1.0 / (RRF_K + i + 1) for i in range(n)]
    for rank, i in enumerate(by_p, start=1):
        score[i] += weight / (RRF_K + rank)
    return sorted(range(n), key=lambda i: (-score[i], i))


def rerank_text(passage: Passage, max_chars: int = 1000) -> str:
    """What a reranker reads for a library passage: its heading path (the clause's place in
    the agreement), then its text, cut to ``max_chars``."""
    ctx = " / ".join(h for h in passage.heading_path if h)
    return (f"[{ctx}]\n{passage.text}" if ctx else passage.text)[:max_chars]


def _local_bm25(corpus: list[list[str]], query: list[str]) -> np.ndarray:
    """BM25 (bm25s, Lucene variant) of ``query`` over a small ``corpus`` indexed on the fly,
    so term statistics are those of the searched agreements: a party name that is rare in
    the library but in every clause of its own agreement no longer decides the ranking."""
    import bm25s

    if not any(corpus):
        return np.zeros(len(corpus), np.float32)
    ix = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    ix.index(corpus, show_progress=False)
    ids = [ix.vocab_dict[t] for t in query if t in ix.vocab_dict]
    if not ids:
        return np.zeros(len(corpus), np.float32)
    return np.asarray(ix.get_scores(ids), dtype=np.float32)


class LibraryRetriever:
    """The library as the Researcher's ``hybrid`` tool: ``index`` is a no-op (the library
    is already indexed); ``search`` searches the pinned agreements, or resolves per query."""

    name = "hybrid"

    def __init__(self, library: Library, doc_ids: Sequence[str] | None = None) -> None:
        self.library = library
        self.doc_ids = list(doc_ids) if doc_ids else None

    def index(self, documents: Sequence[Document]) -> None:
        """Nothing to do: a library is indexed by ``library add``."""
        if documents:
            raise RetrievalError("a library retriever does not index documents; use `clauselens library add`")

    def search(self, query: str, k: int = 8) -> SearchResult:
        """Top ``k`` passages from the library (see :meth:`Library.search`)."""
        return self.library.search(query, k, doc_ids=self.doc_ids)


def chunks_of(library: Library, doc_id: str) -> list[Chunk]:
    """Every passage of one agreement, in document order."""
    return library.catalogue.passages(library.catalogue.rows_of([doc_id]))


__all__ = ["COMMIT_EVERY", "FAMILY_MIN_STEM", "FRONT_MATTER_QUESTION", "RECITAL_START", "SUFFIXES", "TOPIC_MIN_AGREEMENTS",
           "TOPIC_MIN_SHARE", "AddReport", "IngestError", "Library", "LibraryRetriever", "ProgressFn", "chunks_of",
           "collect_files", "defined_term_candidates", "defined_term_in", "term_variants"]
