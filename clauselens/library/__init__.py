"""The contract library (issue #17): agreements added once, persisted on disk, searched
across with agreement resolution, exact clause-number and defined-term fields, hybrid
BM25 + dense ranking fused by RRF, and abstention.

Public API::

    Library.open(root, embedder_name="minilm") -> Library
    Library.add(paths, prune=False) -> AddReport
    Library.search(question, k=5, doc_ids=None, party=None, doc_type=None, year=None) -> SearchResult
    Library.retriever(doc_ids=None) -> LibraryRetriever   # a RetrievalMethod for the graph
    library_root(settings, name) -> Path                  # ~/.cache/clauselens/libraries/<name>
"""

from __future__ import annotations

from pathlib import Path

from clauselens.library.catalogue import AgreementRecord
from clauselens.library.library import AddReport, Library, LibraryRetriever, collect_files, defined_term_in

DEFAULT_LIBRARY = "default"


def library_root(cache_dir: Path, name: str | None) -> Path:
    """The directory of library ``name``: a path when it contains a separator or exists as
    a directory, else ``<cache_dir>/libraries/<name>`` (``"default"`` when ``None``)."""
    name = name or DEFAULT_LIBRARY
    p = Path(name).expanduser()
    if "/" in name or p.is_dir():
        return p
    return Path(cache_dir) / "libraries" / name


__all__ = ["AddReport", "AgreementRecord", "DEFAULT_LIBRARY", "Library", "LibraryRetriever", "collect_files",
           "defined_term_in", "library_root"]
