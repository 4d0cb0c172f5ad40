"""The Interrogator's extractive answer to "how is 'X' defined" (issue #17, "Done when").

A definition is text to be quoted, not paraphrased: when every sub-question asks what a
defined term means and the Researcher's passages hold that term's definition -- the term in
quotation marks followed by a defining verb (``"Product" means ...``, ``"Territory" shall
have the meaning ...``) or closing the parenthesis that introduces it (``... bromelain-based
debridement products (the "Product")``) -- the draft is built from those sentences without a
model call: one finding per agreement (at most :data:`MAX_DEFINITIONS`), each quoting the
definition verbatim, so the report's quote verification and support check see the source's
own words. Seen before: the default 1.5B model, given the definition of "Product" in the
MediWound supply agreement, summarised it as "an Intermediate Drug Product ... in the first
paragraph" (wrong) and spent three research rounds (16 minutes on 2 cores) judging its own
draft incomplete. Questions that ask anything more than a definition go to the model as before.

When the definition's body is a list (``c) "Force Majeure" means`` / ``i) An Act of God;`` /
``ii) A strike ...``), the passage defining the term stops where the body begins -- a library
passage is one clause body up to its first sub-clause -- so its quote alone says nothing of what
the term means. The list *is* the definition: the library's exact field retrieves the sub-clauses
it continues into (:func:`clauselens.library.passages.definition_list`), and the draft quotes
them in further findings, one verbatim piece per list item with its own citation (the report's
verification extends each piece to the item's end), and puts the list in the answer. Only a list
that could not be quoted (not retrieved, no finding left, an item too short to cite on its own)
is left to a knowledge-gap line saying the definition goes on.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from clauselens.library.library import defined_term_candidates, term_variants
from clauselens.library.passages import OPEN_END, definition_list, find_definition, ref_key, ref_key_groups
from clauselens.parsing.numbering import clause_label
from clauselens.reports.build import GAP_UNADDRESSED, finalize_support, strip_mark
from clauselens.reports.model import DraftFinding, Report, ReportDraft
from clauselens.reports.verify import MIN_PIECE_WORDS, split_quote
from clauselens.retrieval.types import Passage

#: Most agreements whose definition one report quotes (the draft's finding cap).
MAX_DEFINITIONS = 3
#: Longest quote taken from a definition (the draft's quote cap); longer definitions are cut at
#: a word boundary and the report's verification extends the quote to its clause boundary.
QUOTE_CHARS = 300
#: Characters of a list item's opening words quoted for it (at least :data:`MIN_PIECE_WORDS`
#: words); the report's verification extends the piece to the item's end.
PIECE_CHARS = 80
#: A list item that ends like this is not the list's last ("... authority;", "...; or"): when the
#: last item quoted ends so, the list goes on (a later item was not retrieved, or the cap cut it).
_ITEM_GOES_ON = re.compile(r"(?:[;,:]|\b(?:and|or))\s*$", re.IGNORECASE)
#: A clause number or list marker just before a definition ("1.27 ", "c)     ", "(iv) ").
_MARKER_BEFORE = re.compile(r"(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|\([0-9]{1,3}\))\s*$", re.IGNORECASE)
#: The next definition in a list of them: a line or a number opening with a quoted capitalised term.
_NEXT_DEFINITION = re.compile(r"(?:\n\s*|\s\d+(?:\.\d+)+\s+|\n\s*\(?[a-z0-9]{1,4}\)\s*)[\"“][A-Z]")


def _definition_at(text: str, term: str) -> tuple[int, int, bool] | None:
    """``(start, end, parenthetical)`` in ``text`` of the definition of ``term`` (found by the
    library's rules, :func:`~clauselens.library.passages.find_definition`), or ``None``: from
    the term (with its clause number) to the sentence end or the next definition for
    ``"X" means ...``; the sentence up to the closing parenthesis for ``... (the "X")``."""
    found = find_definition(text, term)
    if found is None:
        return None
    at, after, means = found
    if means:
        start = at
        marker = _MARKER_BEFORE.search(text, max(0, start - 12), start)
        if marker is not None:
            start = marker.start()
        ends = [i + 1 for i in (text.find(". ", after), text.find(".\n", after)) if i >= 0]
        nxt = _NEXT_DEFINITION.search(text, after)
        if nxt is not None:
            ends.append(nxt.start())
        if text.endswith("."):
            ends.append(len(text))
        return start, min(ends, default=len(text)), False
    starts = [i + len(sep) for sep in (". ", "; ", "\n") if (i := text.rfind(sep, 0, at)) >= 0]
    start = max(starts, default=0)
    lead = re.match(r"\s*(?:and|or)\s+(?=whereas\b)", text[start:at], re.IGNORECASE)  # "; and\nWhereas, CBC ..."
    return start + (lead.end() if lead else 0), after, True


#: Words that ask what a term means (a narrower cue than the library's: "count as" in a sentence
#: naming a clause asks what the clause provides).
_ASKS_MEANING = re.compile(r"\b(?:defin\w*|mean(?:s|t|ing)?|stands?\s+for|refers?\s+to)\b|^\s*what\s+counts\s+as\b",
                           re.IGNORECASE)


#: The clause number printed at the head of a quoted definition ("1.27 "Minimum Order ..."", "7. "Term"").
_PRINTED_REF = re.compile(r"\s*(\d+(?:\.\d+)+|\d+(?=\.\s))\.?\s")


def _ref(quote: str, p: Passage) -> str | None:
    """The clause number to name for a definition quoted from passage ``p``: the number the agreement
    prints at the head of the quote when it has one, else the passage's. The clause tree can miss a
    boundary in a run of definitions (issue #19's held-out run: "1.27 "Minimum Order Requirements"
    ..." inside the passage of 1.26, "1.6 "Territory"" under 1.5), and the report must not name the
    wrong clause beside a right quote."""
    m = _PRINTED_REF.match(quote)
    return m.group(1) if m else p.clause_ref


def _cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def _list_after(pid: str, passages: Mapping[str, Passage], term: str) -> list[tuple[str, str]]:
    """``(passage id, list text)`` of the retrieved passages that continue the definition of
    ``term`` in passage ``pid`` (:func:`~clauselens.library.passages.definition_list` over the
    agreement's retrieved passages in document order); empty when it does not end open."""
    doc = passages[pid].doc_id
    same = sorted(((i, q) for i, q in passages.items() if q.doc_id == doc and q.spans),
                  key=lambda x: (x[1].spans[0].start, x[1].spans[-1].end))
    ids = [i for i, _ in same]
    if pid not in ids:
        return []
    return [(ids[j], same[j][1].text[:end]) for j, end in definition_list([q for _, q in same], ids.index(pid), term)]


def _list_quotes(items: Sequence[tuple[str, str]], slots: int) -> tuple[list[tuple[list[str], str]], list[str], bool]:
    """The list packed into at most ``slots`` finding quotes: each item's opening words
    (:data:`PIECE_CHARS`) joined by " … " up to the draft's quote cap, a finding citing at most
    its passage-id cap. Returns ``(quotes as (passage ids, quote), the items quoted, whole)``;
    ``whole`` is False when items are left out (no finding left, or an item of fewer than
    :data:`MIN_PIECE_WORDS` words, which the report cannot cite on its own: the list stops there)
    or the last item quoted does not end the list (:data:`_ITEM_GOES_ON`). Text with no letters
    (a page number inside the passage) is skipped."""
    quote_cap, ids_cap = DraftFinding.str_caps["quote"], DraftFinding.caps["passage_ids"]
    quotes: list[tuple[list[str], str]] = []
    pieces: list[str] = []
    pids: list[str] = []
    taken: list[str] = []
    whole = True
    for pid, text in items:
        for item in split_quote(text):
            words = item.split()
            if not any(ch.isalpha() for ch in item):
                continue
            if len(words) < MIN_PIECE_WORDS:
                whole = False
                break
            piece = _cut(" ".join(words), PIECE_CHARS)
            if len(piece.split()) < MIN_PIECE_WORDS:
                piece = " ".join(words[:MIN_PIECE_WORDS])
            ids = pids if pid in pids else [*pids, pid]
            if pieces and (len(" … ".join([*pieces, piece])) > quote_cap or len(ids) > ids_cap):
                quotes.append((pids, " … ".join(pieces)))
                pieces, ids = [], [pid]
            if not pieces and len(quotes) >= slots:
                whole = False
                break
            pieces.append(piece)
            pids = ids
            taken.append(" ".join(words))
        if not whole:
            break
    if pieces:
        quotes.append((pids, " … ".join(pieces)))
    return quotes, taken, whole and not (taken and _ITEM_GOES_ON.search(taken[-1]))


def asked_term(question: str, sub_questions: Sequence[str] = ()) -> str | None:
    """The defined term when the question, and every sub-question, asks only what it means."""
    from clauselens.retrieval.analyzer import clause_refs_in

    terms = defined_term_candidates(question)
    if not terms or clause_refs_in(question) or not _ASKS_MEANING.search(question):
        return None  # "Under paragraph 11.3(f) ..., when does incapacity count as Cause?" asks about a clause
    for s in sub_questions:
        if s.strip() and not defined_term_candidates(s):
            return None
    if re.search(r"\b(?:and|also)\s+(?:what|how|when|who|whether|which|can|does|is|are|must)\b", question, re.IGNORECASE):
        return None  # "How is 'X' defined and what must the buyer do?": more than a definition
    return terms[0]


#: A definition that points to the clause giving the meaning ("has the meaning given in Section 9", "shall have
#: the meaning set forth in Schedule 3"): issue #38 asks to follow the chain and quote both.
_MEANING_IN = re.compile(
    r"\bmeaning\s+(?:given|set\s+(?:forth|out)|ascribed|assigned|specified|provided|defined)\b[^.;\"“]{0,40}?\b(?:in|under)\s+"
    r"((?:section|clause|article|paragraph|schedule|exhibit|annex|appendix)s?\s+[0-9IVXLC]+(?:\.\d+)*(?:\s?\([a-z0-9]{1,4}\))*)",
    re.IGNORECASE)


def chained_refs(quote: str) -> list[str]:
    """The clauses a definition's quote sends the reader to for its meaning ("Section 9"), in order."""
    return list(dict.fromkeys(m.group(1) for m in _MEANING_IN.finditer(quote)))


def _chain_findings(found: Mapping[str, tuple[str, str, str, Passage]], passages: Mapping[str, Passage],
                    label: Mapping[str, str], room: int) -> tuple[list[DraftFinding], list[str]]:
    """For each definition that gives its meaning by reference, the referred clause quoted from the
    agreement's retrieved passages (at most ``room`` findings), and the references not among them."""
    out: list[DraftFinding] = []
    missing: list[str] = []
    for doc_id, (_pid, v, quote, _p) in found.items():
        for ref in chained_refs(quote):
            keys = {k for g in ref_key_groups(ref) for k in g}
            hit = next((q for _i, q in sorted(passages.items()) if q.doc_id == doc_id and (ref_key(q.clause_ref) or "") in keys), None)
            if hit is None:
                missing.append(ref)
            elif len(out) < room:
                out.append(DraftFinding(statement=_cut(f'{label[doc_id]} gives the meaning of "{v}" in {ref}, to which its '
                                                       "definition refers.", 280),
                                        passage_ids=[next(i for i, q in passages.items() if q is hit)],
                                        quote=_cut(hit.text.strip(), QUOTE_CHARS)))
    return out, missing


def definition_draft(question: str, passages: Mapping[str, Passage], *, sub_questions: Sequence[str] = (),
                     documents: Sequence[Mapping[str, Any]] | None = None) -> ReportDraft | None:
    """An extractive :class:`ReportDraft` quoting the definition of the term ``question`` asks
    about, one finding per agreement; ``None`` when the question asks more than a definition or
    no passage defines the term (the model drafts then)."""
    term = asked_term(question, sub_questions)
    if term is None:
        return None
    variants = [v for c in defined_term_candidates(question) for v in term_variants(c)]
    names = {str(d.get("doc_id")): str(d.get("title") or d.get("doc_id")) for d in documents or [] if d.get("doc_id")}

    def order(pid: str) -> tuple[int, str]:
        return (int(pid[1:]) if pid[1:].isdigit() else 10**6, pid)

    found: dict[str, tuple[str, str, str, Passage]] = {}  # doc id -> (pid, variant, quote, passage)
    tail_first: dict[str, bool] = {}  # the definition ends the quote: ... (the "Product")
    for pid in sorted(passages, key=order):
        p = passages[pid]
        if p.doc_id in found:
            continue
        for v in variants:
            at = _definition_at(p.text, v)
            if at is not None:
                start, end, parenthetical = at
                if parenthetical and end - start > QUOTE_CHARS:  # keep the end, where the term is introduced
                    head = p.text[end - QUOTE_CHARS:end]
                    quote = head[head.find(" ") + 1:] if " " in head else head
                else:
                    quote = _cut(p.text[start:end], QUOTE_CHARS)
                found[p.doc_id] = (pid, v, quote.strip(), p)
                tail_first[p.doc_id] = parenthetical
                break
        if len(found) >= MAX_DEFINITIONS:
            break
    if not found:
        return None
    findings, answers = [], []
    label = {d: names.get(d) or p.doc_title or d for d, (_, _, _, p) in found.items()}
    dup = {n for n in label.values() if list(label.values()).count(n) > 1}
    for d, (_, _, _, p) in found.items():  # two agreements titled "SUPPLY AGREEMENT": add the file name
        if label[d] in dup and p.source_path:
            label[d] = f"{label[d]} ({p.source_path.replace(chr(92), '/').rsplit('/', 1)[-1]})"
    refs = {d: _ref(quote, p) for d, (_, _, quote, p) in found.items()}
    for doc_id, (pid, v, quote, p) in found.items():
        name = label[doc_id]
        ref = refs[doc_id]
        where = clause_label(ref) if ref else (
            "a recital" if re.match(r"\W*(?:and\s+)?whereas\b", quote, re.IGNORECASE)
            else f"page {p.page_start}" if p.page_start else "its text")
        findings.append(DraftFinding(statement=_cut(f'{name} defines "{v}" in {where}.', 280), passage_ids=[pid],
                                     quote=quote))
        answers.append((f"{name} ({where})", quote, tail_first[doc_id]))
    # a definition that stops where its body begins: quote the list it continues into (the list is the definition)
    lists: dict[str, bool] = {}  # doc id -> the whole list was quoted
    for i, (doc_id, (pid, v, quote, p)) in enumerate(found.items()):
        items = _list_after(pid, passages, v) if OPEN_END.search(quote) else []
        quotes, taken, whole = _list_quotes(items, ReportDraft.caps["findings"] - len(findings))
        if not quotes:
            continue
        sub = p.clause_ref and all(passages[x].node_id != p.node_id for x, _ in items)
        place = f"the sub-clauses of {clause_label(refs[doc_id] or p.clause_ref or '')}" if sub else "the text that follows it"
        for n, (ids, q) in enumerate(quotes):
            findings.append(DraftFinding(
                statement=_cut(f'{label[doc_id]} continues the definition of "{v}" in {place}{" (continued)" if n else ""}.', 280),
                passage_ids=ids, quote=q))
        lists[doc_id] = whole
        h, q0, t = answers[i]
        answers[i] = (h, f"{q0} {' '.join(taken)}", t)
    chain, missing = _chain_findings(found, passages, label, ReportDraft.caps["findings"] - len(findings))
    findings += chain
    several = len(found) > 1
    gaps = [f'{GAP_UNADDRESSED} {n}: no definition of "{term}" among its retrieved passages'
            for d, n in names.items() if d not in found] if several or len(names) > 1 else []
    # each agreement's quote gets an equal share of the answer's 500 characters, cut at a word with "…"
    room = max(60, (480 - sum(len(h) + 6 for h, _, _ in answers)) // len(answers))

    def short(q: str, tail: bool) -> str:
        if len(q) <= room:
            return q
        if tail:
            end = q[-room:]
            return "… " + end[end.find(" ") + 1:]
        return _cut(q, room) + " …"

    open_ends = []
    for (h, q, _), (doc_id, (_pid, v, _quote, _p)) in zip(answers, found.items()):
        if lists.get(doc_id) is False:  # the list quoted in part
            open_ends.append(f'{h}: the list that defines "{v}" goes on after the items quoted here; read the rest in the agreement')
        elif doc_id not in lists and OPEN_END.search(q):  # "c) "Force Majeure" means" -- its list could not be quoted
            open_ends.append(f'{h}: the definition of "{v}" goes on after the quoted words (a list that follows '
                        f"{clause_label(r) if (r := refs[doc_id]) else 'it'}), which is not quoted here; read it in the agreement")
    answer = " ".join(f'{h}: "{short(q, t)}"' for h, q, t in answers)
    return ReportDraft(
        title=_cut(f'Definition of "{term}"', 100),
        topic_summary=_cut(f'How the agreement{"s" if several else ""} define{"" if several else "s"} "{term}".', 300),
        legal_reasoning=_cut("The definition is quoted from the agreement's own text (found by the defined-term field; "
                             "no model paraphrase)" + (", once per agreement that defines it." if several else ".")
                             + (" Where its body is a list in the sub-clauses that follow, the list is quoted item by item."
                                if lists else ""), 700),
        findings=findings, answer=answer, addressed=True,
        knowledge_gaps=(open_ends + [f'The definition gives the meaning by reference to {ref}, which is not among the '
                                     "retrieved passages (it may not be part of the filed text)" for ref in missing] + gaps)[:3],
        conclusion=_cut(f'"{term}" is defined as quoted above' + (f" in {len(found)} agreements." if several else "."), 450),
        # a meaning given by reference in a clause not retrieved yet: the Interrogator researches it once
        follow_up_questions=[f"What does {ref} say?" for ref in missing][:3],
    )


def definitions_supported(report: Report, passages: Mapping[str, Passage],
                          documents: Sequence[Mapping[str, Any]] | None = None) -> tuple[Report, list[dict[str, Any]]]:
    """The report of an extractive definition draft with each finding whose quote was verified
    marked ``supported`` by rule: its claim says only that the agreement defines the term at
    that place (or continues the definition there: the items of a list that is the definition's
    body), and the quote is that definition, verbatim. The model is not asked (seen: the
    1.5B model judged the MediWound recital "... known as Debridase (the "Product")"
    "contradicted" by the claim that the recital defines "Product", turning a correct, quoted
    answer into an "Unverified" one). Returns ``(report, support log)``."""
    findings, log = [], []
    for f in report.key_findings:  # the statement is clauselens' own location line ("<agreement> (clause 1.1):"), so
        # what the statement checks said of it (a "restated question", an "abbreviation" taken from a file-name
        # title) says nothing of the quote: a verified definition is supported whatever they found
        if f.grounded and f.citation_ids and f.support in ("unchecked", "unrelated"):
            f = f.model_copy(update={"support": "supported",
                                     "support_note": "rules: the quote is the agreement's own definition, verbatim"})
        findings.append(f)
        log.append({"statement": f.statement, "support": f.support, "note": f.support_note, "source": "rules"})
    changed = [a.support for a in report.key_findings] != [b.support for b in findings]
    # a mark the first check put on the rule-written answer ("Unverified ...") is re-decided from the new verdicts
    out = report.model_copy(update={"key_findings": findings, **({"answer": strip_mark(report.answer),
                                                                  "conclusion": strip_mark(report.conclusion)}
                                                                 if changed else {})})
    return finalize_support(out, passages, documents), log


__all__ = ["MAX_DEFINITIONS", "asked_term", "definition_draft", "definitions_supported"]
