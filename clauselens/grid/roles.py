"""A party question about one party's role, read from the preamble's defined terms (issue #45).

"Which side is providing the goods, services or rights?", "Who's the customer here?", "Who grants the
licence?": the answer is the party whose defined term (``("Licensor")``, ``(the "Executive")``) names
that side of the bargain. The rule:

1. **The side asked about** (:func:`asked_side`): the question's verb -- giving / providing /
   supplying / selling / licensing out / performing the work is the *provider* side; buying / paying /
   receiving / getting the goods or the licence is the *recipient* side (:data:`PROVIDER_VERBS`,
   :data:`RECIPIENT_VERBS`, by stem; "who pays the seller?" asks for the payer) -- else a role noun it
   names ("who's the licensor?", "the customer"). Both, or neither: no side, the cell stays for a reviewer.
2. **The parties' roles**: the preamble's parties (:func:`clauselens.parsing.parties.guess_parties`)
   and their defined terms (:func:`clauselens.parsing.parties.guess_party_aliases`); a defined term
   whose last word is a role noun of one side (:data:`PROVIDER_ROLES`, :data:`RECIPIENT_ROLES` -- the
   role words of :data:`clauselens.reports.support_claims.ROLES`, split by side) gives its party that side.
3. **Decision**: exactly one party on the asked side -- that party, quoted from the preamble sentence
   that defines it; of two parties, one named by the other side's role ("Reseller") and one by no role ("TouchStar"),
   the latter; none or several (two licensors), or two defined terms that are company names ("IntriCon", "Dynamic"):
   no answer (``None``).
4. **No role nouns** ("Stremicks Heritage Foods, LLC ("Heritage")"): what the agreement makes each of two parties do
   (:func:`role_by_conduct`) -- the one that is the subject of providing verbs ("Heritage shall produce", "Dynamic Hearing
   grants") clearly more often is the provider, the other the recipient; when neither clearly does, providing and paying
   are weighed together (:data:`NET_ODDS`: "Company will pay ACSI" five times outweighs "Company will provide" twice). A
   party's sentences name it by its defined term, its name, or its name without the company form ("Medica" for "MEDICA,
   S.p.A.").

Pure functions, regular expressions and the Archivist's preamble readers; no model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

#: Role nouns of the side that gives what the agreement is about (goods, services, rights, work).
PROVIDER_ROLES = frozenset("""supplier vendor seller provider manufacturer licensor sublicensor consultant contractor subcontractor
developer publisher producer executive employee franchisor lessor landlord agent operator carrier""".split())
#: Role nouns of the side that receives it (and pays).
RECIPIENT_ROLES = frozenset("""customer client buyer purchaser licensee sublicensee distributor reseller retailer franchisee lessee
tenant employer recipient sponsor principal""".split())
#: Stems of verbs and nouns that ask for the provider side ("who supplies", "who is providing the services").
PROVIDER_VERBS = ("provid", "suppl", "sell", "sold", "deliver", "grant", "licenses", "licences", "licensing", "manufactur", "make",
                  "makes", "perform",
                  "render", "do the work", "does the work", "doing the work", "give", "giving", "ship", "furnish")
#: Stems that ask for the recipient side ("who buys", "who pays", "who gets the goods").
RECIPIENT_VERBS = ("buy", "bought", "purchas", "pay", "paying", "receiv", "get ", "gets ", "getting", "acquir")
#: A question about who owns something (an invention, the data): not a side of the bargain.
_OWNS = re.compile(r"\b(?:own|owns|owning|owner|owners|ownership)\b")
#: "gets invented", "got lost": a passive "get", no one getting anything ("who gets paid" is the provider, read below).
_PASSIVE_GET = re.compile(r"\b(?:gets?|got|getting)\s+(?!paid\b)\w+ed\b")
_GETS_PAID = re.compile(r"\b(?:gets?|getting|got|is|are|being)\s+paid\b|\breceiv\w*\s+(?:the\s+)?(?:payments?|money|fees?|royalt\w+)\b")
_LICENSED_IN = re.compile(r"\b(?:gets?|getting|receiv\w*|takes?|taking)\s+(?:a\s+|the\s+)?licen[cs]e\b|\blicensed\s+to\b", re.IGNORECASE)


#: Role nouns that name a particular kind of party: a question for the "distributor" of an outsourcing agreement, or the
#: "licensee" of one that names none, has no answer (the generic side, "the recipient", is not that role).
ROLE_WORDING: dict[str, str] = {
    **{n: rf"\b(?:sub-?)?{n[3:] if n.startswith('sub') else n}s?\b" for n in ("licensee", "licensor", "sublicensee", "sublicensor")},
    "distributor": r"\bdistributors?\b", "reseller": r"\bresellers?\b", "retailer": r"\bretailers?\b",
    "franchisee": r"\bfranchisees?\b", "franchisor": r"\bfranchisors?\b", "lessee": r"\blessees?\b", "lessor": r"\blessors?\b",
    "landlord": r"\blandlords?\b", "tenant": r"\btenants?\b", "employee": r"\bemployee\b", "employer": r"\bemployer\b",
    "executive": r"\bexecutive\b", "consultant": r"\bconsultants?\b", "contractor": r"\bcontractors?\b",
    "subcontractor": r"\bsub-?contractors?\b", "manufacturer": r"\bmanufacturers?\b", "developer": r"\bdevelopers?\b",
    "publisher": r"\bpublishers?\b",
}


#: A question that names the side in several ways: a list, "or", "whoever", a slash.
_ALTERNATIVES = re.compile(r",|/|\b(?:or|whoever|whichever|whatever|e\.g\.|like)\b", re.IGNORECASE)


def unworded_role(question: str, texts: Sequence[str]) -> str:
    """The role noun a party ``question`` names (:data:`ROLE_WORDING`: "Who is the distributor?") when none of the agreement's
    ``texts`` uses its wording, else ``""``."""
    if _ALTERNATIVES.search(question):
        return ""  # "Which side is footing the bill - the buyer, licensee, whoever gets the goods?": one name among several for the side
    nouns = [n for n in re.findall(r"[a-z-]+", question.lower()) if n in ROLE_WORDING]
    for n in nouns:
        if not any(re.search(ROLE_WORDING[n], t, re.IGNORECASE) for t in texts):
            return n
    return ""


@dataclass(frozen=True)
class RoleParty:
    """The party on the asked side, its defined term, and the side."""

    name: str
    role: str
    side: str
    other: str = ""  # the other party's defined term when that decided it ("Reseller")


def _has(q: str, stems: Sequence[str]) -> bool:
    return any(re.search(r"(?<![a-z])" + re.escape(s), q) for s in stems)


def asked_side(question: str) -> str:
    """``"provider"`` / ``"recipient"`` for the side a party question asks about, else ``""``."""
    from clauselens.grid.topic import CONTEXT_DASH

    question = CONTEXT_DASH.sub("", question)  # the user's context ("I'm getting the names mixed up ...") asks no side
    q = " " + " ".join(question.lower().split()) + " "
    if _OWNS.search(q):
        return ""  # "which company ends up owning what gets invented?": who owns a thing is no side of the bargain
    q = _PASSIVE_GET.sub(" ", q)  # "if something gets invented": no one receives anything
    # the verb says which side does what ("who pays the seller?": the payer); a role noun alone names the side ("who's the seller?")
    prov, rec = _has(q, PROVIDER_VERBS), _has(q, RECIPIENT_VERBS)
    if _LICENSED_IN.search(q):
        prov, rec = False, True
    if _GETS_PAID.search(q):  # "who gets paid?", "which side receives the fees?": the payee provides (asked with the payer: neither)
        if re.search(r"\bpays\b|\bpaying\b", q):
            return ""
        prov, rec = True, False
    if prov != rec:
        return "provider" if prov else "recipient"
    nouns = set(re.findall(r"[a-z]+", q))
    named = {"provider" for n in nouns if n in PROVIDER_ROLES} | {"recipient" for n in nouns if n in RECIPIENT_ROLES}
    return named.pop() if len(named) == 1 and not (prov and rec) else ""


def side_of(alias: str) -> str:
    """The side a defined term names ("Licensor" -> provider, "the Customer" -> recipient), else ``""``. A bare
    "Recipient" is an NDA's recipient of information, no side of a bargain ("Service Recipient" is)."""
    words = re.findall(r"[a-z]+", alias.lower())
    last = words[-1] if words else ""
    if last == "recipient" and len(words) < 2:
        return ""
    return "provider" if last in PROVIDER_ROLES else "recipient" if last in RECIPIENT_ROLES else ""


@lru_cache(maxsize=32)
def preamble_parties(front: str) -> tuple[tuple[str, ...], dict[str, list[str]]]:
    """The parties of the opening text ``front`` and their defined terms (the Archivist's preamble readers), read once per
    text for both role readers; ``((), {})`` when fewer than two parties are named. The preamble may follow a title page
    and a contents list: the first 3,000-character window (every 2,000) that names two parties."""
    from clauselens.grid.values import name_tokens
    from clauselens.parsing.parties import guess_parties, guess_party_aliases

    for start in range(0, max(1, len(front) - 1000), 2000):
        parties = guess_parties(front[start:start + 3000])
        # one company written twice ("Goosehead Insurance Agency" on a title page, "Goosehead Insurance Agency, LLC" in the preamble of
        # a form whose franchisee is left blank, a keyed dev set): one party, kept by its longer name (not "Electric City Corp." and
        # "Electric City of Illinois LLC": a parent and its subsidiary)
        parties = [p for k, p in enumerate(parties) if not any(
            j != k and name_tokens(p) and name_tokens(p) == name_tokens(q) and (len(q), -j) > (len(p), -k) for j, q in enumerate(parties))]
        if len(parties) >= 2:
            return tuple(parties), guess_party_aliases(front[start:], parties)
    return (), {}


def role_party(question: str, front: str) -> RoleParty | None:
    """The one party of the opening text ``front`` on the side ``question`` asks about (module docstring), else None."""
    side = asked_side(question)
    if not side:
        return None
    parties, aliases = preamble_parties(front)
    if len(parties) < 2:
        return None
    # each party's first alias that names a role ('"Ferrer" and/or "Supplier"': Supplier)
    hits = [(name, a) for name, al in aliases.items() for a in [next((x for x in al if side_of(x)), "")] if a and side_of(a) == side]
    if not hits and len(parties) == 2 and len(aliases) == 2:
        # two parties, one named by the other side's role ("Reseller"), the other by no role ("TouchStar"): that one is
        # on the asked side (who sells to the reseller supplies it)
        other = "recipient" if side == "provider" else "provider"
        sides = {name: side_of(al[0]) if al else "" for name, al in aliases.items()}
        if sorted(sides.values()) == sorted(["", other]):
            hits = [(name, aliases[name][0]) for name, sd in sides.items() if sd == "" and aliases[name]]
            by = next((al[0] for name, al in aliases.items() if sides[name] == other), "")
            return RoleParty(hits[0][0], hits[0][1], side, by) if len(hits) == 1 else None
    if len(hits) != 1:
        return None
    name, alias = hits[0]
    return RoleParty(name, alias, side)


#: What a party does as the provider, as the subject of the sentence: "Stremicks shall manufacture", "Dynamic agrees to supply",
#: "McDATA will provide", "Licensor hereby grants"; not a notice, a certificate or insurance provided ("HERC shall provide for ten (10)
#: days notice", a keyed dev set: the IP licensee read as the supplier), nor money ("ESSI will provide monthly payment of $10,000
#: made payable to Talent": the payer).
_MODAL = r"\s+(?:shall|will|must|agrees?\s+to|hereby\s+agrees?\s+to|undertakes?\s+to|is\s+to|shall\s+have\s+the\s+right\s+to)\s+(?:\w+\s+){0,2}?"
_PROVIDES = (r"(?:suppl(?:y|ies)|provid(?:e|es)(?![^.;]{0,30}?\b(?:notices?|certificates?|evidence|cop(?:y|ies)|insurance|proof|payments?|"
             r"compensation|shares|stock|funds|fees?|expenses|reimbursement)\b)|"
             r"deliver|manufactur(?:e|es)|produc(?:e|es)|sell|perform|render|furnish|ship|"
             r"develop|host|design|fabricat(?:e|es)|package|distribute)\b")
_RECEIVES = r"(?:purchas(?:e|es)|buy|pay|order|reimburse|receive|accept)\b"
_GRANTS = r"\s+(?:hereby\s+)?grants?\b"
#: What a party receives that is money paid to it ("receive the buy rate with revenue share", "receive a commission of 5%").
_PAID_TO = re.compile(r"[^.;]{0,60}?\b(?:payments?|commissions?|revenue|fees?|royalt\w+|compensation|remuneration|rate|share|"
                      r"consideration|sums?|amounts?|monies|money|\$|percent|%)", re.IGNORECASE)
#: Being paid: "SRP shall be entitled to a base fee of Eighty Thousand Dollars" (a keyed dev set's sponsorship: the team's side).
_ENTITLED = (r"\s+(?:shall|will)\s+be\s+(?:entitled\s+to|paid)\b(?=[^.;]{0,40}?\b(?:fees?|compensation|payments?|royalt\w*|commissions?|"
             r"remuneration)\b|[^.;]{0,40}?\$)")
#: Of the receiving verbs, the ones that spend money ("Company will pay ACSI", "CHT shall pay the license fee").
_PAYS = re.compile(r"(?:purchas|buy|pay|order|reimburse)", re.IGNORECASE)
#: When neither party clearly provides alone: the provider is the party whose odds -- (its providing sentences + 1) x (the
#: other's paying sentences + 1) over the same for the other party -- exceed this (add-one smoothing, Laplace).
NET_ODDS = 2.0
def short_forms(name: str) -> list[str]:
    """``name`` without its company-form words and a leading "The" ("MEDICA, S.p.A." -> "MEDICA"; "HERTZ SYSTEM, INC." ->
    "HERTZ SYSTEM"), when that leaves a word of three letters or more; else ``[]``."""
    from clauselens.parsing.parties import without_company_form

    short = re.sub(r"^the\s+", "", without_company_form(name), flags=re.IGNORECASE).strip(" ,")
    return [short] if short != name.strip() and re.search(r"[A-Za-z]{3}", short) else []
#: Sentences enough to decide: the provider is the subject of providing verbs at least this often, and the other party at
#: most half as often.
MIN_CONDUCT = 2


def role_by_conduct(question: str, front: str, texts: Sequence[str]) -> tuple[RoleParty, str] | None:
    """The party on the asked side when the preamble names no roles ("Stremicks Heritage Foods, LLC ("Stremicks")"): of two
    parties, the one the agreement's sentences make the subject of providing verbs ("Stremicks shall manufacture the
    Products", "Dynamic hereby grants") at least :data:`MIN_CONDUCT` times, the other at most half as often and never more
    often of receiving verbs (else the one that is not clearly the subject of receiving verbs: "Sanofi Pasteur agrees to
    purchase") -- and, asked for the recipient, the other one; with the first such sentence that names the
    answer by a word of its name, else the first (the answer's defined term, ``RoleParty.role``, then names it). ``None``
    when the sentences do not single one out. (Who performs is whose obligation:
    the provider's characteristic performance, the test of the Rome I Regulation, Art. 4(2).)"""
    from clauselens.grid.extract import sentences_of
    from clauselens.grid.values import name_tokens

    side = asked_side(question)
    parties, aliases = preamble_parties(front) if side else ((), {})
    first = re.search(r"\b(between|among)\b", front, re.IGNORECASE)
    if len(parties) != 2 or (first is not None and first.group(1).lower() == "among"):
        return None  # "by and among" the Fund, its adviser and a remarketing agent left blank: more sides than the two read
    forms = {p: [p, *short_forms(p), *aliases.get(p, [])] for p in parties}
    pats = {p: re.compile(r"(?<![\w&])(?:" + "|".join(r"\s+".join(map(re.escape, f.split())) for f in fs if f) + r")(?:['’]s)?"
                          rf"(?:{_MODAL}(?P<give>{_PROVIDES})|{_MODAL}(?P<take>{_RECEIVES})|(?P<grant>{_GRANTS})|(?P<earns>{_ENTITLED}))",
                          re.IGNORECASE)
            for p, fs in forms.items()}
    gives = {p: 0 for p in parties}
    takes = {p: 0 for p in parties}
    pays = {p: 0 for p in parties}
    said: dict[str, list[str]] = {p: [] for p in parties}  # the sentences in which each party provides
    took: dict[str, list[str]] = {p: [] for p in parties}  # ... or buys, pays, orders
    paid: dict[str, list[str]] = {p: [] for p in parties}  # ... of them, the ones in which it pays, buys or orders
    for _i, _s, _e, text in sentences_of(texts):
        for p, rx in pats.items():
            for m in rx.finditer(text):
                if m.group("give") or m.group("grant") or m.group("earns"):
                    gives[p] += 1
                    said[p].append(text)
                elif m.group("take")[:3].lower() in ("rec", "acc") and _PAID_TO.match(text, m.end()):
                    continue  # "Affiliate shall receive the buy rate with revenue share": being paid, no one's purchase
                else:
                    takes[p] += 1
                    took[p].append(text)
                    if _PAYS.match(m.group("take")):
                        pays[p] += 1
                        paid[p].append(text)
    a, b = sorted(parties, key=lambda p: -gives[p])
    odds = {p: (gives[p] + 1) * (pays[o] + 1) / ((gives[o] + 1) * (pays[p] + 1)) for p, o in ((a, b), (b, a))}
    net = max(parties, key=lambda p: odds[p])
    if gives[a] >= MIN_CONDUCT and 2 * gives[b] <= gives[a] and takes[a] <= takes[b]:
        provider, seen = a, said[a]
    elif odds[net] > NET_ODDS and gives[net] + max(pays.values()) >= MIN_CONDUCT:
        # providing and paying weighed together: "Company will pay ACSI" five times outweighs "Company will provide" four times
        # against once (Rome I Art. 4(2): the paying party's performance is not the characteristic one)
        payer = next(p for p in parties if p != net)
        provider, seen = net, paid[payer] if pays[payer] > pays[net] else said[net]
    else:  # no one clearly provides: the one that clearly buys, pays or orders ("Sanofi Pasteur agrees to purchase") is the recipient
        r, o = sorted(parties, key=lambda p: -takes[p])
        if takes[r] < MIN_CONDUCT or 2 * takes[o] > takes[r] or 2 * gives[r] > gives[o]:
            return None
        provider, seen = o, took[r]
    chosen = provider if side == "provider" else next(p for p in parties if p != provider)
    # the evidence: a sentence of that conduct that names the answer by a word of its name, else the first one
    evidence = next((t for t in seen if name_tokens(chosen) & name_tokens(t)), seen[0])
    alias = next((x for x in aliases.get(chosen, []) if x), "")
    return RoleParty(chosen, alias, side), evidence


__all__ = ["MIN_CONDUCT", "PROVIDER_ROLES", "PROVIDER_VERBS", "RECIPIENT_ROLES", "RECIPIENT_VERBS", "RoleParty", "asked_side",
           "preamble_parties", "role_by_conduct", "role_party", "short_forms", "side_of"]
