"""Grid cells of a user's question decided by the trained heads (issue #45), without the model.

A question a user writes has no CUAD category. The question-topic head (:mod:`clauselens.heads.topic`:
softmax regression over the question's all-MiniLM-L6-v2 vector, Reimers & Gurevych 2019) reads one from
its wording -- "does anyone get to look through the other side's books?" is *Audit Rights* -- and the
clause presence head (:mod:`clauselens.heads.presence`: per-category logistic probes over TF-IDF word
windows, maximum over windows, Hendrycks et al. 2021's 41 CUAD categories) says whether the agreement
has such a clause. The category is used only when the topic head gives it at least
:data:`MIN_TOPIC_PROBABILITY` (the library's topic channel uses the same floor,
:data:`clauselens.library.category_absence.CHANNEL_MIN_PROBABILITY`).

**Yes/no** (:func:`head_yes_no`): a category whose CUAD answer format is Yes/No and whose CUAD question
(:func:`clauselens.grid.questions.preset`) asks with the same polarity as the user's -- both, or neither,
ask about a lack ("without", "not", "no", ...; "can they assign *without* consent?" asks the opposite of
*Anti-Assignment*'s "is consent required?", so the head does not decide it). The agreement's contract score
against the presence head's per-category threshold (tuned on the ``train_allowed`` tune split) decides "Yes",
quoting the sentence of the agreement the head scores highest for the category; a score under the topic
head's ``absent_below`` (at most 3 % of the ``train_allowed`` agreements that have such a clause score
lower, out of fold) decides "No" -- for a kind it gives none, a score under :func:`absent_line` (no ``train_allowed``
agreement with such a clause scores lower, 5-fold out of fold; ``benchmarks/presence_absent_lines.py``) when no sentence grants
what is asked; a score between the two is the **unclear band**: the head does not decide and the cell is not answered by the model
either (:class:`HeadYesNo` ``answer == ""``). A free exit asked in any words is read as *Termination For Convenience* (the head
only denies it; a "Yes" needs the sentence), and a question about competing and soliciting together is "No" only when all three
restraint kinds score under their lines (:func:`_restraints_absent`).

**Typed** (:func:`category_question`): a date or duration question (:data:`CATEGORY_TYPES`) in everyday words
("when does this deal kick in?") whose own words find no sentence is read again as the CUAD preset's
question of the head's category when that category has the same answer type (*Effective Date*: date),
over the agreement's opening passages and the :data:`TOP_PASSAGES` passages the presence head scores
highest for the category (:func:`category_passages`); the typed readers then run as for the preset.

Both heads load on first use; when either is not installed the caller keeps its path (said once).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from clauselens.grid.evidence import MAY_ASK
from clauselens.grid.questions import GridQuestion
from clauselens.heads.category_words import ASKED_WORDS
from clauselens.heads.category_words import NEVER_WORDED as NEVER_WORDED  # re-exported: the grid's rules and tests use it here
from clauselens.heads.category_words import never_worded as never_worded
from clauselens.parsing.contents import is_contents

#: A question about a first refusal, offer or negotiation names one of these (a keyed dev set's exclusivity question did not).
_FIRST_ASKED = re.compile(r"\b(?:first|match\w*|offer\w*|refus\w*|options?|dibs|before\s+(?:anyone|anybody|someone|somebody))\b", re.IGNORECASE)
#: A question that names a clause kind by its own word family: "exclusive rights", "exclusivity", "a non-compete" (never "competent").
_NAMED_KIND = re.compile(r"\bexclusiv\w*|\bcompet(?!en)\w*", re.IGNORECASE)
#: A question for exclusivity says "only" or "sole" (read as the topic head's first refusal without a word of one); said twice in a
#: question no kind was read from, it asks for it too ("only one side gets to do this ... rights nobody else").
_SOLE_ASKED = re.compile(r"\b(?:only|sole|solely|exclusiv\w*|one[\s-]and[\s-]only|nobody\s+else|no[\s-]one\s+else)\b", re.IGNORECASE)
#: The topic head's least probability for the category it reads (the library's topic channel's floor).
MIN_TOPIC_PROBABILITY = 0.5
#: Per CUAD category, the least out-of-fold presence score of a train_allowed agreement with such a clause
#: (``benchmarks/presence_absent_lines.py``): the "No" line of a kind the topic head gives no ``absent_below``.
ABSENT_LINES = Path(__file__).resolve().parent / "presence_absent_lines.json"
#: The clause kind of a free exit.
CONVENIENCE = "Termination For Convenience"
#: Passages, besides the opening ones, that a typed question read as a category looks at.
TOP_PASSAGES = 5
#: Opening passages kept for a typed question read as a category (the preamble: dates, parties).
FRONT_PASSAGES = 2
#: Least words of the sentence a head's "Yes" quotes (shorter ones are headings).
MIN_QUOTE_WORDS = 6
#: Answer types a typed question may be read as a category for: CUAD's one jurisdiction category is
#: Governing Law, and a question about courts or arbitration is not about it (the head has no such class).
CATEGORY_TYPES = frozenset({"date", "duration"})
#: Categories a typed question is not read as: CUAD has no class for a notice period to end the agreement
#: early, so the topic head reads such questions as the notice that stops a renewal (dev grid set: "how much
#: warning to end it early" read as Notice Period To Terminate Renewal at P 0.99), a different period. And the
#: preset's Agreement Date reads the preamble alone, while a question about signing in its own words already
#: takes the preamble path with the signature blocks' check (:func:`clauselens.grid.rule.read`; former blind set:
#: "put pen to paper" read as Agreement Date gives the preamble's date, not the signing date).
NOT_READ_AS = frozenset({"Notice Period To Terminate Renewal", "Agreement Date"})
#: Words that make a question ask about a lack ("without consent", "no reason needed", "not allowed").
_LACK = re.compile(r"\b(?:without|not|no|never|free|freely|neither|nor|unless|none)\b|n't\b", re.IGNORECASE)


@dataclass(frozen=True)
class TopicReading:
    """The topic head's category for a question and its probability."""

    category: str
    probability: float


@dataclass(frozen=True)
class RowHeads:
    """The presence head's reading of one agreement: contract score and threshold per category, and
    each passage's probability per category (rows: the agreement's passages in document order)."""

    categories: list[str]
    scores: dict[str, float]
    thresholds: dict[str, float]
    passage_probs: Any  # numpy array (passages, categories)


@dataclass(frozen=True)
class HeadYesNo:
    """A yes/no decision by the heads: ``answer`` "Yes" / "No" / "" (the unclear band), the passage and
    the sentence's offsets quoted for a "Yes", and the reason."""

    answer: str
    category: str
    reason: str
    passage: int = -1
    start: int = 0
    end: int = 0


def _notice(what: str, e: Exception) -> None:
    from clauselens.heads.base import notice_missing

    notice_missing(what, "grid cells of a user's question decided by the heads", e)  # said once per head


@lru_cache(maxsize=1)
def _embedder() -> Any:
    from clauselens.retrieval.embedders import get_embedder

    return get_embedder("minilm")


@lru_cache(maxsize=1024)
def question_topic(question: str) -> TopicReading | None:
    """The topic head's most probable CUAD category for ``question`` when it is not ``Other`` and has
    at least :data:`MIN_TOPIC_PROBABILITY`; ``None`` otherwise or when the head or MiniLM is missing."""
    from clauselens.heads.topic import OTHER, load

    try:
        head = load()
        vec = _embedder().embed_queries([question])[0]
    except Exception as e:  # noqa: BLE001 - a missing head or embedder turns the feature off, said once
        _notice("topic", e)
        return None
    p = head.probabilities(vec)[0]
    j = int(p.argmax())
    if head.labels[j] == OTHER or float(p[j]) < MIN_TOPIC_PROBABILITY:
        return None
    return TopicReading(head.labels[j], float(p[j]))


def row_heads(texts: Sequence[str]) -> RowHeads | None:
    """The presence head's reading of one agreement given its passages' texts in document order;
    ``None`` when the head is not installed or there is no text."""
    from clauselens.heads.base import HeadMissingError
    from clauselens.heads.presence import load

    if not any(t.strip() for t in texts):
        return None
    try:
        head = load()
    except HeadMissingError as e:
        _notice("presence", e)
        return None
    verdicts = head.score(" ".join(texts))
    probs = head.window_probs(list(texts))
    contents = [i for i, t in enumerate(texts) if is_contents(t)]
    if contents:  # a contents page names clauses it does not state: never the passage quoted (a new user's tryout)
        probs = probs.copy()
        probs[contents, :] = 0.0
    return RowHeads(list(head.categories), {v.category: v.score for v in verdicts}, {v.category: v.threshold for v in verdicts}, probs)


@lru_cache(maxsize=64)
def cuad_question(category: str) -> GridQuestion | None:
    """The CUAD preset's question of ``category`` (None for a category it does not ask)."""
    from clauselens.grid.questions import preset

    return next((q for q in preset("cuad") if q.category == category), None)


def same_polarity(question: str, category_question: str) -> bool:
    """Do both questions ask about a lack, or neither (see the module docstring)?"""
    return bool(_LACK.search(question)) == bool(_LACK.search(category_question))


#: Clause kinds that restrict a party: a question whether the party *may* do the thing ("Can they assign the contract to
#: someone else?") is answered "No" by such a clause, the opposite of the kind's own question ("Is consent ... required ...?").
RESTRICTIONS = frozenset({"Anti-Assignment", "Non-Transferable License", "Covenant Not To Sue", "Non-Compete", "No-Solicit Of Customers",
                          "No-Solicit Of Employees", "Exclusivity", "Non-Disparagement", "Volume Restriction", "Price Restrictions"})
_RESTRICT_ASK = re.compile(r"\b(?:restrict\w*|prohibit\w*|ban(?:s|ned)?|barred|bar|forbid\w*|limit\w*|consent|permission|approv\w*|"
                           r"requir\w*|need\w*|exclusiv\w*|only|sole(?:ly)?)\b|\bnon-?compet\w*|\bnot\s+(?:to\s+)?compet\w*", re.IGNORECASE)


def asks_permission(question: str, category: str) -> bool:
    """Does ``question`` ask whether a party may do what a restricting clause kind (:data:`RESTRICTIONS`) restricts ("Can they
    assign the contract to someone else?"), without naming the restriction -- the kind's polarity turned around?"""
    return category in RESTRICTIONS and bool(MAY_ASK.search(question)) and not _RESTRICT_ASK.search(question)


def _absent_below(category: str) -> float | None:
    from clauselens.heads.topic import load

    try:
        return load().absent_below.get(category)
    except Exception:  # noqa: BLE001 - no topic head: no absence threshold
        return None


@lru_cache(maxsize=1)
def _absent_lines() -> dict[str, float]:
    try:
        return {c: float(v) for c, v in json.loads(ABSENT_LINES.read_text(encoding="utf-8"))["lines"].items()}
    except (OSError, ValueError, KeyError):
        return {}


def absent_line(category: str) -> float | None:
    """The presence score under which no train_allowed agreement with a clause of ``category`` falls, out of fold
    (:data:`ABSENT_LINES`), else ``None``."""
    return _absent_lines().get(category)


def absence_line(category: str) -> tuple[float | None, bool]:
    """The "No" line of ``category`` and whether it is the out-of-fold one: the topic head's ``absent_below`` when it gives one
    (``False``), else :func:`absent_line` (``True``), else ``(None, False)``."""
    low = _absent_below(category)
    if low is not None:
        return low, False
    line = absent_line(category)
    return line, line is not None


def best_sentence(texts: Sequence[str], rh: RowHeads, category: str) -> tuple[int, int, int]:
    """``(passage, start, end)``: the sentence the presence head scores highest for ``category`` in the
    passage it scores highest (the whole passage when it has no sentence)."""
    from clauselens.grid.extract import sentences_of
    from clauselens.heads.presence import load

    j = rh.categories.index(category)
    i = int(rh.passage_probs[:, j].argmax())
    # a sentence, not a heading ("4.2 Covenant Not to Compete"): at least MIN_QUOTE_WORDS words
    sents = [(s, e) for _, s, e, t in sentences_of([texts[i]]) if len(t.split()) >= MIN_QUOTE_WORDS]
    if len(sents) <= 1:
        return (i, *sents[0]) if sents else (i, 0, len(texts[i]))
    probs = load().window_probs([texts[i][s:e] for s, e in sents])[:, j]
    s, e = sents[int(probs.argmax())]
    return i, s, e


def head_yes_no(question: str, texts: Sequence[str], rh: RowHeads | None) -> HeadYesNo | None:
    """The heads' yes/no for a user's ``question`` over one agreement's passages (``texts``, document
    order; ``rh`` from :func:`row_heads`), or ``None`` when the heads cannot decide it: no category read
    with enough probability, not a Yes/No category, a polarity that differs from the category's, or no
    presence reading. ``answer == ""`` is the unclear band (see the module docstring)."""
    if rh is None:
        return None
    topic = question_topic(question)
    only = [m.group(0).lower() for m in _SOLE_ASKED.finditer(question)]
    if topic is None and len(only) >= 2 and "Exclusivity" in rh.scores and not _FIRST_ASKED.search(question):
        # "does anything in here say that only one side gets to do this, or that we can only deal with each other, or give someone
        # rights nobody else is allowed to have?" (no kind read with enough probability): its "only ... nobody else" asks for exclusivity
        topic = TopicReading("Exclusivity", 0.0)
    from clauselens.grid.extract import asks_convenience
    from clauselens.grid.yes_no import asks_secrecy

    if asks_secrecy(question):
        return None  # "Any NDA-type stuff in here about keeping things hush-hush?" read as exclusivity (P 0.90): no CUAD kind is confidentiality
    granted = _sentence_grants(question, texts)  # read at most once, and only when a score falls under a line
    restraints = _restraints_absent(question, rh, granted)
    if restraints is not None:
        return restraints
    by_words = asks_convenience(question) and CONVENIENCE in rh.scores and (topic is None or topic.category != CONVENIENCE)
    if by_words:
        # "Can either side bail out just by giving notice, with nothing having gone wrong?" (no kind read, or read as change of control,
        # P 0.67): its words ask for a free exit -- which the head only denies below its absence line (a "Yes" needs the sentence)
        topic = TopicReading(CONVENIENCE, 0.0)
    cq = cuad_question(topic.category) if topic else None
    if topic is None or cq is None or cq.type != "yes_no" or topic.category not in rh.scores:
        return None
    free_exit = topic.category == CONVENIENCE and asks_convenience(question)  # "even if nothing went wrong", "for convenience": one meaning
    if not (free_exit or same_polarity(question, cq.question)) or asks_permission(question, topic.category):
        return None
    if topic.category == "Rofr/Rofo/Rofn" and not _FIRST_ASKED.search(question):
        # "only we can sell it, or they only can buy from us? some only-one deal here?" read as a first refusal (P 0.86): without a
        # word of first refusal, its "only" / "sole" asks for exclusivity (keyed dev sets)
        if not _SOLE_ASKED.search(question) or "Exclusivity" not in rh.scores:
            return None
        topic = TopicReading("Exclusivity", topic.probability)
    # the kind named last: "... whether they can just go buy from my competitors - is anything in this agreement exclusive ...?" asks
    # about exclusivity (a keyed dev set: read as non-compete, "No" for an exclusivity question)
    kinds = list(_NAMED_KIND.finditer(question))
    named = kinds[-1] if kinds else None
    if named and not re.search(r"\bnon\W{0,2}(?:exclusiv|compet)", question, re.IGNORECASE):
        kind = "Exclusivity" if named.group(0).lower().startswith("exclusiv") else "Non-Compete"
        if topic.category != kind and kind in rh.scores:
            # "Is anyone given exclusive rights under this deal?" read as third party beneficiary (P 0.87, a new user's tryout): a
            # question that names the kind by its own word family asks about that kind
            topic = TopicReading(kind, topic.probability)
    cat = topic.category
    said = (f"the question reads as one about {cat.lower()} (topic head P {topic.probability:.2f})" if topic.probability else
            f"the question reads as one about {cat.lower()} (its words: "
            + (f"{', '.join(dict.fromkeys(only))})" if not by_words else "an exit on notice alone)"))
    return _presence_decision(texts, rh, cat, said, by_words, granted)


def _sentence_grants(question: str, texts: Sequence[str]) -> Callable[[], bool]:
    """Does a sentence of the agreement answer ``question`` "Yes" (:func:`clauselens.grid.yes_no.read_yes_no`)? Read on first
    call, then kept."""
    @lru_cache(maxsize=1)
    def granted() -> bool:
        from clauselens.grid.yes_no import read_yes_no

        return read_yes_no(question, texts).answer == "Yes"

    return granted


#: A question about competing and about taking the other side's staff or customers at once ("non-compete or no-poach?", "blocked
#: from competing with the other, or from poaching the other's people or clients?"): the topic head's probability is split
#: between the kinds, so it often reads none of them.
_COMPETE_ASKED = re.compile(rf"\b{ASKED_WORDS['compet']}\w*|\brival\w*|\bopen\s+(?:up\s+)?shop\b", re.IGNORECASE)
_SOLICIT_ASKED = re.compile(r"\bsolicit\w*|\bpoach\w*|\bno-poach\b|\brecruit\w*|\blur(?:e|ing)\b|\bentic\w*|\bhir(?:e|ing)\s+(?:away|off)\b|"
                            r"\btak(?:e|ing)\s+away\b|\bgo(?:ing)?\s+after\b|\bsteal\w*", re.IGNORECASE)
#: The kinds such a question asks about together.
RESTRAINTS = ("Non-Compete", "No-Solicit Of Employees", "No-Solicit Of Customers")


def _restraints_absent(question: str, rh: RowHeads, granted: Callable[[], bool]) -> HeadYesNo | None:
    """"No" to a question about competing *and* soliciting when the presence head scores each of :data:`RESTRAINTS` under its
    line (:func:`absence_line`) and no sentence grants what is asked (``granted``); else ``None`` (the
    other readings decide). Not for a question asking whether a party *may* compete or solicit (:func:`asks_permission`)."""
    if not (_COMPETE_ASKED.search(question) and _SOLICIT_ASKED.search(question)) or asks_permission(question, "Non-Compete"):
        return None
    lines = {c: absence_line(c)[0] for c in RESTRAINTS}
    if any(c not in rh.scores or v is None or rh.scores[c] >= v for c, v in lines.items()) or granted():
        return None
    scores = "; ".join(f"{c.lower()} {rh.scores[c]:.2f} < {v:.2f}" for c, v in lines.items() if v is not None)
    return HeadYesNo("No", "Non-Compete", "the question asks about competing and about soliciting the other side's people or customers; "
                                          f"the clause presence head finds none of the three kinds ({scores}: each under its absence line) "
                                          "(no model)")


def _presence_decision(texts: Sequence[str], rh: RowHeads, cat: str, said: str, no_only: bool, granted: Callable[[], bool]) -> HeadYesNo:
    """The presence head's answer for ``cat``: "Yes" at its threshold (not when ``no_only``: then the sentences decide a "Yes");
    "No" under the topic head's ``absent_below`` (at most 3 % of training agreements with such a clause fall under it), or, for a
    kind it gives none, under :func:`absent_line` (none does, out of fold) unless a sentence grants what is asked (``granted``); else
    unsure."""
    score, thr = rh.scores[cat], rh.thresholds[cat]
    if score >= thr and not no_only:
        i, s, e = best_sentence(texts, rh, cat)
        return HeadYesNo("Yes", cat, f"{said}; the clause presence head finds one: score {score:.2f} >= threshold {thr:.2f} "
                                     "(no model)", i, s, e)
    low, line = absence_line(cat)
    if low is not None and score < low:
        if not line:
            return HeadYesNo("No", cat, f"{said}; the clause presence head finds none: score {score:.2f} < {low:.2f}, under which "
                                        "at most 3 % of training agreements with such a clause fall (no model)")
        if not granted():  # a sentence that grants it outweighs the score
            return HeadYesNo("No", cat, f"{said}; the clause presence head finds none: score {score:.2f} < {low:.2f}, under which no "
                                        "training agreement with such a clause falls, out of fold (no model)")
    band = f"{low:.2f}" if low is not None else "none (no absence threshold for this kind)"
    return HeadYesNo("", cat, f"{said}; the clause presence head is unsure: score {score:.2f}, below its threshold {thr:.2f} "
                              f"and above its absence line {band}; left for a reviewer")


_NOT_NON = r"(?<!non)(?<!non\W)(?<!non\W\W)"  # "non-exclusive", "non exclusive", "non\u2010 exclusive"
_ROLE = (r"right|rights|licen[cs]e|licensee|distributor|distribution|agent|agency|provider|supplier|supply|reseller|dealer|"
         r"representative|sales|marketing|territory|territories|trade area|basis|partner|arrangement|relationship|manufacturer|"
         r"purchaser|sponsor|endorse\w*|retailer|vendor|source")
_GRANT_WORDS = (r"worldwide|world-wide|royalty[- ]free|royalty[- ]bearing|perpetual|irrevocable|sole|and|paid[- ]up|fully|"
                r"transferable|sublicensable|limited")
#: An exclusive grant or appointment in its own words: "an exclusive license", "exclusive, royalty free, perpetual license", "sole
#: and exclusive right", "exclusive distributor" (not "non-exclusive"); and the word "exclusivity" (shared with the playbook's
#: exclusivity stacker, :mod:`clauselens.playbook.stack`).
EXCLUSIVE_GRANT = _NOT_NON + rf"\bexclusive\s*,?\s+(?:(?:{_GRANT_WORDS})\s*,?\s*)*(?:\w+\s+)?(?:{_ROLE})\b(?!,? title|,? but not)"
EXCLUSIVITY_WORD = _NOT_NON + r"\bexclusivity\b"
_EXCLUSIVE_WORDING = re.compile(EXCLUSIVE_GRANT + "|" + EXCLUSIVITY_WORD, re.IGNORECASE)


def exclusive_sentence(texts: Sequence[str]) -> tuple[int, int, int] | None:
    """``(passage, start, end)`` of the first sentence that grants or appoints something exclusively in those words
    (:data:`EXCLUSIVE_GRANT`, "exclusivity") and says it as an exclusivity clause does (:func:`states_clause`: not denied, not an
    exclusive remedy, jurisdiction or ownership), else None -- where the presence head is unsure, the wording decides a "Yes"."""
    from clauselens.grid.extract import sentences_of

    for i, s, e, t in sentences_of(texts):
        if len(t.split()) >= MIN_QUOTE_WORDS and _EXCLUSIVE_WORDING.search(t) and states_clause("Exclusivity", t):
            return i, s, e
    return None


#: What a clause of some kinds must say for a "Yes" to quote it: insurance as a duty (CUAD's "a requirement for either party to
#: maintain insurance": "Licensee shall maintain ... insurance", not "Any of the Parties may at its own expense insure against
#: such risks" nor a supposition, "Should the Managing Group agree to jointly insure ..."); a cap on liability as a limit (an
#: amount, a ceiling or a time to bring claims, not only "in no event will WebMD be liable ... for indirect damages", nor the
#: heading "Limitation of liability").
CLAUSE_WORDED: dict[str, str] = {
    "Insurance": r"\b(?:shall|must|will|agrees?\s+to|(?:is|are|be)\s+required\s+to|undertakes?\s+to|(?:is|are)\s+responsible\s+for|"
                 r"carries|maintains)\b[^.;]{0,120}?\b(?:maintain|carry|carries|obtain|procure|keep|purchase|insure|name|have|provide|secure|"
                 r"arrange|covered)\w*\b[^.;]{0,200}\binsur"
                 r"|\binsur\w*[^.;]{0,200}\b(?:shall|must|will)\s+(?:\w+\s+){0,3}?(?:be\s+)?(?:maintained|carried|obtained|kept|in\s+(?:full\s+)?force)\b",
    "Cap On Liability": r"\bliab\w*[^.;]{0,300}?(?:\bexceed\w*|\blimited\s+to\b|\bin\s+excess\s+of\b|\bmaximum\b|\b(?:no|not)\s+more\s+than\b|"
                        r"\bup\s+to\b|\bcap(?:ped|s)?\b|\bgreater\s+than\b|\$|\bfees?\s+(?:paid|payable)\b|\bamounts?\s+(?:paid|payable)\b)"
                        r"|(?:\bexceed\w*|\blimited\s+to\b|\bmaximum\b|\baggregate\b|\bcap(?:ped)?\b)[^.;]{0,300}?\bliab"
                        r"|\b(?:brought|commenced|asserted)\s+(?:more|later)\s+than\b",
    # a restriction on assigning: consent, a prohibition, a void attempt, an exception -- not "inure to the benefit of ... successors and
    # assigns" nor "shall automatically terminate in the event the Management Agreement is assigned" (a tryout quoted both)
    "Anti-Assignment": r"\b(?:assign|transfer|delegat|novat|sublicens|subcontract)\w*[^.;]{0,250}?\b(?:consent|approv|prohibit|void|not|no|"
                       r"without|except|unless|only|neither|nor|cannot|restrict)\w*|\b(?:not|no|neither|nor|cannot|prohibit\w*|restrict\w*)\b"
                       r"[^.;]{0,250}?\b(?:assign|transfer|delegat|novat)\w*",
    # a change of ownership with what follows from it -- consent, approval, notice or an end: "may terminate this Agreement upon a Change
    # of Control", not "Each party shall have the right to assign ... in connection with any merger" (a free assignment a keyed dev
    # set's change-of-control cell answered "Yes" from); 68 of the 78 train_allowed agreements' annotated clauses say it so
    "Change Of Control": r"\b(?:control\w*|ownership|management|merger|merge[sd]?|amalgamat\w*|acqui\w*|consolidat\w*|reorgani[sz]\w*|"
                         r"(?:sale|transfer)\s+of\s+(?:all|substantially)|(?:sells?|transfers?)\s+(?:all|substantially))[^;]{0,250}?"
                         r"\b(?:consent\w*|approv\w*|terminat\w*|notif\w*|notice|permission)\b"
                         r"|\b(?:consent\w*|approv\w*|terminat\w*|notif\w*|notice|permission)\b[^;]{0,250}?\b(?:control\w*|ownership|management|"
                         r"merger|merge[sd]?|amalgamat\w*|acqui\w*|consolidat\w*|reorgani[sz]\w*|(?:sale|transfer)\s+of\s+(?:all|substantially)|"
                         r"(?:sells?|transfers?)\s+(?:all|substantially))|\bchange\s+(?:of|in)\s+(?:\w+\s+)?(?:control|ownership)\b",
    # a quantity or sum bought, ordered, sold or paid -- not "the minimum width is 100 pixels" of a logo guideline (a tryout)
    "Minimum Commitment": r"\b(?:minimum|at\s+least|(?:not|no)\s+less\s+than|shortfall|take[\s-]or[\s-]pay)\b[^.;]{0,150}?\b(?:purchas|buy|order|"
                          r"sell|sale|volume|quantit|units|pay|spend|revenue|fee|royalt)\w*|\b(?:purchas|buy|order|sell|sale|volume|quantit|units|"
                          r"pay|spend|revenue|fee|royalt)\w*[^.;]{0,150}?\b(?:minimum|at\s+least|(?:not|no)\s+less\s+than|shortfall)\b"}
_SUPPOSED = re.compile(r"^\W*(?:\(?[\w.]{1,6}\)?\s+)?(?:should|if|in\s+the\s+event|where|when)\b", re.IGNORECASE)


#: A definition's sentence: '"Term" means ...', 'AMI/MEA Agreement" shall mean ...' (its opening quote cut off).
_DEFINITION = re.compile(r"^\W*(?:[\d.()a-z]{1,8}\s+)?(?:(?:in|for\s+(?:the\s+)?purposes?\s+of)\s+this\s+\w+,?\s+)?[\"“][^\"”]{1,80}[\"”]\s+"
                         r"(?:(?:as\s+an?|when\s+used\s+as\s+an?)\s+\w+\s+)?"
                         r"(?:shall\s+mean|means|has\s+the\s+meaning)\b"  # '"Transfer" as a noun means any such sale, assignment, etc.' (a tryout)
                         r"|^[^\"“]{0,20}[\"”]\s+(?:shall\s+mean|means)\b", re.IGNORECASE)
_NOT_DEALING = re.compile(r"\w*\s+(?:[\w'’-]+\s+){0,2}?(?:remed\w*|procedur\w*|jurisdiction|venue|forum|courts?|property|owner\w*|means|method|"
                          # IP rights' boilerplate ("including exclusive exploitation rights, copyrights"), an entire agreement's "exclusive
                          # understanding", "governed exclusively by" (a tryout)
                          r"exploitation\s+rights|govern\w*|understanding|statement|expression|warrant\w*|"
                          # "may be changed without prior notice, exclusively at Tripath's discretion" (a keyed dev set), "at its sole and
                          # exclusive option", "exclusive responsibility": whose choice or burden, no dealing
                          r"discretion|option|election|judg\w*|decision|determination|responsibilit\w*|risk|cost|expense|liabilit\w*)\b"
                          # "Prices are exclusive of any tax": excluding it
                          r"|\w*\s+of\s+(?:any|all|the)?\s*(?:[\w-]+\s+){0,2}?(?:tax|taxes|vat|duty|duties|charges?|shipping|freight|fees?)\b"
                          # the scope of a use: "a ... non-exclusive ... license to use the Licensed Mark solely and exclusively as a
                          # component of Licensee's own corporate name" (a keyed dev set)
                          r"|\w*ly\s+(?:as\s+(?:an?|the|part\s+of)|for\s+(?:the\s+)?purposes?\b|in\s+connection\s+with)\b"
                          # ... nor a right to enforce: "shall have the exclusive right, but not the obligation, to prosecute, defend and/or
                          # settle ... claims involving any Third Party Infringement" (the same set)
                          r"|\w*\s+right[^.;]{0,40}?\bto\s+(?:prosecute|defend|enforce|sue|bring|settle|control|institute|file|maintain)\b",
                          re.IGNORECASE)  # "stated exclusive of sales tax and VAT" (a tryout)
#: "Such remedies will not be deemed to be exclusive", "the courts ... shall have exclusive jurisdiction" said the other way round.
_NOT_DEALING_BEFORE = re.compile(r"\b(?:remed\w*|procedur\w*|jurisdiction|venue|forum)\b[^.;]{0,50}$|\bgovern\w*\s+$", re.IGNORECASE)
#: ... or denied further off: "nothing herein is intended nor shall be construed as creating any exclusive arrangement" (a tryout).
_DENIED_FAR = re.compile(r"\b(?:nothing|not|no|neither|nor)\b[^.;]{0,80}\b(?:creat\w*|constitut\w*|establish\w*|grant\w*|impl\w*|deemed|"
                         r"construed)\s+(?:as\s+)?(?:creating\s+|granting\s+)?(?:any|an?)\s+$", re.IGNORECASE)
_DENIED = re.compile(r"\b(?:non[\s-]*|no\s+(?:[\w-]+\s+){0,2}|not\s+(?:an?\s+)?)$", re.IGNORECASE)


_OUT_OF_CONTROL = re.compile(r"\b(?:beyond|outside(?:\s+of)?)\s+(?:[\w'’]+\s+){0,4}?control\b", re.IGNORECASE)


def states_clause(category: str, sentence: str) -> bool:
    """Does ``sentence`` say what a clause of ``category`` says, so that a "Yes" may quote it: its wording
    (:data:`CLAUSE_WORDED`: insurance as a duty, a cap as a limit), a kind written with its own word uses it
    (:data:`NEVER_WORDED`: a non-compete's quote says "compete"), a termination for convenience lets a party end the agreement at will
    (:func:`clauselens.grid.whose.at_will`)? True for the other kinds."""
    from clauselens.grid.whose import at_will

    if category == "Change Of Control":  # force majeure's "beyond the reasonable control of" is no change of control (a keyed dev set)
        sentence = _OUT_OF_CONTROL.sub(" ", sentence)
    wording = CLAUSE_WORDED.get(category)
    if wording is not None and re.search(wording, sentence, re.IGNORECASE) is None:
        return False
    if category == "Insurance" and _SUPPOSED.match(sentence):
        return False  # "Should the Managing Group agree to jointly insure ...": a supposition, no duty
    if _DEFINITION.match(sentence):
        return False  # '"AMI/MEA Agreement" shall mean that certain ... Exclusivity Agreement': a name, not a clause
    if is_contents(sentence):
        return False  # "19.10 Counterparts 39 ATTACHMENTS: ... D - Confidentiality and Non-Competition Agreement": contents
    word = NEVER_WORDED.get(category)
    if word is not None and not any(not sentence[m.start():].lower().startswith("competen") and (
            category != "Exclusivity" or not (_DENIED.search(sentence[max(0, m.start() - 30):m.start()]) or _NOT_DEALING.match(sentence, m.end())
                                              or _DENIED_FAR.search(sentence[max(0, m.start() - 120):m.start()])
                                              or _NOT_DEALING_BEFORE.search(sentence[max(0, m.start() - 60):m.start()])))
            for m in re.finditer(word[1], sentence, re.IGNORECASE)):
        # not its word ("competent" is no "compete"), only denied ("non-exclusive", "No marketing exclusivity ..."), or no dealing ("the sole
        # and exclusive procedures for the resolution of any Dispute", "exclusive jurisdiction", "exclusive remedy")
        return False
    return category != "Termination For Convenience" or at_will(sentence)


def clause_sentence(category: str, texts: Sequence[str], order: Sequence[int] | None = None) -> tuple[int, int, int] | None:
    """``(passage, start, end)`` of the first sentence of ``texts`` (in ``order``: passage indices, e.g. the presence head's
    best first; default document order) that :func:`states_clause`, else None."""
    from clauselens.grid.extract import sentences_of

    for i in (order if order is not None else range(len(texts))):
        for _j, s, e, t in sentences_of([texts[i]]):
            if len(t.split()) >= MIN_QUOTE_WORDS and states_clause(category, t):  # a sentence, not a heading ("Non-Competition by ...")
                return i, s, e
    return None


def category_question(q: GridQuestion) -> tuple[GridQuestion, TopicReading] | None:
    """For a typed user question (not a CUAD preset question; no terms, no search text): the CUAD preset's question of the category the
    topic head reads, when it has the same answer type, with the reading; else ``None``."""
    if q.type not in CATEGORY_TYPES or cuad_question(q.category) is not None or q.terms or q.search.strip():
        return None  # a preset question reads its own category
    topic = question_topic(q.question)
    cq = cuad_question(topic.category) if topic else None
    if topic is None or cq is None or cq.type != q.type or topic.category in NOT_READ_AS:
        return None
    from clauselens.grid.term import renewal_only_after

    if topic.category == "Renewal Term" and renewal_only_after(q.question):
        return None  # "Initial commitment pls - yrs/months before any auto-renew kicks in" read as Renewal Term (P 0.92): the first term
    return cq, topic


def category_passages(texts: Sequence[str], rh: RowHeads, category: str) -> list[bool]:
    """Which passages a typed question read as ``category`` keeps: the first :data:`FRONT_PASSAGES` and
    the :data:`TOP_PASSAGES` the presence head scores highest for the category."""
    keep = [i < FRONT_PASSAGES for i in range(len(texts))]
    if category in rh.categories and len(texts):
        col = rh.passage_probs[:, rh.categories.index(category)]
        for i in col.argsort()[::-1][:TOP_PASSAGES]:
            keep[int(i)] = True
    return keep


__all__ = ["CATEGORY_TYPES", "FRONT_PASSAGES", "MIN_QUOTE_WORDS", "MIN_TOPIC_PROBABILITY", "NEVER_WORDED", "NOT_READ_AS",
            "TOP_PASSAGES", "HeadYesNo", "RowHeads", "TopicReading", "best_sentence",
           "category_passages", "category_question", "cuad_question", "head_yes_no", "never_worded", "question_topic", "row_heads",
           "same_polarity"]
