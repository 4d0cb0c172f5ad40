"""Party cells of a grid (issue #45): a question for all the parties or for one party by its side of the bargain, answered by
rule from the preamble's defined terms (:func:`clauselens.grid.roles.role_party`) or from what the agreement makes each party do
(:func:`clauselens.grid.roles.role_by_conduct`), quoting the sentence that names the answer. Split from
:mod:`clauselens.grid.rule` (the rule's other cells); no model.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from clauselens.grid.answer import source_link
from clauselens.grid.cells import Cell
from clauselens.grid.extract import sentence_units
from clauselens.grid.questions import GridQuestion
from clauselens.grid.values import check_value, name_tokens
from clauselens.reports.verify import find_quote
from clauselens.retrieval.types import Passage

#: A party question that asks for all the parties ("who are the parties", "which companies signed"), not one
#: of them by its role ("which side supplies ...", "who is the licensor").
_ALL_PARTIES = re.compile(r"\b(parties|partys|signator\w*|signees?|signed|sign|companies|entities|businesses|firms|organi[sz]ations|"
                          r"who\s+(?:are|is)\s+in|involved|(?:each|both|either|the\s+two|all\s+the|two)\s+sides?|sides|"
                          r"(?:the\s+)?(?:two|both)\s+(?:of\s+)?(?:them|players|names))\b", re.IGNORECASE)  # "Who are the two sides?"


#: A question for one of them: "which company is the one actually providing things", "who is the one paying".
_ONE_OF_THEM = re.compile(r"\bwhich\s+(?:company|party|side|one|business|firm|entity|organi[sz]ation)\b(?!\s+(?:are|were)\b)|"
                          r"\bthe\s+one\s+(?:that|who|which|actually|doing|providing|paying|getting|selling|buying)\b", re.IGNORECASE)


def asks_all_parties(question: str) -> bool:
    """Does a party question ask for the list of parties (the preamble's), not one party's role? Not when it asks which one of
    them is on a side ("I'm getting the names mixed up because there are a few companies mentioned in here - which company is the
    one actually providing things?": a keyed dev set's three cells answered with both parties)."""
    from clauselens.grid.roles import asked_side

    if _ONE_OF_THEM.search(question) and asked_side(question):
        return False
    return bool(_ALL_PARTIES.search(question))


def opening_passages(passages: Sequence[Passage]) -> list[Passage]:
    """The opening passages up to the preamble reader's reach (:data:`clauselens.parsing.parties.ALIAS_CHARS`; a title page and
    a contents list may come first)."""
    from clauselens.parsing.parties import ALIAS_CHARS

    front: list[Passage] = []
    read = 0
    for p in passages:
        if read >= ALIAS_CHARS:
            break
        front.append(p)
        read += len(p.text)
    return front


def role_cell(base: dict[str, Any], q: GridQuestion, passages: Sequence[Passage]) -> Cell | None:
    """A party question about one party's role answered from the preamble's defined terms
    (:func:`clauselens.grid.roles.role_party`), quoting the sentence that defines that party; None when the
    terms do not decide it."""
    from clauselens.grid.roles import role_party

    front = opening_passages(passages)
    got = role_party(q.question, "\n".join(p.text for p in front))
    if got is None:
        return conduct_cell(base, q, passages, front)
    said = (f"read by rule: the preamble defines {got.name} as \"{got.role}\"" + (f" and the other party as \"{got.other}\"" if got.other
            else "") + f", the {got.side} side the question asks about (no model)")
    for p in front:
        units = sentence_units(p.text)
        # the sentence that defines the role, or it with the one before ("FLEXTRONICS ISRAEL LTD. with a principal place of
        # business at ..., Israel. Hereinafter referred to as "Contractor."": the name and its role in two sentences)
        # ... or up to seven before it ("AND:" / "DR." / "GAETANO MORELLO N.D." / "INC., Businessperson, ..." / "(the "Contractor")")
        spans = [u for k, u in enumerate(units) for u in ([u] + [(units[k - j][0], u[1]) for j in range(1, min(k, 7) + 1)])]
        for s, e in spans:
            sent = p.text[s:e]
            if got.role in sent and name_tokens(got.name) & name_tokens(sent) and (not got.other or got.other in sent):
                cell = quoted_cell(base, p, s, e, got.name, said)
                if cell is not None and not check_value("party", got.name, cell.quote).reason:
                    return cell
    return None


def conduct_cell(base: dict[str, Any], q: GridQuestion, passages: Sequence[Passage], front: Sequence[Passage]) -> Cell | None:
    """A party question about one party's role that the preamble's defined terms leave open, answered from what the
    agreement makes each party do (:func:`clauselens.grid.roles.role_by_conduct`), quoting that sentence; else None
    (``front``: :func:`opening_passages`)."""
    from clauselens.grid.roles import role_by_conduct

    got = role_by_conduct(q.question, "\n".join(p.text for p in front), [p.text for p in passages])
    if got is None:
        return None
    party, evidence = got
    who = "this party" if party.side == "provider" else "the other party"
    said = (f"read by rule: weighing what the agreement's sentences make each party do (supply, provide or grant; pay, buy or "
            f"order), {who} is the one that provides")
    # the quote: the evidence when it names the answer, else the preamble sentence that gives the answer its defined term
    # (the evidence then named in the reason: "DD agrees to provide ...")
    found: list[Cell | None] = []
    names_it = bool(name_tokens(party.name) & name_tokens(evidence))
    for p in passages:
        at = p.text.find(evidence) if names_it else -1
        if at >= 0:
            found.append(quoted_cell(base, p, at, at + len(evidence), party.name,
                                     f"{said}, the {party.side} side the question asks about (no model)"))
    for p in front:
        for s, e in sentence_units(p.text):
            sent = p.text[s:e]
            if not party.role and name_tokens(party.name) and name_tokens(party.name) <= name_tokens(sent):
                # no defined term: the preamble sentence that names it ("... by and between VITALIBIS INC and VOTOCAST, Inc.")
                found.append(quoted_cell(base, p, s, e, party.name, f"{said} (\"{' '.join(evidence.split())[:160]}\"), the {party.side} "
                                                                 "side the question asks about; the preamble names it (no model)"))
            if party.role and party.role in sent and name_tokens(party.name) & name_tokens(sent):
                found.append(quoted_cell(base, p, s, e, party.name, f"{said} (\"{' '.join(evidence.split())[:160]}\"), the {party.side} "
                                                                 f"side the question asks about; the preamble names it {party.role} (no model)"))
    return next((c for c in found if c is not None and not check_value("party", party.name, c.quote).reason), None)


def quoted_cell(base: dict[str, Any], p: Passage, start: int, end: int, answer: str, reason: str) -> Cell | None:
    """The answered cell quoting ``p.text[start:end]`` (verbatim in its passage), else ``None``."""
    m = find_quote(p.text[start:end], p.chunk_id, p)
    if m is None:
        return None
    return Cell(**base, status="answered", answer=answer, quote=" ".join(m.text.split()), clause=p.clause_ref or "",
                page=p.page_start, link=source_link(p.source_path or base.get("source_path", ""), p.page_start),
                quote_spans=[[s.start, s.end] for s in m.doc_spans], top_spans=[[s.start, s.end] for s in p.spans], reason=reason)


__all__ = ["asks_all_parties", "conduct_cell", "opening_passages", "quoted_cell", "role_cell"]
