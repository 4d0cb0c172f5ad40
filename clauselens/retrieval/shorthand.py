"""Business shorthand in a typed question, written out (issue #45).

People type questions to a review tool the way they write e-mail between meetings: "Can either party
assign this w/o the other's consent? y/n pls", "Initial commitment - yrs/months before any auto-renew",
"T for C - can either side terminate early?", "AP asking: pmt terms on invoices". Every reader after
this one -- the grid's rules, the topic checks, the lexical analyser, the model's prompt -- reads words:
"w/o" is two one-letter tokens, so a question *without* consent was read as one *about* consent (a keyed
dev set in this register: four assignment cells answered the opposite way round).

:data:`SHORTHAND` is a table of common English business and correspondence abbreviations, each with one
reading in a question about a contract ("w/" before a word is "with") (written once from general usage, not from any question set; an
abbreviation with two readings here -- "min" minute / minimum, "excl." excluding / exclusive, "mo" month /
Missouri, "bc" because / British Columbia -- is left out). :func:`expand` writes each one out, keeping
every other character; a question without shorthand comes back unchanged (the same string).
"""

from __future__ import annotations

import re

#: abbreviation pattern (case-insensitive, whole word) -> the words it stands for.
SHORTHAND: dict[str, str] = {
    r"w/o|w/out": "without",
    r"b/c": "because",
    r"y/n": "yes or no",
    r"pls|plz|pse": "please",
    r"thx|thks": "thanks",
    r"asap": "as soon as possible",
    r"pmts|pymts|pmnts": "payments",
    r"pmt|pymt|pmnt": "payment",
    r"yrs": "years",
    r"yr": "year",
    r"mos|mths|mnths": "months",
    r"mth|mnth": "month",
    r"wks": "weeks",
    r"wk": "week",
    r"hrs": "hours",
    r"reqd|req'd|req’d": "required",
    r"liab": "liability",
    r"svcs": "services",
    r"svc": "service",
    r"t&cs|ts&cs|t&c|t's\s*&\s*c's": "terms and conditions",
    r"t\s+for\s+c|tfc|t4c": "termination for convenience",
    r"agmt|agrmt|agmnt|agrmnt": "agreement",
    r"agmts|agrmts": "agreements",
    r"ctrct": "contract",
    r"amt": "amount",
    r"qty": "quantity",
    r"approx": "approximately",
    r"govt": "government",
    r"intl": "international",
    r"mgmt": "management",
    r"addl|add'l|add’l": "additional",
    r"oblig|obligs": "obligations",
    r"eff": "effective",
    r"mfr": "manufacturer",
    r"mfg": "manufacturing",
    r"non-?comp": "non-compete",
    r"conf(?:id)?\s*info": "confidential information",
    # text-message spelling ("r we blocked from ...", "wat day did both sides sign", "stealing each other's ppl", "til we pay"):
    # one reading each in a question about a contract
    r"ur": "your",
    r"wat|wut|wht": "what",
    r"whats|wats": "what is",
    r"ppl": "people",
    r"til|till": "until",
    r"tho": "though",
    r"b4": "before",
    r"cuz|coz|cos": "because",
    r"gotta": "have to",
    r"gonna": "going to",
    r"wanna": "want to",
    r"thru": "through",
    r"abt": "about",
    r"smth|sth": "something",
    r"info": "information",
    r"tbh|imo|fyi|btw|lol|idk": "",
}

_PATTERN = re.compile(r"(?<![\w&'’])(?:" + "|".join(f"(?P<g{i}>{p})" for i, p in enumerate(SHORTHAND)) + r")(?![\w&'’])",
                      re.IGNORECASE)
_WORDS = list(SHORTHAND.values())
#: Lower-case "r" / "u" standing alone before a word, as texted ("r we blocked", "can u check"): are, you (not "2(r)", "U.S.").
_LETTERS = re.compile(r"(?<![\w&'’(./-])([ru])(?=\s+[a-z])")
#: "w/" before a word ("assign w/consent", "w/ notice"): with.
_WITH = re.compile(r"(?<![\w/])w/(?=\s*[^\W\d_])", re.IGNORECASE)


def expand(text: str) -> str:
    """``text`` with every abbreviation of :data:`SHORTHAND` written out; unchanged when it has none."""

    def one(m: re.Match[str]) -> str:
        return _WORDS[int(str(m.lastgroup)[1:])]

    out = _LETTERS.sub(lambda m: {"r": "are", "u": "you"}[m.group(1)], _WITH.sub("with ", _PATTERN.sub(one, text)))
    return re.sub(r"^[ \t]+", "", re.sub(r"[ \t]{2,}", " ", out)) if out != text else text


__all__ = ["SHORTHAND", "expand"]
