"""Two periods every commercial agreement words its own way: the time to cure a breach, and the time to pay an invoice.

A user asks for them in everyday words ("If one side breaks a promise, how much time do they have to fix it?", "How long
after getting a bill does the payment have to go out?") that share no word with the clause that answers ("... if such
breach remains uncured for thirty (30) days after written notice"; "payable within forty-five (45) days of receipt of
invoice"). Both follow drafting conventions (e.g. the ABA's *Model Asset Purchase Agreement* and the termination and
payment clauses CUAD annotates), so each is read by a rule over the agreement's sentences:

* **cure period** (:func:`cure_period`): a sentence about a breach or default ("breach", "default", "fail to perform")
  that gives a time to cure it ("cure", "remedy", "rectify", "correct", "uncured", "unremedied"): the period nearest the
  cure word;
* **payment term** (:func:`payment_term`): a sentence that makes a payment due ("pay", "payment", "payable", "due") counted
  from an invoice ("invoice", "bill", "statement"): the period nearest the invoice word;
* **late charge** (:func:`late_charge`): a sentence that makes a payment late ("past due", "overdue", "delay in payment") and
  charges for it ("interest", "late fee", "per month"): the percentage nearest the charge word.

Which one a question asks for is read from its words (:func:`asks_cure`, :func:`asks_payment_term`). The rule answers only
when every such sentence of the agreement states one period; otherwise the cell keeps its reading by the question's
words. Pure functions; no I/O.
"""

from __future__ import annotations

import re
from typing import Sequence

from clauselens.grid.extract import Candidate, Reading, asks_notice, notice_like, one_value, sentences_of
from clauselens.grid.term import asks_renewal
from clauselens.grid.values import amounts_at, durations_at

#: The topic groups of a reading by these rules (:attr:`clauselens.grid.extract.Candidate.groups`).
CURE_GROUPS = ("cure",)
PAYMENT_GROUPS = ("payment term",)

#: A sentence that opens with a condition ("If as a result of an event of Carrier Force Majeure, Carrier provides no Services ...
#: for a period of at least twelve (12) consecutive Months, either Party shall be entitled to terminate"): its period is the condition's.
CONDITIONAL = re.compile(r"^\W*(?:[\w.()]{1,6}\s+)?(?:if|in\s+the\s+event|should|where|upon|unless|in\s+case)\b", re.IGNORECASE)


#: ... an event's: not "unless" (a renewal's "Unless either party gives notice ... sixty (60) days prior to the end of the term" is
#: the notice that stops it, not a condition).
_ON_EVENT = re.compile(r"^\W*(?:[\w.()]{1,6}\s+)?(?:if|in\s+the\s+event|should|upon\s+(?:the\s+)?(?:occurrence|happening)|in\s+case)\b",
                       re.IGNORECASE)


def unconditional_notice(texts: Sequence[str], r: Reading) -> Reading | None:
    """Of the notice periods ``r`` lists (no single one), the one notice no event conditions, when only one is: "upon one
    hundred twenty (120) days written notice" to end at will, not "In the event a party undergoes a Change of Control Event
    ..., the other party may terminate ... upon thirty (30) days written notice" (a keyed dev set). ``None`` otherwise."""
    plain = {c.key: c for c in r.choices if not _ON_EVENT.match(texts[c.passage][c.start:c.end])}
    if r.candidate is not None or len(r.choices) < 2 or len(plain) != 1:
        return None
    c = next(iter(plain.values()))
    others = ", ".join(dict.fromkeys(x.key for x in r.choices if x.key != c.key))
    return Reading(value=c.value, candidate=c, on_topic=True, reason=f"the one notice no event conditions ({others}: an event's)")


#: A question about the time to put a breach right: a word of fixing, and one of failing (or the contract's own words).
_FIX_ASKED = re.compile(r"\b(?:fix\w*|cure\w*|remed\w*|rectif\w*|correct\w*|put\s+(?:it|things|that|this)\s+right|"
                        r"make\s+(?:it|things|that|this|good)(?:\s+right)?|make\s+good|sort\s+(?:it|things)\s+out|grace)\b",
                        re.IGNORECASE)
_FAIL_ASKED = re.compile(r"\b(?:breach\w*|break\w*|broke\w*|default\w*|fail\w*|mess\w*|drops?\s+the\s+ball|screw\w*|"
                         r"goes?\s+wrong|wrong|slip\w*|miss\w*|mistake\w*|violat\w*|problem\w*|grace)\b", re.IGNORECASE)
#: A question about when an invoice must be paid.
_PAY_ASKED = re.compile(r"\b(?:pay\w*|paid|settle\w*)\b", re.IGNORECASE)
_BILL_ASKED = re.compile(r"\b(?:invoices?|invoiced|bills?|billed|billing|statements?|net\s+(?:\d+|how\s+many))\b", re.IGNORECASE)

#: A question for the time something is due: "within how many days", "how quickly", "how soon", "by when", "deadline".
_HOW_SOON = re.compile(r"\bwithin\s+how\b|\bhow\s+(?:many\s+(?:days|weeks)|quickly|soon|fast|long)\b|\bby\s+when\b|\bdeadline\b", re.IGNORECASE)
#: In a sentence: a breach or default, and a time to cure it.
_BREACH = re.compile(r"\b(?:breach\w*|default\w*|violat\w*|fail\w*\s+to\s+(?:perform|comply|pay|observe)|non-?performance)\b", re.IGNORECASE)
_CURE = re.compile(r"\b(?:cur(?:e|es|ed|ing)|uncured|remed(?:y|ied|ies|y)|unremedied|rectif\w*|correct(?:s|ed|ing)?)\b"
                   # "such default continues for a period of thirty (30) days after written notice": left uncured that long
                   r"|\b(?:default|breach|failure|non-?performance)\w*\s+(?:shall\s+)?continues?\s+(?:unremedied\s+)?for\b", re.IGNORECASE)
#: In a sentence: a payment made due, counted from an invoice.
_DUE = re.compile(r"\b(?:pay(?:s|ing|ment|ments|able)?|paid|due(?!\s+(?:for|to\s+be)\s+(?:deliver|ship|perform|complet)\w*)|remit\w*)\b"
                  r"|\bnet\s+(?:\d+|ten|fifteen|twenty|thirty|forty|forty-five|sixty|ninety)\b", re.IGNORECASE)  # "Net 30 days from ... invoice"
#: ... or "net N days" alone, the trade's own words for the time to pay a bill ("terms for payment to Company are Net 30 days")
_INVOICE = re.compile(r"\b(?:invoic\w*|bills?|billing|(?<!financial\s)statements?)\b|"
                      r"\bnet\s+(?:\d+|ten|fifteen|twenty|thirty|forty|forty-five|sixty|ninety)\b",
                      re.IGNORECASE)
#: A payment falling due each period, where no invoice is sent: "Payments shall be made 15 days from the end of each quarter",
#: "shall be paid within the first five days of the following calendar month" (keyed dev sets take it as the time to pay).
_PERIODIC = re.compile(r"\bend\s+of\s+(?:each|every|the\s+(?:preceding|previous|relevant|applicable))\s+(?:calendar\s+)?"
                       r"(?:month|quarter|year|half|period|royalty\s+period)\b|\b(?:first|last)\s+[\w()\s-]{1,20}?\s+days\s+of\s+"
                       r"(?:each|every|the\s+following|the\s+next)\s+(?:calendar\s+)?month\b", re.IGNORECASE)
#: A sentence that ends the agreement (where a cure period usually sits).
_ENDS = re.compile(r"\bterminat\w*\s+(?:this|the)\s+(?:Agreement|Contract)\b|\b(?:this|the)\s+(?:Agreement|Contract)\s+(?:may|shall|will)\s+"
                   r"(?:be\s+)?terminat", re.IGNORECASE)
#: Characters between the period and the cure or invoice word it belongs to.
REACH = 120


#: The topic group of a notice read by :func:`end_notice`.
NOTICE_GROUPS = ("notice to end",)
#: A question's words for ending the agreement: "walk away", "get out", "cancel", "terminate", "quit".
_END_ASKED = re.compile(r"\b(?:stop\w*|end|ending|cancel\w*|terminat\w*|get\s+out|walk\w*|quit\w*|leave|exit\w*|kill\w*|pull\s+out|"
                        r"opt\s+out|out)\b", re.IGNORECASE)
#: In a sentence: this agreement ended ("terminate this Agreement", "this Agreement may be terminated") or not renewed ("notice
#: of non-renewal", "shall renew ... unless either party gives notice") ...
_ENDED = re.compile(r"\b(?:terminat|cancel)\w*\s+(?:this|the)\s+(?:[A-Z][\w-]*\s+){0,2}(?:Agreement|Contract)\b|\b(?:this|the)\s+(?:Agreement|"
                    r"Contract)\s+(?:may|shall|will|can)\s+(?:be\s+)?(?:\w+\s+){0,2}?(?:terminat|cancel)\w*|\bnot\s+to\s+(?:renew|extend)|\bnon-?renewal|"
                    r"\b(?:renew|extend)\w*\b[^.;]{0,80}\bunless\b|\bunless\b[^.;]{0,120}\b(?:renew|extend)\w*", re.IGNORECASE)
#: ... not for a breach, an insolvency, a death, a change of ownership, an event beyond control or "upon the occurrence of" one, nor an
#: insurance policy's cancellation (those notices are an event's or a policy's, not the one asked about).
_FOR_EVENT = re.compile(_BREACH.pattern + "|" + _CURE.pattern + r"|\b(?:insolven\w*|bankrupt\w*|fraud\w*|change\s+(?:of|in)\s+control|"
                        r"force\s+majeure|receiver\w*|liquidat\w*|death|dies|disabilit\w*|insur\w*|polic(?:y|ies)|coverage|occurrence|merger|acqui\w*|ownership)\b|"
                        r"\bbeyond\s+[^.;]{0,30}\bcontrol\b|\bfail\w*\s+(?:\w+\s+){0,2}to\s+(?:perform|comply|pay|observe|meet|fulfil)\w*|"
                        # "may terminate this Agreement at any time ... if either party fails materially to comply" (a new user's tryout)
                        r"\b(?:terminat|cancel)\w*[^.;]{0,80}?\b(?:if|in\s+the\s+event|should)\b|"
                        # "... terminate this Agreement upon forty-five (45) days prior written notice, without further liability ... if any of
                        # the following" (a keyed dev set read a free exit's notice): the events listed next
                        r"\b(?:if|upon|in\s+the\s+event\s+of|on\s+the\s+occurrence\s+of)\s+(?:any\s+(?:one\s+)?of\s+)?the\s+following\b",
                        re.IGNORECASE)


#: The top of a range ("between two (2) and six (6) months prior to the end"): no one period.
_RANGE = re.compile(r"\bbetween\b[^.;]{0,35}\band\s+$", re.IGNORECASE)


#: A question's words for a renewal ("stop it renewing", "cancel the auto-renew", "stop the contract from extending itself", "keep it
#: from starting up again") and for stopping one (removed before the question's words for an exit are read).
_RENEWAL_ASKED = re.compile(r"\b(?:renew\w*|extend\w*|extension|re-?ups?|auto-?renew\w*|starting\s+up\s+again|roll\w*\s+over)\b|"
                            r"\bnot\s+(?:to\s+)?continue\b", re.IGNORECASE)
_STOP_RENEWAL_ASKED = re.compile(r"\b(?:stop|cancel|kill|end|halt|block|prevent|avoid|keep|terminat\w*)\w*\s+(?:[\w']+\s+){0,5}?(?:renew\w*|"
                                 r"extend\w*|extension|re-?ups?|auto-?renew\w*|starting\s+up\s+again|rolling\s+over)|\bfor\s+non-?renewal\b",
                                 re.IGNORECASE)
#: A question about a notice for a breach or another event (the readers of such notices answer it, not :func:`end_notice`).
_EVENT_ASKED = re.compile(r"\b(?:breach\w*|default\w*|force\s+majeure|insolv\w*|bankrupt\w*|change\s+of\s+control)\b|"
                          r"(?<!without\s)(?<!w/o\s)(?<!\bno\s)\bcause\b", re.IGNORECASE)
#: A sentence about a renewal or the end of a term (a notice of non-renewal, a cancellation at the end of the Initial Term).
_RENEWAL_SENTENCE = re.compile(r"\b(?:renew|extend|extension)\w*|\bend\s+of\s+(?:the|any|each|such)\s+(?:\w+\s+){0,2}?term\b|"
                               r"\bexpir\w*|\banniversary\b", re.IGNORECASE)


def asks_end_notice(question: str) -> str:
    """What notice the question asks for: ``"renewal"`` (to stop a renewal: "how much notice is needed to stop it renewing?"),
    ``"exit"`` (to end the agreement: "how much notice do we need to just walk?"), ``"both"`` ("to stop the re-up, or to just
    walk?"), else ``""`` (no notice to end asked)."""
    if not asks_notice(question) or _EVENT_ASKED.search(question):
        return ""
    renewal = bool(_RENEWAL_ASKED.search(question))
    exit_ = bool(_END_ASKED.search(_STOP_RENEWAL_ASKED.sub(" ", question)))
    return "both" if renewal and exit_ else "renewal" if renewal else "exit" if exit_ else ""


#: A notice given to renew, not to stop a renewal: "notice ... to show the intention to renew", "wishing to renew", "elects to renew".
_NOTICE_TO_RENEW = re.compile(r"\b(?:intention|intent|wish\w*|desir\w*|elect\w*|decid\w*|opt\w*)\s+to\s+(?:renew|extend)\b|"
                              # "Cisco may, by written notice to Distributor, given at least thirty (30) days prior to the end of the
                              # then-current term of the Agreement, extend the term" (a keyed dev set): a notice that extends it
                              r"\b(?:may|shall|will|can)\s*,?\s+by\s+(?:\w+\s+)?notice\b[^.;]{0,150}?,\s*(?:renew|extend)\b", re.IGNORECASE)


#: A notice given: the sentence says notice, notifying or informing (in writing).
_SAYS_NOTICE = re.compile(r"\bnotic|\bnotif|\binform\w*|\bwritten\s+(?:request|election|communication)|\badvis\w*\s+(?:the\s+other|in\s+writing)",
                          re.IGNORECASE)
#: A condition that is a party's own choice ("If either party wishes to terminate this Agreement, it shall give ninety days' notice").
_OWN_WISH = re.compile(r"^\W*(?:[\w.()]{1,6}\s+)?(?:if|should|in\s+the\s+event|in\s+case)\s+(?:that\s+)?(?:[\w'’-]+\s+){0,4}?"
                       r"(?:wish|wishes|desires?|elects?|decides?|chooses?|wants?|intends?)\b", re.IGNORECASE)
#: An event a sentence refers back to before the end it allows: "then in such event the other party may ... terminate" (not "in
#: which case this Agreement will automatically terminate" after a notice of non-renewal).
_SUCH_EVENT = re.compile(r"\bin\s+(?:such|that|either|any\s+such)\s+(?:event|case)\b[^.;]{0,80}?\b(?:terminat|cancel)\w*", re.IGNORECASE)


def end_notice(texts: Sequence[str], asked: str = "both") -> Reading:
    """The notice that ends the agreement or stops its renewal, from every sentence that ends or renews it (:data:`_ENDED`) for
    no breach or other event (:data:`_FOR_EVENT`): the periods of notice it states (:func:`clauselens.grid.extract.notice_like`);
    one value, else the different ones as choices. ``asked`` (:func:`asks_end_notice`): ``"renewal"`` reads only sentences about
    a renewal or the end of a term, ``"exit"`` only the others."""
    found: dict[str, Candidate] = {}
    for i, s, _e, text in sentences_of(texts):
        if not _ENDED.search(text) or _FOR_EVENT.search(text) or re.match(r"\W*WHEREAS\b", text):
            continue
        if not _SAYS_NOTICE.search(text):
            continue  # "... unless extended by written agreement of the Joint Venturers not less than thirty (30) days prior to scheduled
            # termination" (a keyed dev set): a deadline to agree, no notice anyone gives
        if (_ON_EVENT.match(text) and not _OWN_WISH.match(text)) or _SUCH_EVENT.search(text):
            continue  # "In the event of such an assignment ..., then in such event the other party may upon six-months (6-months) written
            # notice terminate this Agreement" (a keyed dev set): an event's right, not a free exit -- unless the event is the party's wish
        if _NOTICE_TO_RENEW.search(text):
            continue  # "no written notice ... to show the intention to renew this Agreement ... the Agreement shall terminate": renewing is opted
            # into, no notice stops it (a keyed dev set read its 30 days)
        about_renewal = bool(_RENEWAL_SENTENCE.search(text))
        if (asked == "renewal" and not about_renewal) or (asked == "exit" and about_renewal):
            continue
        for p, ps, pe in durations_at(text):
            if notice_like(text, ps, pe) and not _BEYOND.search(text[max(0, ps - 25):ps]) and not _RANGE.search(text[max(0, ps - 50):ps]):
                found.setdefault(str(p), Candidate(str(p), str(p), i, s, s + len(text), 1, 0, NOTICE_GROUPS))
    return one_value(found, "the clauses that end or stop renewing the agreement", "notice period")


#: The topic group of a renewal's length read by :func:`renewal_length`.
RENEWAL_GROUPS = ("renewal",)
#: A renewal for further periods of a length: "renew automatically for successive one (1) year terms", "an automatic extension for
#: consecutive one (1) year periods", "renewed ... for additional, successive five (5) year periods", "the option to renew the term of
#: this Agreement, on the terms and conditions set forth in this Agreement, for four (4) additional ten (10) year terms" (an insert
#: between commas; also the grid rule's gate for a renewal's length the question's words found, :mod:`clauselens.grid.rule`).
RENEWS_FOR = re.compile(r"\b(?:renew|extend|extension)\w*\b(?:[^.;]{0,80}?|[^.;,]{0,40},[^.;,]{0,80},[^.;,]{0,30}?)\b"
                        r"(?P<further>additional|successive|consecutive|further|subsequent|renewal)\b", re.IGNORECASE)
#: A renewal year by year with no number: "renew automatically from year to year", "automatically renewing annually", "successive
#: annual periods".
_YEARLY = re.compile(r"\b(?:renew|extend|continu)\w*\s+(?:\w+\s+){0,3}?(?:from\s+)?(?:year[\s-]+to[\s-]+year|annually|on\s+an?\s+annual\s+basis|"
                     r"for\s+(?:an\s+)?(?:additional\s+|successive\s+)?(?:one|1)[\s-]+year)\b|"
                     r"\b(?:successive|additional|consecutive|further)\s+(?:annual|yearly)\s+(?:periods?|terms?)\b", re.IGNORECASE)
#: Before a period in a renewal sentence: the notice or the initial term's ("unless ... notice ... sixty (60) days prior").
_NOT_RENEWAL_PERIOD = re.compile(r"\b(?:initial|original|first)\s+(?:term|period)\s+(?:of\s+)?(?:\w+\s+)?$", re.IGNORECASE)


def renewal_length(texts: Sequence[str]) -> Reading:
    """The length of each renewal, from every sentence that renews or extends the agreement for further periods
    (:data:`RENEWS_FOR`: the periods after the renewal words, not a notice's nor the initial term's) or year by year
    (:data:`_YEARLY`: one year); one value, else the different ones as choices."""
    found: dict[str, Candidate] = {}
    for i, s, _e, text in sentences_of(texts):
        if re.match(r"\W*WHEREAS\b", text) or _FOR_EVENT.search(text) or _ON_EVENT.match(text):
            continue  # ... nor one a condition opens ("In the event that MusclePharm shall achieve Net Sales ... renewed for an additional term")
        m = RENEWS_FOR.search(text)
        values = [str(p) for p, ps, pe in durations_at(text) if m is not None and ps >= m.start("further") and not notice_like(text, ps, pe)
                  and not _NOT_RENEWAL_PERIOD.search(text[max(0, ps - 40):ps]) and not _BEYOND.search(text[max(0, ps - 25):ps])]
        if not values and _YEARLY.search(text):
            values = ["1 year"]
        if values:
            found.setdefault(values[0], Candidate(values[0], values[0], i, s, s + len(text), 1, 0, RENEWAL_GROUPS))
    return one_value(found, "the clauses that renew the agreement", "renewal period")


#: A question for the first term in other words: "Initial commitment pls - yrs/months", "Base term?", "how long does the first
#: stretch hold me".
_FIRST_TERM_ASKED = re.compile(r"\b(?:initial|first|base|opening|original)\s+(?:\w+\s+)?(?:term|period|commitment|stretch|round|stint|go-?around)\b",
                               re.IGNORECASE)


#: What comes after the first term: "once the first stretch is over, how long is each extra chunk?" (a keyed dev set).
_AFTER_FIRST = re.compile(r"\b(?:after|once|beyond|past|following)\b[^?.;]{0,30}\b(?:initial|first|base|opening|original)\b|"
                          r"\b(?:each|every)\s+(?:\w+\s+)?(?:extra|additional|further|new|next)\b", re.IGNORECASE)


def asks_first_term(question: str) -> bool:
    """Does the question ask for the length of the agreement's first term in words other than "how long" ("Base term?")?"""
    return (bool(_FIRST_TERM_ASKED.search(question)) and not asks_notice(question) and not asks_renewal(question)
            and not _AFTER_FIRST.search(question))


def asks_cure(question: str) -> bool:
    """Does the question ask how long a party has to put a breach right ("how much time do they have to fix it?")?"""
    return bool(_FIX_ASKED.search(question)) and bool(_FAIL_ASKED.search(question) or re.search(r"\bcure|remed", question, re.I))


def asks_payment_term(question: str) -> bool:
    """Does the question ask how long after an invoice a payment is due ("How many days do we get to pay an invoice?")?"""
    # ... or in other words: "Within how many days must payments be made?", "how quickly are we paid?"
    return bool(_PAY_ASKED.search(question) or re.search(r"\bnet\b", question, re.I)) and bool(
        _BILL_ASKED.search(question) or _HOW_SOON.search(question))


def about_period_asked(question: str, sentence: str) -> bool:
    """Is ``sentence`` about the event a cure or payment question asks the time for (a breach or its cure; a payment),
    so that a period it states may answer ("The Compensation Options will be exercisable for a period of 24 months at
    the Offering Price" answers no "how quickly do invoices have to be paid?")? True for other questions."""
    if asks_cure(question):  # ... and not the term a breach ends early ("remain in effect for a period of 1 year; provided, that ...
        # shall terminate promptly upon ... breach": a tryout read the term as the time to cure)
        return bool(_BREACH.search(sentence) or _CURE.search(sentence)) and not _TERM_RUNS.search(sentence)
    if asks_payment_term(question):
        return bool(_PAID_WITHIN.search(sentence)) and not _NOT_A_DEADLINE.search(sentence)
    return True


#: The agreement's own term running for a period: "remain in effect for a period of 1 year", "the initial term of this Agreement".
_TERM_RUNS = re.compile(r"\b(?:remain|continue)\w*\s+in\s+(?:full\s+)?(?:force|effect)(?:\s+and\s+effect)?\s+for\b|"
                        r"\b(?:initial\s+)?term\s+of\s+this\s+agreement\s+(?:shall|will|is)\b", re.IGNORECASE)
#: A sentence whose period is another event's than a payment falling due: a breach or its cure (a grace period before a
#: termination), a dispute of a bill, a termination, a right to question or audit a statement.
_NOT_A_DEADLINE = re.compile(_BREACH.pattern + "|" + _CURE.pattern + r"|\bdisput\w*|\bterminat\w*|\bquestion\w*|\baudit\w*|\binspect\w*|"
                             # "within 30 days after the end of the Initial Term" (a shortfall paid once, a keyed dev set)
                             r"\b(?:end|expiration|expiry)\s+of\s+the\s+(?:initial\s+|then[\s-]current\s+)?term\b", re.IGNORECASE)
#: A payment made due within a period: "shall be paid within thirty (30) days", "payable no later than 45 days", "Net 30 days".
_PAID_WITHIN = re.compile(r"\b(?:pa(?:y|id|ys|ying|yable|yment|yments)|due|remit\w*)\b[^.;]{0,80}?\b(?:within|(?:no|not)\s+later\s+than)\s+"
                          r"[\w()\s-]{0,30}?\b(?:days?|weeks?|months?)\b|\bnet\s+(?:\d+|thirty|sixty|forty-five|ninety|fifteen)\b", re.IGNORECASE)


def cure_period(texts: Sequence[str]) -> Reading:
    """The time to cure a breach, from every sentence of ``texts`` that gives one (module docstring)."""
    return _read(texts, _BREACH, _CURE, CURE_GROUPS, "the clauses on curing a breach")


def payment_term(texts: Sequence[str]) -> Reading:
    """The time to pay an invoice, from every sentence of ``texts`` that gives one (module docstring) -- not one that gives
    another event's time (:data:`_NOT_A_DEADLINE`: "if Shipper has not remedied the failure within thirty (30) days", "may
    terminate this Agreement in the event that a payment ... is not made within fifteen (15) days", "at any time within three
    years after the Term ... questioning the validity" of a royalty statement)."""
    billed = _read(texts, _DUE, _INVOICE, PAYMENT_GROUPS, "the clauses on paying an invoice", skip=_NOT_PAYMENT_TIME)
    if billed.candidate is not None or billed.choices:
        return billed
    return _read(texts, _DUE, _PERIODIC, PAYMENT_GROUPS, "the clauses on paying each period (no invoice)", skip=_NOT_PAYMENT_TIME)


#: ... nor the time to send the invoice: "Provider shall submit ... within 15 days after the end of each month, an invoice setting forth
#: the Fees ... due under such invoice" (no word of paying it; a keyed dev set read 15 days).
_NOT_PAYMENT_TIME = re.compile(_NOT_A_DEADLINE.pattern + r"|^(?![\s\S]*\b(?:pay|paid|payable|payment|payments|remit\w*)\b)[\s\S]*\b(?:submit|send|"
                               r"deliver|issue|render)\w*\b[^.;]{0,80}?\binvoices?\b|"
                               # ... nor the time to send a statement or report, when nothing is paid before it: "XSPA shall deliver to
                               # Calm within twenty (20) days after each calendar month, a statement ... identifying ... the total
                               # commission paid to XSPA employees" (a keyed dev set read 20 days)
                               r"^(?:(?!\bpa(?:y|ys|id|yable|yment|yments)\b|\bremit)[\s\S])*?\b(?:submit|send|deliver|issue|render|provide|"
                               r"furnish)\w*\b[^.;]{0,40}?\bwithin\b[^.;]{0,80}?\b(?:statements?|reports?|accountings?)\b|"
                               # ... nor a solvency test: "unable to meet its obligations as they become due within one year after the date
                               # that PB's financial statements are issued" (a keyed dev set read one year)
                               r"\b(?:debts|obligations|liabilities)\s+as\s+they\s+(?:become|fall|come)\s+due\b", re.IGNORECASE)


#: Before a period: a condition's threshold ("if the invoice is received more than 10 days after the date of the invoice", beside
#: "Payment terms are net 30 days": a tryout read the 10 days), not the time given.
_BEYOND = re.compile(r"(?<!\bnot\s)(?<!\bno\s)\b(?:more|greater|longer)\s+than\s+$|\bin\s+excess\s+of\s+$", re.IGNORECASE)


def _read(texts: Sequence[str], topic: re.Pattern[str], anchor: re.Pattern[str], groups: tuple[str, ...], what: str,
          skip: re.Pattern[str] | None = None) -> Reading:
    found: dict[str, Candidate] = {}
    ends: set[str] = set()  # values already quoted from a sentence that ends the agreement
    for i, s, _e, text in sentences_of(texts):
        if not topic.search(text) or (skip is not None and skip.search(text)):
            continue
        anchors = [m.start() for m in anchor.finditer(text)]
        if not anchors:
            continue
        near = [(d, v) for d, v in ((min(abs(a - ps) for a in anchors), str(p)) for p, ps, _pe in durations_at(text)
                                    if not _BEYOND.search(text[max(0, ps - 25):ps])) if d <= REACH]
        if near:
            value = min(near)[1]
            # the same period in several sentences: the one that ends the agreement is quoted (a sublicensee's cure period
            # came first in a licence whose termination clause gives the parties the same 15 days)
            ending = _ENDS.search(text) is not None
            if value not in found or (value not in ends and ending):
                found[value] = Candidate(value, value, i, s, s + len(text), 1, 0, groups)
                if ending:
                    ends.add(value)
    return one_value(found, what, "period", "state")


#: The topic group of a rate read by :func:`late_charge`.
LATE_GROUPS = ("late payment",)
#: A question about what a late payment costs: a word of lateness and one of paying ("If the money comes in late, what does that
#: cost them?", "is anything added for the wait ... if they never pay on time?"), or the contract's "late fee" / "late charge".
_LATE_ASKED = re.compile(r"\b(?:late|overdue|past[\s-]+due|on\s+time|slow\w*|delay\w*|behind|tardy)\b", re.IGNORECASE)
_MONEY_ASKED = re.compile(r"\b(?:pay\w*|paid|money|bills?|invoices?|fees?|charges?)\b", re.IGNORECASE)
#: In a sentence: a payment made late ("Past due payments", "any delay by Service Recipient in its payment", "amounts not paid
#: when due", "overdue", "after the due date") ...
_PAID_LATE = re.compile(r"\b(?:past[\s-]+due|overdue|late\s+(?:payments?|charges?|fees?)|(?:delay|default)\w*\s+(?:\w+\s+){0,3}?(?:in|of)\s+"
                        r"(?:\w+\s+){0,3}?payments?|not\s+(?:been\s+)?(?:paid|received)\s+(?:\w+\s+){0,4}?(?:when|by|within)\b|unpaid|"
                        r"after\s+(?:the\s+|its\s+)?due\s+date)", re.IGNORECASE)
#: ... and what is charged for it: interest, a late charge or fee, a penalty, a rate per day or month.
_CHARGED = re.compile(r"\binterest\b|\blate\s+(?:payment\s+)?(?:charges?|fees?)|\bpenalt\w*|\bsurcharge|\bliquidated\s+damages|"
                      r"\bper\s+(?:day|month|annum|year)\b|\b(?:for\s+)?(?:each|every)\s+(?:day|month)\b",
                      re.IGNORECASE)
#: A rate over a reference rate ("the prime rate plus two percent (2%)", "the legal commercial interest rate ... plus 1%"): the
#: margin alone is no answer.
_REFERENCE_RATE = re.compile(r"\b(?:prime|libor|sofr|base|reference|federal\s+funds|discount)\s+(?:lending\s+)?rate\b", re.IGNORECASE)
_MARGIN_BEFORE = re.compile(r"\b(?:plus|above|over|in\s+excess\s+of)\s+(?:[\w()-]+\s+){0,3}$", re.IGNORECASE)


def on_late_payment(sentence: str) -> bool:
    """Does ``sentence`` speak of a payment made late (:data:`_PAID_LATE`: past due, overdue, unpaid ...)?"""
    return bool(_PAID_LATE.search(sentence))


def asks_late_charge(question: str) -> bool:
    """Does the question ask what is charged for a late payment (interest, a late fee)?"""
    return bool(re.search(r"\blate\s+(?:payment\s+)?(?:fee|charge)s?\b", question, re.IGNORECASE)) or bool(
        _LATE_ASKED.search(question) and _MONEY_ASKED.search(question))


def late_charge(texts: Sequence[str]) -> Reading:
    """The rate charged on a late payment, from every sentence of ``texts`` that makes a payment late (:data:`_PAID_LATE`) and
    charges for it (:data:`_CHARGED`): the percentage nearest the charge word ("Past due payments hereunder shall bear interest at
    the rate of (i) one and one-half percent (1-1/2%) per month"); not a margin over another rate ("plus 1%")."""
    found: dict[str, Candidate] = {}
    for i, s, _e, text in sentences_of(texts):
        if not _PAID_LATE.search(text) or _REFERENCE_RATE.search(text):
            continue
        anchors = [m.start() for m in _CHARGED.finditer(text)]
        near = [(min(abs(a - start) for a in anchors), str(x)) for x, start, _end in amounts_at(text)
                if x.kind == "percent" and not _MARGIN_BEFORE.search(text[max(0, start - 40):start])] if anchors else []
        near = [(d, v) for d, v in near if d <= REACH]
        if near:
            value = min(near)[1]
            found.setdefault(value, Candidate(value, f"percent:{value}", i, s, s + len(text), 1, 0, LATE_GROUPS))
    return one_value(found, "the clauses on late payments", "rate")


#: The topic group of a share read by :func:`percent_share`.
SHARE_GROUPS = ("share",)
#: A percentage of something paid or earned: "50% of all revenues received", "ten percent (10%) of Net Sales", "50% of any such
#: royalties" -- a royalty, a commission, a revenue share or a reimbursement written as a share.
_SHARE_OF = re.compile(r"\s*\)?\s*(?:of|on)\s+(?:the\s+|all\s+|any\s+(?:such\s+)?|each\s+|its\s+|such\s+)?(?:[A-Z]?[\w-]+\s+){0,3}?"
                       r"(?:revenues?|sales|receipts|proceeds|profits?|income|royalt\w*|collections?|billings?)\b", re.IGNORECASE)


#: A definition's sentence ("... shall mean", "means") and a threshold's words before a figure ("more than", "at least").
_DEFINES = re.compile(r"^(?:[^.;]|\.(?=\d)){0,200}?\b(?:shall\s+mean|means|is\s+defined\s+as)\b", re.IGNORECASE)
_MORE_THAN = re.compile(r"(?:\b(?:more|greater|less|fewer)\s+than|\bin\s+excess\s+of|\bat\s+least|\bexceed(?:s|ing)?)\s+"
                        r"(?:[\w-]+\s+(?:percent|per\s+cent)\s*\(\s*)?$", re.IGNORECASE)  # "more than twenty percent (20%)"


def percent_share(texts: Sequence[str]) -> Reading:
    """The percentage the agreement pays or shares as a part of something ("a fee equal to 50% of all revenues received"),
    from every sentence that states one: the value when they all state one percentage, else the different ones."""
    from clauselens.grid.values import named_amount

    found: dict[str, Candidate] = {}
    for i, s, _e, text in sentences_of(texts):
        for a, start, end in amounts_at(text):
            if _DEFINES.match(text) or _MORE_THAN.search(text[max(0, start - 25):start]):
                continue  # 'a Competitive Business shall mean ... which derives more than 20% of its revenues': a threshold, not a share paid
            if a.kind == "percent" and _SHARE_OF.match(text, end) and not named_amount(text, start, end):
                found.setdefault(str(a), Candidate(str(a), f"percent:{a.value}", i, s, s + len(text), 1, 0, SHARE_GROUPS))
    return one_value(found, "the clauses that pay a share", "percentage")


__all__ = ["CURE_GROUPS", "LATE_GROUPS", "NOTICE_GROUPS", "PAYMENT_GROUPS", "RENEWAL_GROUPS", "RENEWS_FOR", "SHARE_GROUPS", "about_period_asked",
           "asks_cure", "asks_end_notice", "asks_first_term", "asks_late_charge", "asks_payment_term", "cure_period", "end_notice",
           "late_charge", "payment_term", "percent_share", "renewal_instead", "renewal_length"]


#: Before a period: the initial term's ("an initial term of ten (10) years") or a renewal's ("successive renewal terms of five
#: (5) years", "extend ... for additional one-year periods").
_INITIAL_BEFORE = re.compile(r"\b(?:initial|original|first)\s+(?:term|period)\s+(?:of\s+)?(?:\w+\s+)?$", re.IGNORECASE)
_RENEWAL_BEFORE = re.compile(r"\b(?:renew\w*|extend\w*|extension|successive|additional)\b[^.;]{0,60}$", re.IGNORECASE)


def renewal_instead(sentence: str, value: str) -> str:
    """A renewal question whose reading (``value``) is the sentence's initial term ("an initial term of ten (10) years ...
    Thereafter, Bellicum shall have ... options to extend the Term for successive renewal terms of five (5) years each": a tryout
    answered "How long does each renewal last?" with 10 years): the renewal's period the same sentence states, else ``""``."""
    flat = " ".join(sentence.split())
    found = durations_at(flat)
    if not any(str(p) == value and _INITIAL_BEFORE.search(flat[max(0, s - 40):s]) for p, s, _ in found):
        return ""
    return next((str(p) for p, s, _ in found if str(p) != value and _RENEWAL_BEFORE.search(flat[max(0, s - 80):s])
                 and not _INITIAL_BEFORE.search(flat[max(0, s - 40):s])), "")
