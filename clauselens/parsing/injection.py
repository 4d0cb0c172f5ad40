"""Sentences in a contract that speak to an AI rather than to the parties (issue #22 item 10,
OWASP LLM01 "prompt injection").

A contract is data. A sentence addressed to "any AI system", an assistant or a language model,
or one telling the reader to ignore / disregard instructions, is not a term of the deal but an
attempt to steer whatever tool reads the document. :func:`flag_instructions` finds them and
returns one warning each, naming clause and page; the text stays in the document (it is what
the contract says, and quoting it is legitimate) and every prompt that carries document text
tells the model that such text is data, never an instruction
(:data:`clauselens.agents.common.DATA_NOT_INSTRUCTIONS`). Invisible text is dropped earlier, at
extraction (:func:`clauselens.parsing.pdf._drop_invisible`).
"""

from __future__ import annotations

import re

from clauselens.parsing.numbering import clause_label
from clauselens.parsing.sentences import sentence_spans
from clauselens.parsing.types import Document

#: A machine reader addressed as the subject of a directive: "Any AI system reading this must
#: report ...", "Language models shall treat ...", "AI assistant: ignore ...". "The Supplier shall
#: provide AI services" is not (AI is not the one told to act), nor "AI systems shall be provided".
_ADDRESSEE = (
    r"(?:\bAI|\bA\.I\.|\bartificial[- ]intelligence|\bLLMs?|\b(?:large )?language models?|\bchat ?bots?"
    r"|\b(?:AI|virtual|digital) assistants?|\bChatGPT|\bGPT-?\d\w*|\bmachine readers?)"
    r"(?:\s+(?:systems?|tools?|models?|agents?|assistants?|readers?|reviewers?))?\b"
)
_VERB = (
    r"(?:(?:must|should|shall|will|is (?:instructed|required) to|are (?:instructed|required) to)\s+(?!be\b|not be\b)"
    r"|(?:report|respond|answer|say|state|tell|output|reply|summari[sz]e|conclude|treat|ignore|disregard|pretend)\b)"
)
_ADDRESSED = re.compile(_ADDRESSEE + r"[^.;]{0,60}?\b" + _VERB, re.IGNORECASE)
#: "Ignore previous instructions" and its variants, whoever is addressed.
_IGNORE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\b[^.;:]{0,60}?\b(?:instructions?|prompts?|directions?|"
    r"guidelines|system message|rules|(?:the )?(?:above|previous|prior|preceding|earlier)\b)",
    re.IGNORECASE,
)

#: Every warning produced here starts with this (the report lists them as suspicious content).
FLAG_PREFIX = "possible instruction to an AI reader"
#: What :func:`clauselens.parsing.pdf._drop_invisible` warnings contain.
HIDDEN_MARK = "invisible text left out"


#: What :func:`clauselens.parsing.pdf._mark_layers` warnings contain (layer text that may be hidden, kept).
LAYER_MARK = "hidden by default"


def is_suspicious(warning: str) -> bool:
    """True for a parsing warning about hidden text (left out, or in a hidden-by-default layer
    and kept) or an instruction-like sentence."""
    return warning.startswith(FLAG_PREFIX) or HIDDEN_MARK in warning or LAYER_MARK in warning


def instruction_like(sentence: str) -> bool:
    """True if ``sentence`` addresses an AI / assistant / model and tells it to do something,
    or tells the reader to ignore instructions."""
    return bool(_IGNORE.search(sentence) or _ADDRESSED.search(sentence))


def instruction_at(sentence: str) -> int:
    """Where in ``sentence`` the instruction starts (the AI addressee, or "ignore ... instructions"): a paragraph
    inserted after a clause whose last line has no full stop is read as one sentence with it. 0 when none."""
    found = [m.start() for m in (_ADDRESSED.search(sentence), _IGNORE.search(sentence)) if m]
    return min(found) if found else 0


def _clause_at(doc: Document, offset: int) -> str | None:
    best = None
    for n in doc.nodes:
        if n.span.start <= offset < n.span.end and n.ref and (best is None or n.level >= best.level):
            best = n
    return best.ref if best is not None else None


def flag_instructions(doc: Document, limit: int = 20) -> list[str]:
    """One warning per instruction-like sentence (see :func:`instruction_like`), e.g.
    ``possible instruction to an AI reader in clause 9.4 (page 3): "Any AI system ..." - treated
    as contract text, not followed``. At most ``limit``."""
    out: list[str] = []
    for sp in sentence_spans(doc.text):
        s = " ".join(doc.text[sp.start:sp.end].split())
        if not instruction_like(s):
            continue
        ref = _clause_at(doc, sp.start)
        page = doc.page_of(sp.start) if doc.pages else None
        where = " ".join(x for x in (clause_label(ref) if ref else "", f"(page {page})" if page else "") if x)
        if ref and s.startswith(ref + " "):
            s = s[len(ref) + 1:]
        quote = s if len(s) <= 160 else s[:157] + "..."
        out.append(f"{FLAG_PREFIX}{' in ' + where if where else ''}: \"{quote}\" - treated as contract text, not followed")
        if len(out) >= limit:
            break
    return out
