"""The dense channel's question vector, through the trained query adapter when it is installed (issue #39).

:mod:`clauselens.heads.query_adapter` moves a question's all-MiniLM-L6-v2 vector towards the passages
that answer questions like it (trained on ``train_allowed`` CUAD clause groups and synthetic everyday
questions); passage vectors are unchanged. Only a MiniLM library uses it (the adapter reads and writes
MiniLM vectors). **Off by default** (``retrieval.query_adapter=false``): the adapter trained so far
moved lay questions of one development set up and the other set's down (docs/BENCHMARKS.md, issue #39),
and no adapter is committed; turned on without one, it is off and says so once.
"""

from __future__ import annotations

from typing import Any

from clauselens.library.parts import LibraryParts


class QueryVectors(LibraryParts):
    """:meth:`_query_vector` for the library's dense ranking."""

    #: The query adapter: ``None`` = load the installed one on first use, ``False`` = off (the default:
    #: ``retrieval.query_adapter``; also when not installed or not a MiniLM library), or a loaded
    #: :class:`~clauselens.heads.query_adapter.QueryAdapter` (a benchmark's candidate).
    query_adapter: Any = False

    def _adapter(self) -> Any:
        if self.query_adapter is None:
            if getattr(getattr(self, "embedder", None), "name", "") != "minilm":
                self.query_adapter = False
                return None
            from clauselens.heads.base import load_or_notice
            from clauselens.heads.query_adapter import load

            self.query_adapter = load_or_notice("query_adapter", "the dense channel's query adapter", load) or False
        return self.query_adapter or None

    def _query_vector(self, text: str) -> Any:
        """The question's vector for the dense ranking (adapted when the adapter is on)."""
        q = self.embedder.embed_queries([text])[0]  # type: ignore[attr-defined]
        adapter = self._adapter()
        return q if adapter is None else adapter.adapt(q)[0]

