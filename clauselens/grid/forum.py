"""Which law governs the agreement, and where its disputes go: read from the clauses that say so, whatever words the question uses.

A user's jurisdiction question in everyday words ("If we ever argue over what this says, which place's laws decide it?",
"Where would we have to go to fight it out?") shares few words with the clause that answers it, so its own words also pick
up a party's home state, a director's university or a stock exchange's city, and the cell shows no single value. The
clauses that answer follow two drafting conventions (e.g. the ABA's *Model Asset Purchase Agreement*, §§ 13.4 and 13.5, and
the clauses CUAD annotates as "Governing Law"):

* **governing law**: a verb of governing or construing, then "the laws of" a jurisdiction ("This Agreement shall be governed
  by and construed in accordance with the laws of the State of New York"); the value is the jurisdiction named after "laws
  of" (:func:`governing_law`);
* **forum**: a court, an arbitration or a venue, then where it sits ("the courts of British Columbia", "the Delaware Court of
  Chancery", "The arbitration shall be conducted in Denver, Colorado"); the value is the jurisdiction named with it
  (:func:`forum`).

Which convention a question asks about is read from its words (:func:`asks_forum`, :func:`asks_law`): courts, a venue, suing,
arbitration or "where … go / fight" ask for the forum; laws, with none of those, for the governing law. The rule answers only
when every such clause of the agreement names one jurisdiction; otherwise the cell keeps its reading by the question's words.
Pure functions; no I/O.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from clauselens.grid.extract import Candidate, Reading, one_value, sentences_of
from clauselens.grid.values import ARBITRAL_BODY, DEMONYMS, US_STATES, arbitration_seat, jurisdictions_in
from clauselens.grid.whose import compliance_only, entity_home

#: The topic groups of a reading by these conventions (:attr:`clauselens.grid.extract.Candidate.groups`).
LAW_GROUPS = ("governing law",)
FORUM_GROUPS = ("forum",)

#: A question about the forum: courts, a venue, a lawsuit, an arbitration, or where one would go to fight it out.
_FORUM_ASKED = re.compile(r"\b(?:courts?|venue|forum|sue|suing|sued|lawsuits?|litigat\w*|arbitrat\w*|tribunal|judges?|"
                          r"where\b[^?]{0,40}\b(?:go|fight|file|bring|take|settle|heard|resolved?))\b", re.IGNORECASE)
_ARBITRATION = re.compile(r"\barbitra\w*", re.IGNORECASE)
#: A question about the governing law: its laws.
_LAW_ASKED = re.compile(r"\b(?:laws?|legal\s+system|govern\w*)\b|"
                        # "Which state's or country's rules apply to this contract?" (a keyed dev set: not found for five of six)
                        r"\b(?:state|country|place|nation|jurisdiction)s?(?:['’]s)?\s+(?:or\s+\w+(?:['’]s)?\s+)?rules\b|\brules\s+(?:apply|govern)",
                        re.IGNORECASE)

#: Governing: a verb of governing or construing, then "the laws of" (within one clause of the sentence).
# ("subject to the laws of", not "becomes the subject of any case ... under the bankruptcy ... laws of the United States")
_GOVERNED_BY = re.compile(r"\b(?:govern\w*|constru\w*|interpret\w*|enforc\w*|subject\s+to)\b[^.;]{0,160}?\blaws?\s+"
                          # "the laws and decisions of the State of Michigan", "the laws and regulations of"
                          r"(?:(?:and|or)\s+(?:decisions|regulations|rules|statutes|judicial\s+decisions)\s+)?(?:of|in)\b"
                          # ... or the law that applies: "the law of the Federal Republic of Germany applies" (a new user's tryout)
                          r"|\b(?<!conflicts\sof\s)(?<!conflict\sof\s)(?<!choice\sof\s)laws?\s+of\b(?=[^.;]{0,80}?\b(?:appl(?:y|ies)|is\s+applicable)\b)",
                          re.IGNORECASE)
#: ... or a law named by its people's adjective: "governed by English law".
_GOVERNED_BY_ADJECTIVE = re.compile(r"\b(?:govern\w*|constru\w*|interpret\w*|subject\s+to)\b[^.;]{0,160}?\b(?:" + "|".join(DEMONYMS)
                                    + r")\s+law\b", re.IGNORECASE)
#: A forum: a court, an arbitration, a venue, a submission to a jurisdiction ("submit to the exclusive jurisdiction of"; not
#: the governing-law clause's "the conflict of laws rules of any other jurisdiction").
_FORUM_WORDS = re.compile(r"\b(?:courts?|arbitration|arbitral|tribunal|venue|forum|place\s+of\s+jurisdiction|"
                          r"(?:submit\w*|consent\w*|attorn\w*|subject\w*)\s+"
                          r"(?:itself\s+|themselves\s+|irrevocably\s+|unconditionally\s+)*to\s+the\s+(?:[\w-]+\s+){0,3}jurisdiction)\b",
                          re.IGNORECASE)
#: Before a court: a case already before it (a keyed dev set read a pending action's court as the forum).
_PENDING = re.compile(r"\b(?:pending|now\s+before|currently\s+before)\b[^.;]{0,70}$", re.IGNORECASE)
#: The laws of a place (the governing law's words), masked before a forum's place is read.
_LAWS_OF = re.compile(r"\blaws?\s+of\s+(?:the\s+)?(?:(?:State|Commonwealth|Province|Republic|Kingdom|People's\s+Republic)\s+of\s+)?"
                      r"[A-Z][\w.]*(?:\s+(?:of\s+|and\s+)?[A-Z][\w.]*){0,3}")  # "the law of England and Wales": one place
#: A court named as where an appeal or a petition goes, not where disputes are decided.
_APPEAL_TO = re.compile(r"\b(?:appeal\w*|petition\w*|certiorari)\b[^.;]{0,60}$", re.IGNORECASE)
#: Characters around a forum word within which its place is named ("the Delaware Court of Chancery"; "the courts located in
#: the Borough of Manhattan in The City of New York").
_FORUM_BEFORE, _FORUM_AFTER = 30, 120
#: Characters after "laws of" within which the governing jurisdiction is named ("the laws of the State of New York").
_LAW_AFTER = 60
_STATES = frozenset(US_STATES)
def asks_forum(question: str) -> bool:
    """Does the question ask where disputes go (courts, a venue, an arbitration; "where would we have to go to fight it
    out?")?"""
    return bool(_FORUM_ASKED.search(question))


def asks_law(question: str) -> bool:
    """Does the question ask which law governs ("which place's laws decide it?"), and not where disputes go?"""
    return bool(_LAW_ASKED.search(question)) and not asks_forum(question)


#: "jurisdiction" asked with no word of law or of courts ("What is the jurisdiction of the contract?"): either may be meant.
_JURISDICTION_ASKED = re.compile(r"\bjurisdictions?\b", re.IGNORECASE)


def asks_law_or_forum(question: str) -> bool:
    """Does the question ask for "the jurisdiction" with no word that says whether its laws or its courts are meant? In
    everyday use that is the governing law, in a lawyer's the courts' power; :func:`law_or_forum` reads both."""
    return bool(_JURISDICTION_ASKED.search(question)) and not asks_forum(question) and not asks_law(question)


def law_or_forum(texts: Sequence[str]) -> Reading:
    """For :func:`asks_law_or_forum`: the governing law when the forum clause names the same place or no place, the forum
    when no clause names a governing law; when the two name different places, no value and both as ``choices`` (a
    reviewer picks what the question meant)."""
    law, court = governing_law(texts), forum(texts, "which courts")
    if law.candidate is None or court.candidate is None or court.value == law.value:
        return law if law.candidate is not None else court
    if law.value and court.value:
        return Reading(choices=[c for c in (law.candidate, court.candidate) if c is not None],
                       reason=f"the question may mean the governing law ({law.value}) or the courts ({court.value})")
    return Reading(choices=[*law.choices, *court.choices], reason="the governing-law and forum clauses name several places")


def _places(text: str, start: int, end: int) -> set[str]:
    """The jurisdictions named in ``text[start:end]``, a party's home ("a Delaware corporation") left out; a US state
    stands for the United States."""
    # "the law of England and Wales": one jurisdiction, England's (the same length, so the offsets hold)
    text = re.sub(r"\bEngland\s+and\s+Wales\b", lambda m: "England" + " " * (len(m.group(0)) - 7), text, flags=re.IGNORECASE)
    window = text[max(0, start):end]
    found = {j for j in jurisdictions_in(window)
             if any(not entity_home(text, m.start() + max(0, start), m.end() + max(0, start))
                    for m in re.finditer(re.escape(j), window, re.IGNORECASE))}
    if found & _STATES:
        found.discard("United States")
    return found


def governing_law(texts: Sequence[str]) -> Reading:
    """The jurisdiction whose laws govern the agreement, from every sentence of ``texts`` that says so (module docstring):
    the value and the first such sentence when they name one jurisdiction; else the different ones as ``choices``."""
    return _read(texts, _law_places, LAW_GROUPS, "the governing-law clauses")


def forum(texts: Sequence[str], question: str = "") -> Reading:
    """Where the agreement's disputes go, from every sentence of ``texts`` naming a court, an arbitration or a venue with
    its place (module docstring): the value and the first such sentence when they name one jurisdiction; else ``choices``.
    A ``question`` about arbitration alone ("Where is arbitration held?") is answered only by a sentence on arbitration (a
    tryout answered it with a court's venue)."""
    if asks_arbitration(question):
        return _read(texts, lambda t: _forum_places(t) if _ARBITRATION.search(t) else set(), FORUM_GROUPS, "the arbitration clauses")
    return _read(texts, _forum_places, FORUM_GROUPS, "the clauses on courts and arbitration")


def names_forum(text: str) -> bool:
    """Does ``text`` name a court, an arbitration, a tribunal, a venue or a submission to a jurisdiction (:data:`_FORUM_WORDS`)?"""
    return bool(_FORUM_WORDS.search(text))


def asks_arbitration(question: str) -> bool:
    """Does the question ask about arbitration and no court ("Where is arbitration held?")?"""
    return bool(_ARBITRATION.search(question)) and not re.search(r"\b(?:courts?|sue|suing|lawsuits?|litigat\w*|judges?)\b", question, re.I)


def _law_places(text: str) -> set[str]:
    if compliance_only(text):
        return set()  # the laws a party complies with, not the agreement's
    out: set[str] = set()
    for m in _GOVERNED_BY.finditer(text):
        out |= _places(text, m.end(), m.end() + _LAW_AFTER)
        # "... governed by the laws of the United States and, to the extent not inconsistent therewith, by the laws of the
        # Commonwealth of Kentucky": a second "by the laws of" in the same clause
        for again in re.finditer(r"\bby\s+(?:the\s+)?laws?\s+of\b", text[m.end():]):
            out |= _places(text, m.end() + again.end(), m.end() + again.end() + _LAW_AFTER)
    for m in _GOVERNED_BY_ADJECTIVE.finditer(text):  # "governed by and construed in accordance with English law"
        out |= jurisdictions_in(m.group(0)[-40:])
    if out & _STATES:
        out.discard("United States")  # federal law and a state's: the state names the law
    return out


def _forum_places(text: str) -> set[str]:
    seat = arbitration_seat(text)
    if seat is not None:  # the body's country is its name, the seat is where it sits
        return {seat} | _forum_places(ARBITRAL_BODY.sub(lambda m: " " * len(m.group(0)), text))
    out: set[str] = set()
    text = _LAWS_OF.sub(lambda x: " " * len(x.group(0)), text)  # "Choice of Law and Forum - ... governed ... by the laws of the State
    # of Illinois" (a keyed dev set): the law's place is no forum
    for m in _FORUM_WORDS.finditer(text):
        if re.search(r"\d+\s+(?:[A-Z][\w'’-]*\s+){1,3}$", text[max(0, m.start() - 40):m.start()]) and m.group(0)[0] == "C":
            continue  # "60 Leveroni Court, Suite 200, Novato, California": a street, no court (a keyed dev set)
        if _PENDING.search(text[max(0, m.start() - 80):m.start()]) or _APPEAL_TO.search(text[max(0, m.start() - 80):m.start()]):
            continue  # "the action pending as T- 409-16 in the Federal Court of Canada": a case already before a court, no forum clause;
            # "no appeal (other than a petition to the United States Supreme Court for a writ of certiorari ...)" (a keyed dev set)
        out |= _places(text, m.start() - _FORUM_BEFORE, m.end() + _FORUM_AFTER)
    return out


def _read(texts: Sequence[str], places: Callable[[str], set[str]], groups: tuple[str, ...], what: str) -> Reading:
    found: dict[str, Candidate] = {}
    for i, s, _e, text in sentences_of(texts):
        flat = " ".join(text.split())
        for j in sorted(places(flat)):
            found.setdefault(j, Candidate(j, j, i, s, s + len(text), 1, 0, groups))
    return one_value(found, what, "jurisdiction", "name")


__all__ = ["FORUM_GROUPS", "LAW_GROUPS", "asks_arbitration", "asks_forum", "asks_law", "asks_law_or_forum", "forum", "governing_law",
           "law_or_forum", "names_forum"]
