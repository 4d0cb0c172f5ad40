"""Opening a library for a front end (issue #43): the one entry the CLI, chat, the web UI, the MCP
server and the grid use to open a library with the settings' ranking options, and to turn it into
what :func:`clauselens.pipeline.ask` takes for one question -- the Researcher's tools and the
summaries of the agreements the question names.

* :func:`open_library` -- the library ``name`` (:func:`clauselens.library.library_root`) with the
  settings' embedder, abstention threshold, front-matter and lay-term options and reranker
  (``retrieval.library_rerank``: none, the trained head, or the Researcher's chat model as a
  graded relevance scorer). This layer never calls a model (docs/DESIGN.md: ``library/`` may not
  import ``llm/``), so the chat model comes from the caller as a getter, called here only when the
  settings ask for the LLM scorer.
* :func:`for_question` / :func:`pinned` -- a :class:`PinnedLibrary`: the library pinned to the
  agreements a question names (the resolver's choice and its trace) or to given ones, with
  :meth:`~PinnedLibrary.tools` (the library's retriever as the Researcher's ``hybrid`` tool) and
  :meth:`~PinnedLibrary.documents` (:class:`LibraryDocument` summaries).

A library is searched through its own index (BM25 + dense fused by RRF, the agreement resolved
first: :mod:`clauselens.library.library`), so it stands in for exactly one of the registry's tools,
``hybrid`` (:data:`LIBRARY_TOOL`); the other tools index the documents' text themselves, which a
library does not pass on. :func:`check_library_tools` rejects them with a message instead of
ignoring them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from clauselens.config import Settings
from clauselens.errors import ConfigError
from clauselens.library import Library, library_root
from clauselens.retrieval.types import RetrievalMethod

#: The registry tool name a library's retriever answers as (the Researcher's hybrid search).
LIBRARY_TOOL: Literal["hybrid"] = "hybrid"
#: Returns the Researcher's chat model (e.g. ``agents.resources.ModelPool.researcher``).
ChatModelGetter = Callable[[], Any]


class ResolutionTrace(TypedDict):
    """:meth:`clauselens.library.resolver.Resolution.trace`: what the resolver decided."""

    status: str
    chosen: list[str]
    ranked: list[list[Any]]


class _LibraryDocumentBase(TypedDict):
    doc_id: str
    title: str | None
    source_path: str
    parties: list[str]
    party_aliases: dict[str, list[str]]
    doc_type: str
    pages: int | None
    effective_date: str | None


class LibraryDocument(_LibraryDocumentBase, total=False):
    """One pinned agreement as :func:`clauselens.pipeline.ask`'s ``documents`` (a subset of
    :class:`clauselens.parsing.types.DocumentSummary`'s fields: the Researcher names the agreement
    in its queries when there are several, the transcript lists them, the report's party check
    reads ``parties`` and ``party_aliases``; the report header the catalogue's ``year`` when the opening
text gives no full date, as ``library list`` shows it). ``resolution``: the resolver's status, kept when the
    question named no agreement clearly (the report says which candidate its facts come from)."""

    resolution: str
    year: int | None


def open_library(settings: Settings, name: str | None, *, create: bool = False, backend: str | None = None,
                 uri: str | None = None, chat_model: ChatModelGetter | None = None) -> Library:
    """The library ``name`` (a name under ``<cache_dir>/libraries/`` or a folder), set up from
    ``settings.retrieval`` (see the module docstring); ``backend`` / ``uri`` choose a new
    library's storage (``clauselens library add --backend``).

    Raises :class:`ConfigError` when it does not exist and ``create`` is False, and when
    ``retrieval.library_rerank == "llm"`` but the caller gave no ``chat_model``; what
    ``chat_model()`` raises (``ModelUnavailableError``)."""
    root = library_root(settings.cache_dir, name)
    lib = Library.open(root, embedder_name=settings.retrieval.embedder, cache_dir=settings.cache_dir, create=create,
                       abstain_threshold=settings.retrieval.library_abstain_threshold, backend=backend, uri=uri)
    configure_ranking(lib, settings, chat_model)
    return lib


def configure_ranking(lib: Library, settings: Settings, chat_model: ChatModelGetter | None = None) -> None:
    """Apply ``settings.retrieval``'s ranking options to an open library: front-matter demotion,
    lay-term expansion and the reranker over the fused top passages (its top-n and abstention
    threshold). ``"head"`` when the head is not installed leaves reranking off (said once by
    :func:`clauselens.heads.cross_encoder.load_reranker`)."""
    r = settings.retrieval
    lib.demote_front_matter = r.library_demote_front_matter
    lib.expand_lay_terms = r.library_lay_terms
    lib.topic_head = None if r.category_absence else False  # None: the head, loaded on first use
    lib.concept_absence = r.concept_absence
    lib.query_adapter = None if r.query_adapter else False
    if r.library_rerank == "llm":
        if chat_model is None:
            raise ConfigError("retrieval.library_rerank='llm' needs the Researcher's chat model, and this caller gave none "
                              "(set CLAUSELENS_RETRIEVAL__LIBRARY_RERANK=none or head)")
        from clauselens.retrieval.rerank import LLMRelevanceScorer

        lib.reranker = LLMRelevanceScorer(chat_model(), max_chars=10_000)
        lib.rerank_top, lib.rerank_abstain = r.library_rerank_top, r.library_rerank_abstain or 0.0
    elif r.library_rerank == "head":
        from clauselens.heads.cross_encoder import load_reranker

        head = load_reranker(int8=r.library_rerank_int8)  # None (said once) when not installed: reranking off
        if head is not None:
            lib.reranker, lib.rerank_top, lib.rerank_weight = head, r.library_rerank_top, r.library_rerank_weight
            lib.rerank_abstain = head.abstain_threshold if r.library_rerank_abstain is None else r.library_rerank_abstain


def check_library_tools(names: Sequence[str], where: str = "--tools") -> None:
    """Raise :class:`ConfigError` when ``names`` (retrieval tool names asked for a library
    question) hold any tool but :data:`LIBRARY_TOOL`: a library answers through its own index."""
    other = [n for n in dict.fromkeys(n.strip() for n in names) if n and n != LIBRARY_TOOL]
    if other:
        raise ConfigError(f"{where}: a library is searched through its own index (the '{LIBRARY_TOOL}' tool: BM25 + dense, "
                          f"the agreement resolved from the question); {', '.join(other)} cannot be used with --library "
                          f"(they read the documents' text: ask the files instead, clauselens ask FILE... \"QUESTION\")")


@dataclass(frozen=True)
class PinnedLibrary:
    """A library pinned to ``doc_ids`` (all agreements when empty) for one question;
    ``resolution``: the resolver's trace when the agreements were resolved from the question."""

    library: Library
    doc_ids: tuple[str, ...] = ()
    resolution: ResolutionTrace | None = None

    @property
    def status(self) -> str | None:
        """The resolver's status, when the question was resolved."""
        return self.resolution["status"] if self.resolution else None

    def tools(self) -> dict[str, RetrievalMethod]:
        """The Researcher's tools: the library's retriever over the pinned agreements, as
        :data:`LIBRARY_TOOL`."""
        return {LIBRARY_TOOL: self.library.retriever(list(self.doc_ids) or None)}

    def documents(self) -> list[LibraryDocument]:
        """Summaries of the pinned agreements (unknown ids left out), in ``doc_ids`` order."""
        records = {r.doc_id: r for r in self.library.agreements()}
        out: list[LibraryDocument] = []
        for r in (records.get(d) for d in self.doc_ids):
            if r is None:
                continue
            doc = LibraryDocument(doc_id=r.doc_id, title=r.title, source_path=r.path, parties=list(r.parties),
                                  party_aliases={k: list(v) for k, v in r.party_aliases.items()},
                                  doc_type=r.doc_type, pages=r.pages, effective_date=r.date, year=r.year)
            if self.status:
                doc["resolution"] = self.status
            out.append(doc)
        return out

    def labels(self) -> list[str]:
        """The pinned agreements' labels (their ids when unknown), for a front end to show."""
        labels = {a.doc_id: a.label for a in self.library.agreements()}
        return [labels.get(d, d) for d in self.doc_ids]


def for_question(library: Library, question: str) -> PinnedLibrary:
    """``library`` pinned to the agreement(s) ``question`` names (the whole library when it names
    none), with the resolver's trace (status, chosen, ranked candidates)."""
    res = library.resolve(question)
    trace = res.trace()
    return PinnedLibrary(library, tuple(res.chosen),
                         ResolutionTrace(status=trace["status"], chosen=trace["chosen"], ranked=trace["ranked"]))


def pinned(library: Library, doc_ids: Sequence[str] | None, resolution: str | None = None) -> PinnedLibrary:
    """``library`` pinned to ``doc_ids`` (all agreements when empty); ``resolution``: a resolver
    status the caller already has, kept on each document summary."""
    trace = ResolutionTrace(status=resolution, chosen=list(doc_ids or ()), ranked=[]) if resolution else None
    return PinnedLibrary(library, tuple(doc_ids or ()), trace)


__all__ = ["LIBRARY_TOOL", "ChatModelGetter", "LibraryDocument", "PinnedLibrary", "ResolutionTrace", "check_library_tools",
           "configure_ranking", "for_question", "open_library", "pinned"]
