"""navindex as a Researcher tool: S1 scan (LLM over indices) -> S2 fetch (deterministic),
and the S3 answer step as a separate function.

After the "Inject or Navigate?" study (issue #4):

* **S1 scan** — the model sees only the Config-6 indices of every document and returns at
  most ``max_nodes`` ``(doc, node)`` pairs as JSON; pairs are validated against the indices
  and invented ids are rejected and counted. If the indices do not fit the model's window
  they are scanned in batches (documents, or node ranges of a large document) and the
  selections merged round-robin, still at most ``max_nodes`` overall.
* **S2 fetch** — the nodes' verbatim text (a short parent node gets its descendants), plus
  one hop along ``cross_referenced_ids`` and to the defining clause of defined terms used.
* **S3 answer** — :func:`~clauselens.retrieval.navigate.answer.answer_from_passages`: answer only from the ``<provisions>``
  block, with amendment precedence, defined-term origin, ``[doc] Clause X`` citations and
  the exact refusal string :data:`~clauselens.retrieval.navigate.prompts.REFUSAL`.

:class:`NavIndexRetriever` runs S1 (:mod:`~clauselens.retrieval.navigate.scan`) and S2
(:mod:`~clauselens.retrieval.navigate.fetch`); the caller answers with S3
(:mod:`~clauselens.retrieval.navigate.answer`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from langchain_core.language_models.chat_models import BaseChatModel

from clauselens.parsing.types import Document
from clauselens.retrieval.ledger import Ledger, LedgerEntry
from clauselens.retrieval.navigate.fetch import fetch
from clauselens.retrieval.navigate.index import NavCorpus, write_nav_files
from clauselens.retrieval.navigate.scan import MAX_NODES, scan
from clauselens.retrieval.types import SearchResult


class NavIndexRetriever:
    """navindex as a :class:`~clauselens.retrieval.types.RetrievalMethod`.

    ``index(documents)`` builds the indices (and writes ``<doc>.index.json`` /
    ``<doc>.full.json`` under ``store_dir`` when given). ``search(query, k)`` runs S1 + S2
    and returns the picked provisions then their one-hop provisions (at most ``k``; S1
    itself picks at most ``min(k, max_nodes)``); every LLM call is written to ``ledger``.
    ``trace`` holds picks, rejected (invented) ids, batches and index tokens.
    """

    name = "navindex"

    def __init__(self, model: BaseChatModel, ledger: Ledger | None = None, max_nodes: int = MAX_NODES,
                 store_dir: Path | None = None) -> None:
        self.model = model
        self.ledger = ledger or Ledger(label="navindex")
        self.max_nodes = max_nodes
        self.store_dir = store_dir
        self.corpus = NavCorpus()
        self._n = 0

    def index(self, documents: Sequence[Document]) -> None:
        """Build (replace) the navindex of ``documents``."""
        self.corpus = NavCorpus.build(documents)
        if self.store_dir is not None:
            for d in documents:
                write_nav_files(d, self.store_dir)

    def search(self, query: str, k: int = 2 * MAX_NODES, query_id: str | None = None) -> SearchResult:
        """S1 + S2 for ``query``. Abstains (empty passages, reason) when the scan picks nothing."""
        self._n += 1
        entry = self.ledger.start(query_id or f"q{self._n}", self.name)
        res = scan(self.model, self.corpus, query, min(k, self.max_nodes), self.ledger, entry)
        passages = fetch(self.corpus, res["picks"], k=k)
        trace = {"picks": [list(p) for p in res["picks"]], "rejected": res["rejected"],
                 "batches": res["batches"], "index_tokens": res["index_tokens"], "ledger_entry": len(self.ledger.entries) - 1}
        if not passages:
            return SearchResult(query=query, abstained=True, reason="no matching clause found", trace=trace)
        return SearchResult(query=query, passages=passages, trace=trace)

    def entry_for(self, result: SearchResult) -> LedgerEntry:
        """The ledger entry of a ``search`` result (to add the S3 answer call to it)."""
        return self.ledger.entries[result.trace["ledger_entry"]]
