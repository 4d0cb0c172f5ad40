"""Heading-topic absence (issue #39): a question about a clause topic -- any topic agreements give a
heading of its own, not only CUAD's 41 categories -- that the resolved agreement has no clause on
gets "no matching clause found" instead of a neighbouring clause.

The topics are learnt from the agreements' own clause headings (:mod:`clauselens.library.train_heading_topics`:
the Archivist's headings of ``train_allowed`` agreements, normalised to analysed words and grouped;
a topic is a group enough agreements head a clause with: "Force Majeure", "Insurance", "Non-Solicitation",
"Publicity", ...). The trained head (:mod:`clauselens.heads.heading_topic`) reads which topic a question
asks about from its MiniLM vector, and scores an agreement's clause text per topic (TF-IDF word-window
probe, maximum over windows, like the presence probe). An agreement **lacks** topic T when none of its
headings is T's and its text scores below T's ``absent_below`` (chosen on ``train_allowed`` agreements
that have the heading, with the heading words removed, out of fold). The search abstains when the
question's probability on the topics every resolved agreement lacks reaches the head's ``absent_mass``.

A mixin of :class:`~clauselens.library.library.Library` through
:class:`~clauselens.library.category_absence.CategoryChecks` (which asks it after the CUAD-category
check); off, with one notice, when the head is not installed.
"""

from __future__ import annotations

from typing import Any, Sequence

from clauselens.heads.heading_topic import heading_keys
from clauselens.library.parts import LibraryParts


class HeadingTopicChecks(LibraryParts):
    """The heading-topic absence check (see the module docstring)."""

    #: The heading-topic head: ``None`` = load on first use, ``False`` = off.
    heading_head: Any = None
    _heading_cache: dict[str, Any]
    _heading_gen: Any = None

    def _heading_judge(self) -> Any:
        if self.heading_head is None:
            from clauselens.heads.base import HeadMissingError, notice_missing
            from clauselens.heads.heading_topic import load

            try:
                self.heading_head = load()
            except HeadMissingError as e:
                notice_missing("heading_topic", "heading-topic absence abstention", e)
                self.heading_head = False
        return self.heading_head or None

    def heading_topic_state(self, doc_id: str) -> tuple[set[str], dict[str, float]]:
        """One agreement's heading keys and its text's probe score per heading topic (cached per
        catalogue generation)."""
        gen = self.catalogue.generation()
        if self._heading_gen != gen or not hasattr(self, "_heading_cache"):
            self._heading_cache, self._heading_gen = {}, gen
        if doc_id not in self._heading_cache:
            head = self._heading_judge()
            chunks = self.catalogue.passages(self.catalogue.rows_of([doc_id]))
            keys = heading_keys({h for c in chunks for h in c.heading_path}, self.analyzer.tokenize)
            text = "\n".join(c.text for c in chunks)
            self._heading_cache[doc_id] = (keys, head.contract_scores(text) if head is not None else {})
        keys, scores = self._heading_cache[doc_id]
        return set(keys), dict(scores)

    def _absent_heading_topic(self, vector: Any, doc_ids: Sequence[str], names: str) -> dict[str, Any] | None:
        """The reading and the reason to give when the question (its MiniLM ``vector``) asks about a
        heading topic every agreement in ``doc_ids`` lacks (module docstring); else ``None``."""
        head = self._heading_judge()
        if head is None or vector is None or not doc_ids:
            return None
        states = [self.heading_topic_state(d) for d in doc_ids]
        reading = head.read(vector, states)
        if not reading.absent:
            return None
        topic = reading.categories[0][0]
        return {"heading_topic": topic, "mass": round(reading.mass, 3), "threshold": reading.threshold,
                "categories": [[c, round(p, 3)] for c, p in reading.categories[:3]],
                "presence": {d: round(float(sc.get(topic, 0.0)), 4) for d, (_, sc) in zip(doc_ids, states)},
                "absent_below": head.absent_below[topic],
                "reason": head.reason(reading, names, len(doc_ids))}


__all__ = ["HeadingTopicChecks"]
