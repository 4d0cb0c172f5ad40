"""Deterministic value rules of a playbook position, read from a verified clause (issue #44).

Every value is parsed from the quoted clause by the readers of :mod:`clauselens.grid.values`
(issue #45) -- jurisdictions, periods, amounts -- never taken from a model. :func:`evaluate`
returns ``compliant`` / ``deviation`` or ``unclear`` (with the reason: the clause states no value,
or several values that disagree), the value in a normal form and the rule that decided:

* ``governing_law_in``: the jurisdiction(s) after "law(s) of" (or before "law": "English law") in
  the sentences that govern ("governed", "laws of", "construed"; a sentence in capitals is read in
  title case); a country is dropped when one of its states or provinces is named ("the State of
  New York, United States" is New York). One jurisdiction in the set: compliant; none in the set:
  deviation; several, some in the set: unclear.
* ``period_at_most`` / ``period_at_least``: the period of the clause that stands nearest one of the
  position's ``value_near`` words in its sentence (one period only: that one), compared in days
  (1 month = 30.4375 days, 1 year = 365.25 days -- the same constants as the value reader). Only
  sentences *about the position's topic* are read: a sentence must mention one of the topic words
  (the position's ``terms``, else its ``value_near`` words, without the words of time itself --
  :data:`TIME_WORDS`, which every period sentence has), and a definition of a unit of time
  ('"Year" means a period of twelve months') is never a value (:data:`_UNIT_DEFINITION`);
* ``cap_months_of_fees_at_least``: the period of fees a liability cap counts ("the fees paid in the
  twelve (12) months preceding the claim"); with the position's ``party``, the cap must limit that
  party's liability (:func:`clauselens.playbook.parties.liable`): a cap on the other party's liability
  only is a deviation, whatever its period. A cap stated only as a sum of money is unclear (the
  sum cannot be compared with months of fees without the fees);
* ``consent_required``: a sentence on the topic requires the other party's consent or approval
  (compliant); a sentence lets a party assign "without" consent ("without Consultant's consent"
  too) and none requires it (deviation); no such sentence is unclear. An **outright prohibition**
  with no consent route ("Consultant may not sell, assign or delegate any rights ...") is stricter
  than consent, so it is decided by whom it binds: a ban on the counterparty meets the position
  (they cannot assign at all, let alone without our consent: compliant), a ban on us goes beyond it
  (we could not assign even with consent: deviation, to negotiate a consent route). Without a
  ``party`` the position does not look at parties and a ban meets it (compliant). With the
  position's ``party`` (:mod:`clauselens.playbook.parties`), each sentence counts for the party it
  binds: a party the clause lets act without consent, or does not restrict at all while it
  restricts another, is a deviation ("restricts Consultant only"); compliant needs every party of the
  position restricted by consent (or the counterparty banned outright); a ban on a party that may or
  may not be ours (our party not known) is unclear, naming ``--our-party``.

Pure functions; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from clauselens.grid.values import Period, amounts_in, jurisdictions_in
from clauselens.playbook.model import Requirement
from clauselens.playbook.parties import ALL, Sides, bound, covers, describe, liable, target

_UNIT_DAYS = {"hour": 1 / 24, "day": 1.0, "week": 7.0, "month": 30.4375, "year": 365.25}
_SENTENCE = re.compile(r"[^.;]+(?:[.;]|$)")
#: Sub-national jurisdictions and their country (a country named beside one of them is dropped).
_COUNTRY_OF = {"United States": "us", "Canada": "ca", "United Kingdom": "uk", "England": "uk", "Wales": "uk", "Scotland": "uk",
               "Northern Ireland": "uk"}
_CA_PROVINCES = {"Ontario", "Quebec", "British Columbia", "Alberta", "Manitoba", "Saskatchewan", "Nova Scotia", "New Brunswick",
                 "Newfoundland", "Prince Edward Island"}
_NATIONS = {"United States", "Canada", "United Kingdom"}
_LAW_OF = re.compile(r"\blaws?\s+(?:and\s+regulations\s+)?of\b|\bgoverned\s+by\b", re.IGNORECASE)
_GOVERNING = ("govern", "laws of", "law of", "construed", "interpreted")
#: Words of time itself: every sentence stating a period has one, so they never show its topic.
TIME_WORDS = frozenset("year years month months week weeks day days period periods term time date duration "
                       "hour hours annual annually".split())
#: A definition of a unit of time ('"Year" means ...', 'Business Day shall mean'): never a value.
_UNIT_DEFINITION = re.compile(r"[\"“']?\b(?:contract\s+|calendar\s+|business\s+|fiscal\s+|lease\s+)?(?:year|month|quarter|week|day)s?\b"
                              r"[\"”']?\s*(?:,\s*)?(?:shall\s+)?(?:means?|refers?\s+to|is\s+defined)", re.IGNORECASE)


@dataclass(frozen=True)
class RuleResult:
    """What a rule made of one clause: ``outcome`` (compliant / deviation / unclear), the value
    read from the clause (normal form; empty when none), why, and where in the clause the value
    stands (``[start, end)`` into the clause text; ``(0, 0)`` when none)."""

    outcome: str
    value: str
    why: str
    span: tuple[int, int] = (0, 0)


def days(p: Period) -> float:
    """A period in days (see the module docstring)."""
    return p.count * _UNIT_DAYS[p.unit]


def sentences(text: str) -> list[tuple[int, str]]:
    """``(offset, sentence)`` pairs of ``text`` (split after "." and ";")."""
    return [(m.start(), m.group(0)) for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def mentions(text: str, words: list[str] | tuple[str, ...]) -> list[int]:
    """Offsets where one of ``words`` (word prefixes or phrases, lower case) starts in ``text``."""
    low = text.lower()
    out: list[int] = []
    for w in words:
        out += [m.start() for m in re.finditer(r"(?<![a-z0-9])" + re.escape(w), low)]
    return sorted(out)


def reduce_jurisdictions(names: set[str]) -> set[str]:
    """Drop a country when one of its states or provinces is also named."""
    us_state = any(n not in _COUNTRY_OF and n not in _CA_PROVINCES and n not in _NATIONS and _looks_us(n) for n in names)
    out = set(names)
    if us_state:
        out.discard("United States")
    if names & _CA_PROVINCES:
        out.discard("Canada")
    if names & {"England", "Wales", "Scotland", "Northern Ireland"}:
        out.discard("United Kingdom")
    if "England" in out and "Wales" in out:
        out.discard("Wales")
    return out


def _looks_us(name: str) -> bool:
    from clauselens.grid.values import US_STATES

    return name in US_STATES


#: "English law", "Swiss law": the adjective of a jurisdiction before "law(s)".
_ADJECTIVES = {"English": "England", "Scottish": "Scotland", "Welsh": "Wales", "Irish": "Ireland", "German": "Germany",
               "French": "France", "Swiss": "Switzerland", "Dutch": "Netherlands", "Belgian": "Belgium", "Italian": "Italy",
               "Spanish": "Spain", "Swedish": "Sweden", "Danish": "Denmark", "Norwegian": "Norway", "Finnish": "Finland",
               "Austrian": "Austria", "Israeli": "Israel", "Canadian": "Canada", "Chinese": "China", "Japanese": "Japan",
               "Korean": "Korea", "Indian": "India", "Australian": "Australia", "Singaporean": "Singapore", "Mexican": "Mexico",
               "Brazilian": "Brazil"}
_ADJ_LAW = re.compile(r"\b(" + "|".join(_ADJECTIVES) + r")\s+(?:substantive\s+)?laws?\b")


def _readable(sentence: str) -> str:
    """A sentence in capitals ("THE LAWS OF THE STATE OF GEORGIA") in title case, so the
    jurisdiction reader (case-sensitive: "georgia" is no place) reads its names."""
    up = sum(c.isupper() for c in sentence)
    if up <= sum(c.islower() for c in sentence):
        return sentence
    return sentence.title().replace(" Of ", " of ").replace(" And ", " and ").replace(" The ", " the ")


def governing_law(text: str) -> set[str]:
    """The jurisdictions whose law governs, as ``text`` states it (see the module docstring)."""
    found: set[str] = set()
    fallback: set[str] = set()
    for _, raw in sentences(text):
        if not mentions(raw, _GOVERNING):
            continue
        s = _readable(raw)
        found |= {_ADJECTIVES[m.group(1)] for m in _ADJ_LAW.finditer(s)}
        for m in _LAW_OF.finditer(s):
            after = s[m.end(): m.end() + 120]
            stop = re.search(r"\b(?:courts?|venue|jurisdiction|arbitrat)", after, re.IGNORECASE)
            got = jurisdictions_in(after[: stop.start()] if stop else after)
            found |= got
        fallback |= jurisdictions_in(s)
    return reduce_jurisdictions(found or fallback)


def _law_rule(req: Requirement, text: str) -> RuleResult:
    law = governing_law(text)
    if not law:
        return RuleResult("unclear", "", "the clause names no jurisdiction whose law governs")
    value = ", ".join(sorted(law))
    inside = law & set(req.allowed)
    span = _law_span(text, sorted(law))
    if inside == law and len(law) == 1:
        return RuleResult("compliant", value, f"{value} is in the playbook's set ({', '.join(req.allowed)})", span)
    if not inside:
        return RuleResult("deviation", value, f"{value} is not in the playbook's set ({', '.join(req.allowed)})", span)
    return RuleResult("unclear", value, f"the clause names several governing laws ({value}), not all in the set", span)


def _law_span(text: str, names: list[str]) -> tuple[int, int]:
    """Where a governing jurisdiction stands: after "law(s) of" (or as "English law") in a sentence
    that governs -- not the name's first mention, which may be an address or a courts clause --
    else its first mention. (:func:`_readable` keeps offsets: title case has the same length.)"""
    for off, raw in sentences(text):
        if not mentions(raw, _GOVERNING):
            continue
        s = _readable(raw)
        for m in _ADJ_LAW.finditer(s):
            if _ADJECTIVES[m.group(1)] in names:
                return off + m.start(1), off + m.end(1)
        for m in _LAW_OF.finditer(s):
            window = s[m.end(): m.end() + 160]
            hits = [h.span() for n in names for h in [re.search(r"\s+".join(map(re.escape, n.split())), window)] if h]
            if hits:
                k, e = min(hits)
                return off + m.end() + k, off + m.end() + e
    return _value_span(text, names)


def _value_span(text: str, words: list[str]) -> tuple[int, int]:
    for w in words:
        i = text.find(w)
        if i >= 0:
            return i, i + len(w)
    return 0, 0


#: "5 (five) years": the number's words in brackets after its digits (the value reader reads "five (5) years").
_DIGITS_THEN_WORDS = re.compile(r"(?<=\d)\s*\([A-Za-z -]{3,30}\)(?=\s*(?:years?|months?|weeks?|days?|hours?)\b)", re.IGNORECASE)


def durations(text: str) -> list[tuple[Period, int, int]]:
    """:func:`clauselens.grid.values.durations_at` of ``text``, also reading "5 (five) years" (the bracket
    blanked out, so every offset still points into ``text``)."""
    from clauselens.grid.values import durations_at

    return durations_at(_DIGITS_THEN_WORDS.sub(lambda m: " " * len(m.group(0)), text))


def topic_words(words: list[str] | tuple[str, ...]) -> list[str]:
    """``words`` without :data:`TIME_WORDS` (what shows a sentence is about the position's topic)."""
    return [w for w in words if w.strip().lower() not in TIME_WORDS]


def on_topic(sentence: str, topic: list[str] | tuple[str, ...]) -> bool:
    """Is ``sentence`` about the topic (mentions a topic word; no topic words: yes) and not a unit's definition?"""
    return not _UNIT_DEFINITION.search(sentence) and (not topic or bool(mentions(sentence, topic)))


def near_period(text: str, cues: list[str], topic: list[str] | tuple[str, ...] = ()) -> tuple[Period, tuple[int, int]] | None | str:
    """The period of ``text`` nearest one of ``cues`` in its sentence, among the sentences
    :func:`on_topic` (see the module docstring); None: no such period; a string: why no one period
    could be chosen."""
    from clauselens.grid.extract import sentence_units

    # the topic is judged on whole sentences ("... the term of one year; thereafter, the Agreement shall renew ..."),
    # the nearest cue on the parts between "." and ";"
    spans = [(x, y) for x, y in sentence_units(text) if on_topic(text[x:y], topic)]
    found = [(p, a, b) for p, a, b in durations(text) if any(x <= a < y for x, y in spans)
             and not _UNIT_DEFINITION.search(next((s for o, s in sentences(text) if o <= a < o + len(s)), ""))]
    if not found:
        return None
    best: tuple[float, Period, int, int] | None = None
    for off, s in sentences(text):
        hits = [off + h for h in mentions(s, cues)] if cues else []
        for p, a, b in found:
            if hits and off <= a < off + len(s):
                dist = min(abs(h - a) for h in hits)
                if best is None or dist < best[0]:
                    best = (dist, p, a, b)
    if best is not None:
        return best[1], (best[2], best[3])
    distinct = {days(p) for p, _, _ in found}
    if len(distinct) == 1:
        return found[0][0], (found[0][1], found[0][2])
    return f"the clause states several periods ({', '.join(str(p) for p, _, _ in found[:4])}) and none stands near " \
           f"{', '.join(cues[:4]) or 'the topic'}"


def _period_rule(req: Requirement, text: str, cues: list[str], topic: list[str]) -> RuleResult:
    assert req.period is not None
    got = near_period(text, cues, topic)
    if got is None:
        on = f" in a sentence on {', '.join(topic[:4])}" if topic else ""
        return RuleResult("unclear", "", f"the clause states no period{on}")
    if isinstance(got, str):
        return RuleResult("unclear", "", got)
    p, span = got
    limit = req.period
    ok = days(p) <= days(limit) + 1e-9 if req.rule == "period_at_most" else days(p) >= days(limit) - 1e-9
    cmp = "at most" if req.rule == "period_at_most" else "at least"
    return RuleResult("compliant" if ok else "deviation", str(p),
                      f"{p} is {'' if ok else 'not '}{cmp} {limit}", span)


_CAP_CUES = ["preceding", "prior", "paid", "payable", "fees", "immediately"]


def _cap_rule(req: Requirement, text: str, cues: list[str], party: str = "any", sides: Sides | None = None) -> RuleResult:
    got = _cap_period(req, text, cues)
    if party == "any" or sides is None or got.outcome == "unclear":
        return got
    limited = [(o, s, w) for o, s in sentences(text) for w in [liable(s, sides)] if w]
    if not limited:
        return got
    whose: set[str] = set().union(*(w for _, _, w in limited))
    who = target(party, sides)
    span = (limited[0][0], limited[0][0] + len(limited[0][1]))
    if who is None and ALL not in whose:
        names = ", ".join(sides.label(n) for n in sides.names) or "the parties"
        return RuleResult("unclear", got.value, f"{got.why}; the cap limits {describe(whose, sides)}'s liability; which party "
                                                f"is ours is not known (name it: --our-party, one of {names})", span)
    if covers(whose, who or {ALL}):
        return RuleResult(got.outcome, got.value, f"{got.why}; it limits {describe(whose, sides)}'s liability", got.span)
    wanted = "each party" if party == "both" else describe(who or {ALL}, sides)
    return RuleResult("deviation", got.value, f"the cap limits {describe(whose, sides)}'s liability only, not {wanted}'s "
                                              f"({got.why})", span)


def _cap_period(req: Requirement, text: str, cues: list[str]) -> RuleResult:
    assert req.months is not None
    fee_sentences = [(o, s) for o, s in sentences(text) if mentions(s, ["fee", "paid", "payable", "amounts paid", "charges"])]
    for off, s in fee_sentences:
        got = near_period(s, cues or _CAP_CUES)
        if isinstance(got, tuple):
            p, (a, b) = got
            months = days(p) / _UNIT_DAYS["month"]
            ok = months >= req.months - 1e-6
            return RuleResult("compliant" if ok else "deviation", f"fees of {p}",
                              f"a cap of the fees of {p} ({months:g} months) is {'' if ok else 'not '}at least "
                              f"{req.months:g} months of fees", (off + a, off + b))
    money = [a for a in amounts_in(text) if a.kind == "money"]
    if money:
        return RuleResult("unclear", str(money[0]), f"the cap is stated as a sum ({money[0]}), not as months of fees")
    return RuleResult("unclear", "", "the clause states no period of fees for its cap")


#: A consent route: "consent", "approval", "permission", "agreed (upon) in writing", "written agreement of", "in writing signed by".
_CONSENT = re.compile(r"\b(?:consent|approv|permission|agree(?:ment|d)?\s+(?:upon\s+)?in\s+writing|written\s+agreement\s+of|"
                      r"in\s+writing\s+(?:signed|executed)\s+by)", re.IGNORECASE)
_FREE = re.compile(r"\bwithout\s+(?:the\s+)?(?:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}['’]s?\s+|other\s+part(?:y|ies)['’]s?\s+)?"
                   r"(?:need\s+(?:for|of|to\s+obtain)\s+|necessity\s+of\s+|requirement\s+of\s+|obtaining\s+)?"
                   r"(?:the\s+)?(?:any\s+)?(?:prior\s+)?(?:express\s+)?(?:written\s+)?(?:consent|approval|permission)", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|neither|nor|never|cannot|prohibit\w*)\b|n't\b", re.IGNORECASE)
_PROHIBIT = re.compile(r"\b(?:shall\s+not|may\s+not|will\s+not|cannot|not\s+be\s+assignable|non-?assignable|prohibit\w*|"
                       r"(?:shall|will)\s+have\s+no\s+right|not\s+(?:be\s+)?entitled\s+to|neither\b[^.;]{0,80}\bnor\b[^.;]{0,40}"
                       r"\b(?:shall|may|will)\s+have\s+the\s+right)\b", re.IGNORECASE)


def _consent_kind(s: str) -> tuple[str, tuple[int, int]] | None:
    """One sentence on the topic: ("free" | "requires" | "prohibits", span in it) or None."""
    m_free = _FREE.search(s)
    if m_free and not _NEGATION.search(s[: m_free.start()]):
        return "free", (m_free.start(), m_free.end())
    m = _CONSENT.search(s)
    if m:
        return "requires", (m.start(), m.end())
    if _PROHIBIT.search(s):
        return "prohibits", (0, len(s))
    return None


def _consent_rule(text: str, cues: list[str], party: str = "any", sides: Sides | None = None) -> RuleResult:
    topic = cues or ["assign", "transfer"]
    read = [(kind, (off + a, off + b), s) for off, s in sentences(text) if mentions(s, topic)
            for kind, (a, b) in [_consent_kind(s) or ("", (0, 0))] if kind]
    if party != "any" and sides is not None:
        return _consent_by_party(read, party, sides)
    first = {k: span for k, span, _ in reversed(read)}
    if "requires" in first:
        return RuleResult("compliant", "consent required", "a sentence on the topic requires the other party's consent", first["requires"])
    if "free" in first:
        return RuleResult("deviation", "no consent needed", "the clause lets a party act without the other's consent", first["free"])
    if "prohibits" in first:
        return RuleResult("compliant", "prohibited outright", "the clause prohibits it outright (no consent route): at least as "
                                                               "strict as only with consent", first["prohibits"])
    return RuleResult("unclear", "", "no sentence of the clause says whether consent is needed")


def _banned_ours(banned: set[str], party: str, sides: Sides) -> set[str] | None:
    """Which of the ``banned`` parties (prohibited outright, no consent route) are ours, for a position about
    ``party``; None when that is not known (a ban on one named party while our party is not named)."""
    if party == "us":
        return banned
    if party == "counterparty":
        return set()
    if ALL in banned or (sides.names and set(sides.names) <= banned):
        return banned  # every party is banned, so we are
    return banned & {sides.us} if sides.us is not None else None


def _consent_by_party(read: list[tuple[str, tuple[int, int], str]], party: str, sides: Sides) -> RuleResult:
    """:func:`_consent_rule` for a position about one party or both (see the module docstring)."""
    from clauselens.playbook.parties import target

    if not read:
        return RuleResult("unclear", "", "no sentence of the clause says whether consent is needed")
    bounds = [(kind, span, bound(s, sides)) for kind, span, s in read]
    unknown = [span for _, span, b in bounds if b is None]
    who = target(party, sides)
    if who is None:
        if all(b == {ALL} for _, _, b in bounds):
            who = {ALL}
        else:
            names = ", ".join(sides.label(n) for n in sides.names) or "the parties"
            return RuleResult("unclear", "", f"the clause binds one party only; which one is ours is not known "
                                             f"(name it: --our-party, one of {names})", bounds[0][1])
    for kind, span, b in bounds:
        if kind == "free" and b is not None and (ALL in b or b & who or who == {ALL}):
            return RuleResult("deviation", "no consent needed", f"the clause lets {describe(b, sides)} act without the other's consent", span)
    status = {w: {kind for kind, _, b in bounds if b is not None and covers(b, {w})} for w in who}
    req = [span for kind, span, b in bounds if kind == "requires" and b is not None and (ALL in b or b & who)]
    if all("requires" in k for k in status.values()):
        names = describe(who, sides) if who != {ALL} else "each party"
        return RuleResult("compliant", "consent required", f"the clause makes {names} need the other's consent", req[0])
    bare = [w for w, k in status.items() if not k]
    if bare and not unknown:
        restricted = {w for _, _, b in bounds if b for w in b}
        return RuleResult("deviation", "restricts " + describe(restricted, sides) + " only",
                          f"the clause restricts {describe(restricted, sides)} only, not {describe(set(bare), sides)}", bounds[0][1])
    if all(k for k in status.values()) and not bare:  # every party restricted, some by an outright ban only
        banned = {w for w, k in status.items() if "requires" not in k}
        span = next(sp for kind, sp, b in bounds if kind == "prohibits" and b is not None and any(covers(b, {w}) for w in banned))
        ours = _banned_ours(banned, party, sides)
        if ours is None:
            names = ", ".join(sides.label(n) for n in sides.names) or "the parties"
            return RuleResult("unclear", "prohibited outright", f"the clause prohibits {describe(banned, sides)} outright (no consent "
                                                                f"route); whether that is our party is not known (name it: --our-party, "
                                                                f"one of {names})", span)
        if ours:
            return RuleResult("deviation", "prohibited outright", f"the clause prohibits {describe(ours, sides)} outright: no consent "
                                                                  f"route, stricter than only with consent", span)
        return RuleResult("compliant", "prohibited outright", f"the clause prohibits {describe(banned, sides)} outright (no consent "
                                                              f"route): at least as strict as only with consent", span)
    return RuleResult("unclear", "", "the clause does not say which party it binds", (unknown or [bounds[0][1]])[0])


def evaluate(req: Requirement, text: str, cues: list[str], topic: list[str] | None = None, *, party: str = "any",
             sides: Sides | None = None) -> RuleResult:
    """Apply a value rule to one clause ``text`` (see the module docstring); ``cues``: the words a
    value must stand near (the position's ``value_near``, else its topic terms); ``topic``: the words
    a sentence holding a period must mention (None: ``cues`` without :data:`TIME_WORDS`); ``party``
    and ``sides``: whose obligation the position is about and the agreement's parties (consent and cap rules)."""
    if req.rule == "governing_law_in":
        return _law_rule(req, text)
    if req.rule in ("period_at_most", "period_at_least"):
        return _period_rule(req, text, cues, topic_words(cues) if topic is None else topic_words(topic))
    if req.rule == "cap_months_of_fees_at_least":
        return _cap_rule(req, text, cues, party, sides)
    if req.rule == "consent_required":
        return _consent_rule(text, cues, party, sides)
    raise ValueError(f"{req.rule} is not a value rule")


__all__ = ["TIME_WORDS", "RuleResult", "days", "durations", "evaluate", "governing_law", "mentions", "near_period", "on_topic",
           "reduce_jurisdictions", "sentences", "topic_words"]
