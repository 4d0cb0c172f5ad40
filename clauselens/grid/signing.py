"""The agreement's own dates read from its signature blocks, its testimonium and its definitions (issue #45): when it was
signed ("Dated: July 20, 2008" under a signer's "By:"), when it starts ('"Commencement Date" means 1 April 2020', a cover
sheet's "Effective Date: January 1, 2019"). Split from :mod:`clauselens.grid.rule`, which asks these when a question is
about the agreement's date (:func:`clauselens.grid.rule.read`). Pure functions; no I/O.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Sequence

from clauselens.grid.extract import Candidate, Reading
from clauselens.grid.term import START_LABEL
from clauselens.grid.values import ONE_DATE, parse_date

#: A signature block's date: "Dated: July 20, 2008", "Date: 5/1/2019", "Date December 17, 2004" (not a heading's "Effective Date:
#: March 21, 2014").
_SIGNED_ON = re.compile(r"(?<!effective\s)(?<!expiration\s)(?<!commencement\s)(?<!termination\s)(?:\bDated?\s*:|\b(?-i:Date)[ \t]{1,12})\s*("
                        + ONE_DATE.pattern + ")", re.IGNORECASE)
#: A signature block's own words, within :data:`BLOCK_REACH` characters before its date (a form's "Open Date: ..." is none).
#: (a block laid out in columns may drop the colons: "Name Paul Zuzelo ... Its Senior Vice President ... Date December 17, 2004")
_BLOCK = re.compile(r"\bBy\s*:|/s/|\bName\s*:|\b(?-i:Name\s+[A-Z][a-z])|\bTitle\s*:|\bSignature\b|\bSigned\b", re.IGNORECASE)
BLOCK_REACH = 250


def _block_dates(text: str) -> list[re.Match[str]]:
    """The signature-block dates of ``text`` (:data:`_SIGNED_ON` with a block's words before it)."""
    return [m for m in _SIGNED_ON.finditer(text) if _BLOCK.search(text[max(0, m.start() - BLOCK_REACH):m.start()])]


#: A user's question about signing itself ("When was this signed?", "When did the two sides ink it?"), not about the date the
#: agreement bears ("What date is the agreement dated?").
SIGNING = re.compile(r"\b(?:sign(?:s|ed|ing)?|signatures?|execut(?:e|ed|ion)|ink(?:s|ed)?|put\s+pen)\b", re.IGNORECASE)


#: How many days before the agreement's own date a signature may be dated before the two are read as a conflict (a typed year:
#: "Date 25/05/2008" under an agreement "entered into on May 25th, 2018", a new user's tryout).
EARLIER_DAYS = 366


def last_signature(texts: Sequence[str], made: str = "") -> Reading:
    """The latest date a signature block states (the day the last party signed: the agreement is executed then), quoted
    from its block; when even that is more than :data:`EARLIER_DAYS` before the agreement's own date ``made`` (ISO), no value:
    the block is the choice, for a reviewer."""
    got: list[tuple[str, int, int, int]] = []
    for i, t in enumerate(texts):
        for m in _block_dates(" ".join(t.split())):  # as signature_dates reads them: a block padded with spaces (a tryout)
            d = parse_date(m.group(1))
            at = re.search(r"\s+".join(re.escape(w) for w in m.group(1).split()), t)
            if d is not None and at is not None:
                got.append((d.isoformat(), i, at.start(), at.end()))
    if not got:
        return Reading(reason="no signature block states a date")
    value, i, s, e = max(got)
    block = max(0, s - 160)  # the block's signer before its date, from a word's start
    block = texts[i].find(" ", block) + 1 if block else 0
    c = Candidate(value, value, i, min(block, s), e, 1, 0, ("signature",))
    dates = sorted({g[0] for g in got})
    if made and date.fromisoformat(value) < date.fromisoformat(made) - timedelta(days=EARLIER_DAYS):
        return Reading(choices=[c], on_topic=True, reason=f"the signature blocks are dated {', '.join(dates)}, more than a year before the "
                                                          f"agreement's own date ({made}); left for a reviewer")
    why = "its signature block is dated" if len(dates) == 1 else f"the last of its signature blocks' dates ({', '.join(dates)})"
    return Reading(value=value, candidate=c, on_topic=True, reason=f"the day it was signed: {why}")


#: The testimonium dates the agreement: "IN WITNESS WHEREOF, the parties hereto have executed this Agreement as of this 4th day of
#: April, 2003".
_TESTIMONIUM = re.compile(rf"\bIN\s+WITNESS\s+WHEREOF\b[^.;]{{0,200}}?\b(?:as\s+of|on|dated)\s+(?:this\s+|the\s+)?(?P<date>{ONE_DATE.pattern})",
                          re.IGNORECASE)


#: A start date defined by name: '"Commencement Date" means 1 April 2020'.
_START_DEFINED = re.compile(rf"[\"“]\s*(?:Commencement|Start|Effective)\s+Date\s*[\"”]\s*(?:means|shall\s+mean|is|shall\s+be)\s+(?:the\s+)?"
                            rf"(?P<date>{ONE_DATE.pattern})", re.IGNORECASE)
#: Any other word of when it starts: a defined start, "becomes effective", "commence", "take effect" ("upon the Closing").
OTHER_START = re.compile(r"[\"“]\s*(?:Effective|Commencement|Start)\s+Date\s*[\"”]|"
                          r"\b(?:this\s+Agreement|the\s+[\"“]?(?:Term|Appointment|Employment|Engagement|Services)[\"”]?|"
                          r"term\s+of\s+this\s+Agreement)\b[^.;]{0,80}?(?:\bbecomes?\s+effective\b|\bcommenc\w*|\bbegins?\s+on\b|\bstarts?\s+on\b|\beffective\s+(?:upon|on|as\s+of|from|immediately)\b|"
                          r"\btakes?\s+effect\b|\bcomes?\s+into\s+(?:force|effect)\b)|"
                          # "The effective date of the start of the Term will be from the Launch Date" (a keyed dev set read the preamble's date)
                          r"\beffective\s+date\s+of\s+(?:the\s+)?(?:start\s+of\s+(?:the\s+)?)?(?:Term|this\s+Agreement)\b|"
                          r"(?:^|(?<=[.;:]\s))(?-i:It)\s+shall\s+(?:be|become)\s+effective\s+(?:on|as\s+of|from)\b", re.IGNORECASE)


#: A date named the Effective Date where it is written: '... dated this 3rd day of November, 2010 (the "Effective Date")' (a keyed
#: dev set's preamble came after a title page and a table of contents, beyond the passages read as the front).
_DATED_EFFECTIVE = re.compile(rf"(?P<date>{ONE_DATE.pattern})[\s,]*\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?"
                              rf"[\"“']\s*Effective\s+Date\s*[\"”']\s*\)", re.IGNORECASE)


def start_date_defined(texts: Sequence[str]) -> Reading | None:
    """The start date the definitions give ('"Commencement Date" means 1 April 2020', a cover sheet's "Effective Date: ...", a
    preamble after a title page and a table of contents 'dated this 3rd day of November, 2010 (the "Effective Date")'), else
    ``None``."""
    for i, text in enumerate(texts):
        for m in (*_START_DEFINED.finditer(text), *START_LABEL.finditer(text), *_DATED_EFFECTIVE.finditer(text)):
            d = parse_date(m.group("date"))
            if d is not None:
                return Reading(value=d.isoformat(), candidate=Candidate(d.isoformat(), d.isoformat(), i, m.start(), m.end(), 1, 0),
                               on_topic=True, reason="the definitions give the date it starts")
    return None


#: The term that begins on a stated day: "The duration of this Venture (the "Term") will begin on March 1, 2020 and continue ...".
#: ... or "It shall be effective on 06 October 2000 and shall have a duration of two years" (a keyed dev set's maintenance contract).
_TERM_BEGINS = re.compile(r"(?:\b(?:this\s+(?:Agreement|Contract)|the\s+[\"“]?(?:Term|Initial\s+Term)[\"”]?|"
                          r"term\s+of\s+this\s+(?:Agreement|Contract))\b|(?:^|(?<=[.;:]\s))(?-i:It)\b)[^.;]{0,60}?\b(?:shall|will)\s+(?:begin|commence|start|be\s+effective|become\s+effective|"
                          r"take\s+effect|enter\s+into\s+force)\s+(?:on|as\s+of|from)\s+(?P<date>" + ONE_DATE.pattern + ")", re.IGNORECASE)


def term_begins(texts: Sequence[str]) -> Reading | None:
    """The day the term "will begin on" or "shall commence on", stated as a date, else ``None``."""
    for i, text in enumerate(texts):
        for m in _TERM_BEGINS.finditer(text):
            d = parse_date(m.group("date"))
            if d is not None:
                return Reading(value=d.isoformat(), candidate=Candidate(d.isoformat(), d.isoformat(), i, m.start(), m.end(), 1, 0),
                               on_topic=True, reason="the term clause states the day it begins")
    return None


#: The term run from an event the agreement names as a date: "The effective date of the start of the Term will be from the Launch Date",
#: "the Term shall commence on the Launch Date".
_FROM_EVENT = re.compile(r"\b(?:Term|this\s+Agreement)\b[^.;]{0,60}?\b(?:from|upon|on|as\s+of)\s+the\s+(?P<event>(?:[A-Z][a-z]+\s+){1,3}Date)\b")


def event_start(texts: Sequence[str]) -> Reading | None:
    """The day the term starts when it runs from a named event ("... the start of the Term will be from the Launch Date") and
    another sentence dates that event ("the launch date of the Co-Branded Site shall be September 1st, 1999"), else ``None``."""
    for text in texts:
        for m in _FROM_EVENT.finditer(text):
            if not re.search(r"\b(?:start\w*|commenc\w*|begin\w*|effective)\b", text[max(0, m.start() - 60):m.start("event")], re.IGNORECASE):
                continue
            dated = re.compile(rf"\b{re.escape(m.group('event'))}\b[^.;]{{0,80}}?\b(?:shall\s+be|will\s+be|is|means)\s+(?:on\s+)?"
                               rf"(?P<date>{ONE_DATE.pattern})", re.IGNORECASE)
            for i, other in enumerate(texts):
                for d_m in dated.finditer(other):
                    d = parse_date(d_m.group("date"))
                    if d is not None:
                        return Reading(value=d.isoformat(), candidate=Candidate(d.isoformat(), d.isoformat(), i, d_m.start(), d_m.end(), 1, 0),
                                       on_topic=True, reason=f"the term runs from the {m.group('event')}, which the agreement dates")
    return None


def dated_as_start(made: Reading) -> Reading | None:
    """The preamble's date as the start of an agreement that names no other (no Effective Date, nothing "commences" or
    "becomes effective"): "This Cooperation Agreement, dated as of May 13, 2020, ..." (CUAD's Effective Date convention)."""
    if not made.value or made.candidate is None:
        return None
    return Reading(value=made.value, candidate=made.candidate, on_topic=True,
                   reason="the agreement names no other start than the date the preamble gives it")


def testimonium_date(texts: Sequence[str]) -> Reading | None:
    """The date the testimonium gives the agreement ("IN WITNESS WHEREOF ... executed this Agreement as of this 4th day of April,
    2003"), for an agreement whose preamble states none; ``None`` when no testimonium dates it."""
    for i, text in enumerate(texts):
        for m in _TESTIMONIUM.finditer(text):
            d = parse_date(m.group("date"))
            if d is not None:
                s, e = m.start(), m.end()
                c = Candidate(d.isoformat(), d.isoformat(), i, s, e, 1, 0)
                return Reading(value=d.isoformat(), candidate=c, on_topic=True,
                               reason="the preamble states no date; the testimonium dates the agreement")
    return None


def signature_dates(texts: Sequence[str]) -> list[str]:
    """The ISO dates the agreement's signature blocks state ("Dated: July 20, 2008"), in order, once each."""
    out = [parse_date(m.group(1)) for t in texts for m in _block_dates(" ".join(t.split()))]
    return list(dict.fromkeys(d.isoformat() for d in out if d is not None))


__all__ = ["BLOCK_REACH", "OTHER_START", "SIGNING", "dated_as_start", "event_start", "last_signature", "signature_dates", "start_date_defined",
           "testimonium_date"]
