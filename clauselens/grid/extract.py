"""Typed grid values read by rule from the agreement's sentences (issue #45): the model does not decide.

Where a rule can decide what to quote and what the value is, the model must not. For a typed
question (date, duration, amount, party, jurisdiction) the cell is read deterministically from
the agreement's passages (all of them: "not found" speaks for the whole agreement):

1. **Sentences on topic.** Each passage is split into sentences (:func:`sentence_units`: the
   parser's sentence spans, an inline list item kept with its sentence). The question's topic is a
   set of *term groups* (:func:`topic_groups`), one per content word of the question (the word's
   stem, its everyday contract wording, :data:`clauselens.grid.topic.EVERYDAY`, and the terms of the
   thesaurus concepts its stem names), one per lay phrase the thesaurus recognises
   (:func:`clauselens.retrieval.lay_terms.expand`; the words of the phrase are the concept's) and
   one for alternatives joined by "or" ("inspect or audit") -- thesaurus-based query expansion
   (Voorhees 1994). A sentence must cover every required group (all but one when there are four or
   more, :func:`required_hits`; a word naming the value's type, "money", "percentage", is covered by
   the value): coordination-level matching (Salton & McGill 1983, ch. 3). A question with a
   ``category`` (the CUAD preset: "Renewal Term", "Governing Law") is matched on the category's words.
   Definitions ('"Fiscal Year" means ...') and recitals ("WHEREAS ...") are not read.
2. **Candidate values.** Every value of the question's type the sentence states is a candidate
   (:mod:`clauselens.grid.values`: calendar dates by python-dateutil, periods with counts in words
   or figures, sums of money / percentages, jurisdictions from a fixed list; the parties from the
   preamble by :func:`clauselens.parsing.parties.guess_parties`). A value's *distance* is the
   characters between it and the nearest matched topic term of its sentence (the term proximity
   of Tao & Zhai 2007). A date, and a period that is no notice, must follow its topic words
   ("expire on June 30", "renew for successive one year periods"), with no other date-introducing
   word between ("from the Effective Date until December 31": that date is the end's). A question
   about notice ("how much warning") takes only periods of notice ("thirty (30) days prior written
   notice", :func:`notice_like`); any other duration question none of them. A money question takes
   sums of money, a rate question percentages (:func:`amount_kind`). A US state beats "United
   States" (the state is where in the US).
3. **Decision.** Within a sentence the value nearest the topic words speaks for it; the sentences
   covering the most groups are compared, and when they all state one value it is the answer and
   its sentence the quote (the value is in its quote by construction). When different values
   remain the cell is *unverified* listing them (nothing shown); when no on-topic sentence states a
   value, *not found*. A date question whose sentences state only periods is unverified.
4. **Preamble dates.** A question about when the agreement was made or takes effect (:func:`preamble_date_kind`) reads the
   preamble first (:func:`read_front_date`: "entered into / made / executed [as of] <date>", else the Archivist's
   effective-date rule; recitals excluded; an effective date only from a sentence that says so).

Yes/no (:func:`clauselens.grid.yes_no.read_yes_no`) is read from the evidence the same way: the question's claim, the
action asserted or negated for a compatible party (:mod:`clauselens.reports.support`), or no
sentence on the topic at all. Pure functions; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from clauselens.grid.groups import (
    TermGroup,
    contract_groups,
    contract_vocabulary,
    covered,
    distinct_terms,
    groups_needed,
    named_topics,
    own_word_terms,
    question_groups,
    required_hits,
    term_hits,
    topic_groups,
    value_free,
)
from clauselens.grid.topic import OR_ENDS
from clauselens.grid.topic import preamble_date_kind as preamble_date_kind
from clauselens.grid.values import US_STATES, jurisdictions_in, name_tokens, parse_date
from clauselens.grid.whose import (
    BREACHES,
    CURE_BEFORE,
    ENDING_WORD,
    INSPECTS,
    MODIFIES,
    NOTICE_WORD,
    RENEWS,
    SCHEDULE_DATES,
    SUM_THRESHOLD,
    about_own_term,
    after_the_end,
    asks_about_term,
    asks_convenience,
    asks_end_day,
    at_will,
    ceiling_asked,
    compliance_only,
    ending_effect,
    ends_on,
    entity_home,
    insurance_terms,
    mutual_only,
    not_a_party,
    other_agreements,
    reporting_end,
    span_start,
    split_joined,
    states_ceiling,
)
from clauselens.parsing.sentences import sentence_spans

#: Types whose value a rule reads (the others go to the model).
RULE_TYPES: frozenset[str] = frozenset({"date", "duration", "amount", "party", "jurisdiction"})
#: Sentences whose topic score is within this many groups of the best one compete for the answer.
SCORE_SLACK = 0
#: A value further than this many characters from every matched term of its sentence is not read.
MAX_DISTANCE = 80
#: Characters of a preamble read for the parties.
PREAMBLE_CHARS = 3000
#: The most sentence units a parties' quote runs over: a preamble set out "BETWEEN:" / name / address / ("Emerald") / "AND:" / "DR." /
#: "GAETANO MORELLO N.D." / "INC., ..." splits into that many (a keyed dev set's parties were left unread at 4).
PARTY_SENTENCES = 8

_PERCENT_ASK = re.compile(r"\b(?:percent|percentage|per\s?cent|rate|%)", re.IGNORECASE)


@dataclass(frozen=True)
class Candidate:
    """One typed value stated by one retrieved sentence."""

    value: str  # the shown value ("30 days", "2019-05-01", "$18,000", "California", "A; B")
    key: str  # what makes two candidates the same value (ISO date, normal period, amount, names)
    passage: int  # 0-based rank of the passage in the retrieved list
    start: int  # the sentence's [start, end) in the passage text
    end: int
    score: int  # topic groups the sentence covers
    distance: int  # characters from the value to the nearest matched term
    groups: tuple[str, ...] = ()
    terms: int = 0  # distinct topic terms the sentence uses (ties of ``score``: the sentence that says more of the topic)


@dataclass
class Reading:
    """What the rule read for one cell: ``value`` and its ``candidate`` when decided, else the
    competing ``choices`` (several values) or nothing (no value on topic; ``on_topic`` says whether
    any retrieved sentence was about the question at all)."""

    value: str = ""
    candidate: Candidate | None = None
    choices: list[Candidate] = field(default_factory=list)
    on_topic: bool = False
    reason: str = ""


#: A period of notice: "thirty (30) days [prior] written notice", "notice of at least 30 days", "60 days prior to the expiration",
#: "90 days in advance" (the notice patterns of :mod:`clauselens.reports.support`, and a period before an event).
_NOTICE_AFTER = re.compile(r"^\W*(?:(?:prior|advance|written|express|formal|of)\W+){0,3}notic|^\W*(?:prior\s+to|before|in\s+advance)\b",
                           re.IGNORECASE)
_NOTICE_BEFORE = re.compile(r"\bnotic\w*\W+(?:(?:of|not|less|than|at|least|no|fewer|giving|given|upon|to|the|other|party|parties|later|"
                            r"sooner|earlier|more)\W+){0,8}$", re.IGNORECASE)  # "written notice to the other Party of at least 3 months"
#: A period that fixes a day: "the date that is thirty (30) days prior to ...", "on the day which is".
_DATE_OFFSET = re.compile(r"\b(?:date|day)\s+(?:that|which)\s+(?:is|falls)\s+$", re.IGNORECASE)
#: A question about notice ("how much warning", "notice period").
_NOTICE_ASK = re.compile(r"notic|notif|warning|in\s+advance|heads[\s-]up|how\s+far\s+ahead|ahead\s+of\s+time|beforehand|lead\s+time|"
                         r"(?:let|letting)\s+(?:them|us|him|her|the\s+other\s+(?:side|party))\s+know|"
                         # "how much time before we have to inform the other side" (a keyed dev set)
                         r"(?:tell|inform|advise|alert|warn)(?:s|ing|ed)?\s+(?:them|us|him|her|the\s+other\s+(?:side|party|company))\b",
                         re.IGNORECASE)


@lru_cache(maxsize=512)
def asks_notice(question: str) -> bool:
    """Does the question ask for a period of notice (:data:`_NOTICE_ASK`)?"""
    return bool(_NOTICE_ASK.search(question))


def notice_like(text: str, start: int, end: int) -> bool:
    """Is the period at ``text[start:end]`` a period of notice (see :data:`_NOTICE_AFTER`)? A
    question about notice takes only such periods; any other duration question none of them
    (the renewal term is "one year", not the "thirty (30) days prior to the expiration" notice)."""
    if _DATE_OFFSET.search(text[max(0, start - 40):start]):
        return False  # "extended until ... the date that is thirty (30) days prior to expiration of ...": a day fixed, no notice
    return bool(_NOTICE_AFTER.search(text[end:end + 60]) or _NOTICE_BEFORE.search(text[max(0, start - 60):start]))


def amount_kind(question: str) -> str:
    """``"percent"`` when the question asks for a rate or percentage, else ``"money"``."""
    return "percent" if _PERCENT_ASK.search(question) else "money"


#: A cure allowed within the notice period itself: "may terminate ... after thirty (30) days written notice ... unless the
#: breaching party cures the breach before the expiration of such period of time", "... if the breach is not cured during
#: such notice period": the notice period is the time to cure.
_CURE_IN_NOTICE = re.compile(r"\bcur(?:e|es|ed|ing)\b[^.;]{0,100}?\b(?:before\s+the\s+(?:expiration|expiry|end)\s+of|within|during)\s+"
                             r"(?:such|the|that|said)\s+(?:\w+\s+){0,2}?(?:notice\s+)?period\b", re.IGNORECASE)


#: A period that is a threshold ("extends beyond 180 days", "for more than 30 days", "in excess of six months"), not a length.
_THRESHOLD = re.compile(r"\b(?:beyond|exceed(?:s|ing)?|in\s+excess\s+of|more\s+than|longer\s+than|over)\s+(?:a\s+period\s+of\s+)?$",
                        re.IGNORECASE)


#: A period that is a window to act ("within thirty (30) days of receipt", "within a period of three (3) months following the
#: Renewal Notice"), not how long the agreement or a renewal runs.
_WINDOW = re.compile(r"\bwithin\s+(?:a\s+period\s+of\s+|the\s+)?$", re.IGNORECASE)


#: A date that is another event's: an amendment's ("As amended on February 28, 2010" under a supply agreement's title; an
#: amended and restated agreement's own date is kept) or a deadline's ("install this sign on or before March 28, 2008").
_AMENDED_ON = re.compile(r"\bamended\s+(?:on|as\s+of|effective(?:\s+as\s+of)?)\s+(?:the\s+)?$", re.IGNORECASE)
_DEADLINE = re.compile(r"\b(?:on\s+or\s+(?:before|prior\s+to)|no\s+later\s+than|not\s+later\s+than|by|before|prior\s+to|until)\s+(?:the\s+)?$",
                       re.IGNORECASE)




def cure_in_notice(text: str) -> bool:
    """Does the sentence give the time to cure as its notice period (:data:`_CURE_IN_NOTICE`)?"""
    return bool(_CURE_IN_NOTICE.search(text))


def _values(qtype: str, question: str, text: str, cure_here: bool = False) -> list[tuple[str, str, int]]:
    """(shown value, key, offset in ``text``) of each value of ``qtype`` that ``text`` states (``cure_here``: a question
    about the time to cure over a sentence whose notice period is also the cure period, :func:`cure_in_notice`)."""
    out: list[tuple[str, str, int]] = []
    if qtype == "date":
        from clauselens.grid.values import ONE_DATE

        for m in ONE_DATE.finditer(text):
            d = parse_date(m.group(0))
            if d is not None:
                out.append((d.isoformat(), d.isoformat(), m.start()))
        return out
    if qtype == "duration":
        from clauselens.grid.values import durations_at

        wants_notice = asks_notice(question)
        both = cure_here and not wants_notice  # the notice period is the cure period
        return [(str(p), str(p), s) for p, s, e in durations_at(text) if both or notice_like(text, s, e) == wants_notice]
    if qtype == "amount":
        from clauselens.grid.values import amounts_at, named_amount, rate_unit

        kind = amount_kind(question)
        # a rate keeps its unit ("$0.50 per minute"); the key (what is compared) stays the sum; a par value or a security's
        # coupon is part of a name
        return [(" ".join(x for x in (str(a), rate_unit(text, e, s) if a.kind == "money" else "") if x), f"{a.kind}:{a.currency}:{a.value:g}", s)
                for a, s, e in amounts_at(text) if a.kind == kind and not named_amount(text, s, e)]
    if qtype == "jurisdiction":
        if compliance_only(text):
            return out  # the laws a party complies with, not the agreement's
        found = jurisdictions_in(text) - jurisdictions_in(question)  # "in what state of the United States ...": not an answer
        if found & set(US_STATES):  # "the State of Nevada, USA": the state
            found.discard("United States")
        if re.search(r"England\s+and\s+Wales", text):  # one jurisdiction, read as England (its canonical name), not two
            found.discard("Wales")
        for j in sorted(found):
            # as written or in capitals ("THE LAWS OF THE STATE OF DELAWARE": jurisdictions_in read it so)
            ats = [m.start() for m in re.finditer(re.escape(j), text, re.IGNORECASE) if not entity_home(text, m.start(), m.end())]
            if ats:
                out.append((j, j, ats[0]))
        return out
    return out


def _periods_for_date(question: str, text: str) -> list[tuple[str, str, int]]:
    from clauselens.grid.values import durations_at

    return [(str(p), str(p), s) for p, s, _ in durations_at(text)]


#: Words that introduce a date of their own ("until", "through", "commencing", "expiring").
_DATE_INTRO = re.compile(r"\b(?:until|till|through|thru|ending|ends?|expir\w*|terminat\w*|commenc\w*|begin\w*|start\w*|after|"
                         r"before|prior|later\s+than)\b", re.IGNORECASE)


def _crossed(text: str, term_at: int, value_at: int) -> bool:
    """Is there another date-introducing word between the topic word at ``term_at`` and the date at
    ``value_at`` (the word at ``term_at`` itself aside)?"""
    between = text[term_at:value_at]
    first = re.match(r"\S+", between)
    return bool(_DATE_INTRO.search(between[first.end() if first else 0:]))


#: A recital: the agreement's background, not its terms.
_RECITAL = re.compile(r"^\W*(?:WHEREAS|RECITALS?)\b", re.IGNORECASE)
#: A date is read only this near (characters from the start of) the topic words before it.
DATE_DISTANCE = 60
#: A definition: '"Fiscal Year" means ...', '1.21 "Term" shall mean ...', 'As used herein, the term "Quota Amount" means ...'.
#: A definition's sentence: '"Fiscal Year" means ...' (also skipped by :func:`clauselens.grid.yes_no.quality_warranty`).
DEFINITION = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?(?:[^\"“.;:]{0,40}\bterm\s+)?[\"“][^\"”]{1,80}[\"”]\s+"
                         r"(?:means|shall\s+mean|has\s+the\s+meaning|refers\s+to)\b", re.IGNORECASE)
_ENUMERATOR = re.compile(r"\((?:[a-z]{1,2}|[ivxlc]{1,5}|\d{1,2})\)\s")


def sentence_units(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of the sentences of ``text``: :func:`sentence_spans`, with an inline list
    item ("(y) at any time upon sixty (60) days notice") and a line that goes on in lower case
    kept with the sentence they continue (a value and its topic words stay in one unit)."""
    out: list[list[int]] = []
    for sp in sentence_spans(text):
        piece = text[sp.start:sp.end]
        if out:
            prev = text[out[-1][0]:out[-1][1]].rstrip()
            cont = _ENUMERATOR.match(piece) and not prev.endswith((".", ":"))
            if cont or (piece[:1].islower() and not prev.endswith((".", ";", ":", "?", "!"))):
                out[-1][1] = sp.end
                continue
        out.append([sp.start, sp.end])
    return [(a, b) for a, b in out]


def sentences_of(passages: Sequence[str]) -> list[tuple[int, int, int, str]]:
    out = []
    for i, text in enumerate(passages):
        for s, e in sentence_units(text):
            out.append((i, s, e, text[s:e]))
    return out


def candidates(qtype: str, question: str, passages: Sequence[str], terms: Sequence[str] = (),
               everyday: bool = True) -> tuple[list[Candidate], bool]:
    """The typed candidates of the on-topic sentences of ``passages`` (texts, in rank order), best
    first (more groups covered, then nearer to a term, then earlier passage), and whether any
    sentence was on topic at all. ``terms``: the question's written topic terms, if any.
    ``everyday``: the question is a user's words (:func:`contract_groups` weighs them); False for a
    category name ("Governing Law"), whose every word is contract wording and required."""
    sents = sentences_of(passages)
    if qtype == "jurisdiction":  # a place the question names ("which state of the United States ...") is no topic word
        for j in jurisdictions_in(question):
            question = re.sub(re.escape(j), " ", question, flags=re.IGNORECASE)
    asked = question_groups(question, terms)
    if qtype != "date":  # "dated as of", "day of" name an agreement date's topic; a period's or a sum's setting names none
        asked = value_free(asked)
    relax = everyday and not terms
    groups = contract_groups(asked) if relax else asked
    need = groups_needed(asked, groups) if relax else required_hits(groups)
    if not groups:  # no topic word at all ("when was the contract made?" after its preamble found nothing): no guess
        return [], False
    out: list[Candidate] = []
    on_topic = False
    # a question about the agreement's own term takes values from sentences about it (:mod:`clauselens.grid.whose`)
    topics = named_topics(asked)
    term_q = qtype in ("date", "duration") and asks_about_term((g.name for g in asked), "" if everyday else question, topics)
    if qtype == "duration" and not term_q and topics and any(g.name == "last" for g in groups):
        # "how long does the warranty last?": "last" is the value's type, not a topic
        # and the topic is said in its own word ("warranty", "non-competition"), not its concept's looser company ("directly or
        # indirectly", "engage in" of a non-compete: a non-solicitation's or a takeover ban's period on the CUAD dev splits)
        groups = tuple(TermGroup(g.name, g.terms, required=False) if g.name == "last" else
                       TermGroup(g.name, own_word_terms(g), g.required) if g.name in topics else g for g in groups)
        need = min(need, max(1, sum(1 for g in groups if g.required)))
    notice_q = asks_notice(question)  # once per question, not per sentence or value
    renewal_notice_q = notice_q and any("renew" in g.name for g in asked)  # said of the renewal, or (or_ends) an end at will
    or_ends = renewal_notice_q and OR_ENDS.search(question) is not None
    renewal_q = qtype == "duration" and term_q and not notice_q and any("renew" in g.name for g in asked)
    end_day_q = qtype == "date" and asks_end_day(question)
    date_kind = preamble_date_kind(question) if qtype == "date" else ""
    own_date_q = date_kind != ""  # when it was made or takes effect
    start_q = date_kind == "effective"  # when the agreement takes effect
    insurance_q = any(insurance_terms(t) for g in asked for t in (g.name, *g.terms)) or insurance_terms(question)
    cure_q = qtype == "duration" and any(t.startswith("cure") for g in asked if g.required for t in g.terms)
    ceiling_q = ceiling_asked(question) if qtype == "amount" else ""
    for period_fallback in (False, True):
        for i, s, e, text in sents:
            hits = term_hits(groups, text)
            if not hits and groups:
                continue
            on_topic = True
            if (covered(groups, hits) if relax else sum(1 for g in groups if g.required and g.name in hits)) < need:
                continue
            if DEFINITION.match(text) or _RECITAL.match(text):
                continue  # a meaning ('"Fiscal Year" means ...') or the background ("WHEREAS, ..."), not a term
            if notice_q and qtype == "duration" and (not NOTICE_WORD.search(text) and not ENDING_WORD.search(text) or INSPECTS.search(text)
                                                     or renewal_notice_q and (not (RENEWS.search(text) or or_ends and at_will(text))
                                                                              or BREACHES.search(text))):
                continue  # "twelve (12) months prior to the expiration ..., the Parties shall use good faith efforts to negotiate": no notice
            if renewal_q and mutual_only(text):
                continue  # "may be extended ... by mutual written agreement": a new bargain, no renewal term
            if not insurance_q and insurance_terms(text):
                continue  # a policy's limit or cancellation notice answers no question but one about insurance
            if ceiling_q and not states_ceiling(text, ceiling_q):
                continue  # "the top dollar figure ... for damages": a fee agreed to be paid is no ceiling (blind3 grid set)
            cure_here = cure_q and cure_in_notice(text)  # the notice period is the cure period
            vals = _periods_for_date(question, text) if period_fallback else _values(qtype, question, text, cure_here)
            # a date, or a period that is no notice, follows the words it belongs to ("expire on June 30",
            # "renew for successive one year periods"); a topic word after it speaks of something else
            forward = (qtype == "date" and not period_fallback) or (qtype == "duration" and not notice_q
                                                                    and not cure_here)
            limit = DATE_DISTANCE if qtype == "date" and not period_fallback else MAX_DISTANCE
            if cure_here:
                limit = 3 * MAX_DISTANCE  # "after thirty (30) days written notice ... unless ... cures the breach before the end of such period"
            if qtype == "date" and not period_fallback and (term_q or own_date_q or end_day_q) and len(vals) >= SCHEDULE_DATES:
                continue  # a schedule's rows ("START END PRODUCTION SCHEDULE Style Out 11/27/2007 ..."), not the agreement's own day
            for shown, key, at in vals:
                offsets = [o for v in hits.values() for o in v]
                # a value right before its topic word modifies it ("an automatic 2 year term extensions", "a three-year renewal term")
                dist = min((at - o if o <= at else (10**6 if forward and not MODIFIES.fullmatch(text[at:o]) else o - at) for o in offsets),
                           default=0)
                if dist > limit:
                    continue
                if qtype == "date" and not period_fallback and _crossed(text, max(o for o in offsets if o <= at), at):
                    continue  # "from the Effective Date until December 31, 2018": the date is the end's, not the start's
                if qtype == "date" and not period_fallback and (reporting_end(text, at) or end_day_q and span_start(text, at)):
                    continue  # "the quarter ended September 30, 2019": the accounts'; "from September 1, 2004 through [*****]": a start
                if own_date_q and not period_fallback and _DEADLINE.search(text[max(0, at - 25):at]):
                    continue  # "shall install this sign on or before March 28, 2008": a deadline, not the agreement's date
                if start_q and not period_fallback and (ending_effect(text, max(o for o in offsets if o <= at)) or ends_on(text, at)):
                    continue  # "terminate this Agreement, effective as of December 31, 2023", "shall expire on ...": an end's day
                if (qtype == "date" and other_agreements(text, at)) or (term_q and not about_own_term(text, at)) or (
                        term_q and qtype == "duration" and not renewal_q and after_the_end(text, at)):
                    continue  # another agreement's date; a period of something other than this agreement's term, or after it
                if notice_q and qtype == "duration" and not cure_q and CURE_BEFORE.search(text[max(0, at - 60):at]):
                    continue  # "fails to fully cure such breach within fifteen (15) business days of written notice": a cure's time
                if qtype == "amount" and (not ceiling_q and SUM_THRESHOLD.search(text[max(0, at - 90):at]) or key.endswith(":0")):
                    continue  # "does not increase the value ... by more than $ 50M": a threshold, not a price asked about; "$0.00": a blank
                if qtype == "amount" and key.startswith("percent") and (_INSTALMENT.match(text, at) or _REST_PAID.match(text, at)
                                                                        and _REST_BEFORE.search(text[max(0, at - 15):at])):
                    continue  # "Fifty percent of the Termination for Convenience Fee shall be paid to M&I within thirty (30) days": a part, no rate
                if term_q and qtype == "duration" and not notice_q and (_THRESHOLD.search(text[max(0, at - 25):at])
                                                                       or _WINDOW.search(text[max(0, at - 25):at])):
                    continue  # "extends beyond one-hundred-and-eighty (180) days": a threshold; "within 30 days of receipt": a window
                out.append(Candidate(shown, key, i, s, e, len(hits), dist, tuple(sorted(hits)), distinct_terms(groups, text)))
        if out or qtype != "date":
            break
    out.sort(key=lambda c: (-c.score, -c.terms, c.distance, c.passage, c.start))
    return out, on_topic


#: A share of a sum paid in parts: "Fifty percent of the Termination for Convenience Fee shall be paid ..." (a keyed dev set read "50%" as
#: the fees payable).
_INSTALMENT = re.compile(r"[\w\s.()%-]{0,30}?(?:%|percent|per\s+cent)\s*\)?\s+of\s+(?:the\s+|such\s+|any\s+|each\s+)?(?:[\w-]+\s+){0,6}?"
                         r"(?:fees?|payments?|amounts?|balance|sum)\s+(?:shall|will|is|are|must)\s+(?:be\s+)?(?:paid|payable|due|invoiced)\b",
                         re.IGNORECASE)
#: ... "and the remaining 50% shall be paid".
_REST_PAID = re.compile(r"[\w\s.()%-]{0,30}?(?:%|percent|per\s+cent)\s*\)?\s+(?:shall|will|is|are|must)\s+(?:be\s+)?(?:paid|payable|due)\b",
                        re.IGNORECASE)
_REST_BEFORE = re.compile(r"\b(?:remaining|other|final|first|second|last|balance\s+of)\s+$", re.IGNORECASE)


#: A union and the jurisdictions within it (the smaller one names the law: "England", not "United Kingdom").
_UNIONS: dict[str, frozenset[str]] = {"United States": frozenset(US_STATES),
                                      "United Kingdom": frozenset({"England", "Wales", "Scotland", "Northern Ireland"})}


def one_value(found: dict[str, Candidate], what: str, noun: str, verb: str = "state") -> Reading:
    """The reading of a rule that collected one candidate per value (``found``, first sentence each): the value when
    there is one ("{what} {verb} one {noun}"), else the values as ``choices`` ("{what} {verb} different {noun}s: ...")."""
    if len(found) == 1:
        c = next(iter(found.values()))
        return Reading(value=c.value, candidate=c, on_topic=True, reason=f"{what} {verb} one {noun}")
    return Reading(choices=list(found.values()), on_topic=bool(found),
                   reason=(f"{what} {verb} different {noun}s: " + "; ".join(found)) if found else "")


#: A question that names the unit it wants: "how many days", "number of months".
_ASKED_UNIT = re.compile(r"\b(?:how\s+many|number\s+of|count\s+of)\s+(?:business\s+|calendar\s+|working\s+)?(day|week|month|year)s?\b",
                         re.IGNORECASE)
#: Units a period converts between exactly: days and weeks, months and years.
_MEASURES = ({"day", "week"}, {"month", "year"})


def _same_measure(key: str, unit: str) -> bool:
    """Is the period ``key`` ("3 years") in ``unit`` or one it converts to exactly ("12 months" for years)?"""
    from clauselens.grid.values import durations_in

    ps = durations_in(key)
    if not ps:
        return True  # not a period ("until terminated"): the unit does not judge it
    got, want = ps[0].unit, unit.lower()
    return got == want or any(got in m and want in m for m in _MEASURES)


def read_typed(qtype: str, question: str, passages: Sequence[str], terms: Sequence[str] = (), everyday: bool = True) -> Reading:
    """The rule's reading of one typed cell (see the module docstring; ``everyday`` as for :func:`candidates`)."""
    cands, on_topic = candidates(qtype, question, passages, terms, everyday)
    unit = _ASKED_UNIT.search(question) if qtype == "duration" else None
    if unit is not None:  # "net how many days?": a period in years answers another question
        cands = [c for c in cands if _same_measure(c.key, unit.group(1))]
    if cands and qtype == "date" and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", cands[0].key):
        return Reading(choices=cands[:4], on_topic=True,
                       reason="the on-topic clauses state no calendar date, only periods: " + "; ".join(
                           dict.fromkeys(c.value for c in cands[:4])))
    if not cands:
        what = {"date": "date", "duration": "period", "amount": "sum" if amount_kind(question) == "money" else "percentage",
                "jurisdiction": "state or country"}.get(qtype, "value")
        return Reading(on_topic=on_topic, reason=(f"no retrieved sentence about the question states a {what}" if on_topic
                                                  else "no retrieved passage is about the question's topic"))
    best = cands[0].score
    top = [c for c in cands if c.score >= best - SCORE_SLACK]
    # within one sentence, the value nearest the topic's words speaks for it
    per_sentence: dict[tuple[int, int], Candidate] = {}
    for c in top:
        per_sentence.setdefault((c.passage, c.start), c)
    if qtype == "jurisdiction":  # a US state is where in the United States (England in the United Kingdom): the part is the value
        keys = {c.key for c in per_sentence.values()}
        for union, parts in _UNIONS.items():
            if keys & parts:
                per_sentence = {k: c for k, c in per_sentence.items() if c.key != union}
    values = {c.key for c in per_sentence.values()}
    if qtype == "duration" and asks_convenience(question):
        # "how much warning to end it early without a reason?": only an at-will termination's notice, never a renewal's or a cure's
        per_sentence = {k: c for k, c in per_sentence.items() if at_will(passages[c.passage][c.start:c.end])}
        values = {c.key for c in per_sentence.values()}
        if not values:
            return Reading(on_topic=True, reason="no retrieved sentence lets the agreement be ended at will (without cause) on notice")
    if len(values) == 1:
        c = next(iter(per_sentence.values()))
        return Reading(value=c.value, candidate=c, on_topic=True)
    distinct: dict[str, Candidate] = {}
    for c in per_sentence.values():
        distinct.setdefault(c.key, c)
    return Reading(choices=list(distinct.values()), on_topic=True,
                   reason="the on-topic clauses state different values: " + "; ".join(c.value for c in distinct.values()))


_MADE_ON = re.compile(r"\b(?:entered\s+into|made(?:\s+and\s+entered\s+into)?|executed)\s+(?:effective\s+)?"
                      r"(?:as\s+of\s+)?(?:on\s+|this\s+)?(?:the\s+)?"
                      r"((?:\d{1,2}(?:st|nd|rd|th|t\s?h)?\s+day\s+of\s+)?[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
                      r"|\d{1,2}(?:st|nd|rd|th|t\s?h)?\s+day\s+of\s+[A-Z][a-z]+,?\s+\d{4})")


#: "this Consulting Agreement ("Agreement") dated June 1, 2020, effective as of July 1, 2020": the date it is dated.
_DATED_THIS = re.compile(r"\b[Tt]his\s+(?:[A-Z][\w&-]*\s+){0,5}(?:Agreement|AGREEMENT)\s*(?:\([^)]{0,40}\)\s*)?,?\s*(?:is\s+)?dated\s+(?:as\s+of\s+)?"
                         r"(?:the\s+)?((?:\d{1,2}(?:st|nd|rd|th|t\s?h)?\s+day\s+of\s+)?[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
                         r"|\d{1,2}(?:st|nd|rd|th|t\s?h)?\s+day\s+of\s+[A-Z][a-z]+,?\s+\d{4})")


_START_WORDS = re.compile(r"\b(?:effective|effect|commenc\w*|start\w*|begin\w*)\b", re.IGNORECASE)


_PAGE_BEFORE = re.compile(r"\bpage\s*$", re.IGNORECASE)


def read_front_date(front: Sequence[str], prefer: str = "made") -> Reading:
    """The agreement's date from its opening passages (``front``), by the Archivist's preamble rule
    (:func:`clauselens.parsing.metadata.guess_effective_date`: an Effective Date definition, else the
    date after "dated" / "made" / "entered into", else the preamble's first date; a blank date gives
    none), quoted from the sentence that states it."""
    from clauselens.parsing.metadata import guess_effective_date

    for i, text in enumerate(front):
        head = text[:PREAMBLE_CHARS]
        recital = re.search(r"\bWHEREAS\b|\bRECITALS?\b|\bBACKGROUND\b", head)
        head = head[:recital.start()] if recital else head  # a recital's "Agreement dated ..." is another agreement's date
        # the date the agreement was made ("entered into on October 1, 2019 and is made effective as
        # of November 1, 2019": October 1), else the Archivist's effective date of the preamble (which
        # also reads "dated as of", and passes over a base agreement's "Supply Agreement dated ...")
        found = [m for m in (_MADE_ON.search(head), _DATED_THIS.search(head)) if m] if prefer == "made" else []
        made = min(found, key=lambda m: m.start()) if found else None
        got = made.group(1) if made else guess_effective_date(head)
        d = parse_date(got) if got else None
        if got is None or d is None:
            continue
        # each place the passage states it (a title page's "ORDERLY MARKETING AGREEMENT December 27, 2018" before the preamble's
        # "is entered into on December 27, 2018 (the "Effective Date")")
        for m in re.finditer(r"\s+".join(re.escape(w) for w in got.split()), text):
            if _PAGE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
                break  # "Page 2 May 2004": a page header's number read as the day
            before = text[max(0, m.start() - 30):m.start()]
            if other_agreements(text, m.start()) or _AMENDED_ON.search(before) or _DEADLINE.search(before):
                break  # "(as amended by an amendment agreement dated 31 December 2013)", "As amended on ...", "on or before ...": another's date
            s, e = next(((s, e) for s, e in sentence_units(text) if s <= m.start() < e), (-1, -1))
            if s < 0 or ends_on(text, m.start()) or (prefer == "effective" and not _START_WORDS.search(text[s:e])):
                continue  # the agreement's date, not said to be when it takes effect: not this question's quote
            return Reading(value=d.isoformat(), candidate=Candidate(d.isoformat(), d.isoformat(), i, s, e, 1, 0), on_topic=True)
    return Reading(reason="the opening passages state no date (or leave it blank)")


# ---------------------------------------------------------------------------------------- parties
def read_parties(front: Sequence[str]) -> Reading:
    """The parties named in the agreement's opening passages (``front``: texts in order), by
    :func:`clauselens.parsing.parties.guess_parties`, quoted from the sentence(s) that name them."""
    from clauselens.parsing.parties import guess_parties, has_company_form

    for i, text in enumerate(front):
        # the previous passage's end too: a preamble cut after its cue ("BETWEEN:" | "(1) WPP 2005 LIMITED ... (2) JOHN ROGERS"); the names
        head = ((front[i - 1][-300:] + "\n") if i else "") + text[:PREAMBLE_CHARS]  # must still be in this passage's sentences
        names = split_joined([n for n in guess_parties(head) if name_tokens(n) and not not_a_party(n, head)])
        # one party read twice ("RadialSpark" from a title line, "RadialSpark, LLC" from the preamble): the name with its
        # company form once ("Adaptimmune LLC" and "Adaptimmune Limited" are two parties); never down to one party
        once = [n for n in dict.fromkeys(names) if not any(o != n and name_tokens(o) == name_tokens(n) and has_company_form(o)
                                                           and not has_company_form(n) for o in names)]
        names = once if len(once) >= 2 else names
        if len(names) < 2:
            continue
        spans = sentence_spans(text)
        hit = [sp for sp in spans if any(name_tokens(n) & name_tokens(text[sp.start:sp.end]) for n in names)]
        covered = [sp for sp in hit if name_tokens(text[sp.start:sp.end])]
        if not covered:
            continue
        # the smallest run of sentences that names every party
        for a in range(len(spans)):
            toks: set[str] = set()
            for b in range(a, min(len(spans), a + PARTY_SENTENCES)):
                toks |= name_tokens(text[spans[a].start:spans[b].end])
                if all(name_tokens(n) <= toks for n in names):
                    s, e = spans[a].start, spans[b].end
                    return Reading(value="; ".join(names), candidate=Candidate("; ".join(names), "; ".join(names), i, s, e, 1, 0),
                                   on_topic=True)
    return Reading(reason="the opening passages name no two parties the rule can read")


__all__ = ["contract_vocabulary", "Candidate", "DEFINITION", "MAX_DISTANCE", "RULE_TYPES", "Reading", "SCORE_SLACK", "TermGroup", "amount_kind",
           "candidates", "contract_groups", "covered", "groups_needed", "notice_like", "preamble_date_kind", "question_groups", "read_front_date",
           "read_parties", "read_typed", "required_hits", "sentence_units", "sentences_of", "term_hits", "topic_groups"]
