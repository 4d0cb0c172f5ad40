"""Dates as contracts write them: read as calendar dates (:func:`parse_date`) and shown as written (:func:`shown_date`).
The patterns that find them in a preamble live in :mod:`clauselens.parsing.metadata`."""

from __future__ import annotations

import datetime as dt
import re

MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december"]
ORDINAL_WORDS = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth",
]
ORDINAL_WORDS += [f"twenty-{w}" for w in ORDINAL_WORDS[:9]] + ["thirtieth", "thirty-first"]


def parse_date(s: str | None) -> dt.date | None:
    """A :data:`DATE_RE` string (``"May 3,2006"``, ``"1st day of January, 1996"``,
    ``"first day of July, 2017"``, ``"Sept 29, 2004"``, ``"2012-05-01"``) as a date, or
    ``None`` when ``s`` is empty or not such a date (including impossible dates)."""
    if not s:
        return None
    s = " ".join(s.split()).lower()
    try:
        iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s)
        if iso:
            return dt.date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        year = re.search(r"(\d{4})\s*$", s)
        month = next((i + 1 for i, mn in enumerate(MONTH_NAMES) if re.search(rf"\b{mn[:3]}", s)), None)
        if not year or not month:
            return None
        s2 = re.sub(r"(\d)([snrt])\s?([tdh])\b", r"\1\2\3", s[:year.start()])  # "19t h", "1s t": a text layer's split ordinal
        dm = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\b", s2)
        if dm:
            day = int(dm.group(1))
        else:
            word = next((w for w in sorted(ORDINAL_WORDS, key=len, reverse=True) if w in s2), None)
            if word is None:
                return None
            day = ORDINAL_WORDS.index(word) + 1
        return dt.date(int(year.group(1)), month, day)
    except ValueError:
        return None


def shown_date(date: str) -> str:
    """A date as written (the metadata keeps it verbatim) for a header or a listing: whitespace collapsed and a text layer's
    split ordinal joined ("20t h day of January" -> "20th day of January"; a new user's tryout saw the split form in every
    report header)."""
    return re.sub(r"\b(\d{1,2})([snrt])\s([tdh])\b", r"\1\2\3", " ".join(date.split()))


__all__ = ["MONTH_NAMES", "ORDINAL_WORDS", "parse_date", "shown_date"]
