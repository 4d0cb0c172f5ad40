"""The agreement's term stated as a period: the answer to "when does it end?" when no calendar date is written.

Many agreements never write their end date; they state the term as a period from the start ("This Agreement shall
commence on the Effective Date and continue for an initial term of five (5) years"; "The initial term of this Agreement
shall be three (3) years from the date hereof"). A user's question about when the agreement ends is then answered with
that period, quoted from its sentence, read by rule (issue #45: a value derivable from the quote by a stated rule):

* the sentence names **this agreement's term** as its subject ("this Agreement", "the initial term [of this
  Agreement]", the defined "Term" / "Initial Term") before the period, and a verb of duration links them ("shall
  continue / remain in effect / be / expire / terminate / end / run / last"), within :data:`REACH` characters;
* nothing before the period in the sentence speaks of another duration: survival ("shall survive ... for five
  years"), renewal or extension, notice, a cure or breach, a lower bound ("the later of ..."), "thereafter";
* the period is not itself a notice ("sixty (60) days prior ...") or a threshold;
* all such sentences of the agreement state one period: several different ones are left *unverified*.

This is the drafting convention of a term clause (e.g. the ABA's *Model Asset Purchase Agreement* and the term clauses
CUAD annotates as "Expiration Date"); it reads no question words, so it generalises to any wording of the question.
Pure functions; no I/O.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Sequence

from clauselens.grid.extract import Candidate, Reading, read_front_date, sentences_of
from clauselens.grid.roles import PROVIDER_ROLES, RECIPIENT_ROLES
from clauselens.grid.values import ONE_DATE, content_words, durations_at, durations_in, parse_date
from clauselens.grid.whose import after_the_end, ends_on

#: The topic groups of a reading from the term clause (:attr:`clauselens.grid.extract.Candidate.groups`).
TERM_GROUPS = ("term",)
#: ... and of a term clause that sets no end (:func:`open_ended`).
OPEN_GROUPS = ("term", "open")
#: ... and of a term clause that runs from one date to another (:func:`term_span`).
SPAN_GROUPS = ("term", "span")
#: Characters between the term's subject and its period.
REACH = 160

#: The subject: this agreement, or its (initial / original) term. "Term" alone only as the defined, capitalised word.
_SUBJECT = re.compile(r"\b(?:[Tt]his\s+(?:[A-Z][\w-]*\s+){0,4}(?:Agreement|AGREEMENT|Contract|CONTRACT|contract)"
                      r"|(?:[Tt]he|[Ii]ts)\s+(?:[Ii]nitial|[Oo]riginal|[Pp]rimary)\s+[Tt]erm"
                      r"(?:\s+of\s+this\s+(?:[A-Z][\w-]*\s+){0,4}(?:Agreement|AGREEMENT|Contract|CONTRACT))?"
                      # ... "The term of the agreement is 20 years" (a translated agreement; a keyed dev set)
                      r"|[Tt]he\s+[Tt]erm\s+of\s+(?:this|the)\s+(?:[A-Z][\w-]*\s+){0,4}(?:Agreement|AGREEMENT|Contract|agreement|contract)"
                      r"|(?:[Tt]he\s+)?(?:Initial\s+)?Term\b(?!\s+of\s+(?!this)))")
#: A verb of duration after the subject.
_VERB = re.compile(r"\b(?:continu\w*|remain\w*|be|is|expir\w*|terminat\w*|end\w*|run\w*|last\w*|in\s+effect|in\s+force)\b",
                   re.IGNORECASE)
#: The subject governs the sentence: a modal follows it (after a parenthetical or a comma-delimited insert: "This
#: Agreement, unless earlier terminated as provided below, shall ..."), and no preposition precedes it ("Termination of
#: this Agreement shall be effective thirty (30) days ..."; "records ... pursuant to this Agreement shall be provided ...").
_MODAL_NEXT = re.compile(r"\s*(?:\([^)]{0,80}\)\s*)?,?\s*(?:[^.;]{0,140}?,\s*)?(?:shall|will|is|are|must|to|continues|remains)\b")
_PREPOSITION_BEFORE = re.compile(r"\b(?:of|to|under|in|with|by|for|from|upon|on|hereunder|pursuant\s+to|than|"
                                 r"if|event|when|whenever|unless|until|once|whether|where|after)\s*$", re.IGNORECASE)
#: Words before the period that make it another duration than the term's.
_OTHER = re.compile(r"\b(?:prior\s+to|before|within|basis|shorter|longer|less\s+than|more\s+than|earlier\s+than|at\s+least|minimum|"
                    r"after\s+(?:the\s+)?(?:initial|original)\s+term|surviv\w*|renew\w*|extend\w*|extension|notic\w*|cure\w*|"
                    r"breach\w*|thereafter|later\s+(?:to\s+occur\s+)?of|default\w*|payment|pay|confidential\w*|warrant\w*|"
                    r"non-?compet\w*|solicit\w*|after\s+(?:the\s+)?(?:expir|terminat)\w*|following\s+(?:the\s+)?(?:expir|terminat)\w*|"
                    r"post-?terminat\w*)\b", re.IGNORECASE)
#: "this 14 day of June 2006", "this 14 day of SEPTEMBER, 200_": a date's day, not a period.
_DAY_OF = re.compile(r"\s+of\s+[A-Z][A-Za-z]+")
#: After the period: a notice or a deadline ("sixty (60) days prior to", "in advance", "notice").
_AFTER = re.compile(r"^\W*(?:(?:prior|advance|written|notice|before|in\s+advance|of\s+notice|after\s+receipt|within)\b|"
                    # "automatically one year after the closing of any sale of the Company" (a keyed dev set): an event's time, not the term
                    r"after\s+(?:the\s+)?(?:closing|consummation|occurrence|completion)\s+of\s+(?:any|a|such)\b)", re.IGNORECASE)

#: A question about when the agreement ends: one of these words, and otherwise only :data:`_FRAME` words.
_END_ASKED = re.compile(r"\b(?:end|ends|ending|finish\w*|expir\w*|over|done|run\s+out|runs\s+out|wrap\w*\s+up|conclu\w*|last|final|sunset\w*|"
                        r"stop\w*|ceas\w*|terminat\w*|in\s+(?:force|effect)|valid|lapse\w*|up(?=\W*$)|"  # "When's the contract up?"
                        r"until|till)\b", re.IGNORECASE)  # "Until what date does it run?"
_FRAME = frozenset("date day calendar when what which exactly exact actually actual real finally naturally agreement contract deal arrangement "
                   "term time point effect force does do did will would s it our your this these come comes first initial "
                   "original current period whole entire overall full until till run runs go goes all everything thing just plain simple basic lasts "
                   # a courteous asker's words: "might you tell me on what date the agreement would come to its close?" (a keyed dev set)
                   "might could kindly please tell let know wonder wondering you me"
                   .split())  # "it all", "Just the plain end date"


#: A few words before a colon that set the scene ("Mark my calendar:", "Cash-flow question:"), not the question's topic.
_LEAD_IN = re.compile(r"^\s*(?:[\w'’-]+\s+){0,5}[\w'’-]+\s*:\s+(?=\S)")


def _without_lead_in(question: str) -> str:
    """``question`` without a lead-in (:data:`_LEAD_IN`) that names no contract topic (no thesaurus concept by its lay phrase
    or its name's words, no everyday word with contract wording): "Mark my calendar: on what date does this contract finish?"
    asks when it ends, "Confidentiality: when does it end?" does not."""
    from clauselens.grid.topic import CONTEXT_DASH, EVERYDAY, concept_name_stems, telling_concepts, topic_stems

    m = _LEAD_IN.match(question) or CONTEXT_DASH.match(question)
    stems = set(topic_stems(m.group(0))) if m else set()
    if m is None or telling_concepts(m.group(0)) or stems & (set(EVERYDAY) | concept_name_stems()):
        return question
    return question[m.end():]


#: Words that name a side: the role nouns (:data:`clauselens.grid.roles.PROVIDER_ROLES`, :data:`~clauselens.grid.roles.RECIPIENT_ROLES`).
_PARTY_WORDS = PROVIDER_ROLES | RECIPIENT_ROLES | frozenset("party side either each other company".split())


def _asks_only(question: str, asked: re.Pattern[str], frame: frozenset[str], relaxed: bool = False) -> bool:
    """Does ``question`` use ``asked`` and otherwise only ``frame`` words (nothing else it could be about)? ``relaxed``: or words
    that name no contract topic and no party ("For the amortisation schedule, what is the expiry date ...?", "... on what date
    does our exposure under this run out?", not "When does the confidentiality obligation end?" nor "When can the buyer
    terminate?")."""
    from clauselens.grid.topic import EVERYDAY, concept_name_stems, telling_concepts, topic_stems

    question = _without_lead_in(question)
    if not asked.search(question):
        return False
    rest = [w for w in content_words(asked.sub(" ", question)) if w.lower() not in frame]
    if not rest or not relaxed:
        return not rest
    if {w.lower().rstrip("s") for w in rest} & _PARTY_WORDS:
        return False  # "When can the buyer terminate?": a party's act, not the agreement's own end
    return not telling_concepts(" ".join(rest)) and not set(topic_stems(" ".join(rest))) & (set(EVERYDAY) | concept_name_stems())


def asks_end(question: str) -> bool:
    """Is ``question`` about when the agreement itself ends ("On what date does this deal finish?", "What's the last day
    this contract is in force?"), not about the end of something else ("When does the confidentiality duty end?")?"""
    from clauselens.grid.topic import plain_idioms  # "Give me the end date, for our renewal calendar - ..."

    return _asks_only(_BEFORE_RENEWALS.sub(" ", plain_idioms(question)), _END_ASKED, _FRAME, relaxed=True)


#: A question about how long the agreement runs: "how long" or a length word, and otherwise only :data:`_LENGTH_FRAME` words.
_LENGTH_ASKED = re.compile(r"\bhow\s+long\b|\b(?:length|duration)\b|\bhow\s+many\s+(?:months|years)(?:\s+or\s+(?:months|years))?", re.IGNORECASE)
_LENGTH_FRAME = _FRAME | frozenset("last lasts run runs running continue continues stay stays set go on be is in for of round stint "
                                   "stretch spell cover covers "
                                   "locked lock tied bound committed stuck into we us they am i me you".split())  # "How long are we locked in for?"


def asks_length(question: str) -> bool:
    """Is ``question`` about how long the agreement itself runs ("How long does the agreement last?", "How long is this
    contract set to run for?"), not the length of something else ("How long must secrets be kept?")?"""
    from clauselens.grid.topic import plain_idioms  # "How long will the agreement remain in effect?": how long it lasts

    return _asks_only(_BEFORE_RENEWALS.sub(" ", plain_idioms(question)), _LENGTH_ASKED, _LENGTH_FRAME)


#: "... before any extra rounds", "not counting renewals": the first term, asked as such.
_BEFORE_RENEWALS = re.compile(r"\b(?:before|not\s+counting|excluding|without)\s+(?:any\s+)?(?:extra|further|additional|later)?\s*"
                              r"(?:rounds?|renewals?|extensions?|re-?ups?)\b|"
                              # "On what date does the deal run out if nobody renews it?" (a keyed dev set)
                              # "assuming nobody cancels or extends it", "if nobody stretches it out or calls it off early", "In case nobody
                              # is renewing it and nobody is closing it before" (keyed dev sets):
                              # what nobody does is the hypothesis, not the question
                              # (up to the question it frames: "if nobody ... pulls out early, what's the actual date ...")
                              r"\b(?:if|when|assuming|provided|supposing|suppose|in\s+case)\s+(?:that\s+)?(?:nobody|no\s+one|neither\s+(?:party|side|of\s+us)|"
                              r"no\s+(?:\w+\s+)?(?:renewals?|extensions?))\s+"
                              r"[^?.;]*?(?=,\s*(?:so\s+)?(?:what|when|which|how|(?:on|in|at|by)\s+(?:what|which)|(?:might|could|would|can|will)\s+you|please|kindly)\b|[?.;]|$)|"
                              # "if we just let it run its course": it ends as written
                              r"\bif\s+(?:we|you|they|everyone|both\s+(?:sides|parties))\s+(?:just\s+|simply\s+)?let\s+it\s+run\b(?:\s+its\s+(?:full\s+)?course)?|"
                              # "before anything extra gets tacked on", "before it's extended"
                              r"\bbefore\s+(?:any(?:thing|\s+\w+)?|it(?:'s|\s+is|\s+gets)?)\s+(?:\w+\s+){0,2}?(?:extra|added|tacked|extended|renewed|"
                              r"extensions?|renewals?|rolls?|re-?ups?)\b[^?.;]*|"
                              r"\bunless\s+(?:it\s+is\s+|it's\s+)?(?:renewed|extended)\b", re.IGNORECASE)


def asks_renewal(question: str) -> bool:
    """Does ``question`` ask about a renewal or extension itself ("how long does each extension last if it gets renewed?"),
    not only exclude one ("before any renewal", "if nobody extends it")?"""
    rest = _BEFORE_ANY_RENEWAL.sub(" ", _BEFORE_RENEWALS.sub(" ", question))
    return bool(re.search(r"\b(?:renew\w*|extend\w*|extension)\b", rest, re.IGNORECASE))


def renewal_only_after(question: str) -> bool:
    """Does ``question`` name a renewal only as what comes after what it asks ("Initial commitment - yrs/months before any
    auto-renew kicks in")? Then it asks the first term, however a topic reader hears its word "renew"."""
    return bool(re.search(r"\b(?:auto-?)?(?:renew\w*|extend\w*|extension)", question, re.IGNORECASE)) and not asks_renewal(question)


#: "before any auto-renew kicks in", "prior to renewal", "until it renews": a renewal named only as what comes after.
_BEFORE_ANY_RENEWAL = re.compile(r"\b(?:before|prior\s+to|until)\b[^?.;]{0,25}?\b(?:auto-?)?(?:renew\w*|extend\w*|extensions?)\b",
                                 re.IGNORECASE)


#: After the period: its start and its end date, which agree with it ("one (1) year commencing on the Effective Date and ending
#: on February 19, 2013"; a keyed dev set's initial term was left unread).
_ENDING_ON = re.compile(rf"\W*(?:commenc|begin|start)\w*\s+(?:on|as\s+of)\s+(?:the\s+)?[\w\s]{{1,30}}?,?\s+and\s+(?:ending|expiring|terminating)\s+"
                        rf"(?:on\s+)?{ONE_DATE.pattern}\W*(?:\(|$)", re.IGNORECASE)


#: "... shall commence on the Effective Date, and shall continue thereafter for": the term runs on after its start (a keyed dev set).
_CONTINUES_THEREAFTER = re.compile(r"\b(?:commenc\w*|begin\w*|start\w*)\s+(?:on|as\s+of)\s+[^.;]{1,60}?\bcontinue\s+thereafter\b", re.IGNORECASE)
#: Just before the period: the initial term named ("for an initial term of", a keyed dev set's content licence).
#: A period the sentence names the term: "... and shall continue for three years thereafter (the "Initial Term")" (a keyed dev set:
#: its subject is "Agent's appointment hereunder", not the agreement).
_NAMED_TERM_AFTER = re.compile(r"\s*(?:thereafter\s*|from\s+(?:the\s+)?Effective\s+Date\s*|"
                               # "for a period of fifteen (15) years after the project's in-service date ("Initial Term")" (a tryout)
                               r"(?P<event>(?:from|after|following)\s+[^.;()\"“”]{1,80}?))?,?\s*\((?:the\s+|such\s+period,?\s+the\s+)?[\"“]"
                               r"(?:Initial\s+|Original\s+)?(?:Term|Period)[\"”]\)")
_INITIAL_OF = re.compile(r"\b(?:for\s+)?an\s+initial\s+(?:term|period)\s+of\s+$", re.IGNORECASE)


def term_periods(text: str) -> list[tuple[str, int, int]]:
    """The periods ``text`` (one sentence) states as this agreement's term: ``(period, start, end)``."""
    out = []
    for period, s, e in durations_at(text):
        named = _NAMED_TERM_AFTER.match(text, e)
        if named and not _OTHER.search(text[max(0, s - 30):s]) and not _OTHER.search(named.group("event") or ""):
            out.append((str(period), s, e))  # "shall continue for three years thereafter (the "Initial Term")": the period it names the term
            break
        before = text[:s]
        initial = _INITIAL_OF.search(before)  # "... shall extend for an initial term of two (2) years": the term, however far its subject
        subjects = [m for m in _SUBJECT.finditer(before) if (initial or s - m.end() <= REACH) and _MODAL_NEXT.match(before, m.end())
                    and not _PREPOSITION_BEFORE.search(before[max(0, m.start() - 20):m.start()])]
        # "shall commence on the Effective Date, and shall continue thereafter for a period of twelve (12) months": after it starts
        other = _OTHER.search(_CONTINUES_THEREAFTER.sub(" continue ", before[initial.start():] if initial else before))
        if (not subjects or other or _AFTER.search(text[e:e + 25])
                or _DAY_OF.match(text, e) or after_the_end(text, s)):
            continue  # ... or a survival period ("while this Agreement is in force and for a period of five (5) years thereafter")
        if not _VERB.search(before[subjects[0].end():]) or (ONE_DATE.search(text[e:]) and not _ENDING_ON.match(text, e)):
            continue  # no verb of duration; "... five (5) years following the launch, but in no event later than February 28, 2013"
        out.append((str(period), s, e))
        break  # the first period of the sentence is the term's; a later one is a renewal's or a notice's
    return out


def read_term_period(texts: Sequence[str]) -> Reading:
    """The agreement's term as one period, read from every term sentence of ``texts`` (the agreement's passages in
    order): the value and its sentence when they all state one period; else the different periods as ``choices``."""
    found: dict[str, Candidate] = {}
    for i, s, _e, text in sentences_of(texts):
        for value, _a, _b in term_periods(text):  # the value is the period's normal form ("5 years"): its own key
            found.setdefault(value, Candidate(value, value, i, s, s + len(text), 1, 0, TERM_GROUPS))
    if len(found) == 1:
        c = next(iter(found.values()))
        return Reading(value=c.value, candidate=c, on_topic=True,
                       reason="the agreement states no calendar end date; its term clause states it as a period")
    return Reading(choices=list(found.values()), on_topic=bool(found),
                   reason=("the term clauses state different periods: " + "; ".join(found)) if found else "")


#: The day the term runs from, written after its period ("five (5) years from the Effective Date", "one year after the
#: date hereof", "until the four-year anniversary of the Effective Date"): ``effective`` or ``made`` (the preamble's
#: date the agreement is made / dated).
_ANCHOR_AFTER = re.compile(
    r"[\s-]*(?:\([^)]{0,40}\)\s*)?(?:anniversary\s+)?(?:from(?:\s+and\s+including)?|after|following|of|,?\s*(?:commencing|beginning|starting)\s+"
    r"(?:on|upon|as\s+of|from|with))\s+(?:and\s+after\s+)?(?:the\s+)?"
    r"(?:(?P<effective>(?:date\s+of\s+(?:the\s+)?)?Effective\s+Date)|(?P<made>date\s+hereof|date\s+of\s+(?:this|the)\s+Agreement|"
    r"date\s+(?:first\s+)?(?:above\s+)?(?:written|set\s+forth|stated)(?:\s+above)?|Agreement\s+Date|date\s+of\s+(?:its\s+)?execution))\b",
    re.IGNORECASE)
#: Or before it: "shall commence on the Effective Date and continue for ...", "effective as of the date first written".
_ANCHOR_BEFORE = re.compile(
    r"\b(?:commenc\w*|effective|begin\w*|start\w*|in\s+effect)\s+(?:on|as\s+of|from|upon)\s+(?:the\s+)?"
    r"(?:(?P<effective>Effective\s+Date)|(?P<made>date\s+hereof|date\s+of\s+(?:this|the)\s+Agreement|"
    r"date\s+(?:first\s+)?(?:above\s+)?(?:written|set\s+forth|stated)(?:\s+above)?|Agreement\s+Date|date\s+of\s+execution|"
    r"execution\s+date\s+(?:hereof|of\s+this\s+Agreement)))\b",  # "shall commence from the execution date hereof" (a keyed dev set)
    re.IGNORECASE)


#: The agreement names its Effective Date (in the preamble, perhaps left blank, or elsewhere: "the date of approval").
_DEFINES_EFFECTIVE = re.compile(r"[\"“']\s*Effective\s*Date\s*[\"”']", re.IGNORECASE)
#: ... followed by its definition: '"Effective Date" means October 31, 2019', '... shall mean the date first written above'.
_MEANS = re.compile(r"\s*(?:means|shall\s+mean|is|refers\s+to|shall\s+be)\s+")
_THE_AGREEMENTS_DATE = re.compile(r"(?:the\s+)?date\s+(?:hereof|of\s+this\s+Agreement|(?:first\s+)?(?:above\s+)?(?:written|set\s+forth|stated)"
                                  r"(?:\s+above)?)", re.IGNORECASE)
#: ... or preceded by its date: 'made this 1st day of April, 2007 ("Effective Date")', '2005 (hereinafter "Effective Date")'.
_DATE_BEFORE = re.compile(r"(" + ONE_DATE.pattern + r")[\s,]*\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?$",
                          re.IGNORECASE)


def effective_date(texts: Sequence[str], front: Sequence[str]) -> str:
    """The agreement's Effective Date (ISO) when it states one: the preamble's (:func:`read_front_date`), else its
    definition's date or the date it names ("the date first written above": the preamble's date), else -- the term
    defined nowhere -- the preamble's date; ``""`` when it is defined as an event ("the Closing Date", "the date of the
    last signature") or left blank."""
    got = read_front_date(front, prefer="effective").value
    if got:
        return got
    named = False
    for text in texts:
        for m in _DEFINES_EFFECTIVE.finditer(text):
            named = True
            means = _MEANS.match(text, m.end())
            if means:
                d = ONE_DATE.match(text, means.end())
                if d is not None:
                    p = parse_date(d.group(0))
                    return p.isoformat() if p else ""
                return read_front_date(front, prefer="made").value if _THE_AGREEMENTS_DATE.match(text, means.end()) else ""
            before = _DATE_BEFORE.search(text[max(0, m.start() - 60):m.start()])
            if before is not None:
                p = parse_date(before.group(1))
                return p.isoformat() if p else ""
    return "" if named else read_front_date(front, prefer="made").value


#: The Effective Date defined as the agreement's own date: 'commence on the date hereof (the "Effective Date")', '"Effective
#: Date" means the date first written above'.
_EFFECTIVE_IS_MADE = re.compile(
    _THE_AGREEMENTS_DATE.pattern + r"[\s,]*\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?[\"“']\s*Effective\s*Date\s*[\"”']"
    r"|[\"“']\s*Effective\s*Date\s*[\"”']\s*(?:means|shall\s+mean|refers\s+to)\s+" + _THE_AGREEMENTS_DATE.pattern, re.IGNORECASE)


#: The agreement in force once signed: "This Agreement shall become effective on the date on which it is signed and affixed with the
#: corporate seals", "this Agreement, subject to the commencement date established in Section 1.3, shall be effective immediately"
#: (keyed dev sets; not a termination "effective immediately upon written notice").
_EFFECTIVE_WHEN_SIGNED = re.compile(r"\bthis\s+Agreement\b(?:(?!\bterminat)(?:[^.;]|\.(?=\d))){0,80}?\bshall\s+(?:be|become|come\s+into)\s+"
                                    r"(?:effective|in\s+force|into\s+force)\s+(?:immediately\b(?!\s+upon\s+(?:written\s+)?notice)|(?:on|as\s+of|upon|from)\s+the\s+date\s+"
                                    r"(?:on\s+which|when|that)\s+(?:it|this\s+Agreement)\s+is\s+(?:signed|executed)\b|upon\s+(?:its\s+)?(?:signing|"
                                    r"execution)\b)", re.IGNORECASE)


def takes_effect_when_made(texts: Sequence[str]) -> str:
    """The sentence that makes the agreement take effect on its own date -- its Effective Date defined as "the date
    hereof", or its term commencing on "the date of this Agreement" ("the term of this Agreement shall commence on the
    date hereof (the "Effective Date")") -- so the preamble's date ("dated as of April 1, 2019") is when it starts;
    ``""`` when none does."""
    for _i, _s, _e, sentence in sentences_of(texts):
        if _EFFECTIVE_WHEN_SIGNED.search(sentence) and not ONE_DATE.search(sentence):
            return sentence
        if any(not ends_on(sentence, d.start()) for d in ONE_DATE.finditer(sentence)) or _SIGNING_LINE.search(sentence):
            continue  # a day of its own ("shall commence on December 1, 2001", not an end's "shall expire on ..."); a signature line
        if _EFFECTIVE_IS_MADE.search(sentence):
            return sentence
        m = _ANCHOR_BEFORE.search(sentence)
        if m is not None and m.group("made") and _THIS_TERM.search(sentence[:m.start()]) and not _OTHER_PERIOD.search(sentence[:m.start()]):
            return sentence
        if "date" not in sentence.lower():
            continue  # no "date hereof" / "date of this Agreement" / "Agreement Date" to run from: its periods need not be read
        after = [_ANCHOR_AFTER.match(sentence, e) for _p, _s, e in term_periods(sentence)]
        if after and after[0] is not None and after[0].group("made"):
            return sentence  # "The term of this Agreement is three years from and including the date of this Agreement" (a keyed dev set)
    return ""


#: The agreement or its term as what commences ("the term of this Agreement shall commence on the date hereof").
_THIS_TERM = re.compile(r"\b(?:this\s+Agreement|the\s+[\"“]?Term\b|term\s+of\s+(?:\w+\s+under\s+)?this\s+Agreement)\b[^.;]{0,160}$", re.IGNORECASE)
#: Another period or defined term that commences ('"Standstill Period" shall mean the period commencing on ...').
_OTHER_PERIOD = re.compile(r"\bshall\s+mean\b|\bmeans\b|\bPeriod\b")
_SIGNING_LINE = re.compile(r"\bsigned\b|\bexecuted\b|\bIN\s+WITNESS\b|\bWHEREFORE\b")


#: After the period, a start of its own ("three (3) years from the date the Application becomes accessible").
_RUNS_FROM = re.compile(r"[\s-]*(?:\([^)]{0,40}\)\s*)?,?\s*(?:from|after|following|commencing|beginning|starting)\b", re.IGNORECASE)


#: An end that is one of several events.
_EITHER_END = re.compile(r"\b(?:sooner|earlier|earliest|first)\s+(?:to\s+occur\s+)?of\b|\bwhichever\s+(?:is|occurs)\s+(?:the\s+)?"
                         r"(?:earlier|sooner|first|later)\b", re.IGNORECASE)


def term_anchor(sentence: str) -> str:
    """``"effective"`` or ``"made"``: which of the preamble's dates the sentence's term period runs from; ``""`` when
    it runs from another event ("from the Launch", "from the Promotion Commencement Date") or says none."""
    found = term_periods(sentence)
    if not found:
        return ""
    _, s, e = found[0]
    after = _ANCHOR_AFTER.match(sentence, e)
    m = after or _ANCHOR_BEFORE.search(sentence[:s])
    if m is None or (after is None and _RUNS_FROM.match(sentence, e)):
        return ""  # no anchor, or the period runs from another event named after it
    return "effective" if m.group("effective") else "made"


def add_period(start: date, period: str) -> date | None:
    """``start`` plus ``period`` by the calendar ("5 years" after 2008-10-01 is 2013-10-01: the anniversary)."""
    from dateutil.relativedelta import relativedelta

    ps = durations_in(period)
    if not ps or ps[0].count != int(ps[0].count):
        return None
    n = int(ps[0].count)
    step = {"year": relativedelta(years=n), "month": relativedelta(months=n), "week": relativedelta(weeks=n),
            "day": relativedelta(days=n)}.get(ps[0].unit)
    return start + step if step is not None else None


#: A term with no fixed end: "shall continue indefinitely", "remain in effect until terminated", "in perpetuity",
#: "continue ... unless and until either party gives notice", "continue until termination as provided below" (not "until
#: termination of" something else) (CUAD's Expiration Date answer "perpetual").
OPEN_ENDED = re.compile(r"\b(?:indefinitely|perpetual(?:ly)?|in\s+perpetuity|(?:unless\s+and\s+)?until\s+(?:such\s+time\s+as\s+)?"
                        r"(?:(?:it|this\s+Agreement)\s+is\s+)?terminated|until\s+(?:its\s+)?termination\b(?!\s+(?:of|or)\b)|"
                        r"(?:unless\s+and\s+)?until\s+(?:either|one|any|a)\s+(?:party|Party)\s+"
                        r"(?:terminates|gives|provides|serves|informs|notifies|elects))\b", re.IGNORECASE)
#: A verb of the term's running before it.
_RUNS = re.compile(r"\b(?:continu\w*|remain\w*|be\s+in\s+(?:full\s+)?(?:force|effect)|be\s+effective|run\w*)\b", re.IGNORECASE)


def open_ended(texts: Sequence[str]) -> Reading:
    """The term clause that sets no end ("This Agreement shall be effective from the date first above written and shall
    continue indefinitely until terminated ..."): its subject is this agreement or its term (as for
    :func:`term_periods`), a verb of running follows, then :data:`OPEN_ENDED`, and the sentence states no term period and
    no date after it. The value is the clause's own phrase; the first such sentence is quoted."""
    for i, s, _e, text in sentences_of(texts):
        m = OPEN_ENDED.search(text)
        if m is None or term_periods(text) or ONE_DATE.search(text[m.end():]) or _OTHER_OPEN.search(text[:m.start()]):
            continue
        before = text[:m.start()]
        subjects = [x for x in _SUBJECT.finditer(before) if m.start() - x.end() <= REACH and _MODAL_NEXT.match(before, x.end())
                    and not _PREPOSITION_BEFORE.search(before[max(0, x.start() - 20):x.start()])]
        if not subjects or not _RUNS.search(before[subjects[0].end():]):
            continue
        phrase = _phrase(m.group(0), text[m.end():m.end() + 80])
        if not phrase:
            continue
        c = Candidate(phrase, "open-ended", i, s, s + len(text), 1, 0, OPEN_GROUPS)
        return Reading(value=phrase, candidate=c, on_topic=True,
                       reason="the term clause sets no end date: the agreement runs until it is terminated")
    return Reading()


def _phrase(said: str, after: str) -> str:
    """The answer in the clause's own words: "indefinitely", "perpetually", "in perpetuity", "until terminated", or
    "until terminated on notice" (a party's notice of termination); ``""`` when the clause does not say it so."""
    low = " ".join(said.lower().split()).replace("unless and ", "")
    if "terminated" in low or "termination" in low:  # "until terminated", "until termination as provided below"
        return "until terminated"
    if low.startswith("until"):  # "until either Party informs the other Party with thirty (30) day prior written notice of termination"
        return "until terminated on notice" if re.search(r"\bnotice\b.{0,40}\bterminat", after, re.IGNORECASE) else ""
    return low


#: Before the phrase: the running of something else (a survival, a confidentiality duty or a license granted "in
#: perpetuity"), or of a renewal after a fixed initial term ("After the Initial Term, this Agreement shall continue on a
#: month to month basis until terminated": its end is the initial term's, then renewals).
_OTHER_OPEN = re.compile(r"\b(?:after\s+(?:the\s+)?(?:initial|original|primary)\s+term|(?:month|year)[\s-]+to[\s-]+(?:month|year)|"
                         r"renew\w*|automatic\w*|surviv\w*|confidential\w*|licen[cs]\w*|grant\w*|right\w*|obligation\w*|warrant\w*)\b",
                         re.IGNORECASE)


#: The term stated as two calendar dates: "shall commence on March 15, 2018 and will expire on March 14, 2020", "commencing on
#: January 1, 2000 and concluding December 31, 2003", "commence on January 1, 2010 and extend through December 31, 2010".
_SPAN = re.compile(rf"\b(?:commenc\w*|begin\w*|start\w*|takes?\s+effect|become\s+effective|be\s+effective)\s+(?:on|as\s+of)\s+"
                   rf"(?P<start>{ONE_DATE.pattern})\s*,?\s*(?:and\s+)?"
                   rf"(?:(?:shall|will)\s+)?(?:(?:continu\w*|remain\w*)(?:\s+in\s+(?:full\s+)?(?:force|effect)(?:\s+and\s+effect)?)?"
                   rf"\s+(?:until|through|to)|(?:conclud\w*|end\w*|expir\w*|terminat\w*)(?:\s+on)?|extend\w*\s+(?:through|until|to)|"
                   rf"through|until|to)\s+(?:and\s+including\s+)?(?P<end>{ONE_DATE.pattern})", re.IGNORECASE)
#: ... where the sentence defines the agreement's term by its name: '"Contract Period" shall mean that period of time ...'.
_TERM_DEFINED = re.compile(r"[\"“](?:Initial\s+)?(?:Term|Contract\s+(?:Period|Term)|Agreement\s+(?:Period|Term)|Term\s+of\s+(?:this\s+)?"
                           r"Agreement)[\"”]\s*(?:shall\s+)?mean", re.IGNORECASE)
#: ... or whose subject, before it, is this agreement or its term in any case, or the defined "Term" in parentheses: 'The term
#: (the "Term") shall commence on ...', 'the term of this Agreement and the sponsorship described herein shall commence on ...'.
_SPAN_SUBJECT = re.compile(r"\b(?:the\s+term\s+of\s+this\s+agreement|this\s+agreement|the\s+(?:initial\s+)?term)\b|"
                           r"\(\s*(?:the\s+)?[\"“](?:Initial\s+)?Term[\"”]\s*\)", re.IGNORECASE)
#: Before the span: another period's start (a renewal's, an extension's, a phase's).
_OTHER_SPAN = re.compile(r"\b(?:renew\w*|additional|extension|extended|phase|surviv\w*)\b", re.IGNORECASE)


#: A start date labelled on a cover sheet, on a line of its own: "Effective Date: January 1, 2019" (a keyed dev set).
#: (or in a table's columns with no colon: "Effective Date                    01 April 2006", a keyed dev set's rate-cap confirmation)
START_LABEL = re.compile(rf"(?:^|\n)[ \t]*(?:Effective|Commencement|Start)\s+Date(?:\s*:\s*|[ \t]{{2,}})(?P<date>{ONE_DATE.pattern})", re.IGNORECASE)
#: ... or labelled, one under the other, on a cover sheet (a keyed dev set's supply agreement: its term was left unread).
_LABELLED_SPAN = re.compile(rf"\b(?:Effective|Commencement|Start)\s+Date\s*:\s*(?P<start>{ONE_DATE.pattern})\s+"
                            rf"(?P<last>(?:Termination|Expiration|Expiry|End)\s+Date\s*:\s*(?P<end>{ONE_DATE.pattern}))", re.IGNORECASE)


def term_span(texts: Sequence[str]) -> tuple[Candidate, str, str] | None:
    """The agreement's term written as two dates (:data:`_SPAN`), its subject this agreement or its term (as for
    :func:`term_periods`) or the sentence a definition of the term's name (:data:`_TERM_DEFINED`): ``(candidate, start,
    end)`` with ISO dates, the candidate's value the end date; the first such sentence; ``None`` when none states one."""
    for i, s, _e, text in sentences_of(texts):
        m = _SPAN.search(" ".join(text.split()))
        flat = " ".join(text.split())
        if m is None or _OTHER_SPAN.search(flat[:m.start()]) or _EITHER_END.search(flat[m.end():m.end() + 40]):
            continue
        before = flat[:m.start()]
        subject = _TERM_DEFINED.search(before) or any(
            m.start() - x.end() <= REACH and not _PREPOSITION_BEFORE.search(before[max(0, x.start() - 20):x.start()])
            for x in _SPAN_SUBJECT.finditer(before))
        start, end = parse_date(m.group("start")), parse_date(m.group("end"))
        if not subject or start is None or end is None or end <= start:
            continue
        return Candidate(end.isoformat(), end.isoformat(), i, s, s + len(text), 1, 0, SPAN_GROUPS), start.isoformat(), end.isoformat()
    for i, text in enumerate(texts):  # a cover sheet's labels: "Effective Date: January 1, 2019  Termination Date: December 31, 2023"
        joined = text + "\n\n" + (texts[i + 1] if i + 1 < len(texts) else "")  # the two labels may fall in two passages
        m = _LABELLED_SPAN.search(joined)
        start, end = (parse_date(m.group("start")), parse_date(m.group("end"))) if m else (None, None)
        if m is None or start is None or end is None or end <= start or m.start() >= len(text):
            continue
        # quoted from one passage: both labels, or the end's label alone when the start's is at the end of the passage before
        at, a, b = (i, m.start(), m.end()) if m.end() <= len(text) else (i + 1, m.start("last") - len(text) - 2, m.end() - len(text) - 2)
        return Candidate(end.isoformat(), end.isoformat(), at, a, b, 1, 0, SPAN_GROUPS), start.isoformat(), end.isoformat()
    return None


def span_period(start: str, end: str) -> str:
    """The whole years or months from ``start`` to ``end`` (ISO), the end day counted in ("January 1, 2000" to "December 31,
    2003": 4 years) or not ("March 15, 2018" to "March 15, 2020": 2 years); ``""`` when the span is not a whole number."""
    from dateutil.relativedelta import relativedelta

    a, b = date.fromisoformat(start), date.fromisoformat(end)
    for months in range(1, 12 * 50 + 1):
        if a + relativedelta(months=months) in (b, b + relativedelta(days=1)):
            return f"{months // 12} year{'s' * (months != 12)}" if months % 12 == 0 else f"{months} month{'s' * (months != 1)}"
    return ""


#: ``term_reading``'s ``span`` when the caller has not read it yet.
_UNREAD = object()


def term_reading(texts: Sequence[str], span: object = _UNREAD) -> Reading:
    """The agreement's term as its term clause states it: one period (:func:`read_term_period`), or, when no term
    clause states a period at all, that it sets no end (:func:`open_ended`)."""
    r = read_term_period(texts)
    if r.candidate is None and not r.choices:
        if span is _UNREAD:  # term_end has read it already (None: no span)
            span = term_span(texts)
        span = span if isinstance(span, tuple) else None
        period = span_period(span[1], span[2]) if span else ""
        if span and period:
            c = span[0]
            return Reading(value=period, candidate=Candidate(period, period, c.passage, c.start, c.end, 1, 0, SPAN_GROUPS), on_topic=True,
                           reason=f"computed: the term clause runs from {span[1]} to {span[2]}")
        got = open_ended(texts)
        return got if got.candidate is not None else r
    return r


#: This agreement (or its term) running to a date: "This Agreement shall continue until January 18, 2022, and thereafter ...".
_CONTINUES_UNTIL = re.compile(rf"\b(?:this\s+agreement|the\s+(?:initial\s+)?term(?:\s+of\s+this\s+agreement)?)\s+(?:shall|will)\s+"
                              rf"(?:continue|remain)\w*(?:\s+in\s+(?:full\s+)?(?:force|effect)(?:\s+and\s+effect)?)?\s+(?:until|through)\s+(?:and\s+including\s+)?"
                              rf"(?P<end>{ONE_DATE.pattern})"
                              # "This term of this Agreement commences on the Effective Date and terminates on August 2nd, 2015" (a keyed dev set)
                              # 'The "Initial Term" shall commence upon the Effective Date and shall expire on March 31, 2011' (a keyed dev set)
                              rf"|\b(?:this\s+agreement|(?:the|this)\s+[\"“]?(?:initial\s+)?term[\"”]?(?:\s+of\s+this\s+agreement)?)(?:\s+(?:shall|will)\s+be\s+for\s+[^.;]{{1,60}}?)?"
                              # "... shall be for one (1) year commencing on the Effective Date and ending on February 19, 2013" (a keyed dev set)
                              rf"\s+(?:shall\s+|will\s+)?(?:(?:commence|begin|start)s?|(?:commenc|beginn|start)ing)\s+"
                              rf"(?:on|upon|as\s+of)\s+(?:the\s+)?(?:effective\s+date|date\s+(?:hereof|of\s+this\s+agreement))\s*,?\s+and\s+(?:shall\s+|will\s+)?"
                              rf"(?:terminat|expir|end)\w*\s+(?:on\s+)?(?P<end2>{ONE_DATE.pattern})", re.IGNORECASE)


def continues_until(texts: Sequence[str]) -> Reading | None:
    """The date the agreement runs until when its term clause says so without a start ("This Agreement shall continue until
    January 18, 2022, and thereafter shall continue automatically for successive annual periods": a keyed dev set's expiry was
    left unread); the first such sentence, else ``None``."""
    for i, s, _e, text in sentences_of(texts):
        m = _CONTINUES_UNTIL.search(" ".join(text.split()))
        d = parse_date(m.group("end") or m.group("end2")) if m else None
        if m is not None and d is not None:
            c = Candidate(d.isoformat(), d.isoformat(), i, s, s + len(text), 1, 0, ("term", "until"))
            return Reading(value=d.isoformat(), candidate=c, on_topic=True, reason=f"the term clause runs until {d.isoformat()}")
    return None


def term_end(texts: Sequence[str], front: Sequence[str], dates_only: bool = False) -> Reading:
    """When the agreement ends, read from its term clause (:func:`read_term_period`): the calendar date its period
    reaches from the preamble's date it runs from (:func:`term_anchor`, :func:`clauselens.grid.extract.read_front_date`
    over ``front``), computed and said so; else the period itself (``dates_only``: nothing, the period in the reason);
    with no term period, a term clause that sets no end (:func:`open_ended`)."""
    span = term_span(texts)
    if span is not None:
        return Reading(value=span[2], candidate=span[0], on_topic=True, reason=f"the term clause runs from {span[1]} to {span[2]}")
    until = continues_until(texts)
    if until is not None:
        return until
    r = term_reading(texts, span=None)
    c = r.candidate
    if c is None or c.groups in (OPEN_GROUPS, SPAN_GROUPS):
        return r
    sentence = texts[c.passage][c.start:c.end]
    # "the sooner of six (6) months from the Effective Date, or replacement of this Agreement": the end is conditional,
    # so no single calendar date is computed (the period, quoted, says what the clause says)
    anchor = "" if _EITHER_END.search(sentence) else term_anchor(sentence)
    start = (effective_date(texts, front) if anchor == "effective" else read_front_date(front, prefer="made").value) if anchor else ""
    end = add_period(date.fromisoformat(start), r.value) if start else None
    if end is not None:
        what = "the Effective Date" if anchor == "effective" else "the agreement's date"
        return Reading(value=end.isoformat(), candidate=c, on_topic=True,
                       reason=f"computed: the term clause states {r.value} from {what} ({start}); the agreement writes no end date")
    if dates_only:
        return Reading(choices=[c], on_topic=True, reason=f"the term clause states {r.value}, from no date the preamble states")
    return r


def asks_term_end(category: str | None, question: str) -> bool:
    """Is the cell about when the agreement ends: the preset's Expiration Date, or a user's question in its words?"""
    return category == "Expiration Date" or (not category and asks_end(question))


def term_as_end(category: str | None, question: str, texts: Sequence[str], dated: Reading, front: int) -> Reading:
    """A question about when the agreement ends (a user's words, or the preset's Expiration Date) whose clauses write no
    calendar end date: the term clause's period from the preamble's date (the first ``front`` passages), computed
    (:func:`term_end`); for a user, else the period itself; else ``dated`` (the periods listed, or nothing found)."""
    if not asks_term_end(category, question):
        return dated
    r = term_end(texts, texts[:front], dates_only=bool(category))
    if r.candidate is not None:
        return r
    return Reading(choices=dated.choices or r.choices, on_topic=dated.on_topic or r.on_topic,
                   reason="; ".join(x for x in (dated.reason, r.reason) if x))


def span_first(texts: Sequence[str], dated: Reading) -> Reading | None:
    """The term clause that runs from one date to another (:func:`term_span`), when a date the question's words found
    (``dated``) is in another passage: it answers when the agreement ends first (a tryout read a fee's last instalment,
    "payable ... on or before the first day of each month ... ending December 1, 2010", for "When does it all end?")."""
    span = term_span(texts)
    if span is None or dated.candidate is None or span[0].passage == dated.candidate.passage:
        return None
    return Reading(value=span[2], candidate=span[0], on_topic=True, reason=f"the term clause runs from {span[1]} to {span[2]}")
