"""A contract library as a retriever of the two common RAG frameworks (issue #17, "Ecosystem").

* :class:`LibraryLangChainRetriever` is a LangChain retriever: it subclasses
  ``langchain_core.retrievers.BaseRetriever`` and implements its one required method,
  ``_get_relevant_documents(query, *, run_manager) -> list[Document]``, so the public
  ``invoke`` / ``ainvoke`` / ``batch`` and LCEL composition (``retriever | prompt | llm``)
  come from LangChain. Each passage becomes a ``langchain_core.documents.Document``
  (``page_content`` = the passage text, ``id`` = its chunk id).
* :class:`LibraryLlamaIndexRetriever` is a LlamaIndex retriever: it subclasses
  ``llama_index.core.retrievers.BaseRetriever`` and implements ``_retrieve(query_bundle)
  -> list[NodeWithScore]``, so ``retrieve`` / ``aretrieve``, callbacks and instrumentation
  events come from LlamaIndex and it plugs into ``RetrieverQueryEngine`` and friends. Each
  passage becomes ``NodeWithScore(node=TextNode(id_=chunk_id, ...), score=passage.score)``;
  the node's ``ref_doc_id`` is the agreement's doc id and ``start_char_idx`` /
  ``end_char_idx`` its character range in the parsed agreement.

Both call :meth:`clauselens.library.Library.search` (agreement resolution, exact clause and
defined-term fields, BM25 + dense RRF, abstention) with ``k`` and the optional filters
(``doc_ids``, ``party``, ``doc_type``, ``year``), and put the same provenance in each
result's metadata (:func:`passage_metadata`): ``doc_id``, ``chunk_id``, ``title``,
``agreement`` (the catalogue label), ``source_path``, ``clause_ref``, ``heading``,
``start`` / ``end`` (first span start, last span end), ``spans``, ``page_start`` /
``page_end``, ``score``, ``method``.

**Abstention.** When the library abstains ("no matching clause found ...") both return an
empty list, as each framework expects for "nothing relevant". The reason stays visible:
it is logged (logger ``clauselens.library.adapters``, level INFO), the LangChain retriever
also sends it to the run's callbacks as text (``run_manager.on_text``, so a tracer or a
``StdOutCallbackHandler`` shows it), and ``retriever.last_result`` keeps the whole
:class:`~clauselens.retrieval.types.SearchResult` (``abstained``, ``reason``, ``trace``) of
the most recent call on that instance (per instance, not per call: read it right after a
call, not across concurrent ``batch`` calls).

**Offline.** Nothing here downloads anything. ``llama_index.core`` fetches NLTK data
(stopwords, punkt) only lazily, from node parsers and keyword indexes, never on import or
in a retriever, and its tiktoken tokenizer files ship inside the wheel
(``llama_index/core/_static``); neither path is used here, so no environment variables are
needed. ``tests/library/test_adapters.py`` checks this with the network blocked.

This module imports LangChain and LlamaIndex at import time; ``clauselens.library`` does not
import it, so import it explicitly: ``from clauselens.library.adapters import ...``.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever as LangChainBaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.retrievers import BaseRetriever as LlamaIndexBaseRetriever
from llama_index.core.schema import NodeRelationship, NodeWithScore, QueryBundle, RelatedNodeInfo, TextNode
from pydantic import PrivateAttr

from clauselens.retrieval.types import Passage, SearchResult

log = logging.getLogger(__name__)

#: Metadata keys a LlamaIndex node shows to an LLM and to an embedder (the rest is provenance).
LLM_METADATA_KEYS = ("agreement", "clause_ref", "heading", "page_start", "page_end")


def _labels(library: Any) -> dict[str, str]:
    """doc id -> catalogue label ("Supply Agreement — MediWound Ltd. / ... (2001)")."""
    agreements = getattr(library, "agreements", None)
    if agreements is None:
        return {}
    return {r.doc_id: r.label for r in agreements()}


def passage_metadata(p: Passage, labels: dict[str, str] | None = None) -> dict[str, Any]:
    """The provenance of one passage as flat metadata (the same for both frameworks)."""
    spans = [[s.start, s.end] for s in p.spans]
    return {
        "doc_id": p.doc_id,
        "chunk_id": p.chunk_id,
        "title": p.doc_title,
        "agreement": (labels or {}).get(p.doc_id) or p.doc_title,
        "source_path": p.source_path,
        "clause_ref": p.clause_ref,
        "heading": " > ".join(p.heading_path) or None,
        "start": spans[0][0] if spans else None,
        "end": spans[-1][1] if spans else None,
        "spans": spans,
        "page_start": p.page_start,
        "page_end": p.page_end,
        "score": float(p.score),
        "method": p.method,
    }


def _search(library: Any, query: str, k: int, doc_ids: Sequence[str] | None, party: str | None,
            doc_type: str | None, year: int | None) -> SearchResult:
    res = library.search(query, k, doc_ids=list(doc_ids) if doc_ids is not None else None, party=party,
                         doc_type=doc_type, year=year)
    if res.abstained:
        log.info("library abstained on %r: %s", query, res.reason)
    return res


class LibraryLangChainRetriever(LangChainBaseRetriever):
    """A :class:`~clauselens.library.Library` as a LangChain retriever (see the module docstring).

    ``retriever.invoke("How is 'Facility' defined in the MediWound supply agreement?")``
    returns up to ``k`` ``Document``\\ s, best first, or ``[]`` when the library abstains
    (the reason in ``last_result.reason``, the log and the run's callbacks).
    """

    library: Any
    k: int = 5
    doc_ids: list[str] | None = None
    party: str | None = None
    doc_type: str | None = None
    year: int | None = None

    _last_result: SearchResult | None = PrivateAttr(default=None)

    @property
    def last_result(self) -> SearchResult | None:
        """The library's full answer to the most recent query on this instance."""
        return self._last_result

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        res = _search(self.library, query, self.k, self.doc_ids, self.party, self.doc_type, self.year)
        self._last_result = res
        if res.abstained:
            run_manager.on_text(f"clauselens library abstained: {res.reason}\n")
            return []
        labels = _labels(self.library)
        return [Document(id=p.chunk_id, page_content=p.text, metadata=passage_metadata(p, labels))
                for p in res.passages]


class LibraryLlamaIndexRetriever(LlamaIndexBaseRetriever):
    """A :class:`~clauselens.library.Library` as a LlamaIndex retriever (see the module docstring).

    ``retriever.retrieve("How is 'Facility' defined in the MediWound supply agreement?")``
    returns up to ``k`` ``NodeWithScore``\\ s, best first, or ``[]`` when the library
    abstains (the reason in ``last_result.reason`` and the log).
    """

    def __init__(self, library: Any, k: int = 5, *, doc_ids: Sequence[str] | None = None, party: str | None = None,
                 doc_type: str | None = None, year: int | None = None,
                 callback_manager: CallbackManager | None = None, verbose: bool = False) -> None:
        self.library = library
        self.k = k
        self.doc_ids = list(doc_ids) if doc_ids is not None else None
        self.party = party
        self.doc_type = doc_type
        self.year = year
        self.last_result: SearchResult | None = None
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        res = _search(self.library, query_bundle.query_str, self.k, self.doc_ids, self.party, self.doc_type,
                      self.year)
        self.last_result = res
        if res.abstained:
            return []
        labels = _labels(self.library)
        out = []
        for p in res.passages:
            meta = passage_metadata(p, labels)
            hidden = [key for key in meta if key not in LLM_METADATA_KEYS]
            node = TextNode(
                id_=p.chunk_id, text=p.text, metadata=meta,
                excluded_llm_metadata_keys=hidden, excluded_embed_metadata_keys=hidden,
                start_char_idx=meta["start"], end_char_idx=meta["end"],
                relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=p.doc_id)},
            )
            out.append(NodeWithScore(node=node, score=float(p.score)))
        return out


__all__ = ["LLM_METADATA_KEYS", "LibraryLangChainRetriever", "LibraryLlamaIndexRetriever", "passage_metadata"]
