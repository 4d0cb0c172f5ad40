"""Which candidate agreement a question names by a party, when the library could not tell (issue #38).

The library's resolver (:mod:`clauselens.library.resolver`) weighs a question's words against whole agreement
profiles with BM25 (Robertson & Zaragoza 2009) and calls a question *uncertain* when the best profile scores under
its bar; the report then shows no quote as a fact of the agreement asked about
(:data:`clauselens.reports.build.UNCONFIRMED_RESOLUTIONS`). A question can stay under that bar although it names a
party ("how long does a buyer get to settle a Leclanché invoice?": the other words match other profiles). When a
party name or defined short name of a candidate is in the question, the quotes of that candidate are facts of an
agreement the question names -- the evidence an "ambiguous" resolution (2-3 agreements named equally) keeps facts
on: the candidates with a name no other one has, else the 2-3 sharing the name found. A role ("the Company") names
none.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Mapping, Sequence

#: Shortest party key (normalised name or short name) :func:`named_candidates` matches ("sa" is no name).
NAME_MIN_CHARS = 3


#: A dotted initial of a corporate form ("S.A.", "L.L.C."): its dots go, so the suffix reads "SA" and is dropped.
_INITIALS = re.compile(r"\b([A-Za-z])\.\s?(?=[A-Za-z]\b)")


def _party_keys(d: Mapping[str, Any]) -> dict[str, str]:
    """``{normalised name: as written}`` a question may name agreement ``d`` by: each party's name without corporate
    suffixes (``library.amendment_refs.norm_party``; "LECLANCHÉ S.A." -> "leclanche") and each defined short name
    that is no role or generic term (``distinctive_short``: "Leclanché", not "Company"), accents folded."""
    from clauselens.library.amendment_refs import distinctive_short, norm_party, norm_text

    aliases = [a for v in (d.get("party_aliases") or {}).values() for a in v]
    names = [(norm_party(_INITIALS.sub(r"\1", _fold(p))), p) for p in d.get("parties") or []] + \
        [(norm_text(_fold(a)), a) for a in aliases]
    return {k: w for k, w in names if len(k) >= NAME_MIN_CHARS and distinctive_short([k])}  # a short name wins


def _fold(text: str) -> str:
    """``text`` with accents folded to ASCII and possessive "'s" dropped ("Leclanché's" -> "Leclanche")."""
    return re.sub(r"['’]s\b", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())


def named_candidates(question: str, docs: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """``{doc_id: name as written in the agreement}`` of the candidate agreements of an "uncertain" resolution that ``question`` names by one of
    their parties -- a party name or defined short name (:func:`_party_keys`) found as whole words in the question,
    written as a name (:func:`_named`): those with a name no other candidate has (blind3 lec-para-2, dom-para-4),
    else those sharing the names found (dev mw-para-2: "MediWound", a party of two supply agreements) -- at most
    :data:`~clauselens.library.resolver.MAX_AMBIGUOUS`, the agreements an "ambiguous" resolution keeps facts of;
    empty when the question names none of them, or more."""
    from clauselens.library.resolver import MAX_AMBIGUOUS

    words = re.findall(r"[A-Za-z0-9]+", _fold(question).replace("&", " and ").replace("'", "").replace("’", ""))
    lower = [w.lower() for w in words]
    keys = {str(d.get("doc_id")): _party_keys(d) for d in docs}
    hits = {did: sorted(k for k in ks if _named(k.split(), words, lower)) for did, ks in keys.items()}
    own = {did: [k for k in h if not any(k in v for o, v in keys.items() if o != did)] for did, h in hits.items()}
    named = {did: keys[did][h[0]] for did, h in own.items() if h} or {did: keys[did][h[0]] for did, h in hits.items() if h}
    return named if len(named) <= MAX_AMBIGUOUS else {}


def _named(key: list[str], words: Sequence[str], lower: Sequence[str]) -> bool:
    """Whether the words ``key`` occur in the question as a name: in a row, the first one written with a capital
    or a digit ("the Grinberg family trust" does not name a party whose short name is "Trust")."""
    n = len(key)
    return any(list(lower[i:i + n]) == key and (words[i][:1].isupper() or words[i][:1].isdigit())
               for i in range(len(lower) - n + 1))


__all__ = ["NAME_MIN_CHARS", "named_candidates"]
