"""Whose obligation a clause states (issue #44): the party bound by a sentence, and which party is "us".

A playbook position may say whose obligation (or right) it is about -- ``party: us``,
``counterparty`` or ``both`` (:class:`~clauselens.playbook.model.Position`); ``any`` (the default)
does not look at parties. The review then reads, in the quoted clause's sentences on the topic,
which party the sentence binds, and compares it with the position's party:

* **the subjects of the sentence's modal phrases** ("Distributor shall not ...", "Neither party may
  ...", "Each party agrees not to ...", "Neither X nor Y shall ..."), read by :func:`clauselens.reports.support_claims.assertions`
  (the report's party-role check; reused, not copied) and matched to one of the agreement's parties
  through its name or defined aliases (``Document.party_aliases``: a defined term as written, or a
  distinctive word of the name or an alias). "Either",
  "each", "neither", "no" party, and "the parties" bind every party (:data:`ALL`);
* **passive voice**: the agent after "by" ("may not be assigned by Licensee");
* **an exclusive grant**: "X hereby grants Y the exclusive right" / "appoints Y as its sole distributor"
  binds the grantor X (it may not grant the same to others);
* **the consenting party**: "without the prior written consent of Company" / "without Company's consent"
  binds the other party (when the agreement has two); "the consent of the other party" binds each;
* a prohibition with no party at all ("This Agreement may not be assigned") binds every party.

:func:`liable` reads whose liability a limitation of liability limits ("Licensor's total liability to
Licensee ... shall be limited to the amount actually paid", "in no event shall either Party's liability
exceed ..."): a cap on one party's liability does not protect the other (issue #44, a one-sided cap).

:func:`resolve_us` finds "our" party: ``--our-party NAME`` (a party's name, a word of it, or its
defined term, e.g. "Company"), else the playbook's ``our_side`` role words ("Customer", "Buyer")
matched to the parties' defined terms. Unknown stays unknown (None): the review then says which
party to name instead of guessing. Pure functions; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from clauselens.reports.support_claims import ROLES, assertions, party_table

#: "Every party" in a set of bound parties.
ALL = "*"
_GENERIC = re.compile(r"\b(?:neither|each|either|both|no|any)\s+(?:of\s+the\s+)?part(?:y|ies)\b|\bthe\s+parties\b", re.IGNORECASE)
_NAME = r"(?:the\s+)?(?P<who>part(?:y|ies)|other\s+party|[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})"
_BY = re.compile(r"\bby\s+(?P<det>either|any|each|a|the)?\s*" + _NAME)
_CONSENT_OF = re.compile(r"\b(?:consent|approval|authori[sz]ation|agreement)\s+of\s+" + _NAME)
_POSSESSIVE_CONSENT = re.compile(r"(?P<who>\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})['’]s?\s+(?:prior\s+)?(?:express\s+)?"
                                 r"(?:written\s+)?(?:consent|approval)")
_MODAL_WORD = re.compile(r"\b(?:shall|will|may|must|cannot|agrees?|is|are)\b", re.IGNORECASE)
#: A prohibition in the passive that names no party ("This Agreement may not be assigned").
_PASSIVE_BAN = re.compile(r"\b(?:shall|may|will|must|can)\s+not\s+be\s+\w+(?:ed|able)\b|\bcannot\s+be\s+\w+ed\b|"
                          r"\bnon-?assignable\b|\bnot\s+(?:be\s+)?assignable\b", re.IGNORECASE)
#: An exclusive grant or appointment: the grantor is bound ("X hereby appoints Y as its exclusive distributor").
_GRANT = re.compile(r"(?P<who>\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s+(?:hereby\s+)?(?:grants?|appoints?|gives?)\b"
                    r"[^.;]{0,200}?\b(?:exclusive|sole)\b")
_WORDS = re.compile(r"[A-Za-z][\w&'’-]*")
#: "Neither X nor Y" before the modal: both named parties are bound.
_NEITHER_NOR = re.compile(r"\b[Nn]either\s+(?P<a>(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s+nor\s+"
                          r"(?P<b>(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})")
#: Whose liability a sentence limits: "Licensor's total liability", "each of Nortel's and Entrust's liability",
#: "the liability of Seller", "Seller shall not be liable", "in no event shall Seller be liable".
_LIABLE_GENERIC = re.compile(r"\b(?:either|each|a|any|neither|the)\s+part(?:y|ies)['’]s?\s+(?:[\w/-]+\s+){0,3}liabilit", re.IGNORECASE)
_LIABLE_OWNER = re.compile(r"(?P<who>\b[a-z]?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})['’]s?\s+(?:and\s+[A-Z][\w&.-]*['’]s?\s+)?"
                           r"(?:(?:total|aggregate|cumulative|entire|maximum|sole|overall|whole)\s+)*liabilit")
_LIMITS = re.compile(r"\b(?:exceed\w*|limited|limit\w*|capped|not\s+be\s+liable|in\s+no\s+event|in\s+excess)\b", re.IGNORECASE)
_LIABLE_OF = re.compile(r"\bliability\s+of\s+(?P<det>either|any|each|a|the)?\s*" + _NAME)
_LIABLE_SUBJECT = re.compile(r"(?P<who>\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s+(?:shall|will|may)\s+(?:not|in\s+no\s+event)\s+"
                             r"be\s+liable|\b[Ii]n\s+no\s+event\s+(?:shall|will)\s+(?P<who2>[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s+be\s+liable")


@dataclass(frozen=True)
class Sides:
    """The agreement's parties (name -> defined aliases) and which one is "us" (None: not known)."""

    parties: Mapping[str, Sequence[str]] = field(default_factory=dict)
    us: str | None = None

    @property
    def names(self) -> list[str]:
        return [n for n, _ in party_table(self.parties)]

    def them(self) -> set[str]:
        """The counterparty (every party but us); empty when us is not known."""
        return set(self.names) - {self.us} if self.us else set()

    def label(self, name: str) -> str:
        """A party as the report names it: its defined term, else its name."""
        if name == ALL:
            return "each party"
        aliases = dict(party_table(self.parties)).get(name) or ()
        return str(aliases[0]) if aliases else name

    def match(self, words: str) -> str | None:
        """The party ``words`` names ("Company", "the Distributor", "Driven Deliveries"), if exactly one."""
        w = " ".join(words.lower().strip(" .,;:'’").split()).removeprefix("the ")
        if not w or not self.parties:
            return None
        table = party_table(self.parties)
        hits = [n for n, al in table if any(" ".join(a.lower().split()).removeprefix("the ") == w for a in al)]
        if not hits and w.split()[-1] not in ROLES:  # a name, or a word of one ("Driven Deliveries", "the MediWound Group")
            mine = _name_words(w)
            hits = [n for n, al in table if mine and any(mine & _name_words(x) for x in (n, *al))]
        return hits[0] if len(hits) == 1 else None


#: Words of a company name that do not tell one party from another.
_FILLER = frozenset("inc incorporated llc ltd limited corp corporation co company plc lp llp sa ag gmbh bv nv international group "
                    "holdings holding the of and party".split())


def _name_words(name: str) -> set[str]:
    return {t for t in re.findall(r"[a-z][a-z0-9&-]{2,}", name.lower()) if t not in _FILLER and t not in ROLES}


def resolve_us(parties: Mapping[str, Sequence[str]], our_party: str | Sequence[str] = "", our_side: Sequence[str] = ()) -> str | None:
    """Our party's name among ``parties`` (see the module docstring); None when not known. ``our_party``:
    one name or several (a library's agreements: the first that names one of the agreement's parties)."""
    sides = Sides(parties)
    given = [our_party] if isinstance(our_party, str) else list(our_party)
    given = [g for g in given if g.strip()]
    if given:
        hits = [h for h in (sides.match(g) for g in given) if h]
        return hits[0] if hits else None
    roles = {" ".join(r.lower().split()) for r in our_side}
    hits = [n for n, al in party_table(parties) if any(" ".join(a.lower().split()) in roles for a in al)]
    return hits[0] if len(hits) == 1 else None


def _who(sides: Sides, who: str, det: str = "") -> set[str] | None:
    w = " ".join(who.lower().split())
    if w in ("party", "parties", "other party") and det.lower() in ("", "either", "any", "each", "the") or w == "parties":
        return {ALL}
    hit = sides.match(who)
    return {hit} if hit else None


def bound(sentence: str, sides: Sides) -> set[str] | None:
    """The parties ``sentence`` binds (names of ``sides``, or :data:`ALL`); None when it does not say
    (see the module docstring)."""
    sentence = _plain_names(sentence, sides)
    first_modal = _MODAL_WORD.search(sentence)
    head = sentence[: first_modal.start()] if first_modal else sentence
    if _GENERIC.search(head):
        return {ALL}
    m = _NEITHER_NOR.search(head)
    if m:  # "Neither ADAMS GOLF nor CONSULTANT shall ...": both named parties
        pair = {sides.match(m.group("a")), sides.match(m.group("b"))}
        if None not in pair and len(pair) == 2:
            return {p for p in pair if p is not None}
    m = _GRANT.search(sentence)
    if m:  # "NTC hereby grants to ALFA AESAR the exclusive right": the grantor is the one restricted
        hit = sides.match(m.group("who"))
        if hit:
            return {hit}
    subjects: set[str] = set()
    for a in assertions(sentence):  # every party a modal phrase of the sentence binds
        if a.party is None:
            continue
        if a.party.endswith("party"):
            return {ALL}
        hit = sides.match(a.party)
        if hit:
            subjects.add(hit)
        elif a.party in ROLES and not sides.parties:
            subjects.add(a.party)  # no party table: the role word stands for the party
    if subjects:
        return subjects
    words = _WORDS.findall(head)
    for n in range(min(4, len(words)), 0, -1):  # the subject right before the modal ("Supplier shall keep ...")
        hit = sides.match(" ".join(words[-n:])) if words[-n][0].isupper() else None
        if hit:
            return {hit}
    m = _BY.search(sentence)
    if m:
        got = _who(sides, m.group("who"), m.group("det") or "")
        if got:
            return got
    for rx in (_CONSENT_OF, _POSSESSIVE_CONSENT):
        m = rx.search(sentence)
        if m:
            giver = _who(sides, m.group("who"))
            if giver == {ALL}:
                return {ALL}  # "the consent of the other party": each needs the other's consent
            if giver and len(sides.names) == 2:
                return set(sides.names) - giver
    if _PASSIVE_BAN.search(sentence) and not any(a.party for a in assertions(sentence)):
        return {ALL}  # "This Agreement may not be assigned": no party is free to
    return None


def _suffix_party(words: str, sides: Sides) -> str | None:
    """The party the last 1-4 words of ``words`` name ("In no event Licensor" -> the licensor), longest first."""
    ws = words.split()
    for n in range(min(4, len(ws)), 0, -1):
        hit = sides.match(" ".join(ws[-n:]))
        if hit:
            return hit
    return None


def liable(sentence: str, sides: Sides) -> set[str] | None:
    """The parties whose liability ``sentence`` limits (names of ``sides``, or :data:`ALL`); None when
    it names none (see the module docstring)."""
    if not _LIMITS.search(sentence):
        return None  # "Company's liability for taxes": no limit stated
    sentence = _plain_names(_uncapitalised(sentence, sides), sides)
    if _LIABLE_GENERIC.search(sentence):
        return {ALL}
    got: set[str] = set()
    for m in _LIABLE_OWNER.finditer(sentence):
        for part in re.split(r"['’]s?\s+and\s+", m.group(0)):  # "each of Nortel's and Entrust's liability"
            hit = _suffix_party(re.sub(r"['’]s?\s+.*$", "", part, flags=re.DOTALL), sides)
            if hit:
                got.add(hit)
    for m in _LIABLE_OF.finditer(sentence):
        who = _who(sides, m.group("who"), m.group("det") or "")
        got |= who or set()
    for m in _LIABLE_SUBJECT.finditer(sentence):
        hit = _suffix_party(m.group("who") or m.group("who2"), sides)
        if hit:
            got.add(hit)
    if ALL in got:
        return {ALL}
    return got or None


def _uncapitalised(sentence: str, sides: Sides) -> str:
    """An ALL-CAPS sentence (limitation clauses often are: "IN NO EVENT SHALL COMPANY BE LIABLE") in lower case with
    the parties' names and defined terms written as the agreement defines them, so the patterns above read it."""
    letters = [c for c in sentence if c.isalpha()]
    if not letters or sum(c.isupper() for c in letters) < 0.8 * len(letters):
        return sentence
    low = sentence.lower()
    for name in sorted({x for n, al in party_table(sides.parties) for x in (n, *al)}, key=len, reverse=True):
        low = re.sub(rf"\b{re.escape(name.lower())}\b", name, low)
    return low


def _plain_names(sentence: str, sides: Sides) -> str:
    """Party names without the dots and commas that would end a sentence or clause early
    ("Driven Deliveries, Inc. may not" -> "Driven Deliveries Inc may not")."""
    for name in sides.names:
        plain = re.sub(r"[.,]", "", name)
        if plain != name and name in sentence:
            sentence = sentence.replace(name, plain)
    return sentence


def target(party: str, sides: Sides) -> set[str] | None:
    """The parties a position's ``party`` stands for (None: "us" is not known)."""
    if party == "both":
        return set(sides.names) or {ALL}
    if sides.us is None:
        return None
    return {sides.us} if party == "us" else sides.them()


def covers(bound_parties: set[str], who: set[str]) -> bool:
    """Does a sentence binding ``bound_parties`` bind every party of ``who``?"""
    return ALL in bound_parties or who <= bound_parties


def describe(bound_parties: set[str], sides: Sides) -> str:
    """"Distributor" / "each party" / "Company and Distributor"."""
    if ALL in bound_parties:
        return "each party"
    return " and ".join(sorted(sides.label(p) for p in bound_parties))


__all__ = ["ALL", "Sides", "bound", "covers", "describe", "liable", "resolve_us", "target"]
