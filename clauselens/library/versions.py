"""Version precedence inside one library (issue #17, item 6): when an amendment in the
library amends clause X of an agreement in the library, answers show the amendment's
operative text and date before the superseded clause, and say so in ``Passage.notes``.

**Linking.** Each record of type ``"amendment"`` is linked to the agreement it amends among
the library's *non-amendment* records (an amendment's clause numbers refer to the base
agreement, never to an earlier amendment, so amendments are not candidates). A candidate
needs both

* *party evidence*: one of its parties (names compared lower-cased, punctuation, ``'s`` and
  corporate suffixes such as Inc./LLC/Corporation/Company dropped; a name of two words or
  more may be contained in the other) is a party of the amendment or, for a name of two
  words or more, is named in the amendment's opening text (Glu Mobile's Amendment No. 3 is
  between Fox Mobile Entertainment and Glu, and names "Twentieth Century Fox Film
  Corporation", a party of the base agreement); a shared distinctive short name ("FASC",
  not "Licensee") only counts together with a date match; and
* *document evidence*: the base agreement's name from ``amends[0]`` ("Manufacturing
  Agreement dated September 30, 2011") fits the candidate's title (its words other than
  "agreement"/"the"/... are all title words), or the candidate's title is named in the
  amendment's opening text, or the candidate's date equals the base date ``amends[0]``
  gives (else a date printed in the amendment's opening text other than its own).

Candidates are scored (parties 2 each, up to 3; distinctive short names 0.5 each, up to 2;
name 3; date 3; a base date that contradicts the candidate's date -3; a candidate dated
after the amendment is out). The best one is linked when it leads the next by more than 1
point; otherwise the amendment stays unlinked ("unsure"), and so does one with no
qualifying candidate. Links are computed once per catalogue generation
(``library.catalogue.generation()``) and cached per :class:`~clauselens.library.library.Library` object, so a search
after the first costs a generation lookup and dict lookups.

**Amended clauses** are those ``amends[1:]`` names (``amends[0]`` when it is itself a clause
reference: the parser found no base name), plus ``remove/delete/replace/amend ... Section X``
and ``Section X ... is removed/...`` phrases the parser's list misses. A clause number is
compared through :func:`~clauselens.library.passages.ref_key` ("Section 8.02" -> ``8.2``);
an amended clause covers its sub-clauses ("Section 2" covers ``2(o)(i)``, "2.1" covers
``2.1(a)``); "Exhibit A" / "Schedule C" compare with the passage's clause number or a
heading starting with that label.

**Operative passages** of an amendment for a clause: among its passages that name the
clause (``rows_containing`` + a regex on the clause number; "Section 4" is not "Section 4.2"
or "Section 40", and a mention followed by "of this Amendment" does not count), the first
with the surest mention: an operative sentence ("Section 2.1 of the Agreement is hereby
amended", "remove Section 2(c)") before an amending verb within reach, before a bare
mention; a mention inside a recital ("WHEREAS ... Exhibit A ... were amended") counts as
bare. When that sentence ends the passage with a colon ("... replaced with the following:")
and names no other clause after it, the next passage (the new text) is taken too.

**Result length.** :func:`apply_versions` never drops or reorders the caller's passages
except that an operative passage already in the list after the base passage moves up to
just before it. It inserts at most :data:`MAX_INSERTED` new operative passages per call
(method ``"version"``), so a result can hold up to that many passages more than the ``k``
asked for; ``Library.search`` does not cut again (a superseded clause without its operative
text would be the wrong answer).

Party names and clause references (the helpers of linking and of amended clauses) are
:mod:`clauselens.library.amendment_refs` (split by concern, issue #43; re-exported here).
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Sequence

from clauselens.library.amendment_refs import (
    KIND,
    NAME_STOP,
    NOT_OWN,
    REF_WRITTEN,
    SCAN,
    VERB,
    ancestors,
    clause_keys,
    distinctive_short,
    norm_party,
    norm_text,
    passage_keys,
    ref_pattern,
    same_party,
    split_base,
    title_words,
)
from clauselens.library.catalogue import AgreementRecord
from clauselens.library.parts import LibraryParts
from clauselens.parsing.metadata import DATE_RE, parse_date
from clauselens.parsing.types import Chunk
from clauselens.retrieval.types import Passage

#: ``datetime.date`` by another name: in AmendmentLink's body its field ``date`` hides the type.
_Date = date

#: New operative passages one :func:`apply_versions` call inserts at most.
MAX_INSERTED = 4
#: Operative passages taken per (amendment, clause): the naming passage and its continuation.
MAX_PER_CLAUSE = 2
#: Characters of an amendment's opening passages searched for party names, titles and dates.
OPENING_CHARS = 4000
#: A link needs the best candidate to lead the next one by more than this many points.
MARGIN = 1.0

# ------------------------------------------------------------------ links
@dataclass(frozen=True)
class AmendmentLink:
    """An amendment linked to the agreement it amends."""

    amendment: str
    base: str
    #: ``(as written, clause keys)`` of every clause it amends, in order of mention.
    clauses: tuple[tuple[str, frozenset[str]], ...]
    title: str
    base_title: str
    date: str | None
    when: _Date | None
    score: float
    evidence: tuple[str, ...]


@dataclass
class VersionIndex:
    """The links of one catalogue generation, and the operative rows found so far."""

    generation: int
    links: dict[str, AmendmentLink] = field(default_factory=dict)
    #: base doc id -> its links, latest amendment first.
    by_base: dict[str, list[AmendmentLink]] = field(default_factory=dict)
    #: amendment doc id -> why it is not linked.
    unlinked: dict[str, str] = field(default_factory=dict)
    operative: dict[tuple[str, str], list[Chunk]] = field(default_factory=dict)
    rows: dict[str, list[int]] = field(default_factory=dict)


_CACHE: "weakref.WeakKeyDictionary[Any, VersionIndex]" = weakref.WeakKeyDictionary()


def _label(rec: AgreementRecord) -> str:
    return " ".join((rec.title or Path(rec.path).stem).split())


@dataclass
class _Candidate:
    rec: AgreementRecord
    parties: list[str]
    short: set[str]
    title_tokens: set[str]
    title_norm: str
    when: date | None


def _opening(passages: Sequence[Any]) -> str:
    out, n = [], 0
    for c in passages:
        out.append(c.text)
        n += len(c.text)
        if n >= OPENING_CHARS:
            break
    return "\n".join(out)[:OPENING_CHARS]


def amended_clauses(rec: AgreementRecord, texts: Sequence[str]) -> list[str]:
    """The clauses an amendment amends, as written: ``amends[1:]`` (all of ``amends`` when
    ``amends[0]`` is a clause reference), then the ones :data:`SCAN` finds in ``texts``."""
    listed = list(rec.amends)
    if listed and split_base(listed[0]) != (None, None):
        listed = listed[1:]
    out: list[str] = []
    seen: set[frozenset[str]] = set()
    found = [" ".join((m.group(1) or m.group(2)).split()) for t in texts for m in SCAN.finditer(t)]
    for w in [*listed, *found]:
        w = w.rstrip(".")
        w = w[0].upper() + w[1:] if w else w
        keys = frozenset(clause_keys(w))
        if keys and keys not in seen and REF_WRITTEN.match(w):
            seen.add(keys)
            out.append(w)
    return out


def _subseqs(name: str) -> list[str]:
    """Every run of two words or more of a normalised name (for contained-name lookups)."""
    w = name.split()
    return [" ".join(w[i:j]) for i in range(len(w)) for j in range(i + 2, len(w) + 1)]


def _link_one(amd: AgreementRecord, opening: str, cands: list[_Candidate], by_party: dict[str, set[int]],
              by_sub: dict[str, set[int]], by_short: dict[str, set[int]]) -> tuple[_Candidate | None, float, list[str], str]:
    """The base of one amendment: ``(candidate, score, evidence, reason)``."""
    a_when = parse_date(amd.date) if amd.date else None
    a_year = amd.year
    a_parties = [p for p in (norm_party(x) for x in amd.parties) if p]
    a_short = distinctive_short(amd.short_names)
    open_norm = f" {norm_text(opening)} "
    base_name, base_date = split_base(amd.amends[0]) if amd.amends else (None, None)
    want_when = parse_date(base_date) if base_date else None
    opening_dates = set()
    if want_when is None:
        for m in DATE_RE.finditer(opening):
            d = parse_date(m.group(0))
            if d and d != a_when:
                opening_dates.add(d)
    name_tokens = (title_words(base_name) - NAME_STOP) if base_name else set()
    name_tokens = {t for t in name_tokens if not t.isdigit()}

    # which candidates share a party or a short name, or are named in the opening text
    pool: set[int] = set()
    for p in a_parties:
        pool |= by_party.get(p, set())
    for s in a_short:
        pool |= by_short.get(s, set())
    for p in a_parties:  # contained names, both ways ("columbia laboratories" / "columbia laboratories bermuda")
        pool |= by_sub.get(p, set())
        for sub in _subseqs(p):
            pool |= by_party.get(sub, set())
    words = open_norm.split()
    for n in range(1, 9):
        for i in range(len(words) - n + 1):
            pool |= by_party.get(" ".join(words[i:i + n]), set())

    scored: list[tuple[float, int, list[str]]] = []
    for i in sorted(pool):
        c = cands[i]
        if c.rec.doc_id == amd.doc_id:
            continue
        if a_year and c.rec.year and c.rec.year > a_year:
            continue
        ev: list[str] = []
        party = sum(1 for q in c.parties if any(same_party(p, q) for p in a_parties)
                    or (len(q.split()) >= 2 and f" {q} " in open_norm))
        short = len(a_short & c.short)
        name = bool(name_tokens) and name_tokens <= c.title_tokens
        if not name and len(c.title_norm.split()) >= 2 and f" {c.title_norm} " in open_norm:
            name = True
        date_ok = bool(c.when) and (c.when == want_when if want_when else c.when in opening_dates)
        mismatch = bool(want_when and c.when and c.when != want_when)
        if party:
            ev.append(f"parties:{party}")
        if short:
            ev.append(f"short_names:{short}")
        if name:
            ev.append("name")
        if date_ok:
            ev.append("date")
        if mismatch:
            ev.append("date_mismatch")
        if not (party or (short and date_ok)) or not (name or date_ok):
            continue
        score = 2 * min(party, 3) + 0.5 * min(short, 2) + 3 * name + 3 * date_ok - 3 * mismatch
        scored.append((score, i, ev))
    if not scored:
        return None, 0.0, [], "no agreement in the library with the same parties and a matching name or date"
    scored.sort(key=lambda x: -x[0])
    best = scored[0]
    if len(scored) > 1 and scored[1][0] >= best[0] - MARGIN:
        other = cands[scored[1][1]].rec.doc_id
        return None, best[0], best[2], f"unsure: {cands[best[1]].rec.doc_id} ({best[0]}) vs {other} ({scored[1][0]})"
    return cands[best[1]], best[0], best[2], "linked"


def build_index(library: LibraryParts) -> VersionIndex:
    """Link every amendment in ``library`` to its base agreement (see the module docstring)."""
    cat = library.catalogue
    idx = VersionIndex(generation=cat.generation())
    recs = library.agreements()
    amendments = [r for r in recs if r.doc_type == "amendment"]
    if not amendments:
        return idx
    cands: list[_Candidate] = []
    by_party: dict[str, set[int]] = {}
    by_sub: dict[str, set[int]] = {}
    by_short: dict[str, set[int]] = {}
    for r in recs:
        if r.doc_type == "amendment":
            continue
        c = _Candidate(rec=r, parties=[p for p in (norm_party(x) for x in r.parties) if p],
                       short=distinctive_short(r.short_names), title_tokens=title_words(r.title or ""),
                       title_norm=norm_text(r.title or ""), when=parse_date(r.date) if r.date else None)
        i = len(cands)
        cands.append(c)
        for p in c.parties:
            by_party.setdefault(p, set()).add(i)
            for sub in _subseqs(p):
                by_sub.setdefault(sub, set()).add(i)
        for s in c.short:
            by_short.setdefault(s, set()).add(i)
    for amd in amendments:
        rows = [int(x) for x in cat.rows_of([amd.doc_id])]
        chunks = cat.passages(rows)
        idx.rows[amd.doc_id] = rows
        base, score, ev, reason = _link_one(amd, _opening(chunks), cands, by_party, by_sub, by_short)
        if base is None:
            idx.unlinked[amd.doc_id] = reason
            continue
        clauses = tuple((w, frozenset(clause_keys(w))) for w in amended_clauses(amd, [c.text for c in chunks]))
        link = AmendmentLink(amendment=amd.doc_id, base=base.rec.doc_id, clauses=clauses, title=_label(amd),
                             base_title=_label(base.rec), date=amd.date, when=parse_date(amd.date) if amd.date else None, score=score,
                             evidence=tuple(ev))
        idx.links[amd.doc_id] = link
        idx.by_base.setdefault(link.base, []).append(link)
    for links in idx.by_base.values():
        links.sort(key=lambda lk: (lk.when is not None, lk.when or date.min), reverse=True)
    return idx


def version_index(library: LibraryParts) -> VersionIndex:
    """The library's :class:`VersionIndex` for its current catalogue generation (cached)."""
    gen = library.catalogue.generation()
    idx = _CACHE.get(library)
    if idx is None or idx.generation != gen:
        idx = build_index(library)
        _CACHE[library] = idx
    return idx


def links(library: LibraryParts) -> dict[str, str]:
    """Amendment doc id -> the doc id of the agreement it amends (linked ones only)."""
    return {a: lk.base for a, lk in version_index(library).links.items()}


# ------------------------------------------------------------------ operative passages
def _mention_tier(text: str, m: "re.Match[str]") -> int:
    """How surely the mention ``m`` of a clause in an amendment's ``text`` is the amending
    sentence: 0 operative ("Section 4 ... is hereby deleted", "remove Section 2(c)"), 1 an
    amending verb in reach, 2 a mere mention (or one inside a recital, "WHEREAS ...")."""
    cut = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start()), text.rfind(";", 0, m.start()))
    sentence_head = text[cut + 1:m.start()]
    if _RECITAL.search(sentence_head):
        return 2
    after = text[m.end():m.end() + 200]
    head = text[max(0, m.start() - 80):m.start()]
    if _OPERATIVE_AFTER.match(after) or _OPERATIVE_BEFORE.search(head):
        return 0
    if _VERB_AFTER.match(after) or _VERB_BEFORE.search(head):
        return 1
    return 2


_RECITAL = re.compile(r"\b(?:whereas|recitals?)\b", re.IGNORECASE)
_OPERATIVE_AFTER = re.compile(
    r"[^.;]{0,120}?\b(?:is|are|shall\s+be)\b(?:\s*,?\s*and\s+here\s?by\s+(?:is|are)\s*,?)?\s+(?:hereby\s+)?"
    r"(?:amended|deleted|replaced|restated|supplemented|modified|removed)\b", re.IGNORECASE)
_OPERATIVE_BEFORE = re.compile(
    r"\b(?:remove|delete|replace|amend|restate|supplement|modify)\s+(?:the\s+)?(?:in\s+its\s+entirety\s+)?$", re.IGNORECASE)
_VERB_AFTER = re.compile(r"[^.;]{0,160}?\b" + VERB)
_VERB_BEFORE = re.compile(r"\b" + VERB + r"\s+(?:\w+\s+){0,5}?$")
_OTHER_REF = re.compile(rf"\b(?i:{KIND})s?\s+(?:\d|[A-Z]\b)")


def operative_passages(library: LibraryParts, idx: VersionIndex, link: AmendmentLink, written: str) -> list[Chunk]:
    """The passages of ``link.amendment`` that amend clause ``written`` (see the module
    docstring): the first passage with the surest mention (:func:`_mention_tier`), and the
    passage after it when the amending sentence is the passage's last and ends with a colon
    ("... replaced with the following:"). Cached in ``idx``."""
    key = (link.amendment, written)
    if key in idx.operative:
        return idx.operative[key]
    out: list[int] = []
    found = ref_pattern(written)
    if found is not None:
        literal, pat = found
        own = re.compile(NOT_OWN)
        best: tuple[int, int, str, int] | None = None  # (tier, order, text, end of mention)
        for order, (row, text) in enumerate(library.catalogue.rows_containing(link.amendment, literal)):
            for m in pat.finditer(text):
                if not own.match(text, m.end()):
                    continue
                tier = _mention_tier(text, m)
                if best is None or tier < best[0]:
                    best = (tier, order, text, m.end())
                    out = [row]
            if best is not None and best[0] == 0:
                break
        if best is not None:
            rows = idx.rows.get(link.amendment) or [int(x) for x in library.catalogue.rows_of([link.amendment])]
            _, _, text, end = best
            if text.rstrip().endswith(":") and not _OTHER_REF.search(text, end) and out[0] in rows:
                i = rows.index(out[0])
                if i + 1 < len(rows):
                    out.append(rows[i + 1])
        out = out[:MAX_PER_CLAUSE]
    chunks = library.catalogue.passages(out) if out else []
    idx.operative[key] = chunks
    return chunks


def _dated(link: AmendmentLink) -> str:
    return f"dated {link.date}" if link.date else "undated"


def _operative_note(link: AmendmentLink, written: str) -> str:
    return f"operative text: {link.title} ({_dated(link)}) amends {written} of {link.base_title}"


def _superseded_note(link: AmendmentLink, written: str) -> str:
    return f"superseded in part: {written} was amended by {link.title} ({_dated(link)}); see the amendment's text"


def apply_versions(library: LibraryParts, passages: list[Passage], trace: dict[str, Any]) -> list[Passage]:
    """``passages`` with version precedence applied (see the module docstring): before each
    passage of a base agreement whose clause a linked amendment amends, that amendment's
    operative passage(s) (latest amendment first) with an ``"operative text: ..."`` note;
    on the base passage a ``"superseded in part: ..."`` note per amendment; an amendment's
    operative passage in the results gets its ``"operative text: ..."`` note too. The
    caller's passages are all kept (copied when noted; never mutated), and at most
    :data:`MAX_INSERTED` are added. ``trace["versions"]`` (set when a passage's agreement
    has links) records the links and what was done."""
    if not passages:
        return passages
    idx = version_index(library)
    if not idx.links:
        return passages
    docs = {p.doc_id for p in passages}
    if not any(d in idx.by_base or d in idx.links for d in docs):
        return passages
    pos = {p.chunk_id: i for i, p in enumerate(passages)}
    notes: dict[str, list[str]] = {}
    before: dict[int, list[str]] = {}  # base passage index -> operative chunk ids to put before it
    new: dict[str, Passage] = {}  # operative passages not in the caller's list
    placed: set[str] = set()  # operative chunk ids already given a base passage to precede
    applied: list[dict[str, Any]] = []

    def note(cid: str, text: str) -> None:
        lst = notes.setdefault(cid, [])
        if text not in lst:
            lst.append(text)

    for i, p in enumerate(passages):
        link_list = idx.by_base.get(p.doc_id)
        keys = passage_keys(p) if link_list else set()
        for link in link_list or ():  # latest first
            for written, ckeys in link.clauses:
                if not (ckeys & keys):
                    continue
                note(p.chunk_id, _superseded_note(link, written))
                op_ids: list[str] = []
                added: list[str] = []
                for c in operative_passages(library, idx, link, written):
                    if c.id not in pos and c.id not in new:
                        if len(new) >= MAX_INSERTED:
                            continue
                        new[c.id] = Passage.from_chunk(c, p.score, "version")
                        added.append(c.id)
                    op_ids.append(c.id)
                    note(c.id, _operative_note(link, written))
                    if c.id not in placed:
                        placed.add(c.id)
                        before.setdefault(i, []).append(c.id)
                applied.append({"passage": p.chunk_id, "clause": written, "amendment": link.amendment,
                                "amendment_date": link.date, "base": link.base, "operative": op_ids, "inserted": added})
    for p in passages:  # amendment passages in the results that amend a clause of their base
        own = idx.links.get(p.doc_id)
        if own is None or p.chunk_id in notes:
            continue
        for written, _ in own.clauses:
            if any(c.id == p.chunk_id for c in operative_passages(library, idx, own, written)):
                note(p.chunk_id, _operative_note(own, written))
                applied.append({"passage": p.chunk_id, "clause": written, "amendment": own.amendment,
                                "amendment_date": own.date, "base": own.base, "operative": [p.chunk_id],
                                "inserted": []})
    trace["versions"] = {"links": _trace_links(idx, docs | {a["amendment"] for a in applied}), "applied": applied,
                         "inserted": len(new)}
    if not notes:
        return passages

    def noted(p: Passage) -> Passage:
        extra = [n for n in notes.get(p.chunk_id, []) if n not in p.notes]
        return p.model_copy(update={"notes": [*p.notes, *extra]}) if extra else p

    out: list[Passage] = []
    emitted: set[str] = set()
    for i, p in enumerate(passages):
        for cid in before.get(i, []):
            j = pos.get(cid)
            if cid in emitted or (j is not None and j < i):
                continue  # already placed earlier, before this base passage
            out.append(noted(passages[j]) if j is not None else noted(new[cid]))
            emitted.add(cid)
        if p.chunk_id not in emitted:
            out.append(noted(p))
            emitted.add(p.chunk_id)
    return out


def _trace_links(idx: VersionIndex, docs: set[str]) -> list[dict[str, Any]]:
    out = []
    for lk in idx.links.values():
        if lk.amendment in docs or lk.base in docs:
            out.append({"amendment": lk.amendment, "base": lk.base, "date": lk.date, "score": lk.score,
                        "evidence": list(lk.evidence), "clauses": [w for w, _ in lk.clauses]})
    for a, why in idx.unlinked.items():
        if a in docs:
            out.append({"amendment": a, "base": None, "reason": why})
    return out


__all__ = ["MAX_INSERTED", "AmendmentLink", "VersionIndex", "amended_clauses", "ancestors", "apply_versions",
           "build_index", "clause_keys", "links", "norm_party", "operative_passages", "passage_keys", "ref_pattern",
           "same_party", "split_base", "version_index"]
