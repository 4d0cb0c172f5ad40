"""Concept-absence abstention over a library's agreements (issue #39): the reading of
:mod:`clauselens.retrieval.concept_absence` (a question's lay-term thesaurus concepts, none of whose
contract wording the resolved agreements use) over the agreements' stored passages, with the words that
name the agreement taken out of the question first. A mixin of
:class:`~clauselens.library.library.Library`."""

from __future__ import annotations

from typing import Sequence

from clauselens.library.catalogue import naming_words, strip_naming_words
from clauselens.library.parts import LibraryParts
from clauselens.retrieval.concept_absence import (
    MAX_AGREEMENTS,
    AbsentConcepts,
    agreement_words,
    named_in,
    named_terms,
    question_concepts,
    unused_concepts,
)

#: Agreements' texts and content stems kept in memory between questions.
TEXT_CACHE = 32


class ConceptChecks(LibraryParts):
    """The concept-absence check over the library's agreements (see the module docstring)."""

    #: ``False`` turns the check off (``retrieval.concept_absence``).
    concept_absence: bool = True
    _concept_texts: dict[str, tuple[str, str]]
    _concept_gen: object = None

    def _agreement_words(self, doc_id: str) -> tuple[str, str]:
        """One agreement's passages joined and their content stems (:func:`agreement_words`), cached per
        catalogue generation (at most :data:`TEXT_CACHE`)."""
        gen = self.catalogue.generation()
        if self._concept_gen != gen or not hasattr(self, "_concept_texts"):
            self._concept_texts, self._concept_gen = {}, gen
        if doc_id not in self._concept_texts:
            if len(self._concept_texts) >= TEXT_CACHE:
                self._concept_texts.pop(next(iter(self._concept_texts)))
            text = "\n".join(c.text for c in self.catalogue.passages(self.catalogue.rows_of([doc_id])))
            self._concept_texts[doc_id] = agreement_words(text)
        return self._concept_texts[doc_id]

    def _named_here(self, question: str, doc_ids: Sequence[str]) -> str | None:
        """A thing the question names (the agreements' own names taken out) that one of ``doc_ids`` holds verbatim
        (:func:`~clauselens.retrieval.concept_absence.named_in`): the meaning-based absence checks then do not
        decline. ``None`` for more than :data:`MAX_AGREEMENTS` agreements."""
        if not doc_ids or len(doc_ids) > MAX_AGREEMENTS:
            return None
        recs = [r for r in self.agreements() if r.doc_id in doc_ids]
        text = strip_naming_words(question, set().union(*(naming_words(r) for r in recs))) if recs else question
        return named_in(text, [self._agreement_words(d)[0] for d in doc_ids]) if named_terms(text) else None

    def _asked_unworded(self, question: str, doc_ids: Sequence[str]) -> str:
        """The word family of a clause kind the question names ("Is Maimon's liability capped?") that none of the agreements
        ``doc_ids`` uses (:func:`clauselens.heads.category_words.asked_unworded`: such clauses are almost never written
        without it), else ``""``; off with the category-absence check (``retrieval.category_absence``), and for more than
        :data:`MAX_AGREEMENTS` agreements."""
        from clauselens.heads.category_words import asked_unworded

        if getattr(self, "topic_head", None) is False or not doc_ids or len(doc_ids) > MAX_AGREEMENTS:
            return ""
        return asked_unworded(question, [self._agreement_words(d)[0] for d in doc_ids])

    def _absent_concept(self, question: str, doc_ids: Sequence[str]) -> AbsentConcepts | None:
        """The concepts of ``question`` (the agreements' names taken out) that none of the agreements
        ``doc_ids`` words (:func:`unused_concepts`); ``None`` when off, or for more than
        :data:`MAX_AGREEMENTS` agreements."""
        if not self.concept_absence or not doc_ids or len(doc_ids) > MAX_AGREEMENTS:
            return None
        recs = [r for r in self.agreements() if r.doc_id in doc_ids]
        text = strip_naming_words(question, set().union(*(naming_words(r) for r in recs))) if recs else question
        asked = question_concepts(text)
        return unused_concepts(asked, [self._agreement_words(d) for d in doc_ids]) if asked else None


__all__ = ["TEXT_CACHE", "ConceptChecks"]
