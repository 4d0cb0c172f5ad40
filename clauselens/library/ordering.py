"""Re-ordering a library search's fused list (issue #17): the agreement prior when several
agreements are searched, and the front matter (preamble, recitals) after the operative clauses.
A mixin of :class:`~clauselens.library.library.Library`, split out of ``library.py`` (issue #43)."""

from __future__ import annotations

import re
from typing import Any

from clauselens.library.parts import LibraryParts
from clauselens.library.resolver import Resolution
from clauselens.retrieval.types import Passage

#: Questions about the front matter itself keep it in place (see :meth:`Library._demote_front_matter`).
FRONT_MATTER_QUESTION = re.compile(r"\b(?:recitals?|whereas|preamble|background|purpose of|effective date|"
                                   r"who are the parties|parties to)\b", re.IGNORECASE)

#: An unnumbered passage that opens as a recital ("WHEREAS, ...", "RECITALS", "W I T N E S S E T H",
#: "NOW, THEREFORE"): front matter wherever it sits -- a table of contents printed before it numbers
#: clauses first, so the offset of the first numbered clause alone misses these recitals.
RECITAL_START = re.compile(r"^\s*(?:WHEREAS\b|Whereas,|RECITALS?\b|Recitals\b|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H\b|"
                           r"NOW,?\s+THEREFORE\b)")


class ResultOrder(LibraryParts):
    """Agreement prior and front-matter demotion (see the module docstring)."""
    _body_start: dict[str, int | None]
    _body_start_gen: int

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

    def _demote_front_matter(self, ranked: list[Passage], trace: dict[str, Any], question: str = "") -> list[Passage]:
        """``ranked`` with front-matter passages -- unnumbered text before the agreement's
        first numbered clause: the preamble and recitals ("WHEREAS ...") -- moved after the
        operative passages, each group in its fused order. Recitals state the background and
        bind no one (e.g. Adams, *A Manual of Style for Contract Drafting*, ch. 2 "The
        Front of the Contract"), yet they repeat the words a question uses to *describe* the
        agreement ("the pineapple-enzyme purchasing deal"), so they outrank the clause asked
        about. Agreements that number no clause keep their order, except passages that open as a
        recital (:data:`RECITAL_START`), which are front matter wherever they sit. A front-matter passage keeps its place
        when it holds a thing ``question`` names (:func:`~clauselens.retrieval.concept_absence.named_in`) that no
        operative passage ranked holds: "Sarbanes-Oxley", cited only in a recital, is asked about there; "the Spin-Off",
        which the clauses use too, is answered by them."""
        from clauselens.retrieval.concept_absence import holds, named_terms

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
        terms = named_terms(question) if question and front else []
        if terms:
            only_front = [t for t in terms if holds(t, [p.text for p in front]) and not holds(t, [p.text for p in body])]
            keep = [p for p in front if any(holds(t, [p.text]) for t in only_front)]
            if keep:
                order = {p.chunk_id: i for i, p in enumerate(ranked)}
                body = sorted(body + keep, key=lambda p: order[p.chunk_id])
                front = [p for p in front if p not in keep]
        trace["front_matter_demoted"] = len(front)
        return body + front


__all__ = ["FRONT_MATTER_QUESTION", "RECITAL_START", "ResultOrder"]
