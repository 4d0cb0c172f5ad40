"""Checks of a grid cell's answer against its verified quote (issue #45), beside the typed
values of :mod:`clauselens.grid.values`:

* **echo** (:func:`echo_issue`): the answer repeats the prompt -- its instructions, a type hint
  or a hint's examples. Issue #45's first run showed a duration cell *answered*
  ``the period, e.g. "30 days", "2 years", "successive 1-year periods"``. An answer sharing a run
  of :data:`ECHO_WORDS` words with the instructions (and not with the quote), or giving two or
  more of a hint's quoted examples, is rejected.
* **yes/no from evidence** (:func:`yes_no_issue`): a polar question ("Can a party transfer the
  agreement without the other's consent?") is read as the claim it asks about ("a party may
  transfer ..."); "Yes" needs a quote that asserts one of the question's actions
  (:data:`clauselens.reports.support.ACTIONS`) with the question's polarity for a compatible party
  (:func:`clauselens.reports.support.check_claim`: negation and party checks, issue #19), and keeps
  a condition the question sets with "without" ("without consent": the quote must say "without",
  "need not", "for any reason", ...). "No" with a quote needs a quote that says the opposite (a
  negation of the question's action, or a negation where the question has no action in the
  lexicon). A question with no action in the lexicon ("Is either party given exclusive rights?")
  is judged by the topic check and two claim-free checks: a question that asks for it
  *unconditionally* (:data:`UNCONDITIONAL`: "whenever they like", "no reason needed") is not shown
  "Yes" by a quote that ties it to the other party's conduct (:data:`CONDUCT_CONDITION`: "should the
  other Party fail to ...") without an unconditional phrase of its own (:data:`KEEPS_UNCONDITIONAL`);
  and a question's word found in the quote only as its "non-" form ("non-exclusive right" for
  "exclusive rights?") does not show "Yes" unless the question itself asks about a restriction
  ("barred from competing": "non-compete" affirms it). Both were found on the former blind grid set
  and are checked on fresh phrasings in ``tests/grid/test_grid_heads.py``.

Each check returns ``""`` or one sentence (the cell's reason); they compose: the grid runs them in
turn (:func:`clauselens.grid.answer.check_answer`), and another check (a clause-presence model)
can be added to that list. Pure functions; no I/O.
"""

from __future__ import annotations

import re
from typing import Iterable

from clauselens.grid.topic import PASS_ON
from clauselens.reports.support import ACTIONS, assertions, check_claim

#: An answer sharing a run of this many words with the prompt's instructions repeats them.
ECHO_WORDS = 3
_WORD = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*")
_EXAMPLE = re.compile(r"[\"“]([^\"”]{1,60})[\"”]")
_HINT_MARKS = re.compile(r"\be\.\s?g\.|\bfor example\b|\bthe answer is\b", re.IGNORECASE)


def _ngrams(text: str, n: int) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def _states(value: str, quote: str) -> bool:
    """Does ``quote`` state ``value`` -- as written, or as the same date, period or amount
    ("30 days" in "thirty (30) days")?"""
    from clauselens.grid.values import amounts_in, dates_in, durations_in, same_period

    if value in " ".join(quote.lower().split()):
        return True
    if dates_in(value):
        return set(dates_in(value)) <= set(dates_in(quote))
    if durations_in(value):
        return all(any(same_period(p, q) for q in durations_in(quote)) for p in durations_in(value))
    if amounts_in(value):
        return all(any(a.kind == b.kind and a.currency == b.currency and abs(a.value - b.value) < 1e-6 for b in amounts_in(quote))
                   for a in amounts_in(value))
    return False


def echo_issue(answer: str, quote: str, instructions: Iterable[str]) -> str:
    """``""``, or why ``answer`` repeats the prompt's ``instructions`` (system text, type hints):
    a marker of a hint ("e.g.", "the answer is"); two or more of the hints' quoted examples; or
    a run of :data:`ECHO_WORDS` words of the instructions that the quote does not have."""
    texts = list(instructions)
    if _HINT_MARKS.search(answer):
        return "the answer repeats the prompt's instructions, not the contract"
    low = " ".join(answer.lower().split())
    examples = {e.lower() for t in texts for e in _EXAMPLE.findall(t)
                if len(e.split()) <= 6 and _WORD.search(e.lower()) and e.lower() not in ("yes", "no")}
    if sum(1 for e in examples if e in low) >= 2:
        return "the answer repeats the prompt's examples, not the contract"
    if low.strip(" .") in examples and not _states(low, quote):
        return "the answer is the prompt's example, not the contract"
    shared = _ngrams(answer, ECHO_WORDS) & set().union(*(_ngrams(t, ECHO_WORDS) for t in texts)) - _ngrams(quote, ECHO_WORDS)
    if shared:
        return f"the answer repeats the prompt's instructions (\"{' '.join(sorted(shared)[0])}\"), not the contract"
    return ""


#: A polar question: auxiliary, then the rest ("Can a party ...", "Is a party forbidden ...").
_POLAR = re.compile(r"^\s*(can|could|may|might|must|shall|should|will|would|is|are|does|do|has|have)\s+(.+?)[\s?.!]*$",
                    re.IGNORECASE)
_MAY = {"can", "could", "may", "might"}
#: Everyday verbs for actions of the lexicon (a general lay vocabulary, not per question).
LAY_VERBS = {"end": "terminate", "quit": "terminate", "exit": "terminate", "cancel": "terminate", "check": "inspect",
             "examine": "inspect", "hand": "transfer", "pass": "transfer", "hire": "hire", "poach": "solicit", "leave": "terminate"}
_STATE_WORDS = {"forbidden": "prohibited", "banned": "prohibited", "prevented": "prohibited", "stopped": "prohibited",
                "barred": "barred", "prohibited": "prohibited", "restricted": "restricted", "required": "required",
                "obliged": "obliged", "obligated": "obligated", "allowed": "allowed", "permitted": "permitted",
                "entitled": "entitled", "free": "free"}
_SUBJECT_START = re.compile(r"^((?:either|each|one|neither|both|any)\s+of\s+(?:us|them|you|the\s+(?:parties|sides))|"  # "either of us"
                            r"(?:a|an|the|either|each|any|one|neither|both)\s+[\w'’-]+|"
                            r"(?:anyone|anybody|someone|somebody|everyone|everybody|nobody|no\s+one|they|we|you|he|she)\b|[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,3})\s+")
_ACTION_RE = re.compile(r"\b(" + "|".join(ACTIONS.values()) + r")\b", re.IGNORECASE)


#: Everyday phrasal verbs for ending the agreement ("back out", "pull out", "walk away"): terminate.
_LAY_PHRASAL = re.compile(r"^(?:back|pull|bow|get|opt|bail|drop|check)\s+out(?:\s+of)?\b|^walk\s+away(?:\s+from)?\b|^call\s+it\s+quits\b|"
                          r"^(?:quit|exit)\b", re.IGNORECASE)  # "bail out", "quit" (a tryout read "bail out" as a change of control)
#: Where a question asks a second polar question after a dash or a semicolon ("Is there a free exit - can either side back
#: out at any point ...?").
_PARTS = re.compile(r"\s+[-–—]+\s+|;\s+")


def question_claim(question: str) -> str | None:
    """The statement a polar ``question`` asks about, with a modal phrase over an action of the
    lexicon ("Can a party end the agreement ..." -> "a party may terminate the agreement ..."), or
    None when it has none (then no assertion check applies). A question of several parts ("Is there
    a free exit - can either side back out ...?") is read part by part, the first claim found."""
    parts = [question, *_PARTS.split(question)[1:]]
    for part in parts:
        claim = _claim_of(part)
        if claim is not None:
            return claim
    if PASS_ON.search(question):  # "Can either side flip this deal to another company?", "Check whether we're allowed to hand
        # this contract to another company": passing the agreement on, in whatever words and sentence form, is assigning it
        return "a party may assign or transfer the agreement"
    return None


#: A question whether a party may do something: "Can they ...?", "Is X allowed/free/able to ...?" (shared by the heads' and the
#: evidence's readings of a permission question).
MAY_ASK = re.compile(r"^\W*(?:can|could|may|might)\b|\b(?:allowed|permitted|free)\s+to\b|\bable\s+to\b", re.IGNORECASE)
_SELL_IT = re.compile(r"\bsell\s+(?=(?:the|this|that|its|their|our|your)\s+(?:contract|agreement|deal)\b)", re.IGNORECASE)
#: "Is there a right to terminate for convenience?", "Does either party have the option to renew?": a party's right.
_RIGHT_TO = re.compile(r"^\s*(?:is|are)\s+there\s+(?:a|an|any)\s+(?:right|option|ability|power)\s+(?:for\s+(?:a|either|each|any)\s+"
                       r"(?:party|side)\s+)?to\s+(.+?)[\s?.!]*$", re.IGNORECASE)
#: "Is assignment allowed without consent?": the action named by its noun, and whether it is allowed.
_NOUN_ALLOWED = re.compile(r"^\s*(?:is|are)\s+(?:an?\s+|any\s+)?(assignment|transfer|termination|cancell?ation|sublicensing|subcontracting|"
                           r"disclosure|renewal|audit|inspection)s?\s+(?:of\s+(?:this|the)\s+(?:agreement|contract)\s+)?"
                           r"(allowed|permitted|possible|ok|okay|prohibited|forbidden|restricted|barred)\b(.*?)[\s?.!]*$", re.IGNORECASE)
_BARS = frozenset({"prohibited", "forbidden", "restricted", "barred"})  # a question about the bar: no claim of a right
_NOUN_VERB = {"assignment": "assign", "transfer": "transfer", "termination": "terminate", "cancellation": "cancel",
              "cancelation": "cancel", "sublicensing": "sublicense", "subcontracting": "subcontract", "disclosure": "disclose",
              "renewal": "renew", "audit": "audit", "inspection": "inspect"}


def _claim_of(question: str) -> str | None:
    question = _SELL_IT.sub("transfer ", question)  # "can they sell the contract to another company?": pass the agreement on
    right = _RIGHT_TO.match(" ".join(question.split()))
    if right:  # "is there a right to terminate for convenience?": "a party may terminate ... for convenience"
        question = f"Can a party {right.group(1)}?"
    noun = _NOUN_ALLOWED.match(" ".join(question.split()))
    if noun:  # "is assignment allowed without consent?": "a party may assign the agreement without consent"
        verb = _SAME_ACTION.get(_NOUN_VERB[noun.group(1).lower()], _NOUN_VERB[noun.group(1).lower()])
        return None if noun.group(2).lower() in _BARS else f"a party may {verb} the agreement{noun.group(3)}"
    m = _POLAR.match(" ".join(question.split()))
    if not m:
        return None
    aux, rest = m.group(1).lower(), m.group(2)
    s = _SUBJECT_START.match(rest)
    if not s:
        return None
    subject, tail = s.group(1), rest[s.end():]
    tail = re.sub(r"^(?:(?:just|simply|really|actually|ever|still|also|freely)\s+)+", "", tail, flags=re.IGNORECASE)  # "just walk away"
    phrasal = _LAY_PHRASAL.match(tail)
    if phrasal:
        tail = "terminate " + tail[phrasal.end():].lstrip()
    first, _, after = tail.partition(" ")
    if aux in ("is", "are") and first.lower() in _STATE_WORDS:
        return f"{subject} is {_STATE_WORDS[first.lower()]} {after}" if _ACTION_RE.search(after) else None
    verb = LAY_VERBS.get(first.lower(), first)
    if aux in ("does", "do", "has", "have"):  # "Does X have to pay", "Does X have the right to audit"
        hv = re.match(r"(?:have|has)\s+(?:the\s+right\s+)?to\s+(\S+)\s*(.*)", tail, re.IGNORECASE)
        if not hv:
            return None
        modal = "may" if "right" in tail.lower().split()[:3] else "shall"
        verb, after = LAY_VERBS.get(hv.group(1).lower(), hv.group(1)), hv.group(2)
    else:
        modal = "may" if aux in _MAY else "shall"
    verb = _SAME_ACTION.get(verb.lower(), verb)
    claim = f"{subject} {modal} {verb} {after}".strip()
    return claim if any(a for a in assertions(claim)) else None


#: Actions contracts use for one another ("transfer the agreement" is "assign" it).
_SAME_ACTION = {"transfer": "transfer or assign", "assign": "assign or transfer", "terminate": "terminate or cancel"}
_WITHOUT = re.compile(r"\bwithout\b", re.IGNORECASE)
KEEPS_WITHOUT = re.compile(r"\bwithout\b|\bfor\s+any\s+reason\b|\bfor\s+convenience\b|\bat\s+will\b|\bfor\s+no\s+reason\b|"
                            r"\bsole\s+discretion\b|\bneed\s+not\b|\bnot\s+be\s+required\b|\bno\s+(?:prior\s+)?(?:written\s+)?consent\b|"
                            r"\bat\s+any\s+time\b", re.IGNORECASE)
#: A question asking for the right with no condition at all ("whenever they like", "no reason needed").
UNCONDITIONAL = re.compile(r"\bwithout\b|\bwhenever\b|\bat\s+any\s+time\b|\bfor\s+any\s+reason\b|\bno\s+(?:\w+\s+){0,2}?"
                           r"(?:reason|cause|excuse|justification)s?\b|\bat\s+will\b", re.IGNORECASE)
#: A quote's own unconditional wording ("without" alone may qualify something else: "without notice").
KEEPS_UNCONDITIONAL = re.compile(r"\bfor\s+any\s+reason\b|\bfor\s+convenience\b|\bat\s+will\b|\bfor\s+no\s+reason\b|"
                                 r"\bwithout\s+(?:any\s+)?(?:cause|reason)\b|\bsole\s+discretion\b|\bat\s+any\s+time\b", re.IGNORECASE)
#: A right tied to the other party's conduct ("should the other Party fail", "if either party breaches").
CONDUCT_CONDITION = re.compile(r"\b(?:if|should|in\s+the\s+event(?:\s+that)?|upon|where|when)\s+(?:the\s+other|such\s+other|either|"
                               r"any|a|the\s+defaulting|the\s+breaching)\s+party\b|\b(?:upon|for)\s+(?:a\s+)?(?:material\s+)?"
                               r"(?:breach|default|cause)\b", re.IGNORECASE)
#: A question about a restriction itself ("barred from competing"), which a "non-" word affirms.
_RESTRICTION = re.compile(r"\b(?:barred|forbidden|prohibit\w*|restrict\w*|prevent\w*|not|no|never|banned|stopped|may\s+not)\b",
                          re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|neither|nor|never|none|nothing|without|cannot|non-?\w+)\b|n't", re.IGNORECASE)


def _off_vocabulary(question: str, quote: str) -> str:
    """``""``, or why ``quote`` is not about the question's contract vocabulary: "Yes" needs a quote that
    covers half of it at least -- the on-topic test of the rule's own yes/no reading
    (:func:`clauselens.grid.yes_no.read_yes_no`; blind grid set: "Yes" to "is anyone barred from competing"
    quoting a disclosure clause)."""
    from clauselens.grid.extract import contract_vocabulary, term_hits, topic_groups

    vocab = contract_vocabulary(topic_groups(question))
    hits = term_hits(vocab, quote)
    if vocab and 2 * sum(1 for g in vocab if g.name in hits) < len(vocab):
        missing = [g for g in vocab if g.name not in hits]
        return f"the quote does not use the question's contract wording ({', '.join(missing[0].terms[:4])}, ...)"
    return ""


def _claim_free_issue(question: str, quote: str) -> str:
    """``""``, or why ``quote`` does not show "Yes" whatever the question's claim (module docstring)."""
    if UNCONDITIONAL.search(question) and CONDUCT_CONDITION.search(quote) and not KEEPS_UNCONDITIONAL.search(quote):
        return "the question asks about doing it with no reason; the quote ties it to the other party's conduct"
    if not _RESTRICTION.search(question):
        from clauselens.retrieval.lay_terms import content_stems

        low = quote.lower()
        for stem in {s for s in content_stems(question) if len(s) > 3}:
            found = [m.start() for m in re.finditer(r"(?<![a-z])" + re.escape(stem), low)]
            if found and all(re.search(r"\bnon-?\s?$", low[max(0, i - 5):i]) for i in found):
                return f"the quote says non-{stem}…, the opposite of what is asked"
    return ""


def yes_no_issue(question: str, answer: str, quote: str) -> str:
    """``""``, or why the verified ``quote`` does not show ``answer`` ("Yes" / "No") to the polar
    ``question`` (see the module docstring)."""
    claim = question_claim(question)
    if answer == "Yes":
        off = _off_vocabulary(question, quote) or _claim_free_issue(question, quote)
        if off:
            return off
        if claim is None:
            return ""
        asked = {a.action for a in assertions(claim)}
        if not {a.action for a in assertions(quote)} & asked:
            return f"the quote does not state that a party may or must {' / '.join(sorted(asked))}"
        issue = check_claim(claim, quote)
        if issue is not None:
            return f"\"Yes\" is not what the quote says: {issue.detail}"
        if _WITHOUT.search(question) and not KEEPS_WITHOUT.search(quote):
            return "the question asks about doing it without a condition; the quote sets one"
        return ""
    if answer == "No":
        if claim is not None and {a.action for a in assertions(claim)} & {a.action for a in assertions(quote)}:
            issue = check_claim(claim, quote)
            if issue is not None and issue.kind in ("negation", "party"):
                return ""
            if _WITHOUT.search(question) and not KEEPS_WITHOUT.search(quote):
                return ""  # "may assign with consent" answers "without consent?" with No
            return "\"No\" is not what the quote says: it states the permission or duty asked about"
        return "" if _NEGATION.search(quote) else "the quote does not say no"
    return f"the answer {answer!r} is neither Yes nor No"


__all__ = ["CONDUCT_CONDITION", "ECHO_WORDS", "KEEPS_UNCONDITIONAL", "KEEPS_WITHOUT", "UNCONDITIONAL",
           "LAY_VERBS", "echo_issue", "question_claim", "yes_no_issue"]
