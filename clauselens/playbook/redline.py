"""A redlined DOCX of a reviewed agreement (issue #44): Word tracked changes and comments.

Each position with preferred wording whose outcome is ``deviation`` becomes a tracked change: the
paragraphs that hold the quoted clause are deleted (every run wrapped in ``w:del``, its ``w:t``
renamed ``w:delText``) and the preferred wording is inserted after them as a new paragraph whose
run is wrapped in ``w:ins`` (and whose paragraph mark is marked inserted, ``w:pPr/w:rPr/w:ins``).
A ``missing`` position with preferred wording is inserted the same way at the end of the document.
Every change carries ``w:id``, ``w:author`` and ``w:date`` and a Word comment (python-docx's
comments part) that quotes the position: its id, severity, topic, rule and what the review found.

The revision elements follow ECMA-376 Part 1, §17.13.5 "Revisions": ``ins`` (inserted run content
and, inside ``w:rPr`` of a paragraph's properties, an inserted paragraph mark) and ``del`` (deleted
run content, whose text is ``w:delText``), each with the ``w:id``, ``w:author`` and ``w:date``
attributes; comments are §17.13.4 (``commentRangeStart`` / ``commentRangeEnd`` /
``commentReference`` and the comments part), written by python-docx (>= 1.2). No maintained PyPI
library writes tracked changes offline on top of python-docx, so the elements are built with python-docx's ``oxml`` helpers.

From a DOCX input the document itself is edited (a copy); from PDF or text input the redline is a
DOCX of the text, one paragraph per clause passage. The quoted clause is found by its words (whitespace
normalised); a clause that cannot be located is inserted at the end with a comment saying so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from clauselens.errors import ConfigError
from clauselens.playbook.model import Playbook
from clauselens.playbook.review import AgreementReview, PositionResult

AUTHOR = "clauselens playbook"
_FIRST_ID = 9000  # revision ids: above any a typical document already uses


@dataclass
class Change:
    """One tracked change made: which position, what kind (replace / insert), located or not."""

    position_id: str
    kind: str  # "replace" (w:del + w:ins) or "insert" (w:ins)
    located: bool
    paragraphs: int


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w$%]+", " ", text.lower()).split())


def text_docx(text: str, cuts: Sequence[int] = ()) -> Any:
    """A python-docx document of ``text``: one paragraph per segment between ``cuts`` (character
    offsets: the clauses' starts and ends, so a clause is its own paragraph), or per line when no
    cuts are given; line breaks inside a segment are kept as breaks."""
    import docx

    d = docx.Document()
    if cuts:
        bounds = sorted({0, len(text), *(c for c in cuts if 0 <= c <= len(text))})
        segments = [text[a:b] for a, b in zip(bounds, bounds[1:])]
    else:
        segments = text.splitlines()
    for seg in segments:
        lines = [" ".join(x.split()) for x in seg.strip().splitlines() if x.strip()]
        if lines:
            d.add_paragraph("\n".join(lines))
    return d


def locate(paragraphs: Sequence[str], quote: str) -> tuple[int, int] | None:
    """The ``[first, last]`` paragraph indices that hold ``quote`` (by its normalised words), or None."""
    spans: list[tuple[int, int]] = []
    joined = ""
    for t in paragraphs:
        n = _norm(t)
        spans.append((len(joined), len(joined) + len(n)))
        joined += n + " "
    q = _norm(quote)
    if not q:
        return None
    head, tail = q[:80], q[-80:]
    a = joined.find(head)
    if a < 0:
        return None
    b = joined.find(tail, a)
    b = b + len(tail) if b >= 0 else a + len(head)
    first = next(i for i, (s, e) in enumerate(spans) if e > a)
    last = next((i for i, (s, e) in enumerate(spans) if e >= b), len(spans) - 1)
    return first, max(first, last)


class _Revisions:
    def __init__(self, date: str) -> None:
        self.next_id = _FIRST_ID
        self.date = date

    def mark(self, tag: str) -> Any:
        from docx.oxml import OxmlElement
        from docx.oxml.ns import qn

        el = OxmlElement(tag)
        el.set(qn("w:id"), str(self.next_id))
        el.set(qn("w:author"), AUTHOR)
        el.set(qn("w:date"), self.date)
        self.next_id += 1
        return el

    def delete_runs(self, paragraph: Any) -> int:
        """Wrap every direct run of ``paragraph`` (not a comment reference) in ``w:del``."""
        from docx.oxml.ns import qn

        n = 0
        for r in list(paragraph._p.iterchildren(qn("w:r"))):
            if r.find(qn("w:commentReference")) is not None:
                continue
            for t in r.iterchildren(qn("w:t")):
                t.tag = qn("w:delText")
            for t in r.iterchildren(qn("w:instrText")):
                t.tag = qn("w:delInstrText")
            wrap = self.mark("w:del")
            r.addprevious(wrap)
            wrap.append(r)
            n += 1
        return n

    def insert_paragraph_after(self, anchor: Any, text: str) -> Any:
        """A new paragraph after ``anchor`` (a python-docx paragraph; None: at the body's end),
        one run of ``text`` in ``w:ins``, its paragraph mark inserted too. Returns (paragraph, run)."""
        from docx.oxml import OxmlElement
        from docx.text.paragraph import Paragraph

        p = OxmlElement("w:p")
        anchor._p.addnext(p)
        para = Paragraph(p, anchor._parent)
        run = para.add_run(text)
        ppr = p.get_or_add_pPr()
        rpr = OxmlElement("w:rPr")
        rpr.append(self.mark("w:ins"))
        ppr.append(rpr)
        return para, run

    def wrap_insert(self, run: Any) -> None:
        wrap = self.mark("w:ins")
        run._r.addprevious(wrap)
        wrap.append(run._r)


def _comment_text(r: PositionResult, located: bool) -> str:
    found = r.value or r.why
    s = f"Playbook position {r.position_id} ({r.severity}): {r.topic} Requires: {r.rule}. Found: {r.outcome}" + \
        (f" — {found}" if found else "") + "."
    if not located:
        s += " The quoted clause could not be located in this document; the preferred wording is added at the end."
    return s


def redline(doc: Any, review: AgreementReview, playbook: Playbook, *, date: str | None = None) -> list[Change]:
    """Apply the review's changes to the python-docx ``doc`` in place (see the module docstring)."""
    revs = _Revisions(date or datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    changes: list[Change] = []
    for r in review.results:
        if not r.preferred or r.outcome not in ("deviation", "missing"):
            continue
        paras = doc.paragraphs
        span = locate([p.text for p in paras], r.quotes[0].text) if r.outcome == "deviation" and r.quotes else None
        if span is not None:
            first, last = span
            targets = [p for p in paras[first: last + 1] if p.runs]
            if targets:
                doc.add_comment([targets[0].runs[0], targets[-1].runs[-1]], text=_comment_text(r, True), author=AUTHOR,
                                initials="CL")
                for p in targets:
                    revs.delete_runs(p)
                _, run = revs.insert_paragraph_after(targets[-1], r.preferred)
                revs.wrap_insert(run)
                changes.append(Change(r.position_id, "replace", True, len(targets)))
                continue
        anchor = doc.paragraphs[-1] if doc.paragraphs else doc.add_paragraph("")
        _, run = revs.insert_paragraph_after(anchor, r.preferred)
        doc.add_comment(run, text=_comment_text(r, r.outcome == "missing"), author=AUTHOR, initials="CL")
        revs.wrap_insert(run)
        changes.append(Change(r.position_id, "insert", r.outcome == "missing", 0))
    return changes


def write_redline(out: Path, review: AgreementReview, playbook: Playbook, *, source_path: str = "",
                  text: str = "", cuts: Sequence[int] = ()) -> list[Change]:
    """Write the redlined DOCX of one agreement to ``out``: the source edited when it is a DOCX,
    else a DOCX of ``text`` (the parsed document's text) cut at ``cuts`` (see :func:`text_docx`)."""
    import docx

    src = Path(source_path) if source_path else None
    if src is not None and src.is_file() and src.read_bytes()[:2] == b"PK" and src.suffix.lower() in (".docx", ".docm"):
        try:
            d = docx.Document(str(src))
        except Exception as e:  # noqa: BLE001 - python-docx raises several kinds on a damaged file
            raise ConfigError(f"cannot open {src.name} as a Word document for the redline: {e}") from None
    else:
        d = text_docx(text, cuts)
    changes = redline(d, review, playbook)
    try:
        d.save(str(out))
    except OSError as e:
        raise ConfigError(f"cannot write the redline {out}: {e.strerror or e}") from None
    return changes


__all__ = ["AUTHOR", "Change", "locate", "redline", "text_docx", "write_redline"]
