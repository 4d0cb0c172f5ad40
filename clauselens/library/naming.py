"""Names in a question, once its agreement is known: which words only say *which* agreement
(left out of the ranking query: a party name repeated in the question pulls every clause that
repeats it -- the paraphrase levers measured on the dev set, docs/BENCHMARKS.md), and a name one
agreement alone holds settling an uncertain resolution. A mixin of
:class:`clauselens.library.library.Library` (it reads ``agreements()``, ``catalogue``,
``lexical`` and ``analyzer``)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from clauselens.library.catalogue import AgreementRecord, naming_words, profile_front, question_names
from clauselens.library.parts import LibraryParts
from clauselens.library.resolver import Resolution

#: A capitalised word of a question held by at most this share of the library's resolution
#: profiles (and by the resolved agreement's) names that agreement, not what is asked: left out
#: of the ranking query with the parties' names. 1 %: a party or person named in a handful of
#: agreements ("CPM": 7 of 462); at 10 agreements, only a name no other agreement has.
NAME_MAX_SHARE = 0.01


class AgreementNames(LibraryParts):
    """The naming-word and named-agreement checks of the library (see the module docstring)."""

    def _name_holders(self, name: str, copies: Collection[str] = ()) -> set[str]:
        """The agreements whose resolution profile holds the (first analysed token of) ``name``."""
        toks = self.analyzer.tokenize(name)
        if not toks:
            return set()
        return {d for d, s in self.lexical.profile_scores(toks[:1]).items() if s > 0 and d not in copies}

    def _front_holds(self, doc_id: str, name: str) -> bool:
        """Whether ``doc_id``'s title, parties or preamble (:func:`profile_front`) hold ``name`` as a word."""
        pattern = re.compile(rf"(?<!\w){re.escape(name.lower())}(?!\w)")
        return bool(pattern.search(profile_front(self.catalogue.profile(doc_id)).lower()))

    def _named_alone(self, question: str, res: Resolution, copies: dict[str, str]) -> Resolution:
        """An uncertain or tied resolution settled by a name: when the question has a capitalised
        word that one agreement of the library alone holds, as a party, short name or title word
        of its record (or, where the record has no parties, in its preamble), and that agreement
        is among those the scores kept, it is chosen alone
        ("Can Equidata put its prices up on the credit-report reseller?": the generic words
        score four reseller agreements near the one whose party is Equidata)."""
        recs: dict[str, AgreementRecord] | None = None
        for name in question_names(question):
            holders = self._name_holders(name, copies)
            if len(holders) != 1 or not holders <= set(res.chosen):
                continue
            (doc,) = holders
            recs = recs if recs is not None else {r.doc_id: r for r in self.agreements()}
            rec = recs.get(doc)
            if rec is None:
                continue
            # a party, short name or title word; a name the preamble only mentions is no party --
            # unless the record missed the parties (then where the agreement names them)
            if name.lower() in naming_words(rec) if rec.parties else self._front_holds(doc, name):
                return Resolution(ranked=res.ranked, chosen=[doc], status="resolved")
        return res

    def _naming_words(self, question: str, docs: Sequence[str]) -> set[str]:
        """The words that only say *which* agreement ``question`` is about, once ``docs`` are
        resolved: their records' party names, short names and title words, and the question's
        capitalised words that an agreement's title, parties or preamble hold and at most
        :data:`NAME_MAX_SHARE` of the library's profiles do (a party the record missed,
        "KazakhOil"; a person the agreement names, "Ogle") -- never a word most agreements use
        ("Territory")."""
        recs = {r.doc_id: r for r in self.agreements()}
        words = set().union(*(naming_words(recs[d]) for d in docs if d in recs))
        limit = max(1, int(NAME_MAX_SHARE * len(recs)))
        for name in question_names(question):
            if name.lower() in words:
                continue
            holders = self._name_holders(name)
            if 0 < len(holders) <= limit and any(d in holders and self._front_holds(d, name) for d in docs):
                words.add(name.lower())  # named where the agreement names its parties, not in a clause ("Yahoo")
        return words
