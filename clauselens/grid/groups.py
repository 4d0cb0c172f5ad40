"""A grid question's topic as *term groups* (issue #45): what a typed or yes/no question asks about, and which sentences of
an agreement speak of it. Split from :mod:`clauselens.grid.extract` (the values and the decision), whose module docstring
describes the rule (step 1, "Sentences on topic").

Each content word of the question is a group (its stem, its everyday contract wording, :data:`clauselens.grid.topic.EVERYDAY`,
and the terms of the thesaurus concepts its stem names); each lay phrase the thesaurus recognises is one group of that
concept's contract terms (thesaurus-based query expansion, Voorhees 1994; a phrase made only of generic words names no
topic, :func:`clauselens.grid.topic.telling_concepts`); alternatives joined by "or" are one group. A sentence must cover the
required groups (coordination-level matching, Salton & McGill 1983, ch. 3); a bare everyday word of a question that has
contract vocabulary ranks sentences but is not required (:func:`contract_groups`). Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from clauselens.grid.topic import EVERYDAY, GENERIC, GENERIC_STEMS, plain_idioms, telling_concepts, topic_stems
from clauselens.retrieval.lay_terms import concepts, content_stems


@dataclass(frozen=True)
class TermGroup:
    """One thing the question asks about: a ``name`` (its stem or concept) and the lower-case
    word prefixes / phrases that say it in a contract."""

    name: str
    terms: tuple[str, ...]
    #: False for a word that names the value's type ("money", "percentage"): the value covers it.
    required: bool = True


#: Light verbs and words that name the value's type: they tell nothing of the topic ("be *kept*
#: secret", "how much *money*", "what *percentage*"); a value of the asked type satisfies the latter.
_LIGHT = frozenset(content_stems("keep kept hold held need needs without with include including includes become becomes "
                                 # when, not what: "Can they raise the price on us partway through?" required "partway" and "through"
                                 "through throughout during partway midway halfway meanwhile"))
_VALUE_WORDS = frozenset(content_stems("money amount amounts sum sums percentage percent rate figure number period periods"))
#: Contract wording that qualifies any clause, not one topic ("shall not exceed" caps expenses as often as liability, "in no
#: event", "indirect"): a thesaurus concept's term that never makes a sentence on topic by itself (a tryout answered "what's
#: the maximum liability?" with an expense reimbursement's "$250,000").
_QUALIFIERS = frozenset({"shall not exceed", "not to exceed", "in no event", "indirect", "fees paid", "exclusions"})
#: "fee, price or compensation", "inspect or audit": alternatives the question accepts (one group).
_ALT = r"[a-z][\w'’-]*(?:\s+of\s+[a-z][\w'’-]*)?"
_OR_LIST = re.compile(rf"\b({_ALT}(?:\s*,\s*{_ALT})*\s*,?\s+or\s+{_ALT})", re.IGNORECASE)


#: Examples listed after a dash or a colon, three or more between commas: alternatives too (a keyed dev set's "Does anyone own the
#: relationship here - sole supplier, only reseller, a protected territory, anything exclusive?" required every one of them).
_EXAMPLES = re.compile(r"(?:\s[-–—]\s|:\s)([^?;:]*?,[^?;:]*?,[^?;:]*)")


def _or_sets(question: str) -> list[set[str]]:
    out = []
    for m in _OR_LIST.finditer(question):
        words = [w for w in re.split(r"\s*,\s*|\s+or\s+|\s+of\s+", m.group(1)) if w]
        stems = {s for w in words for s in topic_stems(w)}
        if len(stems) >= 2:
            out.append(stems)
    for m in _EXAMPLES.finditer(question):  # "... here - sole supplier, only reseller, a protected territory, anything exclusive?"
        stems = set(topic_stems(m.group(1)))
        # "- give me the fee, price, royalty or commission figure" is the "or" list already read (not a second group, nor its
        # words added to it: "royalty, commission, discount or revenue share" would match "shareholder")
        if len(stems) >= 2 and not any(o & stems for o in out):
            out.append(stems)
    return out


@lru_cache(maxsize=512)
def topic_groups(question: str) -> tuple[TermGroup, ...]:
    """The question's term groups (see the module docstring): one per content stem (the stem,
    its :data:`EVERYDAY` wording and the terms of every thesaurus concept whose name is made of
    the question's own words), one per everyday word that is otherwise generic ("how long does it
    *last*"), one per lay concept the question's phrases name (the words of the matched phrase
    are that concept's, not groups of their own), and one for alternatives joined by "or"."""
    from clauselens.retrieval.lay_terms import phrase_matcher

    question = re.sub(r"(?<=[a-z])['’](?:s|re|ll|d|ve|m)\b", "", question, flags=re.IGNORECASE)  # "what's" is "what"
    question = plain_idioms(question)  # "is in force": lasts, "comes into force": starts (not force majeure's "force")
    stems = [s for s in content_stems(question) if s not in _LIGHT]
    own_set = {s for s in stems if s not in GENERIC_STEMS and len(s) > 2}
    groups: dict[str, set[str]] = {}
    whole: dict[str, set[str]] = {}
    absorbed: dict[str, str] = {}
    for c in telling_concepts(question):  # not a concept matched by generic words alone ("side deals": "one side ... the deal")
        name = "concept:" + c.name
        groups[name] = {t.lower() for t in c.contract_terms}
        for phrase in c.phrases:
            if phrase_matcher(phrase).search(question):
                for st in content_stems(phrase):
                    absorbed.setdefault(st, name)
        for st in own_set:  # "without a reason" is the concept's "for any reason"
            if any(re.search(rf"(?<![a-z]){re.escape(st)}", t.lower()) for t in c.contract_terms):
                absorbed.setdefault(st, name)
    alias: dict[str, str] = dict(absorbed)
    for alts in _or_sets(question):
        head = "|".join(sorted(alts))
        for st in alts:
            alias.setdefault(st, head)
    for stem in stems:
        own = stem in own_set
        if not own and stem not in EVERYDAY:
            continue
        terms = groups.setdefault(alias.get(stem, stem), set())
        if own:
            if stem not in absorbed:  # a lay phrase's own word ("rolls *over*") is no contract wording: its concept's terms are
                terms.add(stem)
            for cname, cterms in _concepts_by_stem().get(stem, []):
                cstems = set(topic_stems(cname))
                if len(cstems) >= 2 and cstems <= own_set:  # the question names the whole concept: its terms rank, one group
                    whole.setdefault("named:" + cname, set()).update(t.lower() for t in cterms)
                elif 2 * len(cstems & own_set) >= len(cstems):
                    terms.update(t.lower() for t in cterms)
        terms.update(EVERYDAY.get(stem, ()))
    out = []
    for name, terms in [*groups.items(), *whole.items()]:
        kept = tuple(sorted(t for t in terms if t and not (len(t.split()) == 1 and re.sub(r"\W", "", t) in GENERIC)
                            and not (t in _QUALIFIERS and not name.startswith("concept:") and len(terms) > 1)))
        if kept:
            out.append(TermGroup(name, kept, required=name not in _VALUE_WORDS and not name.startswith("named:")))
    if _HOW_LONG_IT.search(question) and not any(_is_vocabulary(g) for g in out):
        # "how long is this contract set to run for?": how long the agreement itself lasts, the question's other
        # words everyday ones (they rank, :func:`contract_groups`)
        out.append(TermGroup("last", tuple(sorted(EVERYDAY["last"]))))
    return tuple(out)


#: "How long is this contract ...", "how long does the deal ...": the agreement is what the question asks the length of
#: (not "how long to fix it before the deal can be torn up", nor "how long does the contract give us to ...").
_HOW_LONG_IT = re.compile(r"\bhow\s+long\s+(?:is|does|will|would|should|can|did|has)\s+(?:this|the)\s+(?:agreement|contract|deal)\b"
                          r"(?!\s+(?:give|gives|allow|allows|let|lets|grant|grants)\b)", re.IGNORECASE)


def required_hits(groups: Sequence[TermGroup]) -> int:
    """How many of the required groups an answer's sentence must cover: all of them, or all but
    one when the question names four or more things."""
    n = sum(1 for g in groups if g.required)
    return n - 1 if n >= 4 else n


@lru_cache(maxsize=1)
def _concepts_by_stem() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for c in concepts():
        for s in set(topic_stems(c.name)):
            out.setdefault(s, []).append((c.name, c.contract_terms))
    return out


#: The endings a one-word prefix of three letters or fewer may take: inflections and the derivations that keep its meaning
#: ("ends", "ended", "ending"; "fees"; "payable", "payee"; "owner", "ownership"; "lawful"; "taxation"; "endless").
_SHORT_TAIL = r"(?:s|es|ed|d|ing|ings|er|ers|or|ors|ee|ees|able|ably|ation|ations|ful|fully|less|ship|ership|y|ies|ied)?(?![a-z])"


@lru_cache(maxsize=4096)
def _compiled(term: str) -> re.Pattern[str]:
    """The pattern of one contract term (a word prefix or phrase), compiled once."""
    body = r"\s+".join(re.escape(w) for w in term.split())
    # a one-word prefix is not a "-ment" noun of another meaning ("govern" is no "government"); a prefix of three letters or
    # fewer takes only an ending of its own word family ("end" is no "endeavour", "endorse"; the paraphrase generator's
    # "When does the contract's first period end?" was answered from "use its reasonable endeavours ... within 1 DAY DN 20/5/2010")
    tail = (_SHORT_TAIL if len(term) <= 3 else r"(?!ment)") if " " not in term and term.isalpha() else ""
    return re.compile((r"(?<![a-z0-9])" if term[:1].isalnum() else "") + body + tail)


def term_hits(groups: Sequence[TermGroup], text: str) -> dict[str, list[int]]:
    """For each group ``text`` mentions: the character offsets of its terms' matches."""
    low = text.lower()
    out: dict[str, list[int]] = {}
    for g in groups:
        at = [m.start() for t in g.terms for m in _compiled(t).finditer(low)]
        if at:
            out[g.name] = sorted(at)
    return out


def distinct_terms(groups: Sequence[TermGroup], text: str) -> int:
    low = text.lower()
    return len({t for g in groups for t in g.terms if _compiled(t).search(low)})


def question_groups(question: str, terms: Sequence[str] = ()) -> tuple[TermGroup, ...]:
    """The term groups of a question: its written ``terms`` (a preset's topic words, alternatives:
    one required group; the groups of its words then count for ranking only), else those derived
    from its words (:func:`topic_groups`)."""
    if not terms:
        return topic_groups(question)
    # the written terms decide what is on topic; the question's own words only rank the sentences
    extra = tuple(TermGroup(g.name, g.terms, required=False) for g in topic_groups(question))
    return (TermGroup("terms", tuple(t.lower() for t in terms)), *extra)


@lru_cache(maxsize=512)
def value_free(groups: Sequence[TermGroup]) -> tuple[TermGroup, ...]:
    """``groups`` without the thesaurus terms that name no topic, only a value's setting: a concept's term whose content
    words are all generic or value words ("for a period of", "at least", "at any time", "rate") sits beside a value in
    any clause, so a typed reading cannot take it for the topic ("how long does the warranty last?" read the period of a
    lock-up, a survival or a cure sentence; CUAD preset tune split, :mod:`benchmarks.typed_census`). A preset's written
    terms (the group "terms") are kept; a group left with no term is dropped."""
    drop = _settings()
    out = []
    for g in groups:
        kept = g.terms if g.name == "terms" else tuple(t for t in g.terms if t not in drop)
        if kept:
            out.append(g if kept == g.terms else TermGroup(g.name, kept, g.required))
    return tuple(out)


@lru_cache(maxsize=1)
def _settings() -> frozenset[str]:
    """The thesaurus's contract terms made of generic and value words only (see :func:`value_free`)."""
    return frozenset(t.lower() for c in concepts() for t in c.contract_terms
                     if not (set(content_stems(t)) - GENERIC_STEMS - _VALUE_WORDS) and any(ch.isalpha() for ch in t))


def named_topics(groups: Sequence[TermGroup]) -> list[str]:
    """The required groups of a question's own words that name a thesaurus concept ("warranty": its stem group carries
    the concept's contract terms), not an everyday word's wording (:data:`~clauselens.grid.topic.EVERYDAY`)."""
    return [g.name for g in groups if g.required and not g.name.startswith(("concept:", "named:")) and "|" not in g.name
            and g.name not in EVERYDAY and len(g.terms) > 1]


def own_word_terms(g: TermGroup) -> tuple[str, ...]:
    """The terms of a word's group that say the word itself (a Snowball stem's inflections: "warranti" -> "warranty",
    "warrants", "warranted"; "compet" -> "non-competition")."""
    root = g.name[:-1] if len(g.name) > 5 else g.name
    own = tuple(t for t in g.terms if any(w.startswith(root) or w.split("-")[-1].startswith(root) for w in t.split()))
    return own + ((root,) if g.name.endswith("i") and root not in own else ())  # Snowball's "y" -> "i": "warrant" reads "warranted"


def contract_groups(groups: Sequence[TermGroup]) -> tuple[TermGroup, ...]:
    """The groups of a user's question (no written terms) as the typed rule weighs them: when the
    question has contract vocabulary -- a thesaurus concept, or a word with contract wording beside
    it ("pay": fee, price, ...) -- a bare everyday word ("everyone", "stretch", "hook": the word
    itself only) ranks sentences but is not required; an agreement that never uses it may still
    state the value (blind grid set, #45; the yes/no reading's rule,
    :func:`contract_vocabulary`). A question of bare words only keeps them all
    required (its topic is unknown; nothing is read from a guess)."""
    vocab = [g for g in groups if g.required and _is_vocabulary(g)]
    if not vocab:
        return tuple(groups)
    return tuple(g if _is_vocabulary(g) or not g.required else TermGroup(g.name, g.terms, required=False) for g in groups)


def _is_vocabulary(g: TermGroup) -> bool:
    """A thesaurus concept, alternatives the question lists ("courts or arbitration"), or a word with contract wording."""
    return g.name.startswith("concept:") or "|" in g.name or len(g.terms) > 1


def groups_needed(asked: Sequence[TermGroup], groups: Sequence[TermGroup]) -> int:
    """How many required ``groups`` a sentence must cover: all, or all but one when the question
    (``asked``: its groups before :func:`contract_groups`) names four or more things."""
    n = sum(1 for g in groups if g.required)
    return max(1, n - 1) if required_hits(asked) < sum(1 for g in asked if g.required) and n >= 2 else n


def covered(groups: Sequence[TermGroup], hits: dict[str, list[int]]) -> int:
    """The required groups ``hits`` covers, a match counting for one group only ("terminate" is a
    term of both "termination for convenience" and "termination for breach": one word, one thing;
    the groups with the fewest matches take theirs first)."""
    used: set[int] = set()
    n = 0
    for g in sorted((g for g in groups if g.required and g.name in hits), key=lambda g: len(hits[g.name])):
        free = [o for o in hits[g.name] if o not in used]
        if free:
            used.add(free[0])
            n += 1
    return n


def contract_vocabulary(groups: Sequence[TermGroup]) -> list[TermGroup]:
    """The required groups a contract's wording can show: a thesaurus concept, or a word with contract terms
    beside it ("transfer": assign, transfer). A bare everyday word ("whenever", "locked", "look") is no
    evidence either way: an agreement that never uses it may still have the clause (blind grid set, #45)."""
    return [g for g in groups if g.required and (g.name.startswith("concept:") or len(g.terms) > 1)]


__all__ = ["TermGroup", "contract_groups", "contract_vocabulary", "covered", "distinct_terms", "groups_needed", "named_topics",
           "own_word_terms", "question_groups", "required_hits", "term_hits", "topic_groups", "value_free"]
