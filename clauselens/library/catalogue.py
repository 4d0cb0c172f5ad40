"""The library's catalogue: one :class:`AgreementRecord` per agreement, built from the
Archivist's parse (title, parties, effective date, type, amendments) plus the short names
the preamble defines (``(hereinafter referred to as "MediWound")``, ``(the "Buyer")``).

The record is what the resolver (:mod:`clauselens.library.resolver`) matches a question
against and what ``clauselens library list`` shows. :func:`resolution_profile` is the text
the resolver indexes for an agreement; it never contains the file name unless asked
(``with_file_name=True``), so a benchmark can report resolution with and without that
signal (issue #17: on LegalBench-RAG the file names repeat the parties the queries name).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Sequence

from pydantic import BaseModel, Field

from clauselens.parsing.metadata import parse_date
from clauselens.parsing.types import Document
from clauselens.retrieval.concept_absence import FRAME_STEMS
from clauselens.retrieval.lay_terms import content_stems

#: Defined terms that name no agreement or party (never used as short names).
GENERIC_TERMS = frozenset({
    "agreement", "this agreement", "the agreement", "effective date", "amendment", "amendment effective date",
    "party", "parties", "parties hereto", "each party", "execution date", "commencement date", "signing date",
    "closing date", "contract", "letter", "side letter", "term", "recitals", "schedule", "exhibit",
})
#: The opening characters treated as the preamble when the tree has no preamble node.
PREAMBLE_CHARS = 3000
#: Characters of a distinctive-name vocabulary kept per agreement in its profile.
NAMES_CHARS = 20000
#: Where the recitals begin: terms defined after this ("the "Product"", "the "Klein
#: Agreement"") are the deal's subject matter, not names of the parties.
_RECITALS = re.compile(r"\b(?:RECITALS|Recitals|WHEREAS|Whereas|BACKGROUND|Background:|NOW,? THEREFORE)\b")
#: Version of how records are derived from a parse; ``Library.add`` re-indexes an unchanged
#: file whose record is older (2: short names stop at the recitals; 3: party names from long
#: defining parentheses, lower-case brands, a second party after "and"; 4: lettered items "A." / "a."
#: are clause-tree levels, and a clause's lead-in before its sub-clauses is a passage; 5: definitions
#: written without quotation marks at a line start, "1.10 INTELLECTUAL PROPERTY shall mean", are recorded;
#: 6: a clause whose first line ends in a page number is no table-of-contents line, so its number is kept,
#: ``parsing.tree.TOC_MAX_CHARS``).
RECORD_FORMAT = 6
_CAP_WORD = re.compile(r"(?<![\w.])([A-Z][A-Za-z0-9]*(?:[-'’][A-Za-z0-9]+)*)")


class AgreementRecord(BaseModel):
    """One agreement in a library (what ``library list`` prints and filters use)."""

    doc_id: str
    path: str
    sha256: str
    title: str | None = None
    parties: list[str] = Field(default_factory=list)
    #: Each party's defined short names (``Document.party_aliases``), for the report's party check.
    #: Empty in a record written before they were read: such a library opens as it is (no re-index;
    #: :data:`RECORD_FORMAT` is not raised for it), and its agreements get aliases when re-added.
    party_aliases: dict[str, list[str]] = Field(default_factory=dict)
    short_names: list[str] = Field(default_factory=list)
    date: str | None = None
    year: int | None = None
    doc_type: str = "agreement"
    amends: list[str] = Field(default_factory=list)
    pages: int = 0
    chars: int = 0
    clauses: int = 0
    defined_terms: int = 0
    passages: int = 0
    added_utc: str = ""
    warnings: list[str] = Field(default_factory=list)
    #: Analysed first words of its clause headings ("insur" for "Insurance", "audit" for
    #: "Audit Rights"): the clause topics it has (see :func:`heading_topic_words`).
    topics: list[str] | None = None  # None: not computed (a library written before topics existed)
    #: The first two analysed words of its clause headings, "forc majeur" for "Force Majeure",
    #: "limit liabil" for "Limitation of Liability" (see :func:`heading_topic_words`).
    topic_pairs: list[str] | None = None  # None: not computed (a library written before pairs existed)
    record_format: int = 1  # records written before RECORD_FORMAT existed read as 1

    @property
    def kind(self) -> str:
        """What kind of agreement, from its title: the up to three words before its first
        "agreement" ("TRANSPORTATION SERVICE AGREEMENT UNDER RATE SCHEDULE FTS" -> "transportation
        service agreement"); the coarse :attr:`doc_type` for amendments and other instruments, or
        when the title names no kind."""
        m = re.search(r"((?:[\w&'-]+\s+){0,3})agreement\b", self.title or "", re.IGNORECASE)
        if self.doc_type != "agreement" or not m or not m.group(1).strip():
            return self.doc_type
        words = m.group(1).split()
        while words and (words[0].lower() in {"and", "of", "the", "this", "a", "an", "to", "for"}
                         or not words[0][0].isalpha() or words[0].endswith(",")):
            words = words[1:]  # "... LLC and PREMIER NUTRITION CORPORATION MANUFACTURING AGREEMENT" keeps the kind only
        cut = max((i + 1 for i, w in enumerate(words) if w.endswith(",") or w.lower() in {"llc", "inc", "inc.", "ltd", "corporation"}),
                  default=0)
        words = words[cut:]
        return " ".join([*(w.lower() for w in words), "agreement"])

    @property
    def label(self) -> str:
        """``"Supply Agreement — MediWound Ltd. / Challenge Bioproducts Corporation Ltd. (2010)"``."""
        who = " / ".join(self.parties[:3])
        bits = [self.title or Path(self.path).name]
        if who:
            bits.append(who)
        s = " — ".join(bits)
        return f"{s} ({self.year})" if self.year else s


def preamble_end(doc: Document) -> int:
    """Offset where the preamble (parties, recitals) ends: the start of the first numbered
    clause, or :data:`PREAMBLE_CHARS`, whichever is smaller (at least 600 characters)."""
    first = next((n.span.start for n in doc.nodes if n.ref and n.kind != "root"), len(doc.text))
    return max(600, min(first, PREAMBLE_CHARS))


def short_names(doc: Document) -> list[str]:
    """Names the preamble defines for the parties or the agreement (``"MediWound"``,
    ``"CBC"``, ``"Buyer"``), in order, generic ones (``"Agreement"``, ``"Effective Date"``)
    left out, and so are terms the recitals define (``"Product"``): once an agreement is
    resolved its short names are left out of the ranking query, and a subject-matter word
    must stay in it."""
    end = preamble_end(doc)
    rec = _RECITALS.search(doc.text, 0, end)
    if rec is not None and rec.start() > 0:
        end = rec.start()
    out: list[str] = []
    for term, dt in sorted(doc.defined_terms.items(), key=lambda kv: kv[1].span.start):
        low = term.lower()
        if dt.span.start >= end or low in GENERIC_TERMS or low.endswith(" date") or len(term) > 60:
            continue
        if term not in out:
            out.append(term)
    return out[:12]


_HEAD_NUMBER = re.compile(r"^\s*(?:article|section|clause|schedule|exhibit|annex|appendix|paragraph)?\s*"
                          r"[\dIVXivx.()a-z]*\d[\d.()a-z]*\.?\s*", re.IGNORECASE)


def heading_topic_words(headings: Iterable[str], tokenize: Callable[[str], list[str]]) -> tuple[list[str], list[str]]:
    """The clause topics of some headings or labels, in one pass (numbers dropped), sorted: the first
    analysed word of each (``"8.1 Insurance Requirements"`` gives ``"insur"``) and its first two joined
    by a space (``"12. Force Majeure"`` gives ``"forc majeur"``, ``"Limitation of Liability"``
    ``"limit liabil"``: stopwords are not words here). Across a library, the share of agreements with
    a topic says whether it is a standard clause topic."""
    words: set[str] = set()
    pairs: set[str] = set()
    for h in headings:
        toks = [t for t in tokenize(_HEAD_NUMBER.sub("", h or "")) if not any(c.isdigit() for c in t)]
        if toks:
            words.add(toks[0])
        if len(toks) >= 2:
            pairs.add(f"{toks[0]} {toks[1]}")
    return sorted(words), sorted(pairs)


def make_record(doc: Document, *, passages: int = 0, topics: Sequence[str] = (),
                topic_pairs: Sequence[str] = ()) -> AgreementRecord:
    """The catalogue record of a parsed ``doc``."""
    d = parse_date(doc.effective_date)
    year = d.year if d else None
    if year is None:  # "11 day of January, 2001": a year in the preamble is still a good signal
        m = re.search(r"\b(19[5-9]\d|20[0-4]\d)\b", doc.text[: preamble_end(doc)])
        year = int(m.group(1)) if m else None
    return AgreementRecord(
        doc_id=doc.id, path=doc.source_path, sha256=doc.sha256, title=doc.title, parties=list(doc.parties),
        party_aliases={k: list(v) for k, v in doc.party_aliases.items()}, short_names=short_names(doc),
        date=doc.effective_date, year=year, doc_type=doc.doc_type,
        amends=list(doc.amends), pages=len(doc.pages), chars=len(doc.text),
        clauses=sum(1 for n in doc.nodes if n.ref), defined_terms=len(doc.defined_terms), passages=passages,
        added_utc=datetime.now(timezone.utc).isoformat(timespec="seconds"), warnings=list(doc.warnings),
        topics=sorted(topics), topic_pairs=sorted(topic_pairs), record_format=RECORD_FORMAT,
    )


#: Words kept in a question even when an agreement's name contains them.
_KEEP_WORDS = frozenset({"the", "of", "and", "for", "to", "in", "on", "a", "an", "agreement", "ltd", "inc", "co", "corp",
                         "corporation", "limited", "company", "llc", "plc", "lp", "sa", "ag", "gmbh"})


#: Initials joined by "&" ("B & C General Warehouse", "AT & T"): one name, however it is spaced.
_INITIALISM = re.compile(r"(?<![\w&])([A-Za-z]{1,3})\s*&\s*([A-Za-z]{1,3})(?![\w&])")


def join_initialisms(text: str) -> str:
    """``text`` with initials joined by an ampersand written without spaces ("B & C" -> "B&C"), so
    a party printed "B & C General Warehouse" and a question's "B&C" name the same word."""
    return _INITIALISM.sub(lambda m: f"{m.group(1)}&{m.group(2)}", text)


def naming_words(record: AgreementRecord) -> set[str]:
    """Lower-cased words of an agreement's parties, short names and title: once the
    agreement is resolved they only say *which* agreement, and left in the ranking query they
    pull every clause that repeats a party name (measured on the dev set: see README)."""
    return _words([*record.parties, *record.short_names, record.title or ""])


def party_words(record: AgreementRecord) -> set[str]:
    """Lower-cased words of an agreement's parties and of the short names that abbreviate a party
    ("Heritage" for "Stremicks Heritage Foods, LLC", "CBC" for "Challenge Bioproducts Corporation
    Ltd."): what names the agreement, without the title's words ("AUTOMOTIVE REFINISH DISTRIBUTOR
    AGREEMENT" describes it) or the roles and terms a record's short names also hold ("Company",
    "Distributor", "Territory")."""
    names = list(record.parties)
    aliases = [a for al in record.party_aliases.values() for a in al] + list(record.short_names)
    names += [a for a in dict.fromkeys(aliases) if any(_abbreviates(a, p) for p in record.parties)]
    return _words(names)


def _abbreviates(alias: str, party: str) -> bool:
    """Whether ``alias`` is made of ``party``'s own words ("MG Capital", "Premier") or its initials
    ("HSNS" for "High Speed Net Solutions, Inc.")."""
    words = re.findall(r"[A-Za-z0-9]+", join_initialisms(party).replace("&", ""))
    own = {w.lower() for w in words}
    mine = re.findall(r"[A-Za-z0-9]+", alias.replace("&", ""))
    if mine and all(w.lower() in own for w in mine):
        return True
    initials = "".join(w[0] for w in words).lower()
    return len(alias) > 1 and alias.isalpha() and alias.isupper() and initials.startswith(alias.lower())


def _words(names: list[str]) -> set[str]:
    out: set[str] = set()
    for name in names:
        name = join_initialisms(name)
        for w in re.findall(r"[A-Za-z][\w.&'-]*", name):
            w = w.lower().strip(".'")
            # "theglobe.com" is asked about as "theglobe" too
            for x in {w, *(p for p in w.split(".") if len(p) > 2)}:
                if x and x not in _KEEP_WORDS:
                    out.add(x)
    return out


#: A capitalised word of a question; a sentence's first word only with a second capital ("KazakhOil").
_QUESTION_NAME = re.compile(r"(?<![\w.])([A-Z][\w&-]*)")
_INNER_CAPITAL = re.compile(r".[\w&-]*[A-Z]")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+|\(\s*)$")
#: Quoted text: double quotes, or single quotes that open a word (an apostrophe inside "Ogle's" quotes nothing).
_QUOTED_TEXT = re.compile(r"[\"“][^\"”]{1,80}[\"”]|(?<!\w)['‘][^'’]{1,80}['’](?!\w)")


def profile_front(profile: str) -> str:
    """A :func:`resolution_profile` without its last field, the agreement-wide vocabulary of
    capitalised names (one lower-cased line): the title, parties and preamble -- where an
    agreement names its parties, not what its clauses are about."""
    head, _, last = profile.rpartition("\n")
    return head if head and last == last.lower() else profile


def question_names(question: str) -> list[str]:
    """The capitalised words of ``question`` outside quotation marks (a quoted term is what is
    asked about): the candidates for names of the agreement's parties that its record missed (a
    preamble the parser did not read as parties: "JSC NOC KazakhOil"). A sentence's first word
    counts only when it has a second capital ("KazakhOil", not "Does")."""
    text = _QUOTED_TEXT.sub(lambda m: " " * len(m.group(0)), question)
    out = []
    for m in _QUESTION_NAME.finditer(text):
        w = m.group(1)
        if _SENTENCE_START.search(text[: m.start()]) and not _INNER_CAPITAL.match(w):
            continue
        out.append(w)
    return out


_COMPOUND_SPLIT = re.compile(r"[-‐–—/]")


def strip_naming_words(question: str, words: set[str]) -> str:
    """``question`` without the words in ``words`` (compared lower-cased, punctuation
    trimmed; a compound of naming words joined by hyphens, dashes or slashes --
    "Purolator-Dynamex", "IMPCO/Minda" -- goes too); the question unchanged when nothing would
    be left, or only a question's frame (:data:`~clauselens.retrieval.concept_absence.FRAME_STEMS`: "What does the Movado
    agreement say about Sarbanes-Oxley?" when the Act, cited in a recital, was read as naming the agreement)."""
    def naming(w: str) -> bool:
        w = w.strip(",.?;:!'\"()/").lower().removesuffix("'s").removesuffix("’s")
        if w in words:
            return True
        parts = [x.strip(".'") for x in _COMPOUND_SPLIT.split(w)]
        return len(parts) > 1 and all(x in words for x in parts if x) and any(parts)

    kept = [w for w in question.split() if not naming(w)]
    return " ".join(kept) if set(content_stems(" ".join(kept))) - FRAME_STEMS else question  # "what does the agreement say about"


def name_vocabulary(text: str, limit: int = NAMES_CHARS) -> str:
    """Each distinct capitalised word of ``text`` once (``"Bromelain Consensi Crockett ..."``):
    the proper names and defined terms that tell one agreement from another, without the
    term frequencies of a long contract drowning the preamble."""
    seen: dict[str, None] = {}
    for m in _CAP_WORD.finditer(text):
        w = m.group(1)
        if len(w) > 1 and w.lower() not in seen:
            seen[w.lower()] = None
    s = " ".join(seen)
    return s[:limit]


def resolution_profile(doc: Document, record: AgreementRecord, *, with_file_name: bool = False) -> str:
    """The text the resolver indexes for one agreement: title, parties and short names
    (repeated, so they outweigh passing mentions), type, year, the preamble and the
    agreement's vocabulary of capitalised names. The file name only with ``with_file_name``."""
    head = [record.title or "", " ; ".join(record.parties), " ; ".join(record.short_names)]
    fields = head + head + [record.doc_type, str(record.year or ""), " ".join(record.amends[:1])]
    if with_file_name and record.path:
        fields.append(Path(record.path).stem.replace("_", " ").replace("-", " "))
    fields.append(doc.text[: preamble_end(doc)])
    fields.append(name_vocabulary(doc.text))
    return "\n".join(f for f in fields if f)


__all__ = ["AgreementRecord", "heading_topic_words", "join_initialisms", "make_record", "name_vocabulary", "naming_words", "party_words",
           "profile_front", "question_names", "strip_naming_words", "preamble_end", "resolution_profile", "short_names"]
