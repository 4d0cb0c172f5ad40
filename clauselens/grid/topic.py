"""What a grid question is about, for a question a user wrote without ``terms`` (issue #45).

A cell's verified quote must be about its question's topic (:func:`clauselens.grid.answer.topic_check`);
a preset question lists its topic words (:attr:`~clauselens.grid.questions.GridQuestion.terms`),
a user's question has none. :func:`topic_terms` derives them, generically, from the question:

1. its content words (function words dropped, as :func:`clauselens.retrieval.lay_terms.content_stems` does,
   and the words any question about a contract uses, :data:`GENERIC`), Snowball-stemmed (Porter
   1980) and used as word prefixes ("confidential" -> ``confidenti``, matching "confidentiality");
2. the contract terms of the lay phrases the question contains (thesaurus-based expansion,
   Voorhees 1994; :func:`clauselens.retrieval.lay_terms.expand`: "end the agreement early without
   a reason" -> "terminate", "for convenience", ...);
3. the contract terms of every thesaurus concept whose name shares a content stem with the
   question (outside :data:`GENERIC`): "renews" -> the concept "renewal term" -> "automatically
   renew", "successive", ...;
4. the contract wording of everyday words (:data:`EVERYDAY`: "end" -> "terminat", "expir";
   "signed" -> "execut", "dated", ...), a small general vocabulary of plain verbs and nouns,
   not written for any question.

The terms are data derived per question, never a list written for a question. No terms at all
(a question of generic words only) leaves the topic unchecked, as before.
"""

from __future__ import annotations

import re
from functools import lru_cache

from clauselens.retrieval.lay_terms import LayConcept, concepts, content_stems, expand

#: Words any question about a contract may use; they tell nothing of its topic (stems are
#: compared, so inflections are covered). Interrogatives, quantities of a question ("how much",
#: "how long"), the contract and its parties, light verbs.
GENERIC = frozenset("""
agreement agreements contract contracts deal deals party parties side sides other others each either both someone something anyone else
any all time times much many long last lasts first one two date dates day term terms clause clauses section provision
provisions give gives giving given make makes made take takes get gets put say says said state states country
countries company companies us we they use under there whose whether way thing things kind type also well within
long often soon ever still mean means right rights apply applies applied most least itself before after
mention mentions mentioned contain contains include includes provide provides provided anything something
information obligation obligations duty duties
far want wants wanted wish wishes don't dont doesn't won't some here about over because
""".split())
#: The stems of :data:`GENERIC` (shared with :mod:`clauselens.grid.groups`).
GENERIC_STEMS = frozenset(content_stems(" ".join(GENERIC)))
#: Everyday words (by stem) and the contract wording they stand for (word prefixes and phrases).
EVERYDAY: dict[str, tuple[str, ...]] = {
    "end": ("terminat", "expir", "term of"), "quit": ("terminat",), "stop": ("terminat", "ceas"), "cancel": ("terminat", "cancel"),
    "last": ("term of", "continu", "expir", "durat", "in force", "in full force", "remain in effect"),
    "start": ("commenc", "effective"), "begin": ("commenc", "effective"),
    "sign": ("execut", "dated", "entered into", "as of"), "pay": ("fee", "pay", "price", "compensat", "$"),
    "paid": ("fee", "pay", "price", "compensat", "$"), "money": ("fee", "pay", "price", "compensat", "$"),
    "cost": ("fee", "price", "cost", "$"), "secret": ("confidential",), "secreci": ("confidential",), "fix": ("cure",), "check": ("inspect", "audit"),

    "transfer": ("assign", "transfer"), "hand": ("assign", "transfer"), "law": ("governed", "laws of"),
    "court": ("jurisdiction", "venue", "arbitrat"), "settl": ("jurisdiction", "venue", "arbitrat"),
    "forbidden": ("shall not", "may not", "prohibit"), "damag": ("liab",), "warn": ("notice",),
    # plain words for the same things, seen in the dev grid sets' wording (not a question's answer): "finish" as
    # "end", a "bill" as an invoice ("run" is not one: "the law that runs this contract"; nor "kick in", which would
    # read "continuous employment commenced on ..." as the agreement's start)
    "finish": ("terminat", "expir", "term of"), "bill": ("invoic", "bill"),
    # "extended" in a question is its renewal ("each time the deal is extended, for how long?")
    "extend": ("renew", "extend", "extension", "successive"),
    # "does one side have to cover the other?" if an outsider sues: an indemnity (a keyed dev set read "No" from no such word)
    "cover": ("indemn", "hold harmless", "harmless", "defend", "cover"),  # "hold the other Party harmless"
    # "is there any promise in here about it being good quality?": a warranty (a keyed dev set read "No" from no sentence on topic;
    # not "promise" itself: "if one side breaks a promise" is any breach)
    "qualiti": ("quality", "warrant", "defect", "conform", "workmanlike"),
}

#: "is in force", "remains in full force and effect", "is the agreement still in effect": the agreement lasts (the question's
#: "force" is not force majeure's; read as the everyday "last").
IN_FORCE = re.compile(r"\b(?:is|are|be|been|being|remains?|remained|stays?|stayed|continues?)\s+(?:(?:the|this|that|it|agreement|"
                      r"contract|deal|still)\s+){0,3}in\s+(?:full\s+)?(?:force|effect)(?:\s+and\s+effect)?\b", re.IGNORECASE)
#: "comes into force", "takes effect", "enters into effect": the agreement starts.
INTO_FORCE = re.compile(r"\b(?:com(?:e|es|ing)|enter(?:s|ing)?)\s+(?:in)?to\s+(?:force|effect)\b|\btak(?:e|es|ing)\s+effect\b",
                        re.IGNORECASE)


#: "leave early", "leave the deal": end it.
LEAVE_IT = re.compile(r"\bleave\s+(?=early\b|(?:the|this|our|their)\s+(?:deal|contract|agreement|arrangement)\b)", re.IGNORECASE)
#: "When's the contract up?": when it ends (a tryout: not found for all eight).
IS_UP = re.compile(r"^(\s*when(?:'s|’s|\s+is|\s+will)?\b[^?]{0,40}?)\bup(?=\W*$)", re.IGNORECASE)
#: "on what date the agreement would come to its close": when it ends (a keyed dev set read "close" as a deal closed, its date made).
TO_A_CLOSE = re.compile(r"\b(?:come|comes|coming|came|draw|draws|drawing|drew)\s+to\s+(?:its|an?|the)\s+(?:close|end)\b", re.IGNORECASE)
#: "How long am I signed up for?": how long the agreement binds (a keyed dev set: a signing question's "20 days" to mediate);
#: "the first go-around": its first round.
SIGNED_UP = re.compile(r"\bsign(?:s|ed|ing)?\s+up\b", re.IGNORECASE)
#: A request in the imperative ("Tell me ...", "Write down how long ...", "Check whether ...", "I need ...") and the purpose it
#: gives ("for our renewal calendar", "for the finance team"): the rest is the question (a keyed dev set in that register).
IMPERATIVE = re.compile(r"^\W*(?:please\s+)?(?:tell|give|show|write\s+down|note(?:\s+down)?|list|find(?:\s+out)?|check|look\s+up|"
                        r"let\s+me\s+know|i\s+(?:need|want)(?:\s+to\s+know)?|point\s+out|name|flag(?:\s+it)?|confirm|see)\b(?:\s+(?:me|us))?"
                        r"(?:\s*:)?\s*", re.IGNORECASE)
PURPOSE = re.compile(r",?\s*\bfor\s+(?:our|the|my)\s+(?:[\w-]+\s+){0,2}(?:calendar|team|records?|files?|system|diary|tracker|"
                     r"spreadsheet)\b\s*[-–—:,]?", re.IGNORECASE)
OUT_OF_THE_GATE = re.compile(r"\b(?:right\s+)?out\s+of\s+the\s+(?:gate|box|blocks)\b", re.IGNORECASE)
BUYS_OUT = re.compile(r"\bbuy(?:s|ing)?\s+(?:[\w'’]+\s+){0,3}?out\b", re.IGNORECASE)
GO_AROUND = re.compile(r"\bgo[- ]around\b", re.IGNORECASE)
#: "... to stop it renewing, or to get out of it?": a notice that ends it, too, not only a renewal's (a keyed dev set).
OR_ENDS = re.compile(r"\b(?:renew\w*|re-?ups?)\b[^?]{0,40}?\bor\s+(?:to\s+)?(?:just\s+)?(?:to\s+)?"
                     r"(?:get\s+out|end|cancel|terminat\w*|quit|exit|walk(?:\s+away)?|leave|back\s+out|pull\s+out)\b", re.IGNORECASE)
#: Passing the agreement itself on to someone else, in everyday words: a verb of handing over, the agreement ("this contract",
#: "the whole deal", "it"), then another party ("to another company", "over to a different business", "to someone else").
PASS_ON = re.compile(r"\b(?:give|giving|gives|hand|handing|hands|handed|pass|passing|sign|signing|flip|flipping|sell|selling|move|"
                     r"moving|shift|shifting|offload|offloading|transfer\w*|assign\w*)\s+(?:(?:this|the|that|our|their|its|whole|"
                     r"entire)\s+){0,3}(?:contract|agreement|deal|it)\b(?:\s+(?:off|over|on|across))?\s+(?:\w+\s+){0,2}?"
                     r"(?:to|over\s+to)\s+(?:an?\s+|some\s+|the\s+)?(?:another|other|different|third|new|outside|someone|"
                     r"somebody|anyone|anybody|stranger)\b", re.IGNORECASE)
#: A user's context before a dash, then the question ("I'm trying to fill in a wall calendar so nothing sneaks up on me - ... what's
#: the actual date ...?", "I'm getting the names mixed up ... - which company is the one providing things?").
CONTEXT_DASH = re.compile(r"^[^?:]{0,200}?\s[-–—]+\s(?=[^?]*\b(?:what|when|which|how|who|whose|name)\b)", re.IGNORECASE)
#: "how far in advance must someone say so?": how much notice.
FAR_IN_ADVANCE = re.compile(r"\bhow\s+far\s+(?:in\s+)?(?:advance|ahead)\b", re.IGNORECASE)


def plain_idioms(question: str) -> str:
    """``question`` with "in force" / "into force" idioms in everyday words ("lasts", "starts"), so that their
    "force" is not read as force majeure's, and "how far in advance" as "how much notice"."""
    question = IMPERATIVE.sub("", PURPOSE.sub("", question))  # "Give me the end date, for our renewal calendar": "the end date"
    question = LEAVE_IT.sub("end ", question)  # "can either of us leave early?": end it (not a holiday's "leave")
    question = IS_UP.sub(lambda m: m.group(1) + "end", question)  # ... "be up" (its time is up)
    question = TO_A_CLOSE.sub("end", question)
    question = GO_AROUND.sub("round", SIGNED_UP.sub("locked in", question))
    question = BUYS_OUT.sub("bought out", question)  # "if someone buys one of us out": the thesaurus's "bought out" (change of control)
    question = OUT_OF_THE_GATE.sub("first", question)  # "How long are we locked in out of the gate?": the first term
    question = PASS_ON.sub(lambda m: "assign " + m.group(0).split(None, 1)[1], question)  # "flip this deal to another company": assign it
    return FAR_IN_ADVANCE.sub("how much notice", INTO_FORCE.sub(" starts", IN_FORCE.sub(" lasts", question)))


def topic_stems(text: str) -> list[str]:
    """The stems of ``text``'s content words that can name a topic: not :data:`GENERIC`, longer than two letters."""
    return [s for s in content_stems(text) if s not in GENERIC_STEMS and len(s) > 2]


@lru_cache(maxsize=1)
def _concept_stems() -> tuple[tuple[frozenset[str], tuple[str, ...]], ...]:
    return tuple((frozenset(topic_stems(c.name)), c.contract_terms) for c in concepts())


@lru_cache(maxsize=1)
def concept_name_stems() -> frozenset[str]:
    """The topic stems of every thesaurus concept's name ("confidentiality", "non-compete", "governing law", ...)."""
    return frozenset(s for names, _terms in _concept_stems() for s in names)


@lru_cache(maxsize=512)
def telling_concepts(question: str) -> tuple[LayConcept, ...]:
    """The thesaurus concepts whose lay phrases ``question`` contains (:func:`~clauselens.retrieval.lay_terms.expand`),
    without those matched only by phrases made of :data:`GENERIC` words: "side deals" and "sides to the deal"
    match any question about "one side" of "the deal" by their content words, and "date of the deal" any date
    question about "this deal" -- they tell nothing of its topic (new blind grid set, #45: "can one side cancel
    the deal whenever it wants" read as entire agreement and parties; "on what date does this deal finish" as
    the agreement's date)."""
    from clauselens.retrieval.lay_terms import phrase_matcher

    names = set(expand(question).concepts)
    stems = " ".join(content_stems(question))  # once, not per phrase
    out = []
    for c in concepts():
        if c.name not in names:
            continue
        matched = [ph for ph in c.phrases if phrase_matcher(ph).search(question, stems)]
        if not matched or any(not set(content_stems(ph)) <= GENERIC_STEMS for ph in matched):
            out.append(c)
    return tuple(out)


@lru_cache(maxsize=512)
def derive_terms(question: str) -> tuple[str, ...]:
    """The topic terms (lower-case word prefixes and phrases) of ``question`` in everyday words (:func:`plain_idioms`: "signed
    up" is no signing); see the module docstring."""
    question = plain_idioms(question)
    own = topic_stems(question)
    terms: dict[str, None] = dict.fromkeys(own)
    terms.update(dict.fromkeys(t.lower() for c in telling_concepts(question) for t in c.contract_terms))
    mine = set(own)
    for stem in content_stems(question):  # everyday words count even when generic ("how long does it last")
        terms.update(dict.fromkeys(EVERYDAY.get(stem, ())))
    for names, contract_terms in _concept_stems():
        if names & mine:
            terms.update(dict.fromkeys(t.lower() for t in contract_terms))
    # a term that is a generic word itself ("agreement", "party") would match every clause
    return tuple(t for t in terms if t and not (len(t.split()) == 1 and re.sub(r"\W", "", t) in GENERIC))


#: A question about when the agreement was made or starts (:func:`preamble_date_kind`): its start words and stems ...
_START_STEMS = frozenset(content_stems("effect effective start begin commence commencement"))
#: ... and the everyday ways to say it was made: "What day was the deal struck?" (a tryout: not found for all eight), "sealed", "inked".
_SIGN_STEMS = frozenset(content_stems("sign signed signature execute executed made struck sealed inked clinched closed")) - {"date"}
#: Everyday ways to ask when it starts: "when does this deal kick in?", "up and running", "go live", "become binding", "day one".
_START_IDIOM = re.compile(r"\bkick(?:s|ed)?\s+(?:in|off)\b|\bup\s+and\s+running\b|\bgo(?:es)?[\s-]+live\b|\bcomes?\s+into\s+(?:force|effect)\b|"
                          r"\bbecomes?\s+binding\b|\bday\s+(?:one|1)\b|\bfirst\s+day\s+of\s+(?:the|this|our)\s+(?:contract|agreement|deal|term)\b|"
                          # "From what date is the agreement in force?", "since when does it apply?": the day it starts
                          r"\b(?:from|since|as\s+of)\s+(?:what|which)\s+(?:date|day)\b|\b(?:from|since)\s+when\b|"
                          # "In force from - what date?" (a keyed dev set read its end)
                          r"\b(?:in\s+(?:force|effect)|effective|valid|binding|live|running)\s+(?:from|since)\b", re.IGNORECASE)
_ITS_DATE = frozenset(content_stems("date dated agreement contract deal document what which whats"))


#: Where a question turns to what it really asks: "... the day it was signed - is that right, or what's the real start date?"
#: A supposition before the question, up to its comma: context, not what is asked ("In case nobody is renewing it and nobody is
#: closing it before, in which date the agreement is finishing?" -- a keyed dev set read its "closing" as a signing).
_LEADING_SUPPOSITION = re.compile(r"^\W*(?:if|in\s+case|assuming|supposing|suppose|provided|say|should|in\s+the\s+event)\b[^,?;]*,\s*"
                                  r"(?=(?:then\s+|so\s+)?(?:in\s+|on\s+|at\s+|by\s+|from\s+|until\s+)?(?:what|when|which|how)\b)",
                                  re.IGNORECASE)
_REAL_ASK = re.compile(r"\s[-–—]\s|[,;]\s*(?:or|but)\s+(?=(?:what|when|which|how)\b)", re.IGNORECASE)


def preamble_date_kind(question: str) -> str:
    """``"made"`` for a question about when the agreement was signed / made, ``"effective"`` for
    one about when it starts or takes effect (its own words, by stem, or the thesaurus concept its lay
    phrase names: "agreement date", "effective date"), else ``""``: those dates are
    the preamble's (:func:`clauselens.grid.extract.read_front_date`), an end date is not. A question that states a guess and then asks
    ("I've been going on the idea that this started the day it was signed - is that right, or what's the real start
    date?") is read by what it asks last, when that part names one; a supposition before it is context (:data:`_LEADING_SUPPOSITION`)."""
    question = _LEADING_SUPPOSITION.sub("", question)
    parts = _REAL_ASK.split(question)
    last = _date_kind(parts[-1], generic=False) if len(parts) > 1 else ""
    return last or _date_kind(question)


def _date_kind(question: str, generic: bool = True) -> str:
    """:func:`preamble_date_kind` of one question or part; ``generic``: "what date?" alone asks the agreement's date."""
    stems = set(content_stems(plain_idioms(question)))
    # the thesaurus's lay phrases ("put pen to paper": the agreement date), not one of generic words ("date of the deal"
    # in "on what date does this deal finish?", :func:`~clauselens.grid.topic.telling_concepts`)
    named = {c.name for c in telling_concepts(question)}
    if stems & _SIGN_STEMS or "agreement date" in named or (generic and stems and stems <= _ITS_DATE):  # "What's the date on the contract?"
        return "made"
    return "effective" if stems & _START_STEMS or "effective date" in named or _START_IDIOM.search(question) else ""


__all__ = ["EVERYDAY", "GENERIC", "GENERIC_STEMS", "IN_FORCE", "INTO_FORCE", "OR_ENDS", "concept_name_stems", "derive_terms", "plain_idioms",
           "preamble_date_kind", "telling_concepts", "topic_stems"]
