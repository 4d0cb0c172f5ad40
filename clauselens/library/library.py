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
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from clauselens.errors import ClauselensError, ConfigError, IngestError, RetrievalError
from clauselens.library.catalogue import (
    RECORD_FORMAT,
    AgreementRecord,
    heading_topic_words,
    make_record,
    naming_words,
    resolution_profile,
    strip_naming_words,
)
from clauselens.library.duplicates import note_copy, release_copies
from clauselens.library.passages import (
    clause_markers,
    definition_list,
    definitions,
    embed_text,
    library_passages,
    ref_key,
    ref_key_groups,
)
from clauselens.library.resolver import _QUESTION_WORDS, AgreementResolver, Resolution, resolution_tokens
from clauselens.library.storage import EngineRanking, open_storages, top_scores
from clauselens.parsing.numbering import clause_label
from clauselens.parsing.types import Chunk, Document
from clauselens.retrieval.analyzer import LegalAnalyzer
from clauselens.retrieval.fusion import RRF_K, reciprocal_rank_fusion
from clauselens.retrieval.lay_terms import expand as lay_expansion
from clauselens.retrieval.lexical import NO_MATCH
from clauselens.retrieval.types import Passage, SearchResult

#: Lexical engine of a new local library (``bm25s`` or ``tantivy``; an existing library keeps the
#: one it records, libraries from before issue #42 record none and use bm25s).
DEFAULT_LEXICAL = "bm25s"
#: Vector format of a new local library (``f32`` or ``f16``; existing libraries keep theirs).
DEFAULT_VECTORS = "f32"
#: During a long ``add`` the segment index commits every this many files (a crash loses at most these).
COMMIT_EVERY = 200
#: Files ``add`` picks up inside folders.
SUFFIXES = (".txt", ".md", ".pdf", ".docx")
#: Candidates each first-stage ranker contributes to fusion.
CANDIDATES = 50
#: Questions about the front matter itself keep it in place (see :meth:`Library._demote_front_matter`).
FRONT_MATTER_QUESTION = re.compile(r"\b(?:recitals?|whereas|preamble|background|purpose of|effective date|"
                                   r"who are the parties|parties to)\b", re.IGNORECASE)
#: An unnumbered passage that opens as a recital ("WHEREAS, ...", "RECITALS", "W I T N E S S E T H",
#: "NOW, THEREFORE"): front matter wherever it sits -- a table of contents printed before it numbers
#: clauses first, so the offset of the first numbered clause alone misses these recitals.
RECITAL_START = re.compile(r"^\s*(?:WHEREAS\b|Whereas,|RECITALS?\b|Recitals\b|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H\b|"
                           r"NOW,?\s+THEREFORE\b)")
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
#: Absent-topic abstention: a question word that is the first word of clause headings in at
#: least this share of the library's agreements (a standard clause topic: "Insurance", "Audit")
#: and that the resolved agreement never uses gets "no matching clause found"; so does a pair of
#: adjacent question words that are the first two words of such headings ("Force Majeure",
#: "Limitation of Liability") when the agreement never uses one of the two ("majeure": "force"
#: alone is in "full force and effect"). 10 % was set on the development set for one word
#: (benchmarks/clause_qa.py; README) and kept for pairs, in a library of at least
#: TOPIC_MIN_AGREEMENTS agreements (below that the shares say nothing).
TOPIC_MIN_SHARE = 0.10
TOPIC_MIN_AGREEMENTS = 50
#: A topic word counts as used when the agreement has a longer word of its family: its Snowball stem
#: (at least this many letters) begins another word's stem ("indemnity" -> "indemn", used by
#: "indemnification" -> "indemnif"). The fourth blind question set (benchmarks/data/
#: answers_e2e_questions_new4.jsonl) had "indemnity claims" answered "never mentions 'indemnity'" for
#: an agreement with an indemnification clause.
FAMILY_MIN_STEM = 5
_DEFINED_Q = re.compile(
    r"(?:how\s+is|how\s+are|what\s+is\s+the\s+definition\s+of|definition\s+of|what\s+(?:does|do)|meaning\s+of|"
    r"what\s+is\s+meant\s+by)\s+(?:the\s+(?:term\s+)?)?[\"“'‘]([^\"”'’]{2,80})[\"”'’]", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“'‘]([A-Z][^\"”'’]{1,80})[\"”'’]")
#: Words that say a question asks what a term means (a quoted term then is the defined term).
_DEFINITION_CUE = re.compile(r"\b(?:defin\w*|mean(?:s|t|ing)?|counts?\s+as|qualif(?:y|ies)\s+as|refers?\s+to|stands?\s+for)\b",
                             re.IGNORECASE)
#: A defined term written without quotes: capitalised words, joined by "of", "and", "&", "-"
#: ("Change of Control", "Research Quantities", "SpinCo Trade Secrets").
_CAP_TERM = r"([A-Z][\w'’&-]*(?:\s+(?:(?:of|and|&|or|for|to|in|on|the)\s+)?[A-Z][\w'’&-]*){0,5})"
#: Unquoted "how is X defined", "definition / meaning of X", "how does ... define X",
#: "what does ... mean by X", "define X", "what is meant by X", "what counts / qualifies as (a) X",
#: "what does X refer to" / "what does X mean", "what / who is (a) X under ...", and a question ending on "what is X?".
_JOINERS = frozenset({"of", "and", "&", "or", "for", "to", "in", "on", "the"})
_DEFINED_UNQUOTED = [re.compile(p) for p in (
    r"(?i:\bhow\s+(?:is|are)\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM + r"\s+(?i:defined)\b",
    r"(?i:\b(?:definition|meaning)\s+of\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bdefines?\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bmean\s+by\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bwhat\s+is\s+meant\s+by\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM,
    r"(?i:\b(?:counts?|qualif(?:y|ies))\s+as\s+(?:the\s+|an?\s+)?)" + _CAP_TERM,
    r"(?i:\bwhat\s+(?:does|do)\s+(?:the\s+(?:term\s+)?|an?\s+)?)" + _CAP_TERM + r"\s+(?i:refers?\s+to|stands?\s+for|mean)\b",
    r"(?i:\b(?:what|who)\s+(?:is|are)\s+(?:an?\s+|the\s+)?)" + _CAP_TERM + r"\s+(?i:under|in|for)\s",
    r"(?i:\bwhat\s+(?:is|are)\s+(?:an?\s+|the\s+)?)" + _CAP_TERM + r"\s*\?\s*$",
)]

#: ``progress(stage, done, total, detail)``.
ProgressFn = Callable[[str, int, int, str], None]


@dataclass
class AddReport:
    """What one ``add`` did: paths per outcome, and ``(path, message)`` per failure."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    pruned: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    passages: int = 0
    seconds: float = 0.0
    #: ``(path, path of the agreement it copies)``: added, listed as a copy, left out of search.
    copies: list[tuple[str, str]] = field(default_factory=list)


#: An exact-field key of a top-level part (:func:`clauselens.library.passages.ref_key_groups`).
_PART_KEY = re.compile(r"^(schedule|exhibit|annex|appendix|article)([a-z0-9.]+(?:\([a-z0-9]{1,4}\))*)$")


def _show_ref(key: str) -> str:
    """A key as a reader writes it: ``schedule2`` -> ``Schedule 2``, ``articleiv`` -> ``Article IV``."""
    m = _PART_KEY.match(key)
    if not m:
        return key
    ident = m.group(2)
    return f"{m.group(1).title()} {ident.upper() if ident.isalpha() else ident}"


def defined_term_candidates(question: str) -> list[str]:
    """The terms a "what does X mean" question may ask about, surest first: a quoted term
    next to a definition cue ("How is 'Territory' defined", "What counts as a 'Competitor'"),
    then capitalised words in a definition phrasing without quotes ("How does the Dexcel
    agreement define Minimum Order Requirements?"), each also with its trailing words dropped
    ("Change of Control in Section" -> "Change of Control"). Empty when the question asks no definition. The
    candidates are checked against the agreement's recorded definitions (:meth:`Library.search`)."""
    if not _DEFINITION_CUE.search(question) and not re.search(r"\b(?:what|who)\s+(?:is|are)\b", question, re.IGNORECASE):
        return []
    out: list[str] = []
    m = _DEFINED_Q.search(question)
    if m and _DEFINITION_CUE.search(question):
        out.append(m.group(1).strip(" ,."))
    if _DEFINITION_CUE.search(question):
        out += [q.group(1).strip(" ,.") for q in _QUOTED.finditer(question)]
    for pat in _DEFINED_UNQUOTED:
        for u in pat.finditer(question):
            words = u.group(1).split()  # the whole run, then cut before each joining word
            out += [" ".join(words[:n]) for n in range(len(words), 0, -1)
                    if n == len(words) or words[n].lower() in _JOINERS]
    return list(dict.fromkeys(t for t in out if t))


def defined_term_in(question: str) -> str | None:
    """The term a "how is 'X' defined" / "what does 'X' mean" question most likely asks
    about (the first of :func:`defined_term_candidates`), or ``None``."""
    c = defined_term_candidates(question)
    return c[0] if c else None


def term_variants(term: str) -> list[str]:
    """``term`` and its singular / plural ("Research Quantity" / "Research Quantities"), as
    a question may inflect a defined term differently from the agreement."""
    out = [term]
    if term.endswith("ies"):
        out.append(term[:-3] + "y")
    elif term.endswith("y") and not term.endswith(("ay", "ey", "oy", "uy")):
        out.append(term[:-1] + "ies")
    elif term.endswith("s") and not term.endswith("ss"):
        out.append(term[:-1])
    else:
        out.append(term + "s")
    return out


def collect_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Files to add: each file as given, folders searched recursively for :data:`SUFFIXES`
    (hidden files skipped). Returns (files, ``(path, problem)`` for paths that do not exist)."""
    files: list[Path] = []
    missing: list[tuple[str, str]] = []
    for p in paths:
        p = Path(p).expanduser()
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES
                            and not any(part.startswith(".") for part in f.relative_to(p).parts))
        elif p.is_file():
            files.append(p)
        else:
            missing.append((str(p), "no such file or folder"))
    return list(dict.fromkeys(f.resolve() for f in files)), missing


class Library:
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
        #: Rank an agreement's front matter (preamble and recitals, before its first numbered
        #: clause) after its operative clauses (:meth:`_demote_front_matter`).
        self.demote_front_matter = True
        #: Append the contract terms of the question's lay phrases to the ranking query
        #: (:mod:`clauselens.retrieval.lay_terms`; "walk away" -> "terminate", "for convenience", ...).
        self.expand_lay_terms = True
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
            raise ConfigError(f"no library at {root} (create it with: clauselens library add FILES --library {root.name})")
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
    def add(self, paths: Sequence[str | Path], *, load: Callable[[Path], Document] | None = None,
            prune: bool = False, progress: ProgressFn | None = None) -> AddReport:
        """Add files and folders (recursive). Unchanged files (same path and sha256) are
        skipped, changed ones re-indexed; a file that fails is reported in
        ``AddReport.failed`` and leaves the library as it was; ``prune`` removes agreements
        whose files no longer exist. ``load`` parses one file (default: the Archivist's
        parser through the document store is wired by the caller; here ``parse_file``)."""
        from clauselens.parsing.loader import file_sha256
        from clauselens.parsing.store import parse_file

        t0 = time.perf_counter()
        rep = AddReport()
        files, missing = collect_files(paths)
        rep.failed += missing
        load = load or (lambda p: parse_file(p))
        known = {r.path: r for r in self.agreements()}
        for i, f in enumerate(files):
            if progress:
                progress("add", i, len(files), f.name)
            try:
                sha = file_sha256(f)
            except OSError as e:
                rep.failed.append((str(f), f"cannot read: {e.strerror or e}"))
                continue
            old = known.get(str(f))
            if old is not None and old.sha256 == sha and old.record_format >= RECORD_FORMAT:
                rep.unchanged.append(str(f))
                continue
            try:
                doc = load(f)
                n, copy_of = self._put(doc, replaces=[old.doc_id] if old is not None else [])
            except ClauselensError as e:
                rep.failed.append((str(f), str(e)))
                continue
            rep.passages += n
            if copy_of is not None:
                rep.copies.append((str(f), next((r.path for r in self.agreements() if r.doc_id == copy_of), copy_of)))
            (rep.updated if old is not None else rep.added).append(str(f))
            if self.lexical.incremental and (len(rep.added) + len(rep.updated)) % COMMIT_EVERY == 0:
                self._commit_lexical()
        if prune:
            for path, rec in known.items():
                if not Path(path).exists():
                    self.catalogue.remove_agreement(rec.doc_id)
                    if self.lexical.incremental:
                        self.lexical.remove_doc(rec.doc_id)  # type: ignore[attr-defined]
                    rep.pruned.append(path)
            release_copies(self.catalogue, [known[p].doc_id for p in rep.pruned])
        if progress:
            progress("add", len(files), len(files), "")
        if rep.added or rep.updated or rep.pruned or self.lexical.generation() != self.catalogue.generation():
            if progress:
                progress("index", 0, 1, "BM25")
            self._commit_lexical()
            if progress:
                progress("index", 1, 1, "BM25")
        if getattr(self.vectors, "needs_graph", None) and self.vectors.needs_graph():  # type: ignore[attr-defined]
            if progress:
                progress("index", 0, 1, "HNSW")
            self.vectors.build_graph()  # type: ignore[attr-defined]
        rep.seconds = time.perf_counter() - t0
        return rep

    def _commit_lexical(self) -> None:
        """Make the lexical index match the catalogue: commit the staged segment (segment
        engines; the whole index is rebuilt when the index missed a change, e.g. after a crash)
        or rebuild (bm25s)."""
        if self.lexical.incremental and self.lexical.generation() is not None:
            self.lexical.commit(self.catalogue.generation(), [r.doc_id for r in self.agreements()])  # type: ignore[attr-defined]
        else:
            self.rebuild_lexical()

    def _profile_tokens(self, record: AgreementRecord, profile: str) -> list[str]:
        if self.meta.get("use_file_names", False):
            profile += "\n" + Path(record.path).stem.replace("_", " ").replace("-", " ")
        return self.analyzer.tokenize(profile)

    def _put(self, doc: Document, replaces: Sequence[str] = ()) -> tuple[int, str | None]:
        passages = library_passages(doc)
        texts = [embed_text(c) for c in passages]
        tokens = self.analyzer.tokenize_many(texts)
        first = self.catalogue.reserve_rows(len(passages))
        if self.embedder is not None and passages:
            self.vectors.append(first, self.embedder.embed_passages(texts))
        labels = {h for c in passages for h in c.heading_path}
        topics, pairs = heading_topic_words(labels, self.analyzer.tokenize)
        record = make_record(doc, passages=len(passages), topics=topics, topic_pairs=pairs)
        defs = [(d.term, d.offset, d.means) for d in definitions(doc)]
        profile = resolution_profile(doc, record)
        rows = list(range(first, first + len(passages)))
        self.catalogue.put_agreement(record, profile, passages, tokens, rows, defs, clause_markers(doc.text))
        if self.lexical.incremental:  # a segment: the replaced version's passages deleted, this one's staged
            for d in dict.fromkeys([*replaces, record.doc_id]):
                self.lexical.remove_doc(d)  # type: ignore[attr-defined]
            self.lexical.add_passages(record.doc_id, rows, tokens, self._profile_tokens(record, profile))  # type: ignore[attr-defined]
        copy = note_copy(self.catalogue, record.doc_id, [c.text for c in passages])
        return len(passages), copy[0] if copy else None

    def copies(self) -> dict[str, str]:
        """Doc id of each agreement that is a copy of another (the same text as a PDF and a TXT,
        or a file added twice: :mod:`clauselens.library.duplicates`) -> the original's doc id."""
        gen = self.catalogue.generation()
        if getattr(self, "_copies_gen", None) != gen:
            self._copies, self._copies_gen = self.catalogue.signatures()[2], gen
        return self._copies

    def remove(self, keys: Sequence[str]) -> list[str]:
        """Remove agreements by doc id, path or file name; returns the removed paths.
        Raises :class:`ConfigError` naming every key that matched nothing."""
        recs = self.agreements()
        removed, unknown = [], []
        for k in keys:
            hit = [r for r in recs if k in (r.doc_id, r.path, Path(r.path).name) or str(Path(k).expanduser().resolve()) == r.path]
            if not hit:
                unknown.append(k)
            for r in hit:
                if self.catalogue.remove_agreement(r.doc_id):
                    removed.append(r.path)
                    if self.lexical.incremental:
                        self.lexical.remove_doc(r.doc_id)  # type: ignore[attr-defined]
        if removed:
            release_copies(self.catalogue, [r.doc_id for r in recs if r.path in removed])
            self._commit_lexical()
        if unknown:
            raise ConfigError(f"not in library {self.root.name}: {', '.join(unknown)}")
        return removed

    def rebuild_lexical(self) -> None:
        """Rebuild the BM25 indexes (passages, agreement profiles) from the catalogue (and
        fill in the clause topics of agreements added by a version that did not record them)."""
        for r in self.agreements():
            if r.topics is None or r.topic_pairs is None:
                labels = {h for c in self.catalogue.passages(self.catalogue.rows_of([r.doc_id])) for h in c.heading_path}
                topics, pairs = heading_topic_words(labels, self.analyzer.tokenize)
                self.catalogue.update_record(r.model_copy(update={"topics": topics, "topic_pairs": pairs}))
        if self.lexical.indexes_on_write:  # Milvus computes BM25 on insert: nothing to rebuild
            if self.meta.get("use_file_names"):
                raise ConfigError("file names in agreement resolution are not supported on the milvus backend")
            self.lexical.build(np.zeros(0, np.int64), [], [], [], self.catalogue.generation())
            return
        rows, toks = self.catalogue.all_tokens()
        recs = self.agreements()
        prof = [self._profile_tokens(r, self.catalogue.profile(r.doc_id)) for r in recs]
        if self.lexical.incremental:  # a segment engine rebuilt whole (a crash, a migration): it needs each row's agreement
            self.lexical.build(rows, toks, [r.doc_id for r in recs], prof, self.catalogue.generation(),  # type: ignore[call-arg]
                               doc_ids=self.catalogue.all_doc_ids())
            return
        self.lexical.build(rows, toks, [r.doc_id for r in recs], prof, self.catalogue.generation())

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
                                    reason=f"{NO_MATCH}: {', '.join(clause_label(_show_ref(r)) for r in missing)} is not in {names}")
            by_ref = [found[r] for r in refs]
            first += [r for rows in by_ref for r in rows]
        if term and docs:
            first += self._definition_rows(docs, term)
        if absent_topics and not first and docs is not None and res.status in ("resolved", "ambiguous", "filtered") \
                and len(docs) <= 3:
            absent = self._absent_topic(question, docs)
            if absent is not None:
                word, share = absent
                trace["absent_topic"] = {"word": word, "library_share": round(share, 3)}
                names = " / ".join(self._label(d) for d in docs)
                return SearchResult(query=question, abstained=True, trace=trace,
                                    reason=f"{NO_MATCH}: {names} never mention{'s' if len(docs) == 1 else ''} "
                                           f"'{word}' (a clause topic in {share:.0%} of the library's agreements)")
        rank_q = question
        if docs is not None and len(docs) <= 10:
            recs = {r.doc_id: r for r in self.agreements()}
            words = set().union(*(naming_words(recs[d]) for d in docs if d in recs))
            rank_q = strip_naming_words(question, words)
        rerank_q = rank_q  # the reranker reads the question without the agreement's names (as the head was trained)
        if self.expand_lay_terms if lay_terms is None else lay_terms:  # after resolution and abstention: they only rank
            expansion = lay_expansion(rank_q)  # without the words naming the agreement ("an Outsourcing Agreement")
            if expansion.terms:
                rank_q = f"{rank_q} {expansion.text()}"
                trace["lay_terms"] = list(expansion.concepts)
        trace["ranking_query"] = rank_q
        ranked = self._rank(rank_q, docs, trace, dense_query=dense_query, lexical_only=lexical_only)
        copies = self.copies()
        if copies:  # one result per clause: a copy's passages are its original's
            ranked = [p for p in ranked if p.doc_id not in copies or (docs is not None and p.doc_id in docs)]
        if res.status in ("uncertain", "ambiguous") and docs is not None and len(docs) > 1:
            ranked = self._weight_by_resolution(ranked, res, trace)
        keep_front = bool(FRONT_MATTER_QUESTION.search(question)) if front_matter is None else front_matter
        if self.demote_front_matter and not keep_front:
            ranked = self._demote_front_matter(ranked, trace)
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

    def topic_shares(self) -> dict[str, float]:
        """Clause topic -> share of the library's agreements with a heading starting with it (one
        analysed word, ``"insur"``, or two joined by a space, ``"forc majeur"``)."""
        recs = self.agreements()
        key = (self.catalogue.generation(), len(recs))
        if getattr(self, "_topics_key", None) != key:
            counts: dict[str, int] = {}
            for r in recs:
                for t in [*(r.topics or ()), *(r.topic_pairs or ())]:
                    counts[t] = counts.get(t, 0) + 1
            self._topics = {t: c / max(len(recs), 1) for t, c in counts.items()}
            self._topics_key = key
        return self._topics

    def party_name_tokens(self) -> set[str]:
        """Analysed single-word short names the library's agreements give their parties ("Parent",
        "Purchaser", "Licensee"): a party, not a clause topic, even where headings start with it
        ("Parent Representations"); the absent-topic check skips them (LegalBench-RAG: 9 MAUD
        questions about "Parent" abstained because an agreement calls its buyer otherwise)."""
        recs = self.agreements()
        key = (self.catalogue.generation(), len(recs))
        if getattr(self, "_roles_key", None) != key:
            roles: set[str] = set()
            for r in recs:
                for name in r.short_names:
                    toks = self.analyzer.tokenize(name)
                    if len(toks) == 1:
                        roles.add(toks[0])
            self._roles, self._roles_key = roles, key
        return self._roles

    def _absent_topic(self, question: str, doc_ids: Sequence[str]) -> tuple[str, float] | None:
        """``(word, share)`` when ``question`` asks about a standard clause topic (see
        :data:`TOPIC_MIN_SHARE`) that none of the agreements ``doc_ids`` mentions; else ``None``."""
        if len(self.agreements()) < TOPIC_MIN_AGREEMENTS:
            return None
        recs = [r for r in self.agreements() if r.doc_id in doc_ids]
        if not recs:
            return None
        shares = self.topic_shares()
        text = _QUESTION_WORDS.sub(" ", strip_naming_words(question, set().union(*(naming_words(r) for r in recs))))
        words = re.findall(r"[^\W\d_][\w'-]*", text)
        roles = self.party_name_tokens()
        candidates = []
        analysed = []  # (word, token) of the words that analyse to one token, in order (stopwords drop out)
        for w in words:
            toks = self.analyzer.tokenize(w)
            if len(toks) == 1:
                analysed.append((w, toks[0]))
                if shares.get(toks[0], 0.0) >= TOPIC_MIN_SHARE and toks[0] not in roles:
                    candidates.append((w, toks[0]))
        pairs = [(f"{w1} {w2}", (t1, t2)) for (w1, t1), (w2, t2) in zip(analysed, analysed[1:])
                 if shares.get(f"{t1} {t2}", 0.0) >= TOPIC_MIN_SHARE and not {t1, t2} & roles]
        if not candidates and not pairs:
            return None
        vocab = {t for toks in self.catalogue.tokens_of(self.catalogue.rows_of(list(doc_ids))) for t in toks}

        def used(t: str) -> bool:  # the word, or (a stem of 5+ letters) a longer word of its family
            return t in vocab or (len(t) >= FAMILY_MIN_STEM and any(v.startswith(t) for v in vocab))

        for w, t in candidates:
            if not used(t):
                return w, shares[t]
        for w, (t1, t2) in pairs:  # a two-word topic ("force majeure") one of whose words the agreement never uses
            if not used(t1) or not used(t2):
                return w, shares[f"{t1} {t2}"]
        return None

    def _label(self, doc_id: str) -> str:
        rec = next((r for r in self.agreements() if r.doc_id == doc_id), None)
        return rec.label if rec else doc_id

    def _order_exact(self, by_ref: Sequence[Sequence[Passage]], ranked: Sequence[Passage], k: int) -> list[Passage]:
        """The passages of the clauses a question names, in the order they are shown. When they fit
        in the top ``k`` they keep the order of :meth:`_named_clause_rows` (the clause's own first
        passage first). When they do not -- a long clause cut into many passages, a number the
        agreement restarts in each schedule ("Section 7" three times), a clause with many sub-clauses --
        the rest of the question chooses: each clause's passages after its first are ordered by their
        place in the ranked list (BM25 + dense, RRF; those it does not hold keep their order after those
        it does), and several clauses take turns, so a second named clause is not pushed out by the
        first one's passages."""
        if sum(len(ps) for ps in by_ref) <= k:
            return [p for ps in by_ref for p in ps]
        place = {p.chunk_id: i for i, p in enumerate(ranked)}
        ordered = [list(ps[:1]) + sorted(ps[1:], key=lambda p: place.get(p.chunk_id, len(place))) for ps in by_ref if ps]
        return [ps[turn] for turn in range(max(len(ps) for ps in ordered)) for ps in ordered if turn < len(ps)]

    def _sub_clause_rows(self, docs: Sequence[str], ref: str) -> list[int]:
        """Rows of the sub-clauses of clause ``ref``; none for a schedule, exhibit or annex label,
        whose passages are found by :meth:`_clause_rows`."""
        return [] if _PART_KEY.match(ref) else self.catalogue.rows_under_ref(docs, ref)

    def _rows_of_spellings(self, docs: Sequence[str], spellings: Sequence[str]) -> list[int]:
        """The rows of the first spelling of one named clause the agreements have (see
        :func:`~clauselens.library.passages.ref_key_groups`). "Section 7.D.b" is spelled
        ``7(d)(b)``, then ``7``: clause 7 stands in only when the tree did not read 7's lettered
        items; when it did (7(a), 7(B), ...) a letter it lacks ("Section 7.F") is a clause the
        agreement does not have."""
        for i, key in enumerate(spellings):
            subs = self._sub_clause_rows(docs, key)
            if i and spellings[0].startswith(key + "(") and any(
                    re.fullmatch(re.escape(key) + r"(?:\([a-z]\))+", ref_key(c.clause_ref) or "")
                    for c in self.catalogue.passages(subs)):
                return []
            if rows := self._named_clause_rows(docs, key, subs):
                return rows
        return []

    def _named_clause_rows(self, docs: Sequence[str], ref: str, subs: Sequence[int]) -> list[int]:
        """The rows a question naming clause ``ref`` is about: the clause's own (:meth:`_clause_rows`),
        then its sub-clauses' ``subs`` (a question about "Section 7" is about 7.1, 7(a), ... too; see
        :meth:`_order_exact` for which are shown), or its sub-clauses' alone when the clause has no
        text of its own in the store (an "ARTICLE IX" heading, then 9.1, 9.2). Empty: the
        agreements do not have the clause."""
        own = self._clause_rows(docs, ref)
        have = set(own)
        return own + [r for r in subs if r not in have]

    def _clause_rows(self, docs: Sequence[str], ref: str, *, fallback: bool = True) -> list[int]:
        """Rows of clause ``ref`` in ``docs``, from the surest evidence to the weakest: the
        tree's passages with that number; the passage holding the printed marker (a clause
        the tree missed); for ``6.1(c)``, the passages of 6.1 that print ``(c)``; the first
        passage printing the number in running text outside a cross-reference. Empty when
        the agreements print the number nowhere."""
        from clauselens.library.passages import bare_number_re

        rows = self.catalogue.rows_with_ref(docs, ref)
        part = _PART_KEY.match(ref)
        if part:  # "schedule2": the tree's node, else the passage printing the label at a line start
            if not rows and fallback:
                label = re.compile(rf"(?im)^[ \t]*{part.group(1)}[ \t]+{re.escape(part.group(2))}\b")
                for d in docs:
                    hit = next((r for r, text in self.catalogue.rows_containing(d, f"{part.group(1)} {part.group(2)}")
                                if label.search(text)), None)
                    if hit is not None:
                        rows.append(hit)
            return rows
        for d in docs if not rows else ():
            for off in self.catalogue.marker_offsets(d, ref):
                r = self.catalogue.row_at(d, off)
                if r is not None:
                    rows.append(r)
        if rows or not fallback:
            return rows
        m = re.match(r"^(.+)(\([a-z0-9]{1,4}\))$", ref)
        if m:
            parent = self._clause_rows(docs, m.group(1), fallback=False)
            item = m.group(2)
            rows = [r for r, c in zip(parent, self.catalogue.passages(parent)) if item in c.text.lower()]
            if rows:
                return rows
        if re.fullmatch(r"\d+(?:\.\d+)+", ref):
            pat = bare_number_re(ref)
            for d in docs:
                hit = next((r for r, text in self.catalogue.rows_containing(d, ref) if pat.search(text)), None)
                if hit is not None:
                    rows.append(hit)
        return rows

    def _definition_rows(self, docs: Sequence[str], term: str) -> list[int]:
        """Rows of the passages defining ``term`` in ``docs`` (``means`` definitions first),
        each followed by the rows of the list its definition continues into when the passage
        stops where the definition's body begins (:func:`~clauselens.library.passages.definition_list`:
        ``c) "Force Majeure" means`` and its sub-clauses ``i) An Act of God;`` ...): the list
        is the definition, and the answer can only quote passages that were retrieved."""
        out: list[int] = []
        for d in docs:
            defs = sorted(self.catalogue.definitions_of(d, term), key=lambda x: (not x[2], x[1]))
            if not defs:
                continue
            rows = self.catalogue.rows_of([d])
            chunks = self.catalogue.passages(rows)
            for _, off, _ in defs[:2]:
                for i, (row, c) in enumerate(zip(rows, chunks)):
                    if c.spans[0].start <= off < c.spans[0].end:
                        out.append(int(row))
                        out += [int(rows[j]) for j, _ in definition_list(chunks, i, term)]
                        break
        return out

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
            q = self.embedder.embed_queries([dense_query or question])[0]
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

    @staticmethod
    def _weight_by_resolution(ranked: list[Passage], res: Resolution, trace: dict[str, Any]) -> list[Passage]:
        """``ranked`` re-ordered by fused score x the passage's agreement resolution score
        relative to the top agreement's, when several agreements are searched because the
        question named none clearly ("uncertain") or several equally ("ambiguous"): a document
        prior, P(passage | q) ~ P(agreement | q) x relevance (the query-likelihood view of
        document priors, Kraaij, Westerveld & Hiemstra 2002, "The Importance of Prior
        Probabilities for Entry Page Search"). Without it a clause of the fifth-likeliest
        agreement outranks the likeliest one's on relevance alone. Dev set, 462 contracts:
        paraphrase top 5 +3 of 30, nothing lost (README, "Agreement prior")."""
        scores = dict(res.ranked)
        top = max(scores.values(), default=0.0)
        if top <= 0:
            return ranked
        weighted = []
        for i, p in enumerate(ranked):
            w = scores.get(p.doc_id or "", 0.0) / top
            weighted.append((p.score * w, i, p))
        weighted.sort(key=lambda x: (-x[0], x[1]))
        out = []
        for s, _, p in weighted:
            q = p.model_copy()
            q.scores = {**p.scores, "agreement_prior": round(scores.get(p.doc_id or "", 0.0) / top, 4)}
            q.score = s
            out.append(q)
        trace["agreement_prior"] = True
        return out

    def _demote_front_matter(self, ranked: list[Passage], trace: dict[str, Any]) -> list[Passage]:
        """``ranked`` with front-matter passages -- unnumbered text before the agreement's
        first numbered clause: the preamble and recitals ("WHEREAS ...") -- moved after the
        operative passages, each group in its fused order. Recitals state the background and
        bind no one (e.g. Adams, *A Manual of Style for Contract Drafting*, ch. 2 "The
        Front of the Contract"), yet they repeat the words a question uses to *describe* the
        agreement ("the pineapple-enzyme purchasing deal"), so they outrank the clause asked
        about. Agreements that number no clause keep their order, except passages that open as a
        recital (:data:`RECITAL_START`), which are front matter wherever they sit."""
        gen = self.catalogue.generation()
        if gen != self._body_start_gen:
            self._body_start, self._body_start_gen = {}, gen
        front: list[Passage] = []
        body: list[Passage] = []
        for p in ranked:
            if p.doc_id not in self._body_start:
                self._body_start[p.doc_id] = self.catalogue.body_start(p.doc_id)
            start = self._body_start[p.doc_id]
            is_front = not p.clause_ref and ((start is not None and p.spans[0].start < start)
                                             or bool(RECITAL_START.match(p.text)))
            (front if is_front else body).append(p)
        trace["front_matter_demoted"] = len(front)
        return body + front

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
        order = rerank_order(probs)
        trace["rerank"] = {"scored": len(head), "best": round(best, 4), "seconds": round(time.perf_counter() - t0, 2)}
        return [head[i] for i in order] + tail, best

    def _rank_in_engine(self, engine: EngineRanking, question: str, docs: Sequence[str] | None, trace: dict[str, Any], *,
                        dense_query: str | None = None, lexical_only: bool = False) -> list[Passage]:
        """:meth:`_rank` by the storage engine itself (Milvus ``hybrid_search``: BM25 + dense,
        ``RRFRanker(60)``); each passage keeps its RRF score and its dense cosine."""
        use_dense = self.embedder is not None and not lexical_only
        q = self.embedder.embed_queries([dense_query or question])[0] if use_dense else None
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


def rerank_order(probs: Sequence[float]) -> list[int]:
    """Positions ``0..n-1`` of a fused list re-ordered by Reciprocal Rank Fusion (k = 60) of
    the fused order itself and the order by ``probs`` (P(relevant), ties kept in fused
    order): the reranker moves a passage without discarding what BM25 and dense agreed on."""
    n = len(probs)
    by_p = sorted(range(n), key=lambda i: (-probs[i], i))
    score = [1.0 / (RRF_K + i + 1) for i in range(n)]
    for rank, i in enumerate(by_p, start=1):
        score[i] += 1.0 / (RRF_K + rank)
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


__all__ = ["AddReport", "IngestError", "Library", "LibraryRetriever", "chunks_of", "collect_files", "defined_term_candidates", "defined_term_in"]
