"""Typed values read from a grid cell's verified quote (issue #45).

A small model answers a typed grid question with a value and copies a quote. The quote is
checked verbatim (:mod:`clauselens.reports.verify`); this module checks that the *value* is what
the quote states. Each type has a deterministic reader that lists the values a text states, in a
normal form, and :func:`check_value` passes only when every value of the answer is among the
values of the quote:

* **date** -- calendar dates ("May 8, 2014", "the 8th day of May, 2014", "5/8/2014",
  "2014-05-08"), parsed by python-dateutil to ISO dates. An answer that is no calendar date ("upon
  execution", "three years after the Effective Date") must state a period the quote states, or
  be a short phrase (:data:`PHRASE_WORDS`) of the quote's words;
* **duration** -- a count and a unit: "30 days", "thirty (30) days", "one (1) year", "one-year",
  "twelve months", "successive one-year periods"; counts in words or figures (a figure in
  parentheses restating the words counts once), units day / week / month / year / hour. Equal
  periods in other units are the same value by a stated rule: 12 months = 1 year, 7 days = 1
  week (:func:`same_period`); an answer with no period must be a short phrase of the quote
  ("perpetual", "until terminated");
* **amount** -- money ("$50,000", "US$ 1.5 million", "USD 10,000", "50,000 dollars") and
  percentages ("10%", "ten percent (10%)"), compared by value and kind (money / percent);
* **party** -- the names of the answer (split on ";" and " and "), each of which must appear in
  the quote by its distinctive name words (company-form words such as "Inc." ignored;
  :func:`name_tokens`);
* **jurisdiction** -- US states, Canadian provinces, countries and a few legal territories
  ("England and Wales") named in the text (:data:`JURISDICTIONS`); the answer's must be a
  non-empty subset of the quote's ("the laws of the United States" over a quote that names no
  jurisdiction is unverified);
* **text** -- at least half of the answer's content words are the quote's; a place the answer
  names must be one the quote names (:func:`jurisdictions_in`); and an answer that only refers
  back to something ("the country", "such party", "the State", "this agreement": a determiner and
  at most two lowercase or generic words, no name or number) is no value (issue #45: a free-text
  governing-law cell answered "the country").

A value that is not in the quote, nor derivable from it by one of these stated rules, is never
*answered*. Pure functions; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

#: Numbers in words (counts of periods, percentages, amounts in words).
_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(_UNITS)}
NUMBER_WORDS.update({w: 20 + 10 * i for i, w in enumerate(_TENS)})
NUMBER_WORDS.update({"a": 1, "an": 1, "single": 1, "half": 0})
_SCALE = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_NUM_WORD = r"(?:" + "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True)) + r")"
#: "thirty", "thirty-six", "one hundred twenty", "12", "1,000".
_COUNT = rf"(?:\d[\d,]*(?:\.\d+)?|{_NUM_WORD}(?:[\s-]+(?:{_NUM_WORD}|hundred|thousand|and))*|an?|single)"


def words_to_number(text: str) -> float | None:
    """A count in figures or English words ("thirty-six", "one hundred twenty", "1,000"), or None."""
    t = text.lower().replace(",", "").strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", t):
        return float(t)
    total, cur, seen = 0, 0, False
    for w in re.split(r"[\s-]+", t):
        if w == "and" or not w:
            continue
        if w in NUMBER_WORDS:
            cur += NUMBER_WORDS[w]
        elif w in _SCALE:
            cur = max(cur, 1) * _SCALE[w]
            if _SCALE[w] >= 1000:
                total, cur = total + cur, 0
        else:
            return None
        seen = True
    return float(total + cur) if seen else None


# ----------------------------------------------------------------------------------------- dates
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: Days written as ordinal words ("the first day of July, 2017", "the twenty-first day of March"), 1 to 31.
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth "
             "sixteenth seventeenth eighteenth nineteenth twentieth").split()
ORDINAL_DAYS = {w: i + 1 for i, w in enumerate(_ORDINALS)}
ORDINAL_DAYS.update({f"twenty{sep}{w}": 20 + i + 1 for sep in ("-", " ") for i, w in enumerate(_ORDINALS[:9])})
ORDINAL_DAYS.update({"thirtieth": 30, "thirty-first": 31, "thirty first": 31})
_ORDINAL_DAY = "|".join(sorted((re.escape(w).replace("\\ ", r"\s+") for w in ORDINAL_DAYS), key=len, reverse=True))
#: One calendar date: "May 8, 2014" (also "July 11 , 2006": some filings put a space before the comma),
#: "8 May 2014", "the 8th day of May, 2014", "the first day of July, 2017", "5/8/2014", "2014-05-08"; "May 3,2006" (no space).
ONE_DATE = re.compile(rf"(?:{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:\s?,\s*|\s+)\d{{4}}(?!\d)|"
                      rf"\d{{1,2}}(?:s\s?t|n\s?d|r\s?d|t\s?h)?\s+(?:day\s+of\s+)?"
                      rf"{_MONTHS}\s?,?\s+\d{{4}}|\b(?:{_ORDINAL_DAY})\s+day\s+of\s+{_MONTHS}\s?,?\s+\d{{4}}|"
                      rf"\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}})", re.IGNORECASE)
_ORDINAL_DAY_OF = re.compile(rf"\b({_ORDINAL_DAY})(?=\s+day\s+of\b)", re.IGNORECASE)


def parse_date(text: str) -> date | None:
    """One calendar date (:data:`ONE_DATE`) as a :class:`datetime.date`, or None."""
    from dateutil import parser as dparser

    text = re.sub(r"(\d)([snrt])\s+([tdh])\b", r"\1\2\3", text)  # "the 26t h day of May", "the 1s t day of June": a text layer's split
    text = re.sub(r",(?=\d)", ", ", text)  # "March 12,1999": dateutil reads "12,1999" as one number
    text = _ORDINAL_DAY_OF.sub(lambda m: str(ORDINAL_DAYS[" ".join(m.group(1).lower().split())]), text)  # "first day of" -> "1 day of"
    try:
        return dparser.parse(re.sub(r"\bday\s+of\b", " ", text, flags=re.IGNORECASE)).date()
    except (ValueError, OverflowError):
        return None


def dates_in(text: str) -> list[date]:
    """The calendar dates ``text`` states, in order."""
    out = [parse_date(m.group(0)) for m in ONE_DATE.finditer(" ".join(text.split()))]
    return [d for d in out if d is not None]


# ------------------------------------------------------------------------------------- durations
#: ... up to two of its qualifiers: "twelve (12) full calendar months", "15 Contract Years" (keyed dev sets read no term from them).
_PERIOD_UNIT = r"(?:(?:calendar|business|working|consecutive|full|complete|contract|fiscal)\s+){0,2}(day|week|month|year|hour)s?"
#: "thirty (30) days", "one (1) year", "30-day", "one-year", "twelve months".
_DURATION = re.compile(rf"(?<![\w$/])({_COUNT})(?:\s*\(\s*(\d[\d,]*)\s*\))?[\s-]*{_PERIOD_UNIT}\b", re.IGNORECASE)
_UNIT_DAYS = {"hour": 1 / 24, "day": 1, "week": 7, "month": 30.4375, "year": 365.25}


@dataclass(frozen=True)
class Period:
    """``count`` ``unit`` (day, week, month, year, hour)."""

    count: float
    unit: str

    def __str__(self) -> str:
        n = int(self.count) if self.count == int(self.count) else self.count
        return f"{n} {self.unit}{'' if n == 1 else 's'}"


#: "successive annual periods", "a monthly basis": one year / one month.
_EVERY = re.compile(r"\b(annual|yearly|monthly|weekly)\s+(?:renewal\s+)?(?:periods?|terms?|basis|renewals?)\b", re.IGNORECASE)
_EVERY_UNIT = {"annual": "year", "yearly": "year", "monthly": "month", "weekly": "week"}


def durations_in(text: str) -> list[Period]:
    """The periods ``text`` states (see the module docstring), in order."""
    return [p for p, _, _ in durations_at(" ".join(text.split()))]


def durations_at(text: str) -> list[tuple[Period, int, int]]:
    """The periods ``text`` states with their ``[start, end)`` offsets in ``text`` (as written,
    whitespace not collapsed), in order (issue #44: a playbook rule picks the period nearest its words)."""
    out = []
    for m in _DURATION.finditer(text):
        n = float(m.group(2).replace(",", "")) if m.group(2) else words_to_number(m.group(1))
        if re.search(r"\bhalf\s+$", text[max(0, m.start() - 6):m.start()], re.IGNORECASE):
            n = (n or 0) / 2  # "half a year"
        if n is not None and n > 0:
            out.append((Period(n, m.group(3).lower()), m.start(), m.end()))
    for m in _EVERY.finditer(text):  # "successive annual periods" is one year each
        out.append((Period(1, _EVERY_UNIT[m.group(1).lower()]), m.start(), m.end()))
    return sorted(out, key=lambda x: x[1])


def same_period(a: Period, b: Period) -> bool:
    """The same period, in any unit: equal counts of one unit, or 12 months = 1 year, 7 days = 1
    week, 24 hours = 1 day (exact conversions only; 30 days is not a month)."""
    if a.unit == b.unit:
        return abs(a.count - b.count) < 1e-9
    exact = {("month", "year"): 12, ("day", "week"): 7, ("hour", "day"): 24}
    for (small, big), f in exact.items():
        if (a.unit, b.unit) == (small, big):
            return abs(a.count - f * b.count) < 1e-9
        if (a.unit, b.unit) == (big, small):
            return abs(b.count - f * a.count) < 1e-9
    return False


# --------------------------------------------------------------------------------------- amounts
_CURRENCY = r"(?:US\s?\$|U\.S\.\s?\$|HK\$|\$|USD|EUR|€|£|GBP|CAD|C\$|RMB|¥|RUB|CHF|HKD|INR)"
_MAGNITUDE = r"(?:\s*(million|billion|thousand|m|bn|k)\b)?"
_MONEY = re.compile(rf"{_CURRENCY}\s*(\d[\d,]*(?:\.\d+)?){_MAGNITUDE}"
                    rf"|(\d[\d,]*(?:\.\d+)?){_MAGNITUDE}\s*(?:U\.?S\.?\s+)?(?:dollars|usd|euros?|pounds)\b", re.IGNORECASE)
#: A percentage in figures, with a fraction ("1-1/2%", "1- 1/2%": a keyed dev set read "2%"), or in words.
_PERCENT = re.compile(rf"(?<![\d/])(?:(\d+)(?:\s*-\s*|\s+))?(\d+)/(\d+)\s*(?:%|per\s?cent\b)|(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)"
                      rf"|\b({_NUM_WORD}(?:[\s-]+{_NUM_WORD})*)\s+per\s?cent\b", re.IGNORECASE)


def _percent(m: re.Match[str]) -> float | None:
    """The value of a :data:`_PERCENT` match."""
    if m.group(3):
        return (float(m.group(1)) if m.group(1) else 0.0) + float(m.group(2)) / float(m.group(3)) if float(m.group(3)) else None
    return float(m.group(4)) if m.group(4) else words_to_number(m.group(5))
_MAG = {"million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "thousand": 1e3, "k": 1e3}


#: The currency a sum is written in (its symbol or code as matched) and the symbol it is shown with: "£740,000" is
#: pounds, never "$740,000".
#: A code may run into its figure ("RMB200 million": a tryout showed it as "$40,000,000"), so no word boundary after it.
_CURRENCY_OF = ((re.compile(r"£|\bGBP(?![A-Za-z])|\bpounds?\b", re.IGNORECASE), "GBP", "£"),
                (re.compile(r"€|\bEUR(?![A-Za-z])|\beuros?\b", re.IGNORECASE), "EUR", "€"),
                (re.compile(r"C\$|\bCAD(?![A-Za-z])", re.IGNORECASE), "CAD", "C$"),
                (re.compile(r"HK\$|\bHKD(?![A-Za-z])", re.IGNORECASE), "HKD", "HK$"),
                (re.compile(r"\bRMB(?![A-Za-z])|\b(?:yuan|renminbi)\b", re.IGNORECASE), "CNY", "RMB "),
                (re.compile(r"\bRUB(?![A-Za-z])|\broubles?\b|\brubles?\b", re.IGNORECASE), "RUB", "RUB "),
                (re.compile(r"\bCHF(?![A-Za-z])", re.IGNORECASE), "CHF", "CHF "),
                (re.compile(r"\bINR(?![A-Za-z])", re.IGNORECASE), "INR", "INR "),
                (re.compile(r"¥", re.IGNORECASE), "", "¥"))


def currency_of(written: str) -> tuple[str, str]:
    """``(ISO code, symbol)`` of a sum as written ("£740,000" -> ("GBP", "£")); dollars by default ("$", "USD")."""
    for pattern, code, symbol in _CURRENCY_OF:
        if pattern.search(written):
            return code, symbol
    return "USD", "$"


@dataclass(frozen=True)
class Amount:
    """A sum of money (``kind="money"``, in ``currency``: an ISO code, "" when the symbol names several) or a
    percentage (``kind="percent"``)."""

    value: float
    kind: str
    currency: str = "USD"
    symbol: str = "$"

    def __str__(self) -> str:
        v = int(self.value) if self.value == int(self.value) else self.value
        if self.kind == "percent":
            return f"{v}%"
        if isinstance(v, int) or round(v, 2) != v:
            return f"{self.symbol}{v:,}"
        return f"{self.symbol}{v:,.2f}"  # cents as written: "$0.50", not "$0.5" (a rate of "$4.047" stays as it is)


def _money(m: re.Match[str]) -> Amount:
    num, mag = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    code, symbol = currency_of(m.group(0))
    return Amount(float(num.replace(",", "")) * _MAG.get((mag or "").lower(), 1.0), "money", code, symbol)


def amounts_in(text: str) -> list[Amount]:
    """The sums of money and percentages ``text`` states, in order of kind."""
    t = " ".join(text.split())
    out = []
    for m in _MONEY.finditer(t):
        out.append(_money(m))
    for m in _PERCENT.finditer(t):
        v = _percent(m)
        if v is not None:
            out.append(Amount(v, "percent"))
    return out


#: The unit a sum is a rate of, written after it: "$0.50 per minute", "$10,000 (ten thousand dollars) a month", "$5 for each
#: unit", "$120,000 annually" (a price per pound shown as "$3" alone reads as a lump sum: a new user's tryout, #45).
_RATE = re.compile(r"\)?\s*(?:\([^)]{0,60}\)\s*)?(?:(?P<per>per|a|an|each|every|for\s+each|for\s+every)\s+(?P<unit>(?:calendar\s+|full\s+|"
                   r"contract\s+|business\s+)?[a-z][a-z-]{1,20})\b|(?P<adv>annually|monthly|weekly|daily|hourly|quarterly|per\s+annum|"
                   r"per\s+month|per\s+year))", re.IGNORECASE)
#: Words after "a" / "an" that are no unit ("$500 a party must pay", "$10 an additional").
_NOT_UNIT = frozenset("party parties additional further total maximum minimum fee sum amount payment penalty fine".split())


#: Before a sum: its rate as an adjective of what it pays ("a monthly fee of $1,000", "an annual retainer of $50,000").
_RATE_BEFORE = re.compile(r"\b(monthly|annual|yearly|weekly|quarterly|hourly|daily)\s+(?:[a-z-]+\s+){0,2}?(?:of|equal\s+to)\s+$",
                          re.IGNORECASE)


def rate_unit(text: str, end: int, start: int = -1) -> str:
    """The rate a sum ending at ``text[end]`` (starting at ``start``, when given) is stated in ("per month", "a pound",
    "annually"; before it, "a monthly fee of"), as written; ``""`` for a lump sum."""
    m = _RATE.match(text, end)
    if m is None:
        before = _RATE_BEFORE.search(text[max(0, start - 40):start]) if start >= 0 else None
        return before.group(1).lower() if before else ""
    if m.group("adv"):
        return " ".join(m.group("adv").split())
    unit = m.group("unit").lower()
    if m.group("per").lower() in ("a", "an") and (unit in _NOT_UNIT or unit.endswith("s")):
        return ""
    return " ".join(f"{m.group('per')} {m.group('unit')}".split())


#: A figure with exactly three digits after its one dot ("1.000", "2.500"): a thousands separator in many countries' writing, a
#: decimal point in others; no sum is read from it.
_DOT_THOUSANDS = re.compile(r"[1-9]\d{0,2}\.\d{3}")


def amounts_at(text: str) -> list[tuple[Amount, int, int]]:
    """The sums of money and percentages ``text`` states with their ``[start, end)`` offsets in
    ``text`` (as written), in text order (issue #45: the grid's rule measures how near a value
    sits to the question's words)."""
    out = []
    for m in _MONEY.finditer(text):
        if _DOT_THOUSANDS.fullmatch(m.group(1) or m.group(2) or ""):
            continue  # "$1.000" beside "$1.500" and "$2,000" (a fee table, a keyed dev set read "$1"): one dollar or a thousand, unsure
        out.append((_money(m), m.start(), m.end()))
    for m in _PERCENT.finditer(text):
        v = _percent(m)
        if v is not None:
            out.append((Amount(v, "percent"), m.start(), m.end()))
    return sorted(out, key=lambda x: x[1])


#: Before or after a sum: a share's par value ("par value $0.01 per share", "$0.01 par value per share"), not a sum anyone pays.
_PAR_BEFORE = re.compile(r"\bpar\s+value\s*(?:of\s+)?$", re.IGNORECASE)
_PAR_AFTER = re.compile(r"^\s*par\s+value\b", re.IGNORECASE)
#: After a percentage: a security it names ("8.250% Series A Cumulative Redeemable Preferred Stock", "5.5% Senior Notes").
_SECURITY_AFTER = re.compile(r"^\s*(?:(?:[A-Z][\w-]*\s+){0,6}(?:Stock|Notes?|Bonds?|Debentures?|Shares|Securities|Preferred|Units)\b|"
                             r"Series\s+[A-Z0-9]{1,3}\b)")


def named_amount(text: str, start: int, end: int) -> bool:
    """Is the sum or percentage at ``text[start:end]`` part of a name -- a share's par value, a security's coupon in its
    title -- rather than a value the agreement sets?"""
    return bool(_PAR_BEFORE.search(text[max(0, start - 20):start]) or _PAR_AFTER.match(text[end:end + 20])
                or _SECURITY_AFTER.match(text[end:end + 80]))


# ---------------------------------------------------------------------------------- jurisdictions
_US_STATES = ("Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho "
              "Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi "
              "Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah Vermont Virginia "
              "Washington Wisconsin Wyoming").split() + [
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Rhode Island",
    "South Carolina", "South Dakota", "West Virginia", "District of Columbia", "Puerto Rico"]
_PROVINCES = ["Ontario", "Quebec", "British Columbia", "Alberta", "Manitoba", "Saskatchewan", "Nova Scotia", "New Brunswick",
              "Newfoundland", "Prince Edward Island"]
_COUNTRIES = ["United States", "United States of America", "USA", "U.S.A.", "Canada", "Mexico", "Brazil", "Argentina",
              "Chile", "England", "England and Wales", "Wales", "Scotland", "Northern Ireland", "United Kingdom", "U.K.",
              "Ireland", "France", "Germany", "Netherlands", "The Netherlands", "Belgium", "Luxembourg", "Switzerland",
              "Austria", "Italy", "Spain", "Portugal", "Sweden", "Norway", "Denmark", "Finland", "Poland", "Greece",
              "Israel", "India", "China", "People's Republic of China", "PRC", "Hong Kong", "Taiwan", "Japan", "Korea",
              "Republic of Korea", "Singapore", "Malaysia", "Thailand", "Vietnam", "Philippines", "Indonesia",
              "Australia", "New Zealand", "South Africa", "Cayman Islands", "Bermuda", "British Virgin Islands",
              "Russia", "Russian Federation", "Turkey", "United Arab Emirates", "Saudi Arabia", "Egypt", "Nigeria"]
#: Canonical names for spellings of one jurisdiction.
_CANON = {"united states of america": "United States", "usa": "United States", "u.s.a.": "United States",
          "u.s.": "United States", "us": "United States", "u.k.": "United Kingdom", "uk": "United Kingdom",
          "the netherlands": "Netherlands", "people's republic of china": "China", "prc": "China",
          "republic of korea": "Korea", "russian federation": "Russia", "england and wales": "England"}
#: The US states (and DC, Puerto Rico) the reader knows.
US_STATES: tuple[str, ...] = tuple(_US_STATES)
#: Every jurisdiction the reader knows (US states, Canadian provinces, countries).
JURISDICTIONS: tuple[str, ...] = tuple(_US_STATES + _PROVINCES + _COUNTRIES)
_JUR_RE = re.compile(r"(?<![\w.])(" + "|".join(re.escape(j) for j in sorted(JURISDICTIONS, key=len, reverse=True))
                     + r")(?![\w])")


_JUR_CAPS = re.compile(_JUR_RE.pattern, re.IGNORECASE)
_BY_LOWER = {j.lower(): j for j in JURISDICTIONS}


def _canon(name: str) -> str:
    return _CANON.get(name.lower(), name)


def jurisdictions_in(text: str) -> set[str]:
    """The jurisdictions ``text`` names (canonical names; as written or in capitals, so "georgia" in lower
    case -- not a place name -- is not read). "England and Wales" counts as England and Wales."""
    t = " ".join(text.split())
    found = {_canon(m.group(1)) for m in _JUR_RE.finditer(t)}
    # a name in capitals is still a name ("THE LAWS OF THE STATE OF TEXAS"); lower case is not ("georgia")
    found |= {_canon(_BY_LOWER[m.group(1).lower()]) for m in _JUR_CAPS.finditer(t) if m.group(1).isupper()}
    found |= {DEMONYMS[m.group(1).lower()] for m in _DEMONYM_LAW.finditer(t)}
    if "England" in found and re.search(r"England\s+and\s+Wales", t):
        found.add("Wales")
    return found


#: A law named by its people's adjective ("governed by English law", "Swiss law"): the jurisdiction.
DEMONYMS = {"english": "England", "scottish": "Scotland", "welsh": "Wales", "irish": "Ireland", "german": "Germany",
            "french": "France", "swiss": "Switzerland", "dutch": "Netherlands", "belgian": "Belgium", "austrian": "Austria",
            "italian": "Italy", "spanish": "Spain", "portuguese": "Portugal", "swedish": "Sweden", "danish": "Denmark",
            "norwegian": "Norway", "finnish": "Finland", "israeli": "Israel", "canadian": "Canada", "australian": "Australia",
            "japanese": "Japan", "chinese": "China", "singaporean": "Singapore", "singapore": "Singapore", "indian": "India",
            "mexican": "Mexico", "brazilian": "Brazil", "hong kong": "Hong Kong", "korean": "Korea"}
_DEMONYM_LAW = re.compile(r"\b(" + "|".join(sorted(DEMONYMS, key=len, reverse=True)) + r")\s+law\b", re.IGNORECASE)


#: An arbitral body named after its country ("China International Economic and Trade Arbitration Commission", "Singapore
#: International Arbitration Centre"): the country in its name is the body's, which may sit elsewhere.
ARBITRAL_BODY = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+International\s+(?:(?:[A-Z][a-z]+|and|of)\s+){0,6}"
                           r"(?:Commission|Centre|Center|Court|Association|Chamber|Institute|Council)\b")
#: Where the arbitration sits, as the clause says it: "for arbitration in Beijing", "shall take place in Shanghai", "the seat of
#: arbitration shall be Hong Kong" -- a city or a place, not the language ("conducted in Chinese").
_SEAT = re.compile(r"\b(?:arbitration|arbitrated|take\s+place|held|seated|venue)\s+(?:shall\s+be\s+)?in\s+(?:the\s+[Cc]ity\s+of\s+)?"
                   r"([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)|\bseat\s+of\s+(?:the\s+)?arbitration\s+(?:shall\s+be|is|will\s+be)\s+(?:in\s+)?"
                   r"([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)")
#: Capitalised words after "in" that name no place: a language ("conducted in Chinese"), "in Accordance with".
_NOT_A_PLACE = frozenset(DEMONYMS) | {"mandarin", "cantonese", "russian", "arabic", "hebrew", "chinese", "english", "accordance"}


def arbitration_seat(text: str) -> str | None:
    """The city an arbitration sits in when the clause names its body after a country ("submit the dispute to China
    International Economic and Trade Commission for arbitration in Beijing", two keyed dev sets answered "China"): "Beijing"."""
    if not ARBITRAL_BODY.search(text):
        return None
    for m in _SEAT.finditer(text):
        place = m.group(1) or m.group(2)
        if place.split()[0].lower() not in _NOT_A_PLACE and not jurisdictions_in(place):
            return place
    return None


# --------------------------------------------------------------------------------------- parties
_NAME_FILLER = frozenset("""inc incorporated llc l.l.c ltd limited corp corporation co company plc lp llp sa ag gmbh bv nv
the of and a an""".split())


def name_tokens(name: str) -> set[str]:
    """The distinctive words of a party name, lower case (company-form words dropped)."""
    return {t for t in re.findall(r"[a-z0-9][a-z0-9&'-]*", name.lower()) if t not in _NAME_FILLER and len(t) > 1}


def party_names(answer: str) -> list[str]:
    """The names in a party answer: split on ";", newlines, and " and " between names."""
    parts = re.split(r"\s*(?:;|\n|\band\b(?=\s+[A-Z]))\s*", answer)
    return [p.strip(" ,.") for p in parts if p.strip(" ,.")]


# --------------------------------------------------------------------------------------- checking
_CONTENT = re.compile(r"[a-z0-9]+")
_SMALL = frozenset("a an the of to in on at by for and or is are be this that its their with as from any each "
                   "shall will may".split())


def content_words(text: str) -> list[str]:
    return [w for w in _CONTENT.findall(text.lower()) if w not in _SMALL]


def _words_in(answer: str, quote: str, share: float = 1.0) -> bool:
    words = content_words(answer)
    have = set(content_words(quote))
    stems = {w[:5] for w in have}
    hits = sum(1 for w in words if w in have or w[:5] in stems)
    return bool(words) and hits >= share * len(words)


@dataclass(frozen=True)
class ValueCheck:
    """The typed answer's normal form (``value``) and, when it is not what the quote states, the
    ``reason`` (one sentence for the cell); ``reason`` empty: the value is the quote's."""

    value: str
    reason: str = ""


def _check_periods(answer: str, quote: str) -> ValueCheck | None:
    mine = durations_in(answer)
    if not mine:
        return None
    theirs = durations_in(quote)
    missing = [p for p in mine if not any(same_period(p, q) for q in theirs)]
    if missing:
        said = ", ".join(str(p) for p in theirs) or "no period"
        return ValueCheck(answer, f"the answer's period ({', '.join(map(str, missing))}) is not what the quote states ({said})")
    return ValueCheck(answer)


#: An answer that states no period or date may be a short phrase of the quote of at most this many
#: content words ("perpetual", "upon execution", "until terminated"); longer, it is a copied sentence.
PHRASE_WORDS = 3


def _check_date(a: str, quote: str) -> ValueCheck:
    mine = dates_in(a)
    if mine:
        theirs = dates_in(quote)
        bad = [d for d in mine if d not in theirs]
        if bad:
            said = ", ".join(d.isoformat() for d in theirs) or "no calendar date"
            return ValueCheck(a, f"the answer's date {bad[0].isoformat()} is not in the quote (it states {said})")
        return ValueCheck(mine[0].isoformat() if ONE_DATE.fullmatch(a) else a)
    short = len(content_words(a)) <= PHRASE_WORDS
    return _check_periods(a, quote) or (ValueCheck(a) if short and _words_in(a, quote) else
                                        ValueCheck(a, "the answer is no date the quote states"))


def _check_amount(a: str, quote: str) -> ValueCheck:
    mine, theirs = amounts_in(a), amounts_in(quote)
    if not mine:
        return ValueCheck(a, "the answer states no sum of money or percentage")
    bad = [x for x in mine if not any(x.kind == y.kind and x.currency == y.currency and abs(x.value - y.value) < 1e-6
                                      for y in theirs)]  # "$448,903" is not the quote's "£448,903"
    if bad:
        said = ", ".join(str(y) for y in theirs) or "no amount"
        return ValueCheck(a, f"the answer's amount {bad[0]} is not what the quote states ({said})")
    return ValueCheck(a)


def _check_party(a: str, quote: str) -> ValueCheck:
    names = party_names(a)
    have = name_tokens(quote)
    bad = [n for n in names if not name_tokens(n) or not name_tokens(n) <= have]
    if not names or bad:
        return ValueCheck(a, f"the quote does not name {bad[0] if bad else 'a party'}")
    return ValueCheck("; ".join(names))


def _check_jurisdiction(a: str, quote: str) -> ValueCheck:
    mine, theirs = jurisdictions_in(a), jurisdictions_in(quote)
    if not mine and a.strip() and a.strip() == arbitration_seat(" ".join(quote.split())):
        return ValueCheck(a.strip())  # the city the quote's arbitration sits in ("for arbitration in Beijing")
    if not mine:
        return ValueCheck(a, "the answer names no state or country")
    if not mine <= theirs:
        said = ", ".join(sorted(theirs)) or "no state or country"
        return ValueCheck(a, f"the answer's {', '.join(sorted(mine - theirs))} is not what the quote names ({said})")
    return ValueCheck(", ".join(sorted(mine)))


def check_value(qtype: str, answer: str, quote: str) -> ValueCheck:
    """Is the typed ``answer`` what ``quote`` states? (see the module docstring)."""
    a = " ".join(answer.split()).strip(" .;")
    if qtype == "date":
        return _check_date(a, quote)
    if qtype == "duration":  # no period: a short phrase of the quote ("perpetual", "until terminated")
        short = len(content_words(a)) <= PHRASE_WORDS and not re.search(r"\d", a)
        return _check_periods(a, quote) or (ValueCheck(a) if short and _words_in(a, quote) else
                                            ValueCheck(a, "the answer states no period the quote states"))
    if qtype == "amount":
        return _check_amount(a, quote)
    if qtype == "party":
        return _check_party(a, quote)
    if qtype == "jurisdiction":
        return _check_jurisdiction(a, quote)
    if qtype == "text" and a:
        return _check_text(a, quote)
    return ValueCheck(a)


#: Nouns a contract refers back with ("the country", "such party", "the State"): no value by themselves.
_GENERIC_NOUNS = ("state", "states", "country", "countries", "territory", "province", "jurisdiction", "law", "laws", "court",
                  "courts", "government", "nation", "county", "city", "agreement", "contract", "party", "date", "term", "period")
#: An answer that only refers back: a determiner, at most one more word, a generic noun (or a pronoun alone).
_ANAPHOR = re.compile(r"(?:the|this|that|such|said|its|their|which|whose|same)\s+(?:[a-z][\w-]*\s+)?(?:"
                      + "|".join(_GENERIC_NOUNS) + r")|(?:it|they|them|same|there|here|herein|hereunder|thereunder)", re.IGNORECASE)


def _refers_back(a: str) -> bool:
    return bool(_ANAPHOR.fullmatch(a))


def _check_text(a: str, quote: str) -> ValueCheck:
    if _refers_back(a):
        return ValueCheck(a, f"the answer ({a!r}) only refers back to something and names no value of the quote")
    places, said = jurisdictions_in(a), jurisdictions_in(quote)
    if places and not places <= said:
        return ValueCheck(a, f"the answer's {', '.join(sorted(places - said))} is not a place the quote names "
                             f"({', '.join(sorted(said)) or 'none'})")
    if not _words_in(a, quote, 0.5):
        return ValueCheck(a, "most of the answer's words are not in the quote")
    return ValueCheck(a)


__all__ = ["Amount", "JURISDICTIONS", "ONE_DATE", "Period", "US_STATES", "ValueCheck", "amounts_at", "amounts_in", "check_value", "dates_in",
           "durations_at", "durations_in", "jurisdictions_in", "name_tokens", "parse_date", "party_names", "same_period", "words_to_number"]
