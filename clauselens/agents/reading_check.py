"""Check a reading against the clauses it reads (issue #38): it must cover every sentence that answers the
question, and must not say the opposite of one.

Two failures of the quick-depth reading (:func:`clauselens.agents.delivery.write_reading`) seen in the fresh-clone
tryout of ``make demo``, with the 1.5B model and the "at most 40 words" reply:

* **a dropped sentence**: clause 7.2 has two sentences that answer "how can either party terminate ..." (either
  party on thirty days' notice; the Company immediately on refusal, inability or breach); the reading restated the
  first and left out the second, while the report quoted both;
* **a contradiction**: for "Who may assign this agreement?" the reading said "Consultant may assign this
  agreement" under clause 12.2's "Consultant may not sell, assign or delegate ..." (the rules' negation check
  caught it after the fact and printed the answer "Unverified").

So, deterministically:

* :func:`answering_sentences` -- the sentences of a quoted clause that share at least :data:`MIN_SHARED` content
  words (the retrieval analyzer's stems) with the question and its contract-vocabulary expansion (the same score
  :func:`clauselens.agents.delivery.quote_window` ranks sentences by); a heading line is not a sentence of it;
* :func:`reading_words` -- the reply's word budget scaled by how many such sentences the clause has (40 words for
  one, :data:`WORDS_PER_SENTENCE` more for each further one, at most :data:`MAX_WORDS`), said in the user message
  (the system message stays one shared prefix);
* :func:`omitted` -- an answering sentence is covered when the reading has at least one of its own key words (those
  no other answering sentence has: "Company", "immediately", "breach") and every number it states; one not covered
  is labelled in the answer, quoted word for word (:func:`omission_note`), never paraphrased;
* :func:`contradiction` -- the rules' party / negation check (:func:`clauselens.reports.support_claims.check_claim`)
  of the reading against the clause it reads; a reading that fails it is set aside (kept in the transcript) and
  the clause's answering sentences are quoted in its place, word for word. Asking again once, naming the mismatch,
  was tried on the tryout's question and gave the same misreading (greedy decoding; 2 calls, 46 s): not kept.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, Sequence

from clauselens.parsing.numbering import clause_label
from clauselens.parsing.sentences import sentence_spans
from clauselens.reports.model import RULE_QUOTED_PREFIX
from clauselens.reports.support_claims import COST_FAMILY, Parties, SupportIssue, assertions, check_claim

#: A reading of fewer words says nothing a reader can check against the quotes ("Yes", "No", "None"): set aside.
READING_MIN_WORDS = 5


def bare_reading(answer: str) -> bool:
    """Whether ``answer`` is too short to be a reading of a clause (fewer than :data:`READING_MIN_WORDS` words:
    a bare "Yes" or "No": the two labellers of the d38q and d38q_lay runs found 28 of 33 such readings unsupported)."""
    return len(re.findall(r"[A-Za-z0-9]+", answer)) < READING_MIN_WORDS

#: A sentence answers the question when it shares at least this many content stems with it.
MIN_SHARED = 2
#: Words of a reading for a clause with one answering sentence (the speed gain of issue #38's short replies).
BASE_WORDS = 40
#: More words for each further answering sentence, and the most in all.
WORDS_PER_SENTENCE = 20
MAX_WORDS = 80
#: A unit with fewer words is a heading ("7.2. Termination."), not a sentence that answers anything.
MIN_SENTENCE_WORDS = 8
#: A heading line of a clause: its number and a short title ("Section 7.01. Limitation on Liability.").
HEADING = re.compile(r"^(?:[Ss]ection|[Aa]rticle|[Cc]lause)?\s*[\d.()a-z]*\s*(?:[A-Z][\w'-]*\s*(?:of|and|the|on|to|for|in)?\s*){1,6}\.$")
#: Most left-out sentences one label quotes (the answer stays readable; the quotes above hold the rest).
MAX_LABELLED = 2
#: A reading that says the quoted clauses do not answer: nothing of theirs is "left out" of it.
NO_ANSWER = re.compile(r"\b(?:do(?:es)?|did) not (?:address|answer|deal with|say|state|mention|specify)", re.IGNORECASE)

_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
                 "twenty": "20", "thirty": "30", "forty": "40", "forty-five": "45", "fifty": "50", "sixty": "60",
                 "ninety": "90", "hundred": "100"}
_NUMBER = re.compile(r"\b(?:\d+(?:[.,]\d+)*|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b",
                     re.IGNORECASE)
#: A clause number or section reference is not a number the reading must repeat ("Section 12.7", "7.2.").
_REFERENCE = re.compile(r"(?:section|clause|article|paragraph|schedule|exhibit)\s+[\d.()a-z]+|^\s*[\d.]+\s",
                        re.IGNORECASE)


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    from clauselens.retrieval.analyzer import LegalAnalyzer

    return LegalAnalyzer()


def tokens(text: str) -> set[str]:
    """The content stems of ``text`` (the retrieval analyzer's: stop words out, stemmed)."""
    return set(_analyzer().tokenize(text))


_tokens = tokens


def clause_name(p: Any) -> str:
    """"Clause 7.2" ("Annex A") for a passage with a clause number, else "The first quoted clause"."""
    if not (p.clause_ref or "").strip():
        return "The first quoted clause"
    label = clause_label(p.clause_ref or "")
    return label[:1].upper() + label[1:]




def question_words(question: str) -> set[str]:
    """The content stems of ``question`` and of its contract-vocabulary expansion (lay_terms): what a sentence of a
    clause is scored against, here and in :func:`clauselens.agents.delivery.quote_window`."""
    from clauselens.retrieval.lay_terms import expand

    return _tokens(question) | _tokens(" ".join(expand(question).terms))


def sentences(text: str) -> list[str]:
    """The sentences of ``text``: :func:`clauselens.parsing.sentences.sentence_spans`'s units, a unit glued back
    to the one before it when that one does not end a sentence ("... thirty" + "(30) days ..."), headings and
    fragments of fewer than :data:`MIN_SENTENCE_WORDS` words left out."""
    units: list[str] = []
    for u in sentence_spans(text, 0, len(text)):
        s = " ".join(text[u.start:u.end].split())
        if units and not re.search(r"[.!?;:\"\u201d)]$", units[-1]):
            units[-1] += " " + s
        else:
            units.append(s)
    # a sentence ends a sentence: a unit cut by the quote's window ("... c) "Force Majeure" means") or a bare
    # heading ("Section 7.01. Limitation on Liability.") is no sentence a reading must cover
    return [s for s in units if len(s.split()) >= MIN_SENTENCE_WORDS and re.search(r"[.!?;:\"\u201d)]$", s)
            and not HEADING.match(s)]


def answering_sentences(question: str, text: str) -> list[str]:
    """The sentences of ``text`` (one quoted clause) that answer ``question``, in document order: when the
    question asks of an action the rules know (:data:`clauselens.reports.support_claims.ACTIONS`: "who may
    assign", "how can either party terminate") and the clause has sentences saying who may or may not do it,
    those sentences; else each sentence sharing at least :data:`MIN_SHARED` content stems with the question."""
    units = sentences(text)
    actions = {a.action for a in assertions(question)}
    acting = [s for s in units if actions & {a.action for a in assertions(s)}]
    if acting:
        return acting
    words = question_words(question)
    return [s for s in units if len(words & _tokens(s)) >= MIN_SHARED]


def reading_words(n_sentences: int) -> int:
    """The reply's word budget for a clause with ``n_sentences`` answering sentences."""
    return min(MAX_WORDS, BASE_WORDS + WORDS_PER_SENTENCE * max(0, n_sentences - 1))


def reading_scope(question: str, texts: Sequence[str], label: str, lead: bool) -> str:
    """The reading's word limit for the quoted ``texts`` (:func:`clauselens.agents.reading_check.reading_words`): the
    answering sentences of the first text (``lead``: the clause retrieval ranked first), else of all of them (a named
    clause and its sub-clauses); with more than one, the model is asked to say what each provides."""
    from clauselens.agents import prompts_interrogator as P

    n = len([x for t in (texts[:1] if lead else texts) for x in answering_sentences(question, t)])
    words = reading_words(n)
    return P.READING_SCOPE_EACH.format(label=label, n=n, words=words) if n > 1 else P.READING_SCOPE.format(words=words)


def _numbers(text: str) -> set[str]:
    text = _REFERENCE.sub(" ", text)
    return {_NUMBER_WORDS.get(m.lower(), m.replace(",", "")) for m in _NUMBER.findall(text)}


def stated_value(answer: str, texts: Sequence[str]) -> bool:
    """Does a short ``answer`` (:func:`bare_reading`) give a value the quoted ``texts`` state -- a number each of whose figures
    a quote holds ("6 weeks' notice", "30 days") -- rather than a bare yes or no? Such an answer is checked, not set aside (a
    new user's tryout: "6 weeks' notice" was withheld as "a bare yes or no")."""
    if re.search(r"\b(?:yes|no|none|n/a)\b", answer, re.IGNORECASE):
        return False
    said = {_NUMBER_WORDS.get(m.lower(), m.replace(",", "")) for m in _NUMBER.findall(answer)}  # "30 days": no clause number here
    return bool(said) and said <= set().union(*(_numbers(t) for t in texts)) if texts else False


def omitted(reading: str, answering: Sequence[str], question: str = "") -> list[str]:
    """The ``answering`` sentences the reading leaves out: those of which it has none of the sentence's own key
    words (content stems no other answering sentence and not the question has), or not every number the sentence
    states (digits or number words: "thirty (30)" is 30). A single answering sentence is never "left out" for lack
    of own words (it has no other sentence to be told apart from): only its numbers are checked; nor is one whose
    party, action and polarity the reading asserts (:func:`clauselens.reports.support_claims.assertions`)."""
    have, nums = _tokens(reading), _numbers(reading)
    sentences = list(answering)
    toks = [_tokens(s) for s in sentences]
    asked = question_words(question) if question else set()
    said = {(a.party, a.action, a.negated) for a in assertions(reading)}
    out = []
    for i, s in enumerate(sentences):
        if not _numbers(s) <= nums:
            out.append(s)
            continue
        if len(sentences) == 1 or said & {(a.party, a.action, a.negated) for a in assertions(s)}:
            continue  # the reading says the same party may (not) do the same thing
        others = set().union(*(t for j, t in enumerate(toks) if j != i))
        own = toks[i] - others - asked
        if own and not own & have:
            out.append(s)
    return out


def relied_on(reading: str, texts: Sequence[str]) -> int:
    """Index of the quoted text the reading reads most (most shared content stems; ties: the first)."""
    have = _tokens(reading)
    return max(range(len(texts)), key=lambda i: (len(have & _tokens(texts[i])), -i)) if texts else 0


#: A reading's plain present tense of a cost verb ("The Company pays") read as the duty it states ("The Company
#: shall pays"): the party rules compare modal phrases only (a fresh-clone tryout's "Who pays if something goes
#: wrong?" was read "The Company pays" over the Consultant's indemnity, and passed).
_PLAIN_COST = re.compile(r"(\b[A-Z][\w.&'’-]*)\s+(?=(?:pays|indemnifies|reimburses)\b)")


def contradiction(reading: str, text: str, parties: Parties = ()) -> SupportIssue | None:
    """The rules' party or negation mismatch between ``reading`` and the quoted ``text`` it reads, or ``None``
    (paying, reimbursing and indemnifying compared as one: :data:`~clauselens.reports.support_claims.COST_FAMILY`;
    a plain "X pays" read as X's duty: :data:`_PLAIN_COST`; a copied sentence with another party in it:
    :func:`clauselens.reports.near_copy.swapped_party`)."""
    from clauselens.reports.near_copy import swapped_party

    # ... or a near-copy of the clause with one party put for another ("HOVIONE is responsible for conducting any recall" over
    # "INTERSECT shall be responsible for conducting any recall": a new user's tryout; reports.near_copy)
    return check_claim(_PLAIN_COST.sub(r"\1 shall ", reading), text, parties, families=COST_FAMILY) or swapped_party(reading, [text], parties)


def omission_note(label: str, sentences: Sequence[str]) -> str:
    """The label a reading gets for the answering sentences it left out, each quoted word for word."""
    quoted = " ".join(f"\u201c{s}\u201d" for s in sentences)
    return f"Left out by this reading, {label} also says: {quoted}"


def named_in_quotes(answer: str, question: str, texts: Sequence[str], names: Mapping[str, str] | None = None
                    ) -> tuple[int, str, list[str]] | None:
    """When ``answer`` says the clauses do not speak to the question (:data:`NO_ANSWER`) and the question asks only
    about a thing it names that a quoted text holds verbatim (:func:`clauselens.retrieval.concept_absence.named_in`,
    once the words of the documents' labels ``names`` are taken out: "What does the Movado agreement say about
    Sarbanes-Oxley?"): that text's index, the name and its sentences that hold it (a new user's question was read "The
    agreement does not address Sarbanes-Oxley" over the recital that cites the Act). ``None`` otherwise -- also for a
    question that asks more than a name ("Can Acme Corp end it early?")."""
    from clauselens.library.catalogue import strip_naming_words
    from clauselens.retrieval.concept_absence import holds, named_in

    if not NO_ANSWER.search(answer):
        return None
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w&'-]*", " ".join((names or {}).values()))}
    asked = strip_naming_words(question, words) if words else question
    for j, t in enumerate(texts):
        term = named_in(asked, [t])
        if term is not None:
            return j, term, [x for x in sentences(t) if holds(term, [x])] or [" ".join(t.split())]
    return None


#: The answer in place of a reading that contradicts its clause when no sentence of the clause answers the question.
SET_ASIDE_CONTRADICTION = "The model's reading said the opposite of {label} and is set aside; read {label} above."


def checked_reading(answer: str, question: str, quotes: Sequence[Any], passages: Mapping[str, Any],
                    texts: Sequence[str], lead: bool, out: list[dict[str, Any]],
                    names: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """``answer`` (a model reading of ``texts``, the quoted ``quotes`` as shown to it) after the two checks: set
    aside when it contradicts the clause it reads (:func:`contradiction`), replaced by that clause's answering
    sentences quoted word for word, else labelled with the answering sentences it leaves out
    (:func:`omission_note`; at most :data:`MAX_LABELLED`, and none when the reading says the clauses do not answer:
    :data:`NO_ANSWER`); with the knowledge gap a set-aside reading leaves. Notes are appended to ``out``."""
    from clauselens import events as ET

    if not texts:
        return answer, []
    i = relied_on(answer, texts)
    answering = answering_sentences(question, texts[i]) if lead else \
        [x for t in texts for x in answering_sentences(question, t)]
    name = clause_name(passages[quotes[i if lead else 0].passage_id])
    label = name[:1].lower() + name[1:]
    named = named_in_quotes(answer, question, texts, names)
    if named is not None:  # "does not address Sarbanes-Oxley" over a recital that cites the Act
        j, term, held = named
        name_j = clause_name(passages[quotes[j].passage_id]) if j == 0 or passages[quotes[j].passage_id].clause_ref else "A quoted clause"
        out.append({"type": ET.NOTE, "text": f"the model's reading {answer!r} says the clauses do not speak to the question, but "
                                             f"{name_j[:1].lower() + name_j[1:]} names {term!r}; it is set aside and those sentences quoted"})
        gap = (f"The model's reading said the quoted clauses do not speak to the question, but {name_j[:1].lower() + name_j[1:]} "
               f"names '{term}'; the reading is set aside (it is in the run's transcript) and the sentences naming it are quoted.")
        return f"{RULE_QUOTED_PREFIX}{name_j}: " + " ".join(f"\u201c{x}\u201d" for x in held), [gap]
    issue = contradiction(answer, texts[i])
    if issue is not None:  # set aside, never re-asked: greedy decoding gave the same misreading again (tryout)
        out.append({"type": ET.NOTE, "text": f"the model's reading {answer!r} contradicts the clause it reads "
                                             f"({issue.detail}); it is set aside and the answering sentences quoted"})
        gap = (f"The model's reading said the opposite of {label} ({issue.detail}) and is set aside (it is in the "
               f"run's transcript); the answer quotes the sentences of {label} that answer the question instead.")
        if not answering:
            return SET_ASIDE_CONTRADICTION.format(label=label), [gap]
        return f"{RULE_QUOTED_PREFIX}{name}: " + " ".join(f"\u201c{x}\u201d" for x in answering), [gap]
    miss = [] if NO_ANSWER.search(answer) else omitted(answer, answering, question)[:MAX_LABELLED]
    if miss:
        out.append({"type": ET.NOTE, "text": f"the model's reading leaves out {len(miss)} of the {len(answering)} "
                                             f"sentences of {label} that answer the question; they are quoted under it"})
        answer = f"{answer.rstrip()} {omission_note(label, miss)}"
    return answer, []


__all__ = ["BASE_WORDS", "HEADING", "MAX_LABELLED", "MAX_WORDS", "NO_ANSWER", "MIN_SHARED", "SET_ASIDE_CONTRADICTION", "WORDS_PER_SENTENCE",
           "answering_sentences", "checked_reading", "clause_name", "contradiction", "named_in_quotes", "omission_note",
           "omitted", "reading_scope", "reading_words", "relied_on", "sentences", "stated_value", "tokens"]
