"""The negation and party-role checks of :mod:`clauselens.reports.support` (split from it for
issue #43): *assertions* ``(party, action, negated)`` read from modal phrases over the action
lexicon (:data:`ACTIONS`; a claim's paraphrases first read as modal phrases, :data:`CLAIM_FORMS`),
parties matched through their names and defined aliases, and :func:`check_claim`, which fails a
claim whose quote gives the same action the opposite polarity or to another party. See
:mod:`clauselens.reports.support` for the rules in full. Pure functions; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence, TypeAlias

#: Action lexicon: canonical action -> regex of its word forms (whole words, lower case).
ACTIONS: dict[str, str] = {
    "assign": r"assign(?:s|ed|ing)?", "transfer": r"transfer(?:s|red|ring)?", "sell": r"sell(?:s|ing)?|sold",
    "delegate": r"delegat(?:e|es|ed|ing)", "sublicense": r"sub-?licen[sc](?:e|es|ed|ing)",
    "license": r"licen[sc](?:e|es|ed|ing)", "terminate": r"terminat(?:e|es|ed|ing)", "cancel": r"cancel(?:s|led|ling|ed|ing)?",
    "renew": r"renew(?:s|ed|ing)?", "extend": r"extend(?:s|ed|ing)?", "disclose": r"disclos(?:e|es|ed|ing)",
    "compete": r"compet(?:e|es|ed|ing)", "solicit": r"solicit(?:s|ed|ing)?", "hire": r"hir(?:e|es|ed|ing)",
    "employ": r"employ(?:s|ed|ing)?", "engage": r"engag(?:e|es|ed|ing)", "pay": r"pa(?:y|ys|id|ying)",
    "reimburse": r"reimburs(?:e|es|ed|ing)", "indemnify": r"indemnif(?:y|ies|ied|ying)", "amend": r"amend(?:s|ed|ing)?",
    "modify": r"modif(?:y|ies|ied|ying)", "waive": r"waiv(?:e|es|ed|ing)", "use": r"us(?:e|es|ed|ing)",
    "copy": r"cop(?:y|ies|ied|ying)", "reproduce": r"reproduc(?:e|es|ed|ing)", "distribute": r"distribut(?:e|es|ed|ing)",
    "publish": r"publish(?:es|ed|ing)?", "audit": r"audit(?:s|ed|ing)?", "inspect": r"inspect(?:s|ed|ing)?",
    "subcontract": r"subcontract(?:s|ed|ing)?", "pledge": r"pledg(?:e|es|ed|ing)", "encumber": r"encumber(?:s|ed|ing)?",
    "purchase": r"purchas(?:e|es|ed|ing)", "supply": r"suppl(?:y|ies|ied|ying)", "deliver": r"deliver(?:s|ed|ing)?",
    "withhold": r"withh(?:o|e)ld(?:s|ing)?", "retain": r"retain(?:s|ed|ing)?", "destroy": r"destroy(?:s|ed|ing)?",
    "circumvent": r"circumvent(?:s|ed|ing)?", "sue": r"su(?:e|es|ed|ing)", "charge": r"charg(?:e|es|ed|ing)",
    "increase": r"increas(?:e|es|ed|ing)", "lease": r"(?:sub)?leas(?:e|es|ed|ing)", "sublet": r"sublet(?:s|ting)?",
    "export": r"export(?:s|ed|ing)?", "manufacture": r"manufactur(?:e|es|ed|ing)", "market": r"market(?:s|ed|ing)?",
    "advertise": r"advertis(?:e|es|ed|ing)", "divert": r"divert(?:s|ed|ing)?",
    "challenge": r"challeng(?:e|es|ed|ing)", "contest": r"contest(?:s|ed|ing)?",
}
_ACTION_RE = [(k, re.compile(rf"^(?:{v})$")) for k, v in ACTIONS.items()]

#: Party role words (lower case, singular). A subject outside this list and not a generic
#: "either party" is compared only when it is a capitalised name in the quote.
ROLES = frozenset("""
consultant company contractor subcontractor client customer supplier vendor seller buyer purchaser licensor licensee
sublicensee distributor reseller manufacturer provider recipient discloser employee employer executive franchisor
franchisee landlord tenant lessor lessee agent principal owner developer publisher sponsor investor borrower lender
guarantor partner member bank trust fund adviser advisor manager operator producer retailer shipper carrier
""".split())
_GENERIC_DET = ("either", "each", "both", "any", "all", "neither", "no")
_PRONOUNS = frozenset("he she it they we you i who which that this".split())
#: Words before an action word that make it a noun ("its assigns", "the use of", "Consultant's assigns").
_DETERMINERS = frozenset("the a an its their his her such any this that these those permitted respective".split())
#: Capitalised words that are never a party ("This Agreement will ...").
_NOT_NAMES = frozenset("agreement contract section article schedule exhibit annex term notice services products".split())

_MODAL = re.compile(
    r"\b(?:"
    r"(?:is|are)\s+(?:not\s+)?(?:allowed|permitted|entitled|free|required|obliged|obligated|authori[sz]ed)\s+to"
    r"|(?:is|are)\s+(?:prohibited|restricted|barred|blocked|precluded|prevented)\s+from"
    # a promise named as a thing: "bound by a promise not to solicit", "a covenant not to compete" (a keyed dev set's question)
    r"|(?:promises?|covenants?|undertakings?|commitments?|obligations?)\s+not\s+to"
    r"|(?:has|have)\s+(?:no\s+|not\s+)?(?:the\s+|a\s+)?right\s+to"
    r"|agrees?\s+(?:not\s+)?to"
    r"|(?:does|do|did|need|is|are)\s+not"
    r"|cannot|can't|won't|shan't|may|shall|will|must|can|should|could|might"
    r")\b",
    re.IGNORECASE,
)
#: Paraphrases of a right, duty or prohibition, read as the modal phrase they stand for before
#: assertions are taken (issue #19: "Section 19.1 allows one party to terminate", "Garrett's only
#: recourse ... is to challenge" gave no assertion, so a party swap went unnoticed).
CLAIM_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(?:allows?|allowing|permits?|permitting|entitles?|entitling|authori[sz]es?|enables?|lets)\s+"
                r"(?P<who>[^.;:]{1,60}?)\s+to\s+(?=[a-z])", re.IGNORECASE), r"\g<who> may "),
    (re.compile(r"\b(?:requires?|requiring|obliges?|obligates?|compels?)\s+(?P<who>[^.;:]{1,60}?)\s+to\s+(?=[a-z])",
                re.IGNORECASE), r"\g<who> shall "),
    (re.compile(r"\b(?:prohibits?|bars?|forbids?|prevents?|precludes?)\s+(?P<who>[^.;:]{1,60}?)\s+from\s+"
                r"(?=[a-z]+ing\b)", re.IGNORECASE), r"\g<who> may not "),
    (re.compile(r"(?P<who>\b[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*){0,3})['’]s?\s+(?:only|sole|exclusive)\s+"
                r"(?:recourse|remedy|option)\b[^.;:]{0,80}?\bis\s+to\s+(?=[a-z])"), r"\g<who> may "),
]


def _rephrase(text: str) -> str:
    for rx, repl in CLAIM_FORMS:
        text = rx.sub(repl, text)
    return text


_NEG_AFTER = re.compile(r"^\s*(?:,\s*)?(?:not|never|in\s+no\s+event|under\s+no\s+circumstances)\b", re.IGNORECASE)
_NEG_IN_MODAL = re.compile(r"\b(?:not|no|prohibited|restricted|barred|blocked|precluded|prevented)\b|cannot|n't", re.IGNORECASE)
#: A clause opened by "Neither ..." / "No ..." / "Nothing ..." negates its modal ("Neither this
#: Agreement nor any right shall be assigned", "No party may"), after its number ("(a)", "4.", "15.1", "15.1.2"; a new
#: user's tryout, 2026-12-06: "15.1 Neither this Agreement nor ... shall be assigned" was read as a permission).
_NEG_OPENING = re.compile(r"^\s*(?:(?:\(?[0-9a-z]{1,4}[.)]|\d{1,3}(?:\.\d{1,3})+\.?)\s*)*(?:neither|no|nothing|none)\b", re.IGNORECASE)
#: A negated subject right before the modal, after a lead-in: "Without prior written consent of the other Parties, none of the
#: Parties may assign" (a tryout read it as a party's right).
_NONE_OF = re.compile(r"\b(?:none|neither)\s+of\s+(?:the\s+|them\b|us\b)(?:[\w-]+\s*){0,2}$", re.IGNORECASE)
#: A double negation: "Nothing herein shall prevent X from assigning", "nothing in this Agreement shall restrict either party from".
_NOTHING_PREVENTS = re.compile(r"^\W*(?:[\d.()a-z]{1,6}\s+)?nothing\b[^.;]{0,80}?\b(?:shall|will|may)\s+(?:be\s+(?:deemed|construed)\s+to\s+)?"
                               r"(?:prevent|prohibit|restrict|preclude|limit|bar|restrain)\w*\b[^.;]{0,80}?\bfrom\s+\w+ing\b", re.IGNORECASE)
CLAUSE_SPLIT = re.compile(r"(?<=[.;:!?])\s+|\n+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_PARTY = re.compile(
    r"\b(?:(?P<det>either|each|both|any|all|neither|no|the\s+other|other|a|the)\s+)?"
    r"(?:(?:receiving|disclosing|service|contracting|non-?breaching|breaching|defaulting|terminating)\s+)?"
    r"(?P<role>part(?:y|ies)|[A-Za-z]+)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Assertion:
    """``party`` (normalised: ``"either party"``, ``"consultant"``, a quoted name, or None when
    unknown) may / must / may not do ``action``; ``negated`` for "may not", "shall not", ..."""

    party: str | None
    action: str
    negated: bool


@dataclass(frozen=True)
class SupportIssue:
    """A deterministic reason why a quote does not support a claim. ``kind``: ``negation``,
    ``party`` or ``boundary``; ``detail`` one sentence for the report."""

    kind: str
    detail: str


def _name_word(w: str) -> bool:
    """A capitalised word that can be (part of) a party's name."""
    lw = w.lower()
    return (w[0].isupper() and lw not in _PRONOUNS and _singular(w) not in ROLES and lw not in ("party", "parties")
            and lw not in _GENERIC_DET and lw not in _NOT_NAMES and lw not in _DETERMINERS and not _action(w))


def _action(word: str) -> str | None:
    w = word.lower().strip("'’-")
    for key, rx in _ACTION_RE:
        if rx.match(w):
            return key
    return None


def _singular(w: str) -> str:
    w = w.lower()
    if w in ("parties",):
        return "party"
    return w[:-1] if w.endswith("s") and w[:-1] in ROLES else w


#: A party that covenants, agrees or represents *that* something: the subject of a pronoun in the that-clause. In "The
#: Consultant covenants ... with the Company that ..., it shall not ... solicit" the "it" is the Consultant, not the
#: Company last named (a new user's tryout: a right reading of a non-solicit was set aside as contradicting the clause).
_COVENANT = re.compile(r"\b(?P<party>(?:the\s+)?[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*){0,2})\s+(?:hereby\s+)?"
                       r"(?:covenants?|agrees?|undertakes?|acknowledges?|represents?|warrants?|confirms?|certifies?|promises?)"
                       r"\b(?:,?\s+(?:undertakes|agrees|covenants|represents|warrants|and|or)\b)*[^.;]*?\bthat\b")
_SUBJECT_PRONOUNS = frozenset(("it", "he", "she", "they"))


def _covenantor(before: str) -> str | None:
    """The party whose covenant or representation the pronoun before a modal sits in (:data:`_COVENANT`), as
    :func:`_subject` names parties ("both party" for two that agree together: "EHS and EHN agree that they shall
    not"); ``None`` when there is none."""
    found = None
    for m in _COVENANT.finditer(before):
        found = m
    if found is None:
        return None
    if re.search(r"\band\s+(?:the\s+)?$", before[:found.start()]):
        return "both party"
    words = [w for w in _WORD.findall(found.group("party")) if w.lower() != "the"]
    if words and _singular(words[-1]) in ROLES:
        return _singular(words[-1])
    return " ".join(words).lower() if words and all(_name_word(w) for w in words) else None


def _subject(before: str) -> str | None:
    """The party acting in the modal phrase that follows ``before`` (the clause text before
    the modal): the last party mention (generic "either party", a role word, or a capitalised
    name right before the modal); pronouns are skipped back to the nearest party, except a pronoun in
    what a party covenants or agrees (:data:`_COVENANT`), which is that party."""
    words = _WORD.findall(before)
    if words and words[-1].lower() in _SUBJECT_PRONOUNS:
        covenantor = _covenantor(before)
        if covenantor:
            return covenantor
    if words and _name_word(words[-1]) and (len(words) < 2 or words[-2].lower() not in _DETERMINERS):
        name = [words[-1]]
        for w in reversed(words[:-1][-3:]):  # "the Honeywell Group shall": the whole name
            if not _name_word(w):
                break
            name.insert(0, w)
        return " ".join(name).lower()  # a name: "TruckThat shall"
    best: str | None = None
    for m in _PARTY.finditer(before):
        role = _singular(m.group("role"))
        det = (m.group("det") or "").lower().split()
        if role == "party":
            if det and det[-1] in ("other",):
                continue  # "the other party" is the object, not the subject
            if det and det[0] in _GENERIC_DET:
                best = f"{det[0]} party"
            elif not det or det[0] in ("the", "a"):
                best = "party"  # "a party may" / "the party" -- unspecific
        elif role in ROLES:
            if det and det[-1] == "other":
                continue
            best = role
    return best


#: Money nouns a reduced relative clause describes: in "any amounts Company is required to pay by any court" the
#: Company's paying is what the amounts are, not a duty this clause gives it (the bundled contract's clause 9, an
#: indemnity by the Consultant, read as "the Company pays"). A pronoun is no name here: "Reimbursable expenses You shall
#: reimburse ..." is a heading and a duty (benchmarks/assertion_census.py lists every CUAD sentence the rule changes).
_DESCRIBED = re.compile(r"\b(?:amounts?|sums?|monies|moneys|fees|costs|expenses|damages|losses|taxes)\s+(?:that\s+|which\s+)?"
                        r"(?:the\s+)?(?!(?:You|We|They|It|He|She|I)\b)[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*){0,2}\s*$")


def assertions(text: str) -> list[Assertion]:
    """The ``(party, action, negated)`` assertions in ``text``: for each modal phrase, the
    actions of :data:`ACTIONS` that follow it in its clause (up to the next modal)."""
    out: list[Assertion] = []
    double = bool(_NOTHING_PREVENTS.match(text))
    for k, clause in enumerate(CLAUSE_SPLIT.split(_rephrase(text))):
        modals = list(_MODAL.finditer(clause))
        for i, m in enumerate(modals):
            end = modals[i + 1].start() if i + 1 < len(modals) else len(clause)
            tail = clause[m.end():end]
            negated = bool(_NEG_IN_MODAL.search(m.group(0))) or bool(_NEG_AFTER.match(tail))
            if _DESCRIBED.search(clause[:m.start()]):
                continue  # "amounts Company is required to pay": a description, not the party's duty here
            subj = _subject(clause[:m.start()])
            # the opening's "Neither" negates the first modal and those joined to it ("Neither A nor B shall have the right to assign")
            first = i == 0 or all(not clause[modals[j].end():modals[j + 1].start()].strip() for j in range(i))
            if subj in ("neither party", "no party") or (first and _NEG_OPENING.match(clause[:m.start()])) or _NONE_OF.search(clause[:m.start()]):
                negated = True
            if double and k == 0 and i <= 1:  # the opening "shall" and the "may not" its "prevent ... from" is read as
                negated = False  # "Nothing herein shall prevent Nantz Communications from assigning ...": a permission (a tryout)
            actions = []
            words = _WORD.findall(tail)
            for j, w in enumerate(words):
                a = _action(w)
                prev = words[j - 1].lower() if j else ""
                if prev in _DETERMINERS or prev.endswith(("'s", "’s")) or (w.lower() == "assigns" and prev in ("and", "or")):
                    continue  # a noun: "its assigns", "the use of", "successors and assigns"
                if a and a not in actions:
                    actions.append(a)
            out += [Assertion(subj, a, negated) for a in actions]
    return out


def _generic(party: str | None) -> bool:
    return party is not None and party.endswith("party")


#: Words of a company name that do not tell one party from another.
_NAME_FILLER = frozenset("""inc incorporated llc ltd limited corp corporation co company plc lp llp sa ag gmbh bv nv
international group holdings holding the of and""".split())


def _name_tokens(name: str) -> set[str]:
    return {t for t in re.findall(r"[a-z][a-z0-9&-]{2,}", name.lower()) if t not in _NAME_FILLER}


#: The agreement's parties for the party check: their names (``["HONEYWELL INTERNATIONAL INC.",
#: "GARRETT MOTION INC."]``), or each name with its defined aliases (``{"HONEYWELL INTERNATIONAL
#: INC.": ["Honeywell"], "GARRETT MOTION INC.": ["SpinCo"]}``, a document summary's ``party_aliases``).
Parties: TypeAlias = Sequence[str] | Mapping[str, Sequence[str]]


def party_table(parties: Parties) -> list[tuple[str, Sequence[str]]]:
    if isinstance(parties, Mapping):
        return [(name, aliases) for name, aliases in parties.items()]
    return [(name, ()) for name in parties]


def _is_alias(subject: str, alias: str) -> bool:
    """Does ``subject`` (lower case, from :func:`_subject`) use ``alias``? The same words ("company"
    / "Company"), or for a name, the alias's name words within the subject's or the other way
    round ("spinco group" / "SpinCo")."""
    if subject == " ".join(alias.lower().split()).removeprefix("the "):
        return True
    if subject in ROLES:
        return False  # a role word is an alias only as defined ("Manufacturer"), never a word of one
    s, a = _name_tokens(subject), _name_tokens(alias)
    return bool(s and a) and (a <= s or s <= a)


def _party_of(subject: str, parties: Parties) -> int | None:
    """Which of the agreement's ``parties`` ``subject`` names, if exactly one: a name sharing a name
    word with the party's name ("honeywell group" / "HONEYWELL INTERNATIONAL INC."), or a name or
    role word that is one of its aliases ("spinco group" / "SpinCo", "manufacturer" / "Manufacturer")."""
    words = set() if subject in ROLES else _name_tokens(subject)
    hits = [i for i, (name, aliases) in enumerate(party_table(parties))
            if words & _name_tokens(name) or any(_is_alias(subject, a) for a in aliases)]
    return hits[0] if len(hits) == 1 else None


def _compatible(claim_party: str | None, quote_party: str | None, parties: Parties = ()) -> bool:
    """Can the quote's party stand for the claim's? Unknown on either side: yes; the quote
    says "either party" / "each party" / "a party": yes; the claim says "either party" and the
    quote names one party: no; two names that share a word ("Honeywell" / "the Honeywell Group"):
    yes. Otherwise, when both name a party of ``parties`` (the agreement's names and defined
    aliases, :func:`_party_of`): only if the same ("Garrett" / "the SpinCo Group" when "SpinCo" is
    Garrett's alias: yes; "Garrett" / "the Honeywell Group": no). When either is not known: two
    role words ("Licensee", "Consultant") only if the same; a role word and a name, or two names:
    yes (which party holds the role, or bears the name, is not known here -- left to the model)."""
    if claim_party is None or quote_party is None:
        return True
    if _generic(quote_party):
        return True
    if _generic(claim_party):
        return claim_party == "party"  # "a party may" is satisfied by any one party
    if _name_tokens(claim_party) & _name_tokens(quote_party) and not {claim_party, quote_party} & ROLES:
        return True
    a, b = _party_of(claim_party, parties), _party_of(quote_party, parties)
    if a is not None and b is not None:
        return a == b
    if claim_party in ROLES and quote_party in ROLES:
        return claim_party == quote_party
    return True


def _who(party: str | None) -> str:
    if party is None:
        return "a party"
    if _generic(party):
        return party
    return f"the {party.capitalize()}" if party in ROLES else party.title()


def _polar(negated: bool) -> str:
    return "may not / shall not" if negated else "may / shall"


#: Actions that answer "who bears the cost": a reading "the Company pays" read against "the Consultant agrees to
#: indemnify the Company" speaks of the same thing for another party (a fresh-clone tryout of the bundled contract:
#: "Who pays if something goes wrong?"). Used by the reading check (``families=COST_FAMILY``), not by the grid.
COST_FAMILY: dict[str, str] = {"pay": "bear the cost", "reimburse": "bear the cost", "indemnify": "bear the cost"}


def check_claim(claim: str, quote: str, parties: Parties = (), families: dict[str, str] | None = None) -> SupportIssue | None:
    """The first deterministic reason why ``quote`` does not support ``claim``, or None.
    ``parties``: the agreement's party names, with their aliases when known (:data:`Parties`); ``families``: actions
    compared as one (:data:`COST_FAMILY`), else each action only with itself.

    For each assertion of the claim whose action the quote also asserts: it passes when some
    quote assertion of that action has a compatible party and the same polarity; otherwise
    the issue is ``negation`` (a compatible party with the opposite polarity, or both differ) or
    ``party`` (the same polarity, but only for another party).
    """
    fam = families or {}
    q_all = assertions(quote)
    for c in assertions(claim):
        same = [q for q in q_all if fam.get(q.action, q.action) == fam.get(c.action, c.action)]
        if not same:
            continue
        if any(_compatible(c.party, q.party, parties) and q.negated == c.negated for q in same):
            continue
        opposite = [q for q in same if _compatible(c.party, q.party, parties)]  # same party, other polarity
        if opposite:
            q = opposite[0]
            return SupportIssue("negation", f"the claim says {_who(c.party)} {_polar(c.negated)} {c.action}; "
                                            f"the quoted text says {_who(q.party)} {_polar(q.negated)} {c.action}")
        q = next((q for q in same if q.negated == c.negated), same[0])
        if q.negated == c.negated:
            return SupportIssue("party", f"the claim says {_who(c.party)} {_polar(c.negated)} {c.action}; "
                                         f"the quoted text says this of {_who(q.party)} only")
        return SupportIssue("negation", f"the claim says {_who(c.party)} {_polar(c.negated)} {c.action}; "
                                        f"the quoted text says {_who(q.party)} {_polar(q.negated)} {c.action}")
    return None


__all__ = ["ACTIONS", "Assertion", "CLAIM_FORMS", "CLAUSE_SPLIT", "COST_FAMILY", "Parties", "ROLES", "SupportIssue",
           "assertions", "check_claim", "party_table"]
