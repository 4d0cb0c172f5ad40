"""Whose value a sentence states: this agreement's, or another agreement's (issue #45).

The typed rule (:mod:`clauselens.grid.extract`) reads a date or a period from a sentence on the
question's topic. Two kinds of sentence use the topic's words for something else, and the value they
state is no answer:

* **another agreement**: "a Master Transaction Agreement dated December 11, 2018", "(as amended by an
  amendment agreement dated 31 December 2013)", "if the term of the Web Site Services Agreement has
  not been renewed for an additional term of one (1) year": the nearest agreement named before the
  value (within :data:`OTHER_REACH` characters) is a named or indefinite one ("the <Name>
  Agreement", "a/an ... agreement"), not "this Agreement" / "the Agreement" (:func:`other_agreements`);
* **not the agreement's term**: a question about how long the agreement runs, when it ends or renews
  (:func:`asks_about_term`) takes a value only from a sentence that speaks of the agreement or its
  term -- "this Agreement", "the Agreement", a defined "Term" / "Initial Term", "term of", "hereof"
  within :data:`TERM_REACH` characters of the value, or as the sentence's subject (:func:`about_own_term`). "Diversinet will support
  the Reseller certification ... until December 31, 2010" and "extended warranty coverage for an
  additional twenty-four (24) months" state periods of something else.
* **a name that is no party**: deed boilerplate ("KNOW ALL MEN BY THESE PRESENTS") or the tail of a
  description ("a New Jersey Corporation") read as a name by the preamble rule (:func:`not_a_party`);
* **a period after the agreement ends**: "during the term of this Agreement, and for a period of three (3) years
  thereafter" is a survival or tail period, not how long the agreement lasts (:func:`after_the_end`; a renewal
  question keeps "renews for successive one-year periods thereafter");
* **renewal only by a new agreement**: "may be extended by a further period of five (5) years by mutual
  written agreement" is no renewal term (a renewal that needs both parties' fresh agreement is a new
  bargain; CUAD's Renewal Term covers automatic and unilateral extensions, CUAD v1 README);
  :func:`mutual_only`;
* **a place that names no law**: where a party is organised ("a Texas corporation"), an accounting standard or a
  currency ("United States generally accepted accounting principles", "United States dollars"): :func:`entity_home`,
  :data:`ACCOUNTING`;
* **the day a termination takes effect**: "may terminate this Agreement, effective as of December 31, 2023" dates the
  termination, not the agreement's start (:func:`ending_effect`);
* **another event's day**: a reporting period's end ("the quarter ended September 30, 2019"), the first day of a span asked for
  its end ("from September 1, 2004 through [*****]"), a schedule's rows (a sentence of :data:`SCHEDULE_DATES` dates or more):
  :func:`reporting_end`, :func:`span_start`, :func:`asks_end_day`; and a party's parent named in the preamble ("a wholly owned
  subsidiary of ... Intelligent Highway Solutions, Inc.") is no party (:func:`not_a_party`);
* **an insurance policy's terms**: "maintain ... insurance coverage ... $10,000,000", "the policy shall not be canceled
  without thirty (30) days advance written notice" state the policy's limit and its cancellation notice, not a cap
  on what a party owes or the notice to end the agreement (:func:`insurance_terms`; a question about insurance keeps them).

Salience by proximity, as the rule's value-to-topic distance (Tao & Zhai 2007): the subject named
nearest the value is the one it belongs to. Regular expressions only; pure functions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

#: An agreement named before a value further than this (characters) does not own it.
OTHER_REACH = 90
#: The agreement or its term must be named this near (characters, either side) a term value ...
TERM_REACH = 150
#: ... or be the sentence's subject: named in its first characters.
SUBJECT_REACH = 60

#: This agreement: "this Agreement", "this Consulting Agreement", "the Agreement", "hereof", "hereunder".
_OWN = re.compile(r"\b(?:[Tt]his|THIS)\s+(?:[A-Z][\w#&/.-]*\s+){0,5}(?:Agreement|AGREEMENT|agreement|Contract|CONTRACT|contract|"
                  r"Amendment|AMENDMENT|amendment)\b|\b(?:[Tt]he|THE|[Ss]uch|[Ss]aid)\s+(?:Agreement|AGREEMENT|agreement|Contract|CONTRACT|contract)\b|"
                  r"\(this\s+[\"“]|\bhere(?:of|under|in|by)\b")
#: The sentence's own making: "(this Amendment) is made effective as of ...", "entered into on ...".
_MADE = re.compile(r"\b(?:is|are|was|were|be)\s+(?:hereby\s+)?(?:made|entered|executed|dated|effective)\b|\bentered\s+into\b",
                   re.IGNORECASE)
#: Another agreement: "the Web Site Services Agreement", "a Master Transaction Agreement", "an amendment agreement", "the
#: Existing Agreement", "that certain ... Agreement".
_OTHER = re.compile(r"\b(?:the|a|an|that\s+certain|any|each|such)\s+[A-Z][\w&,./-]*\s+(?:(?:[A-Z][\w&,./-]*|and|of|for|&)\s+){0,6}"
                    r"(?:Agreement|AGREEMENT|Contract)\b|"
                    r"\b(?:a|an|that|any|another|other|separate|prior)\s+(?:[a-z][\w-]*\s+){0,3}(?:agreement|contract)\b|"
                    # "the annexed letter from NCC Escrow International, the escrow agent, of 12 March 1998" (a keyed dev set)
                    r"\b(?:letter|memorandum)\b[^.;]{0,80}(?<!\bas\s)\bof\s+$")
#: The agreement's term as a subject: a defined Term, "term of", "Initial Term", "Renewal Term".
_TERM = re.compile(r"\b(?:Initial|Original|Renewal|Extended|Extension|Primary|Current|then[- ]current)?\s*Term\b|\bTERM\b|"
                   r"\bterm\s+of\b|\b(?:initial|renewal|original)\s+term\b")
#: Words of a term question's topic (group names of :func:`clauselens.grid.extract.topic_groups`).
_TERM_GROUPS = frozenset({"expir", "renew", "end", "last", "durat", "continu", "extend", "extens"})
#: Words any obligation's length is asked with ("how long does it last", "continue", "duration").
_LASTING = frozenset({"last", "durat", "continu"})
#: A renewal only by both parties' fresh agreement.
_MUTUAL = re.compile(r"\b(?:by|upon|with|through|on)\s+(?:the\s+)?(?:mutual|unanimous)\s+(?:written\s+)?(?:agreement|consent|accord)\b|"
                     r"\bmutually\s+agree|\bif\s+(?:both|the)\s+parties\s+(?:so\s+)?(?:mutually\s+)?agree|"
                     r"\bas\s+(?:may\s+be\s+)?(?:mutually\s+)?agreed\s+(?:upon\s+)?(?:in\s+writing\s+)?by\s+the\s+parties|"
                     r"\bby\s+(?:(?:an|the)\s+)?(?:written\s+)?(?:agreement|consent)\s+(?:in\s+writing\s+)?(?:executed\s+|signed\s+)?(?:by|of)\s+"
                     r"(?:both|all|each\s+of\s+the|the)\s+(?:parties|Parties)\b|"
                     # "can only be terminated after negotiation and agreement by Party A and B in writing" (a keyed dev set)
                     r"\b(?:negotiation|consultation)s?\s+and\s+(?:mutual\s+)?agreement\b|"
                     r"\bagreement\s+(?:by|of|between)\s+(?:both\s+parties|all\s+(?:the\s+)?parties|Party\s+A\s+and\s+(?:Party\s+)?B)\b",
                     re.IGNORECASE)


def other_agreements(text: str, at: int) -> bool:
    """Does the value at ``text[at]`` belong to another agreement (the nearest agreement named before it,
    within :data:`OTHER_REACH` characters, is not this one)?"""
    lo = max(0, at - OTHER_REACH)
    window = text[lo:at]
    mentions = [(m.end(), "own") for m in _OWN.finditer(window)] + [(m.end(), "other") for m in _OTHER.finditer(window)]
    if not mentions:
        return False
    mentions.sort()
    last_end = mentions[-1][0]
    kinds = {k for e, k in mentions if e == last_end}
    return kinds == {"other"} and not _MADE.search(window[last_end:])


@lru_cache(maxsize=1)
def _term_concept_stems() -> frozenset[str]:
    """The stems of the thesaurus's concepts about the agreement's term ("renewal term", "notice period to terminate
    renewal", "expiration date and term length"): a question's word that names one of them asks about the term."""
    from clauselens.grid.topic import topic_stems
    from clauselens.retrieval.lay_terms import concepts

    return frozenset(s for c in concepts() if "renew" in c.name or "expir" in c.name for s in topic_stems(c.name))


def asks_about_term(group_names: Iterable[str], category: str = "", topics: Iterable[str] = ()) -> bool:
    """Is a date / duration question about the agreement's own term (when it ends, how long it runs or
    renews, the notice to stop it renewing)? ``topics``: the question's own words that name a thesaurus concept
    (:func:`clauselens.grid.groups.named_topics`); one that is not the term's ("how long does the *warranty* last?")
    makes the question another clause's."""
    if category:
        return category in ("Expiration Date", "Renewal Term", "Notice Period To Terminate Renewal")
    names = set(group_names)
    if names & _TERM_GROUPS and names & _TERM_GROUPS <= _LASTING and any(t not in _TERM_GROUPS and t not in _term_concept_stems() for t in topics):
        return False  # "how long does the warranty last?": the warranty's length (an agreement's renewal or expiry is the term's)
    concepts = [n for n in names if n.startswith(("concept:", "named:"))]
    if any(not ("renewal" in n or "expir" in n) for n in concepts):
        return False  # "how long to cure a breach before the other can end the agreement": the question is the cure period's
    if names & (_TERM_GROUPS - {"end"}) or concepts:
        return True
    return names == {"end"}  # "when does the agreement end?"; "... before the other can end the agreement" asks about something else


def about_own_term(text: str, at: int) -> bool:
    """Does ``text`` name this agreement or its term within :data:`TERM_REACH` characters of ``at``
    (not only another agreement)?"""
    def gap(span: tuple[int, int]) -> int:
        return at - span[1] if span[1] <= at else max(0, span[0] - at)

    others = [(m.start(), m.end()) for m in _OTHER.finditer(text)]
    # "the term of the Web Site Services Agreement": that term is the other agreement's
    own = [gap((m.start(), m.end())) for rx in (_OWN, _TERM) for m in rx.finditer(text)
           if not any(0 <= a - m.end() <= 5 for a, _ in others)]
    nearest_own = min(own, default=TERM_REACH + 1)
    if _OWN.search(text[:SUBJECT_REACH]) and not _OTHER.search(text[:SUBJECT_REACH]):
        return True  # "This Agreement shall be automatically renewed ..., unless terminated ... upon ninety (90) days": its subject
    if nearest_own > TERM_REACH:
        return False
    return not others or nearest_own <= min(gap(x) for x in others)


#: What follows a period that runs after the agreement ends: "three (3) years thereafter", "six (6) months following expiration".
_AFTER_END = re.compile(r"^\s*,?\s*(?:period\s+)?(?:immediately\s+)?(?:after|following)\s+"
                        r"(?:the\s+|such\s+|any\s+|its\s+)?(?:expiration|expiry|termination|end)\b",
                        re.IGNORECASE)
#: "during the term of this Agreement and for ... thereafter", "while this Agreement is in force and for ... thereafter":
#: "thereafter" is after the term ("shall commence on the Effective Date and shall continue for ten (10) years thereafter" is
#: the term itself).
_DURING_THEN = re.compile(r"(?:\b(?:[Dd]uring|DURING|[Tt]hroughout|THROUGHOUT)\s+(?:the\s+)?(?:[A-Z]\w+\s+)?(?:[Tt]erm|TERM)\b"
                          r"|\b(?:while|whilst|(?:for\s+)?so\s+long\s+as|as\s+long\s+as)\s+this\s+Agreement\s+(?:is|remains|shall\s+remain)\s+in\s+"
                          r"(?:full\s+)?(?:force|effect))"
                          r"[^.;]{0,120}\band\b[^.;]*$")


def after_the_end(text: str, at: int) -> bool:
    """Is the period at ``text[at]`` one that runs after the agreement ends (a survival or tail period: "during the term of this
    Agreement, and for a period of three (3) years thereafter"), not how long the agreement lasts?"""
    from clauselens.grid.values import durations_at

    ends = [e for _, s, e in durations_at(text) if s == at]
    if not ends:
        return False
    after = text[ends[0]:ends[0] + 60]
    return bool(_AFTER_END.match(after) or re.match(r"\s*,?\s*thereafter\b", after) and _DURING_THEN.search(text[max(0, at - 200):at]))


def mutual_only(text: str) -> bool:
    """Does the sentence make the renewal or extension depend on both parties' fresh agreement?"""
    return bool(_MUTUAL.search(text))


#: Deed boilerplate read as a name ("KNOW ALL MEN BY THESE PRESENTS", "WITNESSETH").
_BOILERPLATE = re.compile(r"^(?:KNOW\s+ALL|WITNESSETH|NOW,?\s+THEREFORE|IN\s+WITNESS|RECITALS?|BACKGROUND)\b", re.IGNORECASE)
_ENTITY_KIND = re.compile(r"\b(?:corporation|company|partnership|limited\s+liability\s+company|trust)$", re.IGNORECASE)


#: A company named only as a party's owner or relation ("a wholly owned subsidiary of publicly traded company X"): no party itself.
_OWNER_OF = re.compile(r"\b(?:subsidiary|affiliate|division|parent|unit)\s+of\s+(?:the\s+)?(?:[a-z-]+\s+){0,3}")


def not_a_party(name: str, head: str) -> bool:
    """A name the preamble rule read that names no party: deed boilerplate, or the tail of a description
    ("a New Jersey Corporation" read as "Jersey Corporation")."""
    if _BOILERPLATE.match(name.strip()):
        return True
    if name.strip() and re.search(_OWNER_OF.pattern + re.escape(name.strip()), head, re.IGNORECASE) and not re.search(
            r"\b(?:between|among|by)\b[^.]{0,300}" + re.escape(name.strip()), head):
        return True  # "Fazync is a wholly owned subsidiary of publicly traded company Intelligent Highway Solutions, Inc." (a party's parent)
    m = re.search(r"\b(?:a|an)\s+(?:[A-Z][a-z]+\s+)?" + re.escape(name), head)
    return bool(m and _ENTITY_KIND.search(name))


def split_joined(names: list[str]) -> list[str]:
    """``names`` with a name that runs two parties together cut at its "AND" when the second is read on its own too
    ("LG&E AND TENNESSEE GAS PIPELINE COMPANY" beside "TENNESSEE GAS PIPELINE COMPANY": a title line's "AGREEMENT BETWEEN
    LG&E AND TENNESSEE ..." read as one party by a tryout)."""
    out = []
    for n in names:
        m = re.match(r"(.+?)\s+(?:AND|and|&)\s+(.+)$", n)
        out.append(m.group(1).strip(" ,") if m and any(o != n and o.strip().lower() == m.group(2).strip().lower() for o in names) else n)
    return list(dict.fromkeys(out))


#: Where a party is organised, not which law governs the agreement: "organized and existing under the laws of the State of
#: Delaware", "incorporated in Ontario", "a Texas corporation".
#: ("duly incorporated and is validly existing as a corporation in good standing under the laws of the State of": up to 100
#: characters, with no "governed" / "construed" between).
ORGANISED_BEFORE = re.compile(r"\b(?:organi[sz]ed|incorporated|existing|formed|registered|domiciled)\b(?:(?!govern|constru)[^.;]){0,100}$",
                              re.IGNORECASE)
ENTITY_AFTER = re.compile(r"^\W*(?:general\s+|limited\s+)?(?:corporation|company|limited|partnership|l\.?l\.?c|inc|ltd|pty|gmbh|"
                          r"business\s+corporation|not-for-profit)\b", re.IGNORECASE)


#: A place that names a standard, a currency, a code or a street, not a law: "in accordance with United States generally accepted
#: accounting principles", "payable in United States dollars", "U.S. GAAP", "the U.S. Bankruptcy Code", "110 N Minnesota Street".
NOT_LAW_AFTER = re.compile(r"^\W*(?:generally\s+accepted|gaap\b|accounting\b|financial\s+reporting|dollars?\b|currency\b|funds\b|"
                           r"bankruptcy\b|trustee\b|street\b|avenue\b|road\b|boulevard\b|drive\b|"
                           # a mailing address: "310 Utah Ave., Suite 150", "Atlanta, Georgia 30326" (the paraphrase generator's
                           # "Where is the contract being executed?" was answered from notice addresses)
                           r"(?:ave|blvd|pkwy|hwy)\b|\d{5}(?:-\d{4})?\b)",
                           re.IGNORECASE)


#: A sentence about accounting standards: what it says "governs" is the bookkeeping, not the agreement.
ACCOUNTING = re.compile(r"\baccounting\s+(?:principles|standards)\b|\bGAAP\b|\bIFRS\b", re.IGNORECASE)


#: A sentence about complying with laws, licences or permits (no "governed" / "construed"): the laws it names are the ones a
#: party obeys, not the law of the agreement ("all such licenses, permits and governmental authorizations are in full force").
_COMPLIANCE = re.compile(r"\bcompl(?:y|ies|ied|iance|ying)\b|\bpermits\b|\blicen[cs]es\b|\bauthori[sz]ations\b", re.IGNORECASE)
_GOVERNS = re.compile(r"\bgovern(?!ment)|\bconstru|\binterpret", re.IGNORECASE)


def compliance_only(text: str) -> bool:
    """Does the sentence speak of complying with laws or holding licences, and not of what governs the agreement?"""
    return bool(_COMPLIANCE.search(text)) and not _GOVERNS.search(text)


def entity_home(text: str, start: int, end: int) -> bool:
    """Is the jurisdiction at ``text[start:end]`` where a party is organised (see :data:`ORGANISED_BEFORE`), or the name of an
    accounting standard or currency (:data:`NOT_LAW_AFTER`; a sentence on accounting standards, :data:`ACCOUNTING`, that
    names no law), rather than a governing law?"""
    if ACCOUNTING.search(text) and not re.search(r"\blaws?\b", text, re.IGNORECASE):
        return True  # "governed by and determined in accordance with United States generally accepted accounting principles"
    return bool(ORGANISED_BEFORE.search(text[max(0, start - 100):start]) or ENTITY_AFTER.match(text[end:end + 40])
                or NOT_LAW_AFTER.match(text[end:end + 40]))


#: A termination's own effect: "may terminate this Agreement, effective as of December 31, 2023", "terminated by Janssen
#: with effect on December 31, 2019" -- the day a termination takes effect, not the day the agreement does.
_ENDING_BEFORE = re.compile(r"\b(?:terminat\w*|expir\w*|cancel\w*|withdraw\w*|rescind\w*)\b[^.;:]{0,60}$", re.IGNORECASE)


def ending_effect(text: str, term_at: int) -> bool:
    """Is the topic word at ``term_at`` ("effective", "with effect") the effect of a termination named just before it
    (see :data:`_ENDING_BEFORE`)?"""
    return bool(_ENDING_BEFORE.search(text[max(0, term_at - 80):term_at]))


#: The words just before an end date: "shall expire on December 31, 2028", "and end on", "continuing until", "through".
_ENDS_ON = re.compile(r"\b(?:expir\w*|terminat\w*|end(?:s|ed|ing)?|until|till|through|thru)\s+(?:on\s+|at\s+|as\s+of\s+)?(?:the\s+)?$",
                      re.IGNORECASE)


def ends_on(text: str, at: int) -> bool:
    """Is the date at ``at`` the day something ends ("commence effective as of the date hereof and shall expire on
    December 31, 2028": not the start)?"""
    return bool(_ENDS_ON.search(text[max(0, at - 40):at]))


#: A reporting period's end: "the quarter ended September 30, 2019", "for the fiscal year ending June 30" -- a date of the accounts,
#: never the agreement's own (the paraphrase generator's "When does the contract end?" was answered from a warranty on "PB's
#: consolidated balance sheet for the quarter ended September 30, 2019").
_REPORTING_END = re.compile(r"\b(?:(?:fiscal|financial)\s+(?:year|quarter|half|period)s?\s+(?:then\s+)?end(?:ed|ing)|"
                            r"(?:quarter|month|year|half[- ]year|period)s?\s+(?:then\s+)?ended|quarters?\s+ending)\s+(?:on\s+)?$", re.IGNORECASE)
#: The first day of a span: "from September 1, 2004 through [*****]", "commencing on July 19, 1999" -- a start, not an end.
_SPAN_START = re.compile(r"\b(?:from|commencing|beginning|starting)\s+(?:on\s+|as\s+of\s+)?(?:the\s+)?$", re.IGNORECASE)
#: A question about the day something ends ("When does the contract's first period end?") and not about its start or signing.
_END_DAY_ASKED = re.compile(r"\b(?:end|ends|ending|ended|expir\w*|finish\w*|terminat\w*|cancel\w*|conclu\w*|over)\b", re.IGNORECASE)
_START_DAY_ASKED = re.compile(r"\b(?:start\w*|begin\w*|began|begun|commenc\w*|effective|sign\w*|made|dated|entered|executed)\b", re.IGNORECASE)
#: A sentence with this many dates or more is a schedule or a table ("START END PRODUCTION SCHEDULE Style Out 11/27/2007 ..."),
#: whose dates are its rows' events, not the agreement's start or end.
SCHEDULE_DATES = 4


def reporting_end(text: str, at: int) -> bool:
    """Is the date at ``at`` the end of a reporting period (:data:`_REPORTING_END`)?"""
    return bool(_REPORTING_END.search(text[max(0, at - 50):at]))


def span_start(text: str, at: int) -> bool:
    """Is the date at ``at`` the first day of a span (:data:`_SPAN_START`)?"""
    return bool(_SPAN_START.search(text[max(0, at - 30):at]))


def asks_end_day(question: str) -> bool:
    """Does a date question ask when something ends, and not when it starts or was signed?"""
    return bool(_END_DAY_ASKED.search(question)) and not _START_DAY_ASKED.search(question)


#: Insurance wording: "insurance", "insured", "insurer(s)", "insure", "policy or policies evidenced thereby", "liability coverage".
_INSURANCE = re.compile(r"\binsur(?:ance|ed|ers?|e|ing)\b|\bpolic(?:y|ies)\s+(?:or\s+policies\s+)?(?:evidenced|of\s+insurance)|"
                        r"\b(?:insurance|liability)\s+coverage\b|\bamount\s+of\s+coverage\b|\bcombined\s+single\s+limit\b|"
                        r"\bpolic(?:y|ies)\b[^.;]{0,100}\bcoverage\b", re.IGNORECASE)


#: A question that asks for a ceiling: "the most a party can be made to pay", "the top dollar figure", "the cap".
_CEILING_ASKED = re.compile(r"\b(?:most|top|max(?:imum)?|cap(?:ped|s)?|ceiling|highest|largest|biggest|upper\s+limit|at\s+the\s+outside|"
                            # "nobody can be made to pay more than the deal is worth ... - is there really a limit like that" (a keyed dev set)
                            r"limits?|(?:pay|owe|paying|owing)\s+(?:\w+\s+)?more\s+than)\b",
                            re.IGNORECASE)
#: A sentence that states one: "shall not exceed", "in no event ... more than", "up to", "maximum", "limited to".
_CEILING_STATED = re.compile(r"\b(?:exceed(?:s|ing)?|in\s+excess\s+of|maximum|cap(?:ped)?|ceiling|limit(?:s|ed)?|limitation|"
                             r"(?:no|not)\s+(?:more|greater)\s+than|up\s+to|at\s+most|in\s+no\s+event)\b", re.IGNORECASE)
#: ... a ceiling on what one side owes the other when something goes wrong ("if something goes badly wrong and somebody gets
#: blamed, is there a top amount they'd ever have to pay", a keyed dev set read a bonus's "up to" and an expense "in excess of"):
#: said of liability, damages or claims.
_LIABILITY_ASKED = re.compile(r"\b(?:blam\w*|liab\w*|damages?|fault\w*|owe|owed|owes|sue|sued|suing|claims?|losses|goes?\s+(?:\w+\s+)?wrong|"
                              r"went\s+(?:\w+\s+)?wrong|on\s+the\s+hook|responsib\w*|compensat\w*)\b", re.IGNORECASE)
_LIABILITY_STATED = re.compile(r"\b(?:liab\w*|damages|claims?|indemn\w*|losses)\b", re.IGNORECASE)  # not "injury, loss, or damage"


def ceiling_asked(question: str) -> str:
    """``"liability"`` for a question about the most one side can owe the other, ``"any"`` for another ceiling ("the top
    dollar figure"), else ``""``."""
    if not _CEILING_ASKED.search(question):
        return ""
    return "liability" if _LIABILITY_ASKED.search(question) else "any"


def states_ceiling(text: str, asked: str) -> bool:
    """Does the sentence state the ceiling ``asked`` (:func:`ceiling_asked`) is about?"""
    return bool(_CEILING_STATED.search(text)) and (asked != "liability" or bool(_LIABILITY_STATED.search(text)))


def insurance_terms(text: str) -> bool:
    """Does ``text`` speak of insurance (a policy's coverage, limits, cancellation)? Its values are the policy's."""
    return bool(_INSURANCE.search(text))


#: A sum a condition turns on: "does not increase the value ... by more than $ 50M", "orders in excess of $10,000" (a cap on a
#: payment, "not to exceed $35,000" / "no more than", is the payment's amount; "not less than $1,000,000" of insurance a minimum).
SUM_THRESHOLD = re.compile(r"(?<!\bno\s)(?<!\bnot\s)\b(?:more|greater)\s+than\s+$|\bin\s+excess\s+of\s+$|\bbeyond\s+$|"
                            # "may not pay sub-affiliates ... higher referral fees than the lowest tier of the public offer ($55.00)": a
                            # ceiling on what a party pays others, named in brackets (a tryout read it as the price)
                            r"(?<!\bno\s)(?<!\bnot\s)\b(?:higher|greater)\s+(?:[\w-]+\s+){0,3}than\s+(?:the|any|those|that)\s+(?:[\w-]+\s+){0,7}\(\s*$",
                            re.IGNORECASE)
#: An end chosen by a party, which a period before an event can be the notice of ("unless either party terminates at least 90
#: days prior to the expiration", "elects not to renew"): with :data:`NOTICE_WORD`, what a notice question's sentence must say.
ENDING_WORD = re.compile(r"\bterminat\w*|\bcancel\w*|\bnon-?renew\w*|\bnot\s+(?:to\s+)?(?:be\s+)?renew\w*|\belect\w*|\bopt\w*\s+out|\bwithdraw\w*",
                         re.IGNORECASE)
#: A renewal, an extension or the end of a term a notice is given before ("unless either party gives notice of non-renewal ...",
#: "at least 90 days prior to the expiration of the then-current term").
RENEWS = re.compile(r"\brenew\w*|\bextend\w*|\bextension|\bexpir\w*|\bsuccessive\b|\bend\s+of\s+(?:the|any|each|such)\s+(?:[\w-]+\s+)?term\b|"
                    # an evergreen: "Thereafter, this Agreement shall automatically continue ... until either party gives ... notice"
                    r"\bthereafter\b|\bautomatic\w*|\b(?:month|year)[\s-]+to[\s-]+(?:month|year)\b|\b(?:following|after)\s+the\s+initial\s+term\b|"
                    r"\bthen[\s-]+current\b|\bevergreen\b", re.IGNORECASE)
#: A breach or default ("in the event either party fails to perform any of its material obligations"): its notice is no renewal's.
BREACHES = re.compile(r"\bbreach\w*|\bfails?\s+to\s+(?:perform|comply|pay|cure)|\bdefault\w*", re.IGNORECASE)
#: Just before a period: the cure it gives ("fails to fully cure such breach within fifteen (15) business days of written notice").
CURE_BEFORE = re.compile(r"\b(?:cur(?:e|es|ed|ing)|remed(?:y|ies|ied)|rectif\w*)\b[^.;]{0,50}$", re.IGNORECASE)
#: A right to inspect or audit, whose notice is no notice to end ("upon two weeks' written notice, have the right ... to inspect
#: and make copies of the books and records"; a keyed dev set read it as the notice to stop the renewal).
INSPECTS = re.compile(r"\b(?:inspect\w*|audit\w*|examin\w*)\b", re.IGNORECASE)
#: A notice given: "notice", "notify", "notification", "inform", "advise".
NOTICE_WORD = re.compile(r"\bnoti(?:c|f)\w*|\binform\w*|\badvis\w*", re.IGNORECASE)
#: A value and at most one word before the topic word it modifies: "2 year term ", "three (3) year ", "one-year renewal ".
MODIFIES = re.compile(r"[\w()-]+(?:\s+\(\s*\d+\s*\))?[\s-]+(?:year|month|week|day)s?[\s-]+(?:\w+\s+)?")


def asks_convenience(question: str) -> bool:
    """Does the question read as one about ending the agreement at will (the thesaurus's "termination for convenience",
    by its lay phrases -- "without a reason", "for no particular reason" -- or its own words), and not also as one about
    ending it for a breach (then it asks for a cure period)?"""
    from clauselens.grid.groups import question_groups

    names = {g.name for g in question_groups(question)}
    if any(n.endswith("termination for breach or cause") for n in names):
        return False  # "how long to put it right before the other side can pull the plug?": a cure period
    return bool(_AT_WILL_ASKED.search(question)) or any(n.endswith("termination for convenience") for n in names)


#: A question's own words for ending at will: "without (any) reason", "for no (particular) reason", "at will".
_AT_WILL_ASKED = re.compile(
    r"\bwithout\s+(?:a|any|giving\s+a(?:ny)?|stating\s+a|needing\s+a)?\s*(?:reason|cause|why|explanation|justification|excuse)|"
    r"\bfor\s+no\s+(?:\w+\s+)?reason|\bfor\s+(?:its\s+)?convenience|\bat\s+will\b|\bfor\s+any\s+reason|\bjust\s+because\b|"
    r"\bno\s+questions\s+asked\b|\bat\s+any\s+time\b|\bbut\s+no\s+(?:reason|cause|explanation)\b|"
    r"\bwhenever\s+(?:it|they|we|he|she|you)\s+(?:wants?|likes?|wishes|chooses?|pleases?)\b|"
    # no one at fault ("even though nobody did anything wrong", "a no-fault exit"), notice alone ("just by giving notice", "only
    # with a letter", "with a heads-up"), no wish to go on ("doesn't want to carry on anymore")
    r"\b(?:nothing|nobody|no\s+one|no-one)\s+(?:has\s+|having\s+)?(?:gone|going|went|did|done|doing)\s+(?:anything\s+)?wrong\b|"
    r"\b(?:did|done|doing)\s+nothing\s+wrong\b|\bno[- ]fault\b|\bonly\s+(?:with|by)\s+(?:a\s+|giving\s+)?(?:letter|notice)\b|"
    r"\bjust\s+(?:by\s+)?(?:giving|sending|send|give|with)\s+(?:a\s+|some\s+)?(?:notice|letter|heads[- ]up)\b|"
    r"\bstop\s+(?:wanting|liking)\b|"
    r"\b(?:does\s*n[o'’]t|do\s*n[o'’]t|no\s+longer)\s+want\s+to\s+(?:carry\s+on|continue|go\s+on|keep\s+going)\b", re.IGNORECASE)


__all__ = ["ACCOUNTING", "BREACHES", "SCHEDULE_DATES", "asks_end_day", "reporting_end", "span_start",
           "CURE_BEFORE", "INSPECTS", "ENDING_WORD", "ENDS_OWN", "MODIFIES", "NOTICE_WORD", "OTHER_REACH", "RENEWS",
           "SUBJECT_REACH", "SUM_THRESHOLD", "TERM_REACH", "about_own_term", "after_the_end", "asks_about_term", "ceiling_asked", "states_ceiling",
           "compliance_only", "ending_effect", "entity_home", "insurance_terms", "mutual_only", "names_condition", "not_a_party", "split_joined",
           "other_agreements"]


#: Ending one's own part in this agreement, or the employment it is: "may terminate its participation in this Agreement", "terminate its
#: performance of related obligations under this Agreement", "either you or the Company may terminate your employment".
ENDS_OWN = re.compile(r"\b(?:terminat|cancel)\w*\s+(?:(?:its|their)\s+(?:participation|performance)\b[^.;]{0,40}?\b(?:this|the)\s+"
                      r"(?:[A-Z][\w-]*\s+){0,2}Agreement\b|(?:your|his|her|the\s+[\w-]+['’]s|the)\s+employment\b)")
#: Things other than the agreement that a clause may end: a fund, a programme, a plan, a policy, an order, a body of the parties
#: (a council, a committee, a board), a schedule.
_OTHER_THING = (r"(?:Fund|Program|Programme|Plan|Policy|Account|Campaign|Order|Project|Council|Committee|Board|Panel|Team|Group|Forum|"
                r"Escrow|Subscription|Schedule|Exhibit|Appendix|Statement)")
#: A termination of the agreement itself (or of the defined relationship it sets up: "the Appointment"), not of a
#: licence, a policy's coverage or an address.
_ENDS_AGREEMENT = re.compile(ENDS_OWN.pattern
                            # "any Services Term of this Agreement" (not "any Merchant Agreement")
                            + r"|\b(?:terminat\w*|cancel\w*)\s+(?:any|each)\s+(?:[A-Z][\w-]*\s+){0,3}(?:of|under)\s+this\s+Agreement\b"
                            r"|\b(?:terminat\w*|cancel\w*|end)\s+"
                            r"(?:(?:the\s+)?(?:whole|all)\s+(?:or\s+(?:any\s+)?part\s+)?of\s+)?"  # "the whole or any part of this agreement"
                            r"(?:[Tt]his|[Tt]he)\s+"  # not "any Merchant Agreement", "each Statement of Work": other instruments
                            # ... not another thing's name ("the right to terminate the Advertising Fund", a keyed dev set)
                            r"(?:(?!(?:[A-Z][\w-]*\s+){0,3}" + _OTHER_THING + r"\b)"
                            r"(?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*|agreement|contract)\b"
                            r"|\b[Tt]his\s+(?:(?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*|agreement|contract)\s+(?:may|shall|will|can|is)\s+"
                            r"(?:\w+\s+){0,2}?(?:be\s+)?(?:terminat|cancel)\w*"
                            # "the" names the agreement only with its word ("The Distribution Agreement may be terminated"); "the Bank
                            # may terminate its engagement" is a party ending something else
                            r"|\b[Tt]he\s+(?:[A-Z][\w-]*\s+){0,3}(?:Agreement|Contract|agreement|contract)\s+(?:may|shall|will|can|is)\s+"
                            r"(?:\w+\s+){0,2}?(?:be\s+)?(?:terminat|cancel)\w*"
                            # ... or in the passive, by its defined name ("The Appointment may be terminated by either party")
                            # ... not another body or instrument ("The Franchisee Advisory Council may be terminated or dissolved by us at
                            # any time", a keyed dev set)
                            r"|\b[Tt]he\s+(?!(?:[A-Z][\w-]*\s+){0,3}" + _OTHER_THING + r"\b)"
                            r"(?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*\s+(?:may|shall|will|can)\s+(?:\w+\s+){0,2}?be\s+(?:terminat|cancel)\w*")
#: The words of a termination for convenience.
_AT_WILL = re.compile(r"\b(?:for\s+(?:its|their|any\s+party's)?\s*convenience|without\s+(?:any\s+)?(?:cause|reason)|"
                      r"with\s+or\s+without\s+cause|for\s+any\s+(?:or\s+no\s+)?reason(?:\s+or\s+no\s+reason)?|for\s+no\s+reason)\b",
                      re.IGNORECASE)
#: A business that stops ("ceases for any reason to carry on business"): its "for any reason" is the event's, not a free choice.
_CEASES = re.compile(r"\b(?:ceases?|ceasing|discontinu\w*|stops?|stopping)\s*$", re.IGNORECASE)
#: A termination on a condition: a breach, an insolvency, a change of control, force majeure, a claim, a renewal or the
#: end of a term, a specific reason.
_ON_CONDITION = re.compile(r"\b(?:if|should|in\s+the\s+event|in\s+case|breach\w*|default\w*|fail\w*|cure\w*|uncured|insolv\w*|bankrupt\w*|"
                           r"merger|change\s+(?:of|in)\s+control|force\s+majeure|beyond\s+(?:its|their|such\s+party's|the\s+\w+'s)\s+(?:reasonable\s+)?control|"
                           r"in\s+(?:such|that|which)\s+event|fraud\w*|"
                           # "Upon receipt of such notice or upon learning of any such Tobacco Industry Affiliation from a third party,
                           # drkoop.com shall have the right to terminate" (a keyed dev set): an event named before, not a free exit
                           r"upon\s+(?:receipt|learning|discover\w*|becoming\s+aware)\s+of\s+(?:any\s+)?such|upon\s+learning\s+of|claim\w*|renew\w*|expir\w*|unless|dispute\w*|then\s+(?:the|a|either|any|such)|"
                           # another event's time: "upon the dissolution of Joint Venture Company or upon termination of the License Agreement"
                           r"upon\s+(?:the\s+)?(?:dissolution|liquidation|winding[\s-]up|termination|expiration|occurrence|completion|closing)\s+of|"
                           r"reasons|(?:end|last\s+day)\s+of\s+(?:the|a|its|any|each|the\s+then[\s-]current)\s+(?:\w+\s+)?term|"
                           # a deadline missed: "[If Excite has not delivered ... to the Client] Site by end of the additional four-month
                           # period, Client may terminate" (a page break cut its "if"; a keyed dev set read a free exit)
                           r"by\s+(?:the\s+)?end\s+of\s+(?:the|an?|its|any|each|such)\s+(?:[\w-]+\s+){0,3}period|"
                           r"as\s+(?:set\s+forth|provided|described|specified)\s+in\s+(?:Section|Article|Paragraph|clause)s?\s+\d|"
                           r"in\s+accordance\s+with\s+(?:Section|Article|Paragraph|clause|subsection)s?\s+\d|where|"
                           # "You may terminate the agreement on any grounds available by law" (a keyed dev set): the law's grounds, no free exit
                           r"grounds?\b[^.;]{0,40}?\b(?:law|statute)|(?:available|permitted|allowed|provided)\s+(?:by|under)\s+(?:applicable\s+)?law|"
                           # "may be terminated by either party for "Cause" without the need of providing a notice period" (a new user's
                           # tryout: read as a free exit); not "without cause"
                           r"(?:for|with)\s+(?:good\s+|just\s+|proper\s+)?[\"“]?cause)\b",
                           re.IGNORECASE)


_NOTICE = re.compile(r"\bnotice\b", re.IGNORECASE)


#: An enumerated item's mark: "(i)", "(ii)", "(a)", "(b)".
_ITEM_MARK = re.compile(r"\((?:i{1,3}|iv|v|vi{1,3}|[a-h])\)\s*")
#: An item that ends the agreement whenever its party likes: "at any other time", "at any time", "upon 90 days' notice".
_OTHER_TIME = re.compile(r"\bat\s+any\s+(?:other\s+)?time\b|\b(?:upon|on|by\s+giving|with)\s+(?:at\s+least\s+)?[\w-]+\s+(?:\(\d+\)\s+)?"
                         r"(?:days|months|weeks)['’]?\s+(?:prior\s+|advance\s+)?(?:written\s+)?notice\b", re.IGNORECASE)


def names_condition(text: str) -> bool:
    """Does the sentence name a condition an end depends on (a breach, an insolvency, a renewal, "if ...")?"""
    return _ON_CONDITION.search(text) is not None


#: A party's own choice beside a mutual one: "(ii) in writing by the Trust Advisors in their sole discretion".
_OWN_CHOICE = re.compile(r"\b(?:sole|absolute|own)\s+discretion\b|\bat\s+(?:its|their|his|her)\s+(?:sole\s+)?option\b", re.IGNORECASE)


def only_by_consent(text: str) -> bool:
    """Does the sentence end (or change) the agreement only by both or all parties' fresh agreement ("may be terminated at any
    time during the Initial Period by unanimous written agreement of the Parties") -- no notice, no party's own choice?"""
    return bool(_MUTUAL.search(text)) and not _NOTICE.search(text) and not _OWN_CHOICE.search(text)


def ends_agreement(text: str) -> bool:
    """Does the sentence speak of ending this agreement (or the appointment, the employment, one's part in it)?"""
    return _ENDS_AGREEMENT.search(text) is not None


#: A sentence cut off mid-clause: it ends in a word with no closing punctuation, after a word that leaves it open ("written notice",
#: "by giving to the other party written notice" then a page header).
_CUT_OFF = re.compile(r"\b(?:notice|notify\w*|giving|to|of|the|a|an|by|upon|and|or|with|for|in|on|written|prior|days?|months?)\s*$",
                      re.IGNORECASE)


def at_will(text: str) -> bool:
    """Does the sentence let the agreement be ended at will -- a termination for convenience ("may terminate this
    Agreement for convenience by giving at least thirty (30) days written notice"; "may terminate this Agreement upon
    three (3) months written notice", no condition named) -- rather than on a condition (a breach to cure, a renewal to
    stop, force majeure, a claim) or something else's end (a licence, a policy's coverage)? CUAD's Termination For
    Convenience: "without cause (solely by giving a notice and allowing a waiting period to expire)"."""
    if not _ENDS_AGREEMENT.search(text) or text.rstrip().endswith(":") or only_by_consent(text) or _CUT_OFF.search(text):
        return False  # "Either party may terminate this Agreement:" lists its conditions next; both parties' consent is no one's will;
        # "... by giving to the other party written notice" cut off by a page's running header (a keyed dev set: "of such termination
        # upon the other party's material breach" came after it) -- what follows may be the condition
    if _ON_CONDITION.search(text) is None or any(not _CEASES.search(text[max(0, m.start() - 30):m.start()]) for m in _AT_WILL.finditer(text)):
        return True  # not "if the other ... ceases for any reason to carry on business": an insolvency's wording, no free exit
    # "Qualigen may terminate this Agreement (i) upon thirty (30) days prior written notice in the event of any failure ..., or
    # (ii) at any other time upon ninety (90) days' prior written notice": one listed way is on no condition (a tryout read the
    # whole sentence as conditional)
    marks = list(_ITEM_MARK.finditer(text))
    if len(marks) < 2 or not _ENDS_AGREEMENT.search(text[: marks[0].start()]):
        return False
    lead = text[: marks[0].start()]
    items = [text[m.end(): n.start() if n else len(text)] for m, n in zip(marks, [*marks[1:], None])]
    return any(_OTHER_TIME.search(item) and _ON_CONDITION.search(re.sub(r"[,;]?\s*(?:or|and)\s*$", "", item)) is None
               for item in items) and _ON_CONDITION.search(lead) is None
