"""Absent-topic abstention (issue #17): a question about a standard clause topic ("Insurance",
"Force Majeure") that the resolved agreement never mentions is answered "no matching clause
found". Clause topics are the first (two) analysed words of clause headings, shared by at least
:data:`TOPIC_MIN_SHARE` of the library's agreements. A mixin of
:class:`~clauselens.library.library.Library`, split out of ``library.py`` (issue #43)."""

from __future__ import annotations

import re
from typing import Sequence

from clauselens.library.catalogue import naming_words, strip_naming_words
from clauselens.library.parts import LibraryParts
from clauselens.library.resolver import QUESTION_WORDS

#: Absent-topic abstention: a question word that is the first word of clause headings in at
#: least this share of the library's agreements (a standard clause topic: "Insurance", "Audit")
#: and that the resolved agreement never uses gets "no matching clause found"; so does a pair of
#: adjacent question words that are the first two words of such headings ("Force Majeure",
#: "Limitation of Liability") when the agreement never uses one of the two ("majeure": "force"
#: alone is in "full force and effect"). 10 % was set on the development set for one word
#: (benchmarks/clause_qa.py; README) and kept for pairs, in a library of at least
#: TOPIC_MIN_AGREEMENTS agreements (below that the shares say nothing).
TOPIC_MIN_SHARE = 0.10

TOPIC_MIN_AGREEMENTS = 50

#: A topic word counts as used when the agreement has a longer word of its family: its Snowball stem
#: (at least this many letters) begins another word's stem ("indemnity" -> "indemn", used by
#: "indemnification" -> "indemnif"). The fourth blind question set (benchmarks/data/
#: answers_e2e_questions_new4.jsonl) had "indemnity claims" answered "never mentions 'indemnity'" for
#: an agreement with an indemnification clause.
FAMILY_MIN_STEM = 5


class TopicChecks(LibraryParts):
    """Clause-topic shares of the library and the absent-topic check (see the module docstring)."""

    def topic_shares(self) -> dict[str, float]:
        """Clause topic -> share of the library's agreements with a heading starting with it (one
        analysed word, ``"insur"``, or two joined by a space, ``"forc majeur"``)."""
        recs = self.agreements()
        key = (self.catalogue.generation(), len(recs))
        if getattr(self, "_topics_key", None) != key:
            counts: dict[str, int] = {}
            for r in recs:
                for t in [*(r.topics or ()), *(r.topic_pairs or ())]:
                    counts[t] = counts.get(t, 0) + 1
            self._topics = {t: c / max(len(recs), 1) for t, c in counts.items()}
            self._topics_key = key
        return self._topics

    def party_name_tokens(self) -> set[str]:
        """Analysed single-word short names the library's agreements give their parties ("Parent",
        "Purchaser", "Licensee"): a party, not a clause topic, even where headings start with it
        ("Parent Representations"); the absent-topic check skips them (LegalBench-RAG: 9 MAUD
        questions about "Parent" abstained because an agreement calls its buyer otherwise)."""
        recs = self.agreements()
        key = (self.catalogue.generation(), len(recs))
        if getattr(self, "_roles_key", None) != key:
            roles: set[str] = set()
            for r in recs:
                for name in r.short_names:
                    toks = self.analyzer.tokenize(name)
                    if len(toks) == 1:
                        roles.add(toks[0])
            self._roles, self._roles_key = roles, key
        return self._roles

    def _absent_topic(self, question: str, doc_ids: Sequence[str]) -> tuple[str, float] | None:
        """``(word, share)`` when ``question`` asks about a standard clause topic (see
        :data:`TOPIC_MIN_SHARE`) that none of the agreements ``doc_ids`` mentions; else ``None``."""
        if len(self.agreements()) < TOPIC_MIN_AGREEMENTS:
            return None
        recs = [r for r in self.agreements() if r.doc_id in doc_ids]
        if not recs:
            return None
        shares = self.topic_shares()
        text = QUESTION_WORDS.sub(" ", strip_naming_words(question, set().union(*(naming_words(r) for r in recs))))
        words = re.findall(r"[^\W\d_][\w'-]*", text)
        roles = self.party_name_tokens()
        candidates = []
        analysed = []  # (word, token) of the words that analyse to one token, in order (stopwords drop out)
        for w in words:
            toks = self.analyzer.tokenize(w)
            if len(toks) == 1:
                analysed.append((w, toks[0]))
                if shares.get(toks[0], 0.0) >= TOPIC_MIN_SHARE and toks[0] not in roles:
                    candidates.append((w, toks[0]))
        pairs = [(f"{w1} {w2}", (t1, t2)) for (w1, t1), (w2, t2) in zip(analysed, analysed[1:])
                 if shares.get(f"{t1} {t2}", 0.0) >= TOPIC_MIN_SHARE and not {t1, t2} & roles]
        if not candidates and not pairs:
            return None
        vocab = {t for toks in self.catalogue.tokens_of(self.catalogue.rows_of(list(doc_ids))) for t in toks}

        def used(t: str) -> bool:  # the word, or (a stem of 5+ letters) a longer word of its family
            return t in vocab or (len(t) >= FAMILY_MIN_STEM and any(v.startswith(t) for v in vocab))

        for w, t in candidates:
            if not used(t):
                return w, shares[t]
        for w, (t1, t2) in pairs:  # a two-word topic ("force majeure") one of whose words the agreement never uses
            if not used(t1) or not used(t2):
                return w, shares[f"{t1} {t2}"]
        return None


__all__ = ["FAMILY_MIN_STEM", "TOPIC_MIN_AGREEMENTS", "TOPIC_MIN_SHARE", "TopicChecks"]
