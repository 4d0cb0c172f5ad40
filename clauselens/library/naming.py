"""Names in a question, once its agreement is known: which words only say *which* agreement
(left out of the ranking query: a party name repeated in the question pulls every clause that
repeats it -- the paraphrase levers measured on the dev set, docs/BENCHMARKS.md), and a name one
agreement alone holds settling an uncertain resolution. A mixin of
:class:`clauselens.library.library.Library` (it reads ``agreements()``, ``catalogue``,
``lexical`` and ``analyzer``)."""

from __future__ import annotations

import re
from typing import Sequence

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

    def _named_alone(self, question: str, res: Resolution, copies: dict[str, str]) -> Resolution:
        """An uncertain or tied resolution settled by a name: when the question has a capitalised
        word that one agreement of the library alone holds, as a party, short name or title word
        of its record (or, where the record has no parties, in its preamble), and that agreement
        is among those the scores kept, it is chosen alone
        ("Can Equidata put its prices up on the credit-report reseller?": the generic words
        score four reseller agreements near the one whose party is Equidata)."""
        recs: dict[str, AgreementRecord] | None = None
        for name in question_names(question):
            toks = self.analyzer.tokenize(name)
            if not toks:
                continue
            holders = [d for d, s in self.lexical.profile_scores(toks[:1]).items() if s > 0 and d not in copies]
            if len(holders) != 1 or holders[0] not in res.chosen:
                continue
            recs = recs if recs is not None else {r.doc_id: r for r in self.agreements()}
            rec = recs.get(holders[0])
            if rec is None:
                continue
            if rec.parties:  # a party, short name or title word; a name the preamble only mentions is no party
                named = name.lower() in naming_words(rec)
            else:  # the record missed the parties: where the agreement names them
                pattern = re.compile(rf"(?<!\w){re.escape(name.lower())}(?!\w)")
                named = bool(pattern.search(profile_front(self.catalogue.profile(holders[0])).lower()))
            if named:
                return Resolution(ranked=res.ranked, chosen=[holders[0]], status="resolved")
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
        fronts: dict[str, str] = {}
        for name in question_names(question):
            low = name.lower()
            toks = self.analyzer.tokenize(name)
            if low in words or not toks:
                continue
            holders = {d for d, s in self.lexical.profile_scores(toks[:1]).items() if s > 0}
            if len(holders) > limit:
                continue
            pattern = re.compile(rf"(?<!\w){re.escape(low)}(?!\w)")
            for d in docs:  # named where the agreement names its parties, not in a clause ("Yahoo")
                if d in holders and pattern.search(fronts.setdefault(d, profile_front(self.catalogue.profile(d)).lower())):
                    words.add(low)
                    break
        return words
