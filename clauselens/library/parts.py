"""What every part of :class:`~clauselens.library.library.Library` reads (issue #42's split by concern): the
storage parts of one library and its catalogue listing. ``Indexing``, ``ExactFields``, ``ResultOrder``,
``TopicChecks`` and ``AgreementNames`` are mixins of ``Library`` over these; ``Library`` sets them and implements ``agreements``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from clauselens.library.catalogue import AgreementRecord
from clauselens.library.storage import CatalogueStorage, LexicalStorage, VectorStorage
from clauselens.retrieval.analyzer import LegalAnalyzer


class LibraryParts(ABC):
    """The storage parts a library's mixins share (set by ``Library``)."""

    root: Path
    catalogue: CatalogueStorage
    lexical: LexicalStorage
    vectors: VectorStorage
    analyzer: LegalAnalyzer
    meta: dict[str, Any]

    @abstractmethod
    def agreements(self) -> list[AgreementRecord]:
        """The library's agreements (:meth:`clauselens.library.Library.agreements`)."""


__all__ = ["LibraryParts"]
