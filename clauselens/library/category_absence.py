"""Category-absence abstention (issue #39): a question whose topic is a CUAD clause category the
resolved agreement clearly lacks gets "no matching clause found" instead of a neighbouring clause.

The absent-topic rule (:mod:`clauselens.library.topics`) needs the question to use the topic's
own word ("insurance"); a question in everyday words ("do they have to carry cover that protects
us?") passes it and gets the nearest clause. Here two trained heads decide instead: the
question-topic head (:mod:`clauselens.heads.topic`) reads the question's category from its
MiniLM embedding, and the clause presence probe (:mod:`clauselens.heads.presence`) scores the
agreement's text (100-word windows, maximum over windows). A category is clearly absent when the
agreement's score is below its ``absent_below`` (at most 3 % of ``train_allowed`` agreements that
have such a clause fall below it, out of fold); when the question's probability on categories
every resolved agreement clearly lacks reaches the head's ``absent_mass``, the search abstains and
says why. Without the topic head installed the check is
off (said once); a lexical-only library (no embedder) does not run it. When the CUAD reading does not
decline, the heading-topic check (:mod:`clauselens.library.heading_topics`: topics learnt from the
agreements' own headings, outside CUAD's categories too) reads the same question vector.

The same two heads give the ranking a **topic channel** (:meth:`CategoryChecks._topic_rows`,
``Library.topic_channel``): when the question reads as one category with enough probability, the
agreement's passages the presence probe scores highest for it are fused (RRF, Cormack et al.
2009) with the BM25 + dense ranking -- "can they walk away early?" meets the termination clause
whatever words either uses. A mixin of :class:`~clauselens.library.library.Library`.
"""

from __future__ import annotations

from typing import Any, Sequence

from clauselens.heads.topic import OTHER, absence_reason
from clauselens.library.catalogue import naming_words, strip_naming_words
from clauselens.library.heading_topics import HeadingTopicChecks

#: The check runs for at most this many resolved agreements (as the absent-topic rule).
MAX_AGREEMENTS = 3
#: Topic channel (:meth:`CategoryChecks._topic_rows`): the topic head's least probability for its
#: category, the presence probe's least probability for a passage, and the most passages fused.
CHANNEL_MIN_PROBABILITY = 0.5
CHANNEL_MIN_PASSAGE = 0.5
CHANNEL_TOP = 5


class CategoryChecks(HeadingTopicChecks):
    """The category-absence check (see the module docstring); then the heading-topic check
    (:class:`~clauselens.library.heading_topics.HeadingTopicChecks`) for topics outside CUAD's."""

    #: The question-topic head: ``None`` = load on first use, ``False`` = off (not installed or
    #: turned off by ``retrieval.category_absence``).
    topic_head: Any = None
    _presence_cache: dict[str, Any]
    _presence_gen: Any = None

    def _topic_judge(self) -> Any:
        if self.topic_head is None:
            from clauselens.heads.base import HeadMissingError, notice_missing
            from clauselens.heads.topic import load

            try:
                self.topic_head = load()
            except HeadMissingError as e:
                notice_missing("topic", "category-absence abstention", e)
                self.topic_head = False
        return self.topic_head or None

    def _question_vector(self, text: str) -> Any:
        """The question's MiniLM vector (the library's own embedder when it is MiniLM); ``None`` for a
        lexical-only library (no embedder chosen: the check is off)."""
        emb = getattr(self, "embedder", None)
        if emb is None:
            return None
        if getattr(emb, "name", "") != "minilm":  # the head reads MiniLM vectors
            from clauselens.retrieval.embedders import get_embedder

            if getattr(self, "_minilm", None) is None:
                self._minilm = get_embedder("minilm", getattr(self, "cache_dir", None))
            emb = self._minilm
        return emb.embed_queries([text])[0]

    def presence_scores(self, doc_id: str) -> dict[str, float]:
        """Contract-level presence score per CUAD category of one agreement (maximum over 100-word
        windows of its text; :func:`clauselens.heads.presence.contract_scores`), cached per catalogue
        generation; empty when the presence head or the agreement's text is missing."""
        gen = self.catalogue.generation()
        if self._presence_gen != gen or not hasattr(self, "_presence_cache"):
            self._presence_cache, self._presence_gen = {}, gen
        if doc_id not in self._presence_cache:
            from clauselens.heads.presence import contract_scores

            text = "\n".join(c.text for c in self.catalogue.passages(self.catalogue.rows_of([doc_id])))
            self._presence_cache[doc_id] = contract_scores(text)
        return dict(self._presence_cache[doc_id])

    def _passage_probs(self, doc_id: str, category: str) -> list[tuple[float, int]]:
        """``(P(category), row)`` of each passage of one agreement (the topic channel only: not cached,
        since the channel is off by default)."""
        from clauselens.heads.base import HeadMissingError
        from clauselens.heads.presence import load as load_presence

        try:
            head = load_presence()
        except HeadMissingError:
            return []
        if category not in head.categories:
            return []
        rows = [int(r) for r in self.catalogue.rows_of([doc_id])]
        chunks = self.catalogue.passages(rows)
        if not chunks:
            return []
        col = head.window_probs([c.text for c in chunks])[:, head.categories.index(category)]
        return [(float(v), r) for v, r in zip(col, rows)]

    def _topic_rows(self, question: str, doc_ids: Sequence[str]) -> tuple[str, list[int]] | None:
        """The topic channel: when the topic head reads the question as one CUAD category with at
        least :data:`CHANNEL_MIN_PROBABILITY`, the agreements' passages the presence probe scores
        highest for it (at least :data:`CHANNEL_MIN_PASSAGE`), best first; else ``None``."""
        if not doc_ids or len(doc_ids) > MAX_AGREEMENTS:
            return None
        head = self._topic_judge()
        vec = self._question_vector(question) if head is not None else None
        if vec is None:
            return None
        p = head.probabilities(vec)[0]
        j = int(p.argmax())
        cat = head.labels[j]
        if cat == OTHER or p[j] < CHANNEL_MIN_PROBABILITY:
            return None
        scored: list[tuple[float, int]] = []
        for d in doc_ids:
            scored += [(v, r) for v, r in self._passage_probs(d, cat) if v >= CHANNEL_MIN_PASSAGE]
        scored.sort(key=lambda vr: -vr[0])
        return (cat, [r for _, r in scored[:CHANNEL_TOP]]) if scored else None

    def _absent_category(self, question: str, doc_ids: Sequence[str], names: str = "the agreement") -> dict[str, Any] | None:
        """The category reading, the agreements' scores and the reason to give (``names``: the
        agreements' labels) when the question's category is clearly absent from every agreement in
        ``doc_ids`` (module docstring); else ``None``."""
        if not doc_ids or len(doc_ids) > MAX_AGREEMENTS:
            return None
        head = self._topic_judge()
        if head is None:  # off (not installed, or turned off by retrieval.category_absence): both checks
            return None
        recs = [r for r in self.agreements() if r.doc_id in doc_ids]
        text = strip_naming_words(question, set().union(*(naming_words(r) for r in recs))) if recs else question
        vec = self._question_vector(text)
        if vec is None:
            return None
        presence = [self.presence_scores(d) for d in doc_ids]
        reading = head.read(vec, presence)
        if not reading.absent:
            return self._never_worded(head.ranked(vec), doc_ids, names) or self._absent_heading_topic(vec, doc_ids, names)
        cat = reading.categories[0][0]
        best = max(float(sc.get(cat, 0.0)) for sc in presence)
        return {"category": cat, "mass": round(reading.mass, 3), "threshold": reading.threshold,
                "categories": [[c, round(p, 3)] for c, p in reading.categories[:3]],
                "presence": {d: round(float(sc.get(cat, 0.0)), 4) for d, sc in zip(doc_ids, presence)},
                "absent_below": head.absent_below[cat],
                "reason": absence_reason(reading, names, len(doc_ids), best, head.absent_below[cat])}

    def _never_worded(self, ranked: Sequence[tuple[str, float]], doc_ids: Sequence[str], names: str) -> dict[str, Any] | None:
        """The question's category is a kind almost never written without its own word and no agreement in ``doc_ids`` uses it:
        absent, whatever the presence probe's score (:func:`clauselens.heads.category_words.unworded_reading`; a new user's
        tryout: "Is Maimon's liability to Intellisense capped?" over a services agreement that never says "liab…" was answered
        with its headings and severability clauses)."""
        from clauselens.heads.category_words import unworded_candidate, unworded_reading, unworded_reason

        if not unworded_candidate(ranked):
            return None  # no agreement text read for the questions this cannot decline
        texts = [c.text for c in self.catalogue.passages(self.catalogue.rows_of(list(doc_ids)))]
        got = unworded_reading(ranked, texts)
        if got is None:
            return None
        cat, word, p = got
        return {"category": cat, "mass": round(p, 3), "categories": [[c, round(q, 3)] for c, q in ranked[:3]],
                "never_worded": word, "reason": unworded_reason(cat, word, p, names, len(doc_ids))}


__all__ = ["CHANNEL_MIN_PASSAGE", "CHANNEL_MIN_PROBABILITY", "CHANNEL_TOP", "MAX_AGREEMENTS", "CategoryChecks"]
