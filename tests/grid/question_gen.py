"""A generator of varied grid questions: phrasings of the same typed asks (issue #45).

The grid's rule must not depend on one wording. Each ask is a set of templates with slots; every
combination of the slot words is one phrasing (plain words, no ``search``, no ``terms``), so a test
runs the rule on dozens of phrasings of one ask. Deterministic (itertools order), no model.
"""

from __future__ import annotations

import itertools
from typing import Iterator

#: ask -> (answer type, templates, slot words). Written from how people ask, not from any contract.
ASKS: dict[str, tuple[str, list[str], dict[str, list[str]]]] = {
    "law": ("jurisdiction", [
        "Which {place} law {governs} {it}?",
        "Under which {place} laws is {it} {read}?",
        "What law {governs} {it}?",
    ], {"place": ["state's", "state's or country's", "country's"], "governs": ["governs", "applies to"],
        "it": ["the agreement", "this contract", "the deal"], "read": ["interpreted", "construed"]}),
    "quit_notice": ("duration", [
        "How much {warning} must a party give to {end} {it} {early} without a reason?",
        "How many days' {warning} are needed to {end} {it} {early} without giving a reason?",
    ], {"warning": ["warning", "notice"], "end": ["end", "cancel", "get out of"], "it": ["the agreement", "the contract"],
        "early": ["early", "at will"]}),
    "fee": ("amount", [
        "How much {money} must be {paid} under {it}?",
        "What {money} does {it} require to be {paid}?",
    ], {"money": ["money", "fee", "compensation"], "paid": ["paid", "paid out"], "it": ["the agreement", "this contract"]}),
    "cure": ("duration", [
        "How long does a party have to {fix} a breach before the other can {end} {it}?",
        "How much time is given to {fix} a breach before {it} can be {ended}?",
    ], {"fix": ["fix", "cure", "remedy"], "end": ["end", "terminate"], "ended": ["ended", "terminated"],
        "it": ["the agreement", "the contract"]}),
}


def phrasings(ask: str) -> Iterator[tuple[str, str]]:
    """Every (question, type) of ``ask``: each template with each combination of its slot words."""
    qtype, templates, slots = ASKS[ask]
    seen: set[str] = set()
    for t in templates:
        names = [n for n in slots if "{" + n + "}" in t]
        for combo in itertools.product(*(slots[n] for n in names)):
            q = t.format(**dict(zip(names, combo)))
            if q not in seen:
                seen.add(q)
                yield q, qtype


__all__ = ["ASKS", "phrasings"]
