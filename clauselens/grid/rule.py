"""A typed grid cell decided by rule, without the model (issue #45).

For a ``date``, ``duration``, ``amount``, ``party`` or ``jurisdiction`` question the grid reads
the value from the agreement's own sentences (:mod:`clauselens.grid.extract`) and quotes the
sentence it came from: the quote is the passage's text at the sentence's offsets (verbatim by
construction, and checked again as any quote is, :func:`clauselens.reports.verify.find_quote`),
and the value must pass the same reader the model's answers pass
(:func:`clauselens.grid.values.check_value`). The statuses:

* ``answered``: one value on topic (the reading decided);
* ``unverified``: the on-topic clauses state different values (listed in the reason, nothing
  shown as the answer), or a date question's clauses state only periods;
* ``not found``: no sentence about the question states a value of its type (the reason says whether any was on topic).

A yes/no question is decided here too when the agreement's sentences show the answer
(:func:`yes_no_cell`: the action asked about, asserted or negated for a compatible party, or no
sentence on the topic at all); otherwise the model answers and its answer is checked.

The rule reads every passage of the agreement (a few hundred sentences; regular expressions only),
so "not found" speaks for the whole agreement, not for a top-k retrieval.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Sequence

import numpy as np

from clauselens.grid.answer import CHECK_VERSION, source_link
from clauselens.grid.cells import Cell
from clauselens.grid.extract import (
    RULE_TYPES,
    Candidate,
    Reading,
    amount_kind,
    asks_notice,
    contract_vocabulary,
    preamble_date_kind,
    read_front_date,
    read_parties,
    read_typed,
    term_hits,
    topic_groups,
)
from clauselens.grid.forum import asks_forum, asks_law, asks_law_or_forum, forum, governing_law, law_or_forum, names_forum
from clauselens.grid.heads import (
    RowHeads,
    category_passages,
    category_question,
    clause_sentence,
    exclusive_sentence,
    head_yes_no,
    never_worded,
    states_clause,
)
from clauselens.grid.party_cells import asks_all_parties, quoted_cell, role_cell
from clauselens.grid.periods import (
    CONDITIONAL,
    RENEWS_FOR,
    about_period_asked,
    asks_cure,
    asks_end_notice,
    asks_first_term,
    asks_late_charge,
    asks_payment_term,
    cure_period,
    end_notice,
    late_charge,
    on_late_payment,
    payment_term,
    percent_share,
    renewal_instead,
    renewal_length,
    unconditional_notice,
)
from clauselens.grid.questions import GridQuestion
from clauselens.grid.roles import unworded_role
from clauselens.grid.signing import (
    OTHER_START,
    SIGNING,
    dated_as_start,
    event_start,
    last_signature,
    signature_dates,
    start_date_defined,
    term_begins,
    testimonium_date,
)
from clauselens.grid.term import (
    OPEN_ENDED,
    OPEN_GROUPS,
    SPAN_GROUPS,
    TERM_GROUPS,
    asks_end,
    asks_length,
    asks_renewal,
    asks_term_end,
    span_first,
    span_period,
    takes_effect_when_made,
    term_as_end,
    term_periods,
    term_reading,
    term_span,
)
from clauselens.grid.values import check_value
from clauselens.grid.whose import BREACHES, ceiling_asked
from clauselens.grid.yes_no import read_yes_no
from clauselens.parsing.contents import is_contents
from clauselens.reports.verify import find_quote
from clauselens.retrieval.types import Passage

#: The model id of a cell the rule decided (part of its fingerprint).
RULE_MODEL = "rule"
#: Opening passages a party question reads.
FRONT_PASSAGES = 2
#: Characters of opening text the parties rule reads at least (chosen on the CUAD tune split and report[0:180]: 3,000
#: and 20,000 answered the same tune cells; the smaller reach is kept).
FRONT_CHARS = 3000


#: The agreement's own date left blank: 'dated as of [•], 2020', "made this ____ day of".
_BLANK_DATE = re.compile(r"\b(?:dated|made|entered\s+into)\b[^.;]{0,30}?(?:\[\s*[•●·_\s]*\]|_{3,})", re.IGNORECASE)
_STARTS_NAMED = re.compile(r"^\W*Effective\s+(?:as\s+of\s+)?\w+\s+\d", re.IGNORECASE)  # 'Effective February 4, 2020 (the "Commencement Date")
#: A cover sheet's label for when it starts ("Effective Date: July 1, 2019", "Effective Dates: September 1, 2006, August 31, 2007"), with
#: no word of making or signing it: the day it takes effect, which says nothing of when it was signed (two keyed dev sets).
_START_LABELLED = re.compile(r"^\W*(?:Effective|Commencement|Start)\s+Dates?\s*:", re.IGNORECASE)
_MADE_WORDS = re.compile(r"\b(?:dated|made|entered|executed|signed|sign)\b", re.IGNORECASE)


def _executed(texts: Sequence[str], front: Reading) -> Reading:
    """When the agreement was signed, asked of one whose signature blocks state no date: the testimonium's date where it
    differs from a preamble's effective date ("entered into effective as of the 1st day of June, 1999" ... "IN WITNESS
    WHEREOF, the parties hereto have executed this Agreement as of June 30, 1999": June 30, a keyed dev set); both where the
    preamble's date is not called effective; none where the agreement's own date is left blank ('dated as of [•], 2020') and the
    date found is one it names as its start ('Effective February 4, 2020 (the "Commencement Date")'); else the preamble's."""
    witnessed = testimonium_date(texts)
    said = _sentence(texts, front.candidate) if front.candidate is not None else ""
    if witnessed is None and front.candidate is not None and _STARTS_NAMED.search(said) and any(_BLANK_DATE.search(t) for t in texts[:2]):
        # 'dated as of [•], 2020' ... 'Effective February 4, 2020 (the "Commencement Date")': when it starts, not when it was signed
        return _withheld(front, f"the agreement's date read ({front.value}) is the day it takes effect; nothing dates the signing")
    if witnessed is None and _START_LABELLED.search(said) and not _MADE_WORDS.search(said):
        return _withheld(front, f"the date read ({front.value}) is labelled as the day it takes effect; nothing dates the signing")
    if witnessed is None or witnessed.value == front.value or witnessed.candidate is None:
        return front
    if re.search(r"\beffective\b", said, re.IGNORECASE):
        return Reading(value=witnessed.value, candidate=witnessed.candidate, on_topic=True,
                       reason=f"the testimonium says when it was executed ({witnessed.value}); the preamble's {front.value} is when it takes effect")
    return Reading(choices=[c for c in (front.candidate, witnessed.candidate) if c is not None], on_topic=True,
                   reason=f"the preamble dates the agreement {front.value}, the testimonium {witnessed.value}")


def uses_rule(q: GridQuestion) -> bool:
    """Is ``q`` answered by rule (a typed question)?"""
    return q.type in RULE_TYPES


def front_texts(texts: Sequence[str]) -> list[str]:
    """The opening passages the parties rule reads: at least :data:`FRONT_PASSAGES`, and on up to :data:`FRONT_CHARS` characters, so
    that a title page split into short passages ("SERVICE AGREEMENT", "1 OCTOBER 2019", ...) does not hide the "BETWEEN:" preamble;
    contents passages are skipped. The preamble's date keeps the first two passages: read further (up to 3,000 or 20,000
    characters) it answered more date cells but a fifth of the new ones wrong on the CUAD tune split and report[0:180]."""
    out: list[str] = []
    for t in texts:  # a contents passage stays as "" (passage indices hold) and counts for nothing
        if sum(1 for x in out if x) >= FRONT_PASSAGES and sum(len(x) for x in out) >= FRONT_CHARS:
            break
        out.append("" if is_contents(t) else t)
    return out


def read(q: GridQuestion, passages: Sequence[Passage], term_clause: bool = True) -> Reading:
    """The rule's reading of ``q`` over an agreement's ``passages`` (document order); ``term_clause``: a question about
    when the agreement ends may be read from its term clause (:func:`term_as_end`)."""
    texts = [p.text for p in passages]
    if q.type == "party":
        return read_parties(front_texts(texts))
    if q.type == "date" and q.front_matter:  # the agreement's own date: the preamble rule
        return read_front_date(texts[:FRONT_PASSAGES])
    kind = preamble_date_kind(q.category or q.question) if q.type == "date" else ""
    if kind:  # when it was made, or takes effect: the preamble says it first ("dated as of", "the Effective Date")
        front = read_front_date(texts[:FRONT_PASSAGES], prefer=kind)
        signed = signature_dates(texts) if kind == "made" else []
        if signed and not q.category and SIGNING.search(q.question) and (front.value not in signed or len(signed) > 1):
            return last_signature(texts, front.value)  # "when did they sign it?": the last signature block's date, not "as of"
        if front.value and signed and front.value not in signed:  # "as of October 1" but signed in July: two answers
            return Reading(choices=[front.candidate] if front.candidate else [], on_topic=True,
                           reason=f"the preamble dates the agreement {front.value}, the signature blocks {', '.join(signed)}")
        if front.value and kind == "made" and not signed and not q.category and SIGNING.search(q.question):
            return _executed(texts, front)
        if front.value:
            return front
        made = read_front_date(texts[:FRONT_PASSAGES], prefer="made") if kind == "effective" else front
        starts = takes_effect_when_made(texts) if made.value else ""
        if starts:  # "the term ... shall commence on the date hereof": it starts on the day the preamble dates it
            return Reading(value=made.value, candidate=made.candidate, on_topic=True,
                           reason=f"it takes effect on the agreement's own date (\"{starts[:120]}\"); the preamble dates it {made.value}")
        # "effective March 1, 2020", "commence": another start; and CUAD's Effective Date (the preset) is left blank when it is
        # the agreement's date, so only a user's question reads the agreement's own date as its start
        other_start = kind == "effective" and (bool(q.category) or any(OTHER_START.search(t) for t in texts))
        witnessed = testimonium_date(texts) if not made.value and not other_start else None
        if witnessed is not None:  # a preamble with no date: "IN WITNESS WHEREOF, ... executed this Agreement as of this 4th day of April, 2003"
            return witnessed
        if kind == "effective":
            started = start_date_defined(texts) or (dated_as_start(made) if not other_start else term_begins(texts) or event_start(texts))
            if started is not None:
                return started
        # elsewhere, only a sentence about this agreement dates it ("... the Mutual Confidentiality
        # Agreement, which was effective July 17, 2009" dates another one)
        texts = [t if re.search(r"\bthis\s+agreement\b", t, re.IGNORECASE) else "" for t in texts]
    # a question's category, when it has one ("Renewal Term", "Governing Law"), names its topic in
    # a few words; a long descriptive question ("... after the initial term expires, including
    # automatic extensions?") would require every one of its words. Written terms are alternatives
    # for the topic check, too loose to pick a value ("extension of such 10-day period").
    r = read_typed(q.type, q.category or q.question, texts, everyday=not q.category)
    said = _sentence(texts, r.candidate)  # the sentence the question's own words read the value from ("" when none)
    if term_clause and q.type == "date" and r.candidate is not None and asks_term_end(q.category, q.question):
        ended = span_first(texts, r)  # "When does it all end?": the term clause's two dates before a fee's last instalment
        if ended is not None:
            return ended
    if term_clause and q.type == "date" and r.candidate is None and not (r.choices and ISO_DAY.fullmatch(r.choices[0].key)):
        return term_as_end(q.category, q.question, texts, r, FRONT_PASSAGES)
    if term_clause and q.type == "date" and r.candidate is None and r.choices:
        # several dates on topic: the term clause that runs from one to another ("shall commence on March 15, 2018 and
        # will expire on March 14, 2020") decides, when its end date is one of them
        span = term_span(texts) if q.category == "Expiration Date" or (not q.category and asks_end(q.question)) else None
        if span is not None and span[2] in {c.key for c in r.choices}:
            return Reading(value=span[2], candidate=span[0], on_topic=True, reason=f"the term clause runs from {span[1]} to {span[2]}")
    if q.type == "jurisdiction":
        by_clause = _jurisdiction_by_clause(q, texts, r, said)
        if by_clause is not None:
            return by_clause
    if q.type == "duration" and not q.category:
        # "how much time do they have to fix it?", "how many days do we get to pay an invoice?": the clauses that give the
        # time to cure a breach or to pay an invoice answer first (the question's words can single out a period of another
        # event in a clause headed "Payment": a new user's tryout read "approve a price change within three days")
        by_period = _period_by_reader(q, texts, r)
        if by_period is not None:
            return by_period
        # (not "What length of initial term ..., before any renewal?": a keyed dev set read the renewal's year)
        instead = renewal_instead(said, r.value) if said and asks_renewal(q.question) and r.candidate is not None else ""
        if instead and r.candidate is not None:  # "How long does each renewal last?": not the initial term the same sentence states
            return Reading(value=instead, candidate=replace(r.candidate, value=instead, key=instead), on_topic=True,
                           reason=f"the renewal's period in the sentence read ({instead}), not the initial term's ({r.value})")
        if said and not about_period_asked(q.question, said):
            return _withheld(r, f"the period read ({r.value}) is not the time asked for "
                           "(a breach's cure, a payment falling due)")
    if q.type == "amount" and not q.category and asks_late_charge(q.question):
        # "If the money comes in late, what does that cost them?": the clause that charges for a late payment answers first (the
        # question's words found a "5%" royalty or an interest rate the question named no interest for)
        late = late_charge(texts)
        if late.candidate is not None:
            return late
        if said and not on_late_payment(said):  # "a trust ... in which the undersigned ... has a 10% interest" (a keyed dev set)
            return _withheld(r, f"the figure read ({r.value}) is not said of a late payment")
    if (q.type == "amount" and not q.category and not _INTEREST.search(q.question) and not asks_late_charge(q.question)
            and r.value.endswith("%") and _INTEREST.search(said)):
        return _withheld(r, f"the figure read ({r.value}) is an interest rate, not what is asked")  # a royalty read from a late payment
    if q.type == "amount" and not q.category and _INTEREST.search(q.question):
        # "What interest rate applies to late payments?": a rate said of interest, not "liquidated damages ... within 30% of the down
        # payment" nor a service fee's share of sales
        if said and not _INTEREST.search(said):
            return _withheld(r, f"the figure read ({r.value}) is not said of interest")
        return r
    if q.type == "amount" and r.candidate is None and not q.category and amount_kind(q.question) == "percent":
        # "what percentage cut is involved - royalty, commission or discount?": a share of revenues, sales or royalties the
        # agreement pays, when the question's words single out none (grid.periods.percent_share)
        share = percent_share(texts)
        if share.candidate is not None:
            return share
    if q.type == "duration" and not q.category and (asks_length(q.question) or asks_first_term(q.question)):
        # "how long does the agreement last?": its term clause's one period, or that it sets no end -- first (the question's
        # words "initial term" also meet a renewal's "at the end of the Initial Term ... on a year to year basis")
        term = term_reading(texts)
        if _breach_time(_sentence(texts, term.candidate)):
            term = Reading()  # "such failure shall have continued without cure for a period of 30 days": a breach's time, not the term
        if term.candidate is None and r.candidate is not None and not asks_length(q.question):
            return r  # a first term asked that no term clause states: the words' value, for the gates after this reading
        if term.candidate is None and _RENEWS.search(said):
            return _withheld(r, f"the period read ({r.value}) is a renewal's, not the term's")
        if term.candidate is None and said and (CONDITIONAL.match(said) or _breach_time(said) or not _TERM_WORDS.search(said)):
            # "If ... for a period of at least twelve (12) consecutive Months, either Party shall be entitled to terminate", "Any Party may
            # terminate this Agreement ... at any time upon prior written notice of 30 days": a condition's or a notice's period
            return _withheld(r, f"the period read ({r.value}) is not said of the term")
        return term if term.candidate is not None else r
    return r


def _jurisdiction_by_clause(q: GridQuestion, texts: Sequence[str], r: Reading, said: str) -> Reading | None:
    """"which place's laws decide it?", "where would we go to fight it out?": the governing-law or the forum clause answers first
    (clauselens.grid.forum; the question's words alone read "the bankruptcy ... laws of the United States"); a forum asked where no
    clause names one is not read from a sentence that names no court, arbitration or venue ("duly qualified ... under the laws of
    ... the Commonwealth of Pennsylvania", a keyed dev set); ``None``: the question's words' reading ``r`` stands."""
    asked_forum = not q.category and asks_forum(q.question)
    either = not q.category and asks_law_or_forum(q.question)  # "what's the jurisdiction of the contract?"
    by_clause = (governing_law(texts) if q.category == "Governing Law" or (not q.category and asks_law(q.question))
                 else forum(texts, q.question) if asked_forum else law_or_forum(texts) if either else None)
    if by_clause is not None and (by_clause.candidate is not None or either and len(by_clause.choices) > 1):
        return by_clause
    if _INSOLVENCY.search(said):
        return _withheld(r, f"{r.value} is named for an insolvency's laws, not this agreement's")
    if asked_forum and r.candidate is not None and not names_forum(said):
        return _withheld(r, f"{r.value} is read from a sentence that names no court, arbitration or venue")
    return None


def _period_by_reader(q: GridQuestion, texts: Sequence[str], r: Reading) -> Reading | None:
    """A user's period question answered by a reader of the kind of clause it asks about (a cure, a payment, the notice that ends
    the agreement or stops its renewal) before the question's own words (``r``); ``None`` when none of them answers."""
    by_period = cure_period(texts) if asks_cure(q.question) else payment_term(texts) if asks_payment_term(q.question) else None
    if by_period is not None and by_period.candidate is not None:
        return by_period
    by_notice = unconditional_notice(texts, r) if asks_notice(q.question) else None
    if by_notice is not None:  # "how much notice to get out of it?": not a change of control's notice
        return by_notice
    if not r.choices and asks_renewal(q.question) and not asks_notice(q.question) and (
            r.candidate is None or not RENEWS_FOR.search(_sentence(texts, r.candidate))):
        # "If it carries on after the first term, tell me how long each renewal runs." where the question's words find no period, or
        # one in a sentence that renews nothing for further periods ("3.3 Renewal of Existing Agreement ...", a keyed dev set)
        by_period = renewal_length(texts)
        if by_period.candidate is not None:
            return by_period
    asked = asks_end_notice(q.question) if r.candidate is None and not r.choices else ""
    if asked:
        # "how far ahead do we have to tell them to stop it renewing, or to just walk?" where the question's words find no
        # period: the clauses that end or stop renewing the agreement (as asked) for no breach or event
        by_period = end_notice(texts, asked)
        if by_period.candidate is not None:
            return by_period
    return None


def _withheld(r: Reading, reason: str) -> Reading:
    """``r``'s value kept as a choice, not the answer, for ``reason`` (the cell is then unverified, its value named)."""
    return Reading(choices=[r.candidate] if r.candidate is not None else [], on_topic=True, reason=reason)


def _sentence(texts: Sequence[str], c: Candidate | None) -> str:
    """The sentence a candidate value was read from, or ``""``."""
    return texts[c.passage][c.start:c.end] if c is not None else ""


def _breach_time(sentence: str) -> bool:
    """Is ``sentence`` about a breach and not the term ("such failure shall have continued without cure for a period of 30
    days")? Its period is then no term's length."""
    return bool(BREACHES.search(sentence)) and not re.search(r"\bterm\b", sentence, re.IGNORECASE)


#: A sentence about how long the agreement runs: its term, continuing, remaining in effect, expiring.
_TERM_WORDS = re.compile(r"\bterm\b|\bcontinu\w*|\bremain\w*\s+in\s+(?:full\s+)?(?:force|effect)|\bin\s+(?:full\s+)?(?:force|effect)\s+for\b|"
                         r"\bexpir\w*|\bduration\b|\bperiod\s+of\b", re.IGNORECASE)
_INTEREST = re.compile(r"\binterest\b", re.IGNORECASE)
#: Insolvency law named in an event of default ("under the bankruptcy, insolvency or equivalent laws of the United States").
_INSOLVENCY = re.compile(r"\b(?:bankrupt\w*|insolven\w*|receivership|liquidat\w*)\b", re.IGNORECASE)
#: A sentence about renewing or extending the agreement (its period is not the term's).
_RENEWS = re.compile(r"\b(?:renew\w*|extend\w*|extension)\b", re.IGNORECASE)
#: A non-compete question that asks about poaching too ("blocked from working like a competitor, or from taking the other side's
#: workers or customers?"; a keyed dev set read "No" where a customer non-solicitation never says "compete").
_STAFF_OR_CUSTOMERS = re.compile(r"\b(?:workers?|staff|employees?|people|personnel|customers?|clients?|poach\w*|solicit\w*|hir(?:e|es|ing))\b",
                                 re.IGNORECASE)
#: An ISO calendar day, the key of a date candidate (a period's key is "5 years").
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")




def _as_written(stem: str, quote: str) -> str:
    """A topic group's stem as the quote writes it ("notic" -> "notice"), for the cell's reason (a new user's tryout read
    "the clause on notic" as a typo); the stem itself when the quote does not use it."""
    if "|" in stem:  # a group of alternatives ("commiss|discount|revenu|royalti|share"): the one the quote writes
        alts = [_as_written(a, quote) for a in stem.split("|")]
        return next((w for w, a in zip(alts, stem.split("|")) if w != a or re.search(r"\b" + re.escape(a) + r"\b", quote, re.I)), alts[0])
    m = re.search(r"\b" + re.escape(stem) + r"[a-z]*", quote, re.IGNORECASE) if stem.isalpha() else None
    return m.group(0).lower() if m else stem


def rule_cell(base: dict[str, Any], q: GridQuestion, passages: Sequence[Passage], term_clause: bool = True) -> Cell:
    """The cell of ``q`` read by rule from one agreement's ``passages`` (see the module docstring)."""
    base = {**base, "check": CHECK_VERSION, "passages": len(passages), "reply": None}
    if q.type == "party" and not asks_all_parties(q.category or q.question):  # "which side provides the goods?"
        noun = unworded_role(q.question, [p.text for p in passages])
        if noun:  # "Who is the distributor?" of an outsourcing agreement: no such party
            return Cell(**base, status="not found", answer="", reason=f"the agreement never uses the wording of a {noun} (no such party)")
        return role_cell(base, q, passages) or Cell(
            **base, status="unverified", answer="", reason="the question asks for one party by its role and the preamble's defined "
                                                           "terms do not name one party on that side, so the cell is left for a reviewer")
    r = read(q, passages, term_clause)
    if r.candidate is None:
        if r.choices:
            return Cell(**base, status="unverified", answer="", reason=r.reason + "; no single value, none shown")
        return Cell(**base, status="not found", answer="", reason=r.reason)
    c = r.candidate
    if not q.category and c.groups == OPEN_GROUPS:  # "On what date does it finish?", "How long are we locked in?" of one run "until
        # terminated": no date and no length to give (the keyers of four development sets held such cells unanswerable); the preset keeps it
        return Cell(**base, status="not found", answer="", reason=f"{r.reason} ({r.value}): it states no end date and no length")
    p = passages[c.passage]
    m = find_quote(p.text[c.start:c.end], p.chunk_id, p)
    if m is None:  # cannot happen for text cut from the passage; never shown unverified
        return Cell(**base, status="unverified", answer="", reason="the rule's sentence is not verbatim in its passage")
    quote = " ".join(m.text.split())
    if c.groups == OPEN_GROUPS:  # the clause's own phrase ("indefinitely", "until terminated"), checked as a phrase of the quote
        checked = check_value("duration", r.value, quote)
    elif c.groups == SPAN_GROUPS:  # the term clause's two dates: the end date, or the whole period between them, as it states
        span = term_span([quote])
        checked = check_value("date", r.value, quote) if q.type == "date" else check_value(
            "duration", r.value, span_period(span[1], span[2]) if span else "no period")
    elif c.groups == TERM_GROUPS:  # the term clause's period (the answer, or the end date computed from it) is what it states
        stated = term_periods(quote)
        checked = check_value("duration", stated[0][0] if stated else r.value, quote)
    else:
        checked = check_value(q.type, r.value, quote)
    if checked.reason:
        return Cell(**base, status="unverified", answer="", model_quote=quote[:1000], reason=f"{checked.reason}; quote withheld")
    groups = ", ".join(dict.fromkeys(_as_written(g, quote) for g in c.groups if not g.startswith("concept:"))) or "its topic"
    if not r.reason and not q.category and (q.type == "duration" and not (asks_notice(q.question) and _ends_or_renews(quote))
                                            and not (asks_renewal(q.question) and RENEWS_FOR.search(quote))
                                            or q.type == "amount" and ceiling_asked(q.question)):
        return Cell(**base, status="unverified", answer="", model_quote=quote[:1000], candidate=r.value,
                    reason=f"{UNCORROBORATED_READ} on {groups} reads {r.value}, but no reader of that kind of clause confirms it; left for "
                           "a reviewer (no model)")
    return Cell(**base, status="answered", answer=r.value, quote=quote, clause=p.clause_ref or "", page=p.page_start,
                link=source_link(p.source_path or base.get("source_path", ""), p.page_start),
                quote_spans=[[s.start, s.end] for s in m.doc_spans], top_spans=[[s.start, s.end] for s in p.spans],
                reason=f"{r.reason}; read by rule (no model)" if r.reason else f"{QUESTION_WORDS_READ}{groups} (no model)")


def yes_no_cell(base: dict[str, Any], q: GridQuestion, passages: Sequence[Passage]) -> Cell | None:
    """The yes/no cell of ``q`` when the agreement's sentences decide it
    (:func:`clauselens.grid.yes_no.read_yes_no`), else ``None`` (the model is asked, and its answer
    checked against its quote). "Yes" / "No" with a quote are *answered*; "No" because no sentence of
    the agreement is about the topic is *not found* with the answer "No"."""
    r = read_yes_no(q.question, [p.text for p in passages])
    if not r.answer:
        return None
    base = {**base, "check": CHECK_VERSION, "passages": len(passages), "reply": None}
    if r.passage < 0:
        return Cell(**base, status="not found", answer="No", reason=r.reason)
    p = passages[r.passage]
    return quoted_cell(base, p, r.start, r.end, r.answer, r.reason)


def _uses_question_words(question: str, sentence: str) -> bool:
    """Does ``sentence`` say one of the question's contract words (its vocabulary groups,
    :func:`clauselens.grid.groups.contract_vocabulary`)? True when the question has none (nothing to check)."""
    vocab = contract_vocabulary(topic_groups(question))
    if not vocab or term_hits(vocab, sentence):
        return True
    # the concept's own name in another form of the word: "competitors" asked, "shall not compete" written (a new user's
    # tryout: two non-compete clauses were left unverified); six letters make a word family, as for absent topics
    named = {w[:6] for g in vocab if g.name.startswith("concept:") for w in re.findall(r"[a-z]+", g.name.lower()) if len(w) >= 6}
    asked = {w[:6] for w in re.findall(r"[a-z]+", question.lower()) if len(w) >= 6} & named
    return bool(asked & {w[:6] for w in re.findall(r"[a-z]+", sentence.lower()) if len(w) >= 6})


def head_yes_no_cell(base: dict[str, Any], q: GridQuestion, passages: Sequence[Passage], rh: RowHeads | None) -> Cell | None:
    """The yes/no cell of a user's question decided by the heads (:func:`clauselens.grid.heads.head_yes_no`),
    else ``None`` (the heads cannot read it). "Yes" quotes the sentence the presence head scores highest;
    "No" (no such clause) is *not found* with the answer "No"; the unclear band is *unverified* with no
    answer -- unless the agreement's sentences decide it with a quote (:func:`yes_no_cell`)."""
    texts = [p.text for p in passages]
    h = head_yes_no(q.question, texts, rh)
    if h is None:
        return None
    base = {**base, "check": CHECK_VERSION, "passages": len(passages), "reply": None}
    if h.answer == "Yes" and not _uses_question_words(q.question, passages[h.passage].text[h.start:h.end]):
        # the topic head read the question as another clause kind ("hand the agreement over" as exclusivity, P 0.57: a new
        # user's tryout) and its clause says none of the question's contract words: no answer shown
        ev = yes_no_cell(base, q, passages)
        return ev if ev is not None and ev.status == "answered" else Cell(
            **base, status="unverified", answer="",
            reason=h.reason.split(";")[0] + "; but the clause it finds uses none of the question's words, so no answer is shown")
    if h.answer == "Yes" and rh is not None and not states_clause(h.category, passages[h.passage].text[h.start:h.end]):
        # "Any of the Parties may at its own expense insure against such risks" (no one's duty), "MediaLinx shall not use or publicly
        # disclose the data" for a non-compete: the sentence the head scores highest does not say it; another may
        j = rh.categories.index(h.category)
        at = clause_sentence(h.category, texts, [int(i) for i in np.argsort(-rh.passage_probs[:, j]) if rh.passage_probs[i, j] > 0])
        if at is None:
            return Cell(**base, status="unverified", answer="", reason=h.reason.split(";")[0] + "; the presence head finds such a clause, "
                        "but no sentence of the agreement says it in the words such clauses use, so no answer is shown")
        h = h.__class__(h.answer, h.category, h.reason, *at)
    if h.answer == "Yes":
        return quoted_cell(base, passages[h.passage], h.start, h.end, "Yes", h.reason) or Cell(
            **base, status="unverified", answer="", reason=h.reason + "; its passage could not be quoted")
    if h.answer == "No":
        return Cell(**base, status="not found", answer="No", reason=h.reason)
    ev = yes_no_cell(base, q, passages)
    if ev is not None and ev.status == "answered":  # a sentence that states it decides what the head leaves open
        return ev
    at = exclusive_sentence(texts) if h.category == "Exclusivity" and h.passage < 0 else None
    if at is not None:  # "each Party hereby provides a worldwide, exclusive, royalty free, perpetual license": it says so itself
        return quoted_cell(base, passages[at[0]], at[1], at[2], "Yes", h.reason.split(";")[0] + "; the presence head is unsure, but "
                           "this sentence grants or appoints something exclusively in those words (no model)") or Cell(
            **base, status="unverified", answer="", reason=h.reason)
    word = never_worded(h.category, texts)
    if word and h.category == "Non-Compete" and _STAFF_OR_CUSTOMERS.search(q.question) and not never_worded("No-Solicit Of Employees", texts):
        word = ""  # "... or from taking the other side's workers or customers?": a non-solicitation says "solicit", "hire", "employ"
    if word:  # "is there a non-compete?" where "compet..." never occurs (the head read the question with the category's polarity)
        return Cell(**base, status="not found", answer="No", reason=h.reason.split(";")[0] + f"; the agreement never uses the word "
                    f"\"{word}\"..., which such clauses are written with (no model)")
    return Cell(**base, status="unverified", answer="", reason=h.reason)


def category_rule_cell(base: dict[str, Any], q: GridQuestion, passages: Sequence[Passage], rh: RowHeads | None) -> Cell | None:
    """A typed user question whose own words found nothing, read again as the CUAD preset question of the
    category the topic head reads (same answer type) over the opening passages and the passages the
    presence head scores highest for it (:mod:`clauselens.grid.heads`); ``None`` when the heads cannot
    read it or that reading finds nothing either."""
    got = category_question(q) if rh is not None else None
    if got is None or rh is None:
        return None
    cq, topic = got
    if topic.category in _START_CATEGORIES and (asks_end(q.question) or (not preamble_date_kind(q.question) and topic.probability < SURE_START)):
        # "on what day does this whole arrangement wrap up?" read as Effective Date (P 0.96), "when's it done?" (P 0.64), "Until what
        # date does the agreement run?" (P 0.61): a question whose own words do not ask when it was made or starts is read as the
        # agreement's date only when the topic head is sure of it
        return None
    if (topic.category == "Expiration Date" and preamble_date_kind(q.question) and not asks_end(q.question)) or (
            topic.category == "Renewal Term" and asks_length(q.question) and not _RENEWS.search(q.question)):
        return None  # "When did both sides sign off on this thing?" read as Expiration Date (P 0.92): a signing is no end; "what is the
        # length of the initial term?" read as Renewal Term (P 0.81): the term is no renewal
    keep = category_passages([p.text for p in passages], rh, topic.category)
    chosen = [p if k else p.model_copy(update={"text": ""}) for p, k in zip(passages, keep)]
    cell = rule_cell(base, cq, chosen, term_clause=asks_end(q.question))  # the term clause answers only when it ends is asked
    if cell.status == "not found":
        return None
    said = f"the question reads as one about {topic.category.lower()} (topic head P {topic.probability:.2f}); "
    if cell.status == "answered" and OPEN_ENDED.match(cell.answer.strip()):  # a user's date or length of a term "until terminated":
        # not found, as when the question's own words read it (the preset's Expiration Date keeps the phrase; a keyed dev set)
        return Cell(**base, status="not found", answer="", reason=f"{said}{cell.reason} ({cell.answer}): it states no end date and no length")
    return cell.model_copy(update={"reason": said + cell.reason, "passages": len(passages)})


#: The topic head's probability above which a date question in other words is read as the agreement's own date (the two
#: misreadings of two tryouts had P 0.61 and 0.64; chosen from them, not from any benchmark).
SURE_START = 0.8
#: The categories of when an agreement is made or starts: never the reading of a question about when it ends.
_START_CATEGORIES = frozenset({"Effective Date", "Agreement Date"})


#: A value found by the question's words alone (no reader of the kind of clause asked about -- the term, a renewal, a notice,
#: a payment, a cure -- chose the sentence) does not answer a period or a ceiling: on the first read of seven keyed development
#: sets written blind to the code (dev12-dev18, 42 train_allowed agreements) such periods were wrong 10 times in 24 and such
#: ceilings 4 times in 4 (a renewal's length for the first term, an inspection's notice for the notice to end, a bonus's share
#: price for a cap on liability), against 0 in 41 for dates and 1 in 8 for other sums read the same way. A user's question (no
#: CUAD category) keeps the value for a reviewer (``candidate``), unverified, unless the question read as its topic head's
#: category finds the same value (:func:`cross_checked`).
#: ... except a notice period read from a sentence about ending or renewing the agreement (the notice readers chose it: 2 right in
#: 2 on those first reads; an inspection's "two weeks' written notice" is not one).
#: (not "the non-extendable due date for the filing of a national phase application", a keyed dev set)
_ENDING = re.compile(r"(?<!-)\b(?:terminat\w*|cancel\w*|renew\w*|expir\w*|extend(?:s|ed)?\b|extension\w*|withdraw\w*)", re.IGNORECASE)
#: ... not a period's own expiry ("upon the expiration of the such 30-day notice period submit such dispute to arbitration"), nor a
#: dispute's steps (a keyed dev set: a dispute's notice answered "how much notice to stop it rolling on?").
_PERIOD_EXPIRES = re.compile(r"\bexpir\w*\s+of\s+(?:the\s+)?(?:such\s+)?[\w\s()-]{0,30}?\bperiod\b", re.IGNORECASE)
_DISPUTE = re.compile(r"\bdisputes?\b|\barbitrat\w*", re.IGNORECASE)


def _ends_or_renews(sentence: str) -> bool:
    """Is ``sentence`` about ending or renewing the agreement (:data:`_ENDING`, not a period's expiry nor a dispute's steps)?"""
    return bool(_ENDING.search(_PERIOD_EXPIRES.sub(" ", sentence))) and not _DISPUTE.search(sentence)
#: ... and a renewal's length, asked as such, read from a sentence that renews or extends for further periods
#: (:data:`clauselens.grid.periods.RENEWS_FOR`: "shall automatically renew for consecutive one (1) year terms"; the paraphrase
#: benchmark's Renewal Term: 160 right / 15 wrong before the gate, 62 / 3 with it).
UNCORROBORATED_READ = "the sentence the question's words find"
#: The reason of a typed cell whose value only the question's words found, as answered (:mod:`clauselens.grid.corroborate` checks it).
QUESTION_WORDS_READ = "read by rule from the clause on "


def checks_category(own: Cell) -> bool:
    """Is a typed cell read from the question's own words one :func:`cross_checked` reads again as the topic head's category
    (it answered, found nothing, or found a value nothing confirmed)?"""
    return own.status in ("answered", "not found") or own.status == "unverified" and bool(own.candidate)


def cross_checked(own: Cell, by_category: Cell | None) -> Cell:
    """A typed cell read from the question's own words (``own``) and again as the topic head's category
    (``by_category``, :func:`category_rule_cell`; None: that reading found nothing): the own reading when
    the other found nothing or the same value; the category's when the own words found nothing or only a value no reader of
    its kind confirmed (``candidate``); and
    when both answered with different values, *unverified* with both named (fresh phrasing: "if nobody
    stops it, how long does it carry on each time?" read the initial term by its words, the renewal
    term as its category)."""
    if by_category is None:
        return own
    if own.status == "unverified" and own.candidate:
        # a value only the question's words found: the category's reader of that kind of clause answers (it confirms that value
        # or reads the clause it is about); otherwise the value stays with the reviewer
        return by_category if by_category.status == "answered" else own
    if own.status != "answered":
        return by_category
    if by_category.status == "answered" and by_category.answer != own.answer:
        return own.model_copy(update={"status": "unverified", "answer": "", "quote": "", "quote_spans": [], "model_quote": own.quote,
                                      "reason": f"the question's words read {own.answer}; {by_category.reason.split(';')[0]}, "
                                                f"which reads {by_category.answer}; no single value, none shown"})
    return own


__all__ = ["FRONT_PASSAGES", "QUESTION_WORDS_READ", "RULE_MODEL", "category_rule_cell", "checks_category", "cross_checked", "head_yes_no_cell",
           "read",
           "role_cell", "rule_cell", "uses_rule", "yes_no_cell"]
