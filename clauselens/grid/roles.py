"""A party question about one party's role, read from the preamble's defined terms (issue #45).

"Which side is providing the goods, services or rights?", "Who's the customer here?", "Who grants the
licence?": the answer is the party whose defined term (``("Licensor")``, ``(the "Executive")``) names
that side of the bargain. The rule:

1. **The side asked about** (:func:`asked_side`): the question's verb -- giving / providing /
   supplying / selling / licensing out / performing the work is the *provider* side; buying / paying /
   receiving / getting the goods or the licence is the *recipient* side (:data:`PROVIDER_VERBS`,
   :data:`RECIPIENT_VERBS`, by stem; "who pays the seller?" asks for the payer) -- else a role noun it
   names ("who's the licensor?", "the customer"). Both, or neither: no side, the cell stays for a reviewer.
2. **The parties' roles**: the preamble's parties (:func:`clauselens.parsing.metadata.guess_parties`)
   and their defined terms (:func:`clauselens.parsing.metadata.guess_party_aliases`); a defined term
   whose last word is a role noun of one side (:data:`PROVIDER_ROLES`, :data:`RECIPIENT_ROLES` -- the
   role words of :data:`clauselens.reports.support_claims.ROLES`, split by side) gives its party that side.
3. **Decision**: exactly one party on the asked side -- that party, quoted from the preamble sentence
   that defines it; of two parties, one named by the other side's role ("Reseller") and one by no role ("TouchStar"),
   the latter; none or several (two licensors), or two defined terms that are company names ("IntriCon", "Dynamic"):
   no answer (``None``).

Pure functions, regular expressions and the Archivist's preamble readers; no model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

#: Role nouns of the side that gives what the agreement is about (goods, services, rights, work).
PROVIDER_ROLES = frozenset("""supplier vendor seller provider manufacturer licensor sublicensor consultant contractor subcontractor
developer publisher producer executive employee franchisor lessor landlord""".split())
#: Role nouns of the side that receives it (and pays).
RECIPIENT_ROLES = frozenset("""customer client buyer purchaser licensee sublicensee distributor reseller retailer franchisee lessee
tenant employer recipient""".split())
#: Stems of verbs and nouns that ask for the provider side ("who supplies", "who is providing the services").
PROVIDER_VERBS = ("provid", "suppl", "sell", "sold", "deliver", "grant", "licenses", "licences", "licensing", "manufactur", "make",
                  "makes", "perform",
                  "render", "do the work", "does the work", "doing the work", "give", "giving", "ship")
#: Stems that ask for the recipient side ("who buys", "who pays", "who gets the goods").
RECIPIENT_VERBS = ("buy", "bought", "purchas", "pay", "paying", "receiv", "get ", "gets ", "getting", "acquir")
_LICENSED_IN = re.compile(r"\b(?:gets?|getting|receiv\w*|takes?|taking)\s+(?:a\s+|the\s+)?licen[cs]e\b|\blicensed\s+to\b", re.IGNORECASE)


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
    q = " " + " ".join(question.lower().split()) + " "
    # the verb says which side does what ("who pays the seller?": the payer); a role noun alone names the side ("who's the seller?")
    prov, rec = _has(q, PROVIDER_VERBS), _has(q, RECIPIENT_VERBS)
    if _LICENSED_IN.search(q):
        prov, rec = False, True
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


def role_party(question: str, front: str) -> RoleParty | None:
    """The one party of the opening text ``front`` on the side ``question`` asks about (module docstring), else None."""
    from clauselens.parsing.metadata import guess_parties, guess_party_aliases

    side = asked_side(question)
    if not side:
        return None
    parties: list[str] = []
    for start in range(0, max(1, len(front) - 1000), 2000):  # the preamble may follow a title page and a contents list
        parties = guess_parties(front[start:start + 3000])
        if len(parties) >= 2:
            front = front[start:]
            break
    if len(parties) < 2:
        return None
    aliases = guess_party_aliases(front, parties)
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


__all__ = ["PROVIDER_ROLES", "PROVIDER_VERBS", "RECIPIENT_ROLES", "RECIPIENT_VERBS", "RoleParty", "asked_side", "role_party",
           "side_of"]
